package main

import (
	"strings"
	"testing"

	"github.com/kedit/kedit/kube/kubetest"
)

// TestSetAsksAboveTheLimit: a set of more objects than askAbove asks on
// the terminal before it opens anything; no is exit status 1 and nothing
// opened, yes opens the set.
func TestSetAsksAboveTheLimit(t *testing.T) {
	ns, flags := setEnv(t)
	for _, n := range []string{"a", "b", "c"} {
		kubetest.MustKubectl(t, "-n", ns, "create", "configmap", n, "--from-literal=foo=1")
	}
	defer func(n int) { askAbove = n }(askAbove)
	askAbove = 2
	args := append(append([]string(nil), flags...), "--exit-after-first-frame", "cm", "a", "b", "c")
	_, stderr, code := runKeditIn(t, "n\n", args...)
	if code != 1 || !strings.Contains(stderr, "kedit: cm a b c names 3 objects; open them all? (y/n) kedit: nothing opened") {
		t.Errorf("no: exit %d, stderr %q", code, stderr)
	}
	stdout, stderr, code := runKeditIn(t, "y\n", args...)
	if code != 0 || !strings.Contains(stdout, "set: cm a b c") {
		t.Errorf("yes: exit %d, stderr %q, stdout has the set: %v", code, stderr, strings.Contains(stdout, "set: cm a b c"))
	}
}

// TestRootRefusesBadSets: what cannot name a set is refused before
// anything is read, with exit status 1 and what is wrong.
func TestRootRefusesBadSets(t *testing.T) {
	_, flags := setEnv(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-A", "cm/a", "cm/b"}, "-A lists every namespace"},
		{[]string{"-A", "-f", "x.yaml"}, "-A lists every namespace"},
		{[]string{"cm", "a", "cm/b"}, `"cm/b" is not a name`},
		{[]string{"cm/a", "b"}, `"b" is not TYPE/NAME`},
		{[]string{"-l", "app=web"}, "-l selects objects of one TYPE"},
		{[]string{"-f", "/nonexistent.yaml"}, "-f /nonexistent.yaml"},
		{[]string{"-R", "cm/a", "cm/b"}, "-R reads the directories that -f names recursively: give -f DIR with it"},
	} {
		_, stderr, code := runKeditIn(t, "", append(append([]string(nil), flags...), tc.args...)...)
		if code != 1 || !strings.HasPrefix(stderr, "kedit: ") || !strings.Contains(stderr, tc.want) {
			t.Errorf("%q: exit %d, stderr %q; want 1 and %q", tc.args, code, stderr, tc.want)
		}
	}
}
