package main

import (
	"regexp"
	"strings"
	"testing"

	"github.com/kedit/kedit/kube/kubetest"
)

// The root command's wiring: help with --help (without arguments kedit
// opens the browser), and errors found before the UI starts go to stderr
// with exit status 1.
func TestRootHelp(t *testing.T) {
	stdout, _, code := runKedit(t, "--help")
	if code != 0 || !strings.Contains(stdout, "kedit [flags] [TYPE | TYPE/NAME... | TYPE NAME... | TYPE -l SELECTOR | -f FILE]") || !strings.Contains(stdout, "--strategy") {
		t.Errorf("exit %d, stdout %q: want the help with the flags", code, stdout)
	}
	for _, flag := range []string{"--allow-secret-drafts", "--auto-rebase", "--debug", "--kubeconfig", "--namespace", "-A, --all-namespaces", "--exit-after-first-frame"} {
		if !strings.Contains(stdout, flag) {
			t.Errorf("help does not list %s", flag)
		}
	}
}

func TestRootRefusesBadArguments(t *testing.T) {
	for _, args := range [][]string{
		{"--strategy", "merge", "configmap/testmap"},
		{"configmap/testmap", "extra"},
		{"configmap", "testmap", "cm/extra"},
		{"-A", "configmap/testmap"},
	} {
		_, stderr, code := runKedit(t, args...)
		if code != 1 || !strings.HasPrefix(stderr, "kedit: ") {
			t.Errorf("%q: exit %d, stderr %q; want 1 and a message", args, code, stderr)
		}
	}
}

// TestRootRefusesBeforeTheUI: what cannot be opened is said on the
// terminal with exit status 1, and no UI starts.
func TestRootRefusesBeforeTheUI(t *testing.T) {
	ns, flags := setEnv(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=1")
	viewer := []string{"--kubeconfig", kubetest.ViewerKubeconfig(t), "-n", ns}
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"missing object", append([]string{"configmap/nope"}, flags...), `configmaps/nope not found in namespace "` + ns + `", context "localcluster"`},
		{"unknown type", append([]string{"confgmap/testmap"}, flags...), `resource type "confgmap"; did you mean configmaps?`},
		{"forbidden", append([]string{"configmap/testmap"}, viewer...), `not allowed to get configmaps/testmap`},
		// kedit TYPE: the browser's errors, before its UI starts.
		{"browser: unknown type", append([]string{"confgmap"}, flags...), `resource type "confgmap"; did you mean configmaps?`},
		{"browser: not editable", append([]string{"cs"}, flags...), `componentstatuses cannot be edited: the server allows only get, list on it`},
		{"browser: forbidden list", append([]string{"cm"}, viewer...), `configmaps in namespace "` + ns + `" (context "localcluster"): configmaps is forbidden`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, code := runKedit(t, tc.args...)
			if code != 1 || !strings.Contains(stderr, tc.want) {
				t.Errorf("exit %d, stderr %q; want 1 and %q", code, stderr, tc.want)
			}
			if strings.HasPrefix(tc.name, "browser: forbidden") && !forbiddenVerb.MatchString(stderr) {
				t.Errorf("stderr %q does not name the verb refused", stderr)
			}
			if stdout != "" {
				t.Errorf("something was drawn: %q", stdout)
			}
		})
	}
}

// forbiddenVerb is how a refused list names its verb: the informer lists
// with a watch (watch-list), then falls back to a list; either may be the
// refusal said.
var forbiddenVerb = regexp.MustCompile(`kedit: not allowed to (list|watch) `)
