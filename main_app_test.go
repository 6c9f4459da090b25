package main

import (
	"strings"
	"testing"

	"github.com/kedit/kedit/kube/kubetest"
)

// The root command's wiring: help without arguments, and errors found
// before the UI starts go to stderr with exit status 1.
func TestRootWithoutArgsPrintsHelp(t *testing.T) {
	stdout, _, code := runKedit(t)
	if code != 0 || !strings.Contains(stdout, "kedit [flags] TYPE/NAME") || !strings.Contains(stdout, "--strategy") {
		t.Errorf("exit %d, stdout %q: want the help with the flags", code, stdout)
	}
	for _, flag := range []string{"--allow-secret-drafts", "--auto-rebase", "--debug", "--kubeconfig", "--namespace"} {
		if !strings.Contains(stdout, flag) {
			t.Errorf("help does not list %s", flag)
		}
	}
}

func TestRootRefusesBadArguments(t *testing.T) {
	for _, args := range [][]string{
		{"--strategy", "merge", "configmap/testmap"},
		{"configmap/testmap", "extra"},
		{"configmap"},
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
	} {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, code := runKedit(t, tc.args...)
			if code != 1 || !strings.Contains(stderr, tc.want) {
				t.Errorf("exit %d, stderr %q; want 1 and %q", code, stderr, tc.want)
			}
			if stdout != "" {
				t.Errorf("something was drawn: %q", stdout)
			}
		})
	}
}
