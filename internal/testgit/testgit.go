// Package testgit runs the real git for the tests that compare kedit with
// it or run kedit under it, with the user's and the system's git
// configuration (a merge.conflictStyle, say) kept out.
package testgit

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Env is the environment git runs in, in dir: no system or global
// configuration, and no repository above dir.
func Env(dir string) []string {
	return append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null",
		"GIT_CEILING_DIRECTORIES="+filepath.Dir(dir))
}

// Run runs git in dir and returns its stdout, stderr and exit status; the
// test fails only when git cannot be run at all.
func Run(t testing.TB, dir string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = Env(dir)
	var out, errOut strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatalf("git %s: %v", strings.Join(args, " "), err)
	}
	return out.String(), errOut.String(), cmd.ProcessState.ExitCode()
}
