package main

import (
	"strings"
	"testing"
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
