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

// Commit writes files (path in the repository: content) into a new git
// repository on branch main with one commit, and returns its directory.
func Commit(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for p, s := range files {
		fp := filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(fp), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(fp, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"config", "user.name", "t"}, {"config", "user.email", "t@t"}, {"add", "."}, {"commit", "-q", "-m", "manifests"}} {
		if _, errOut, code := Run(t, dir, args...); code != 0 {
			t.Fatalf("git %v: %s", args, errOut)
		}
	}
	return dir
}
