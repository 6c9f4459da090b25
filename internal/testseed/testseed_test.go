package testseed

import (
	"fmt"
	"os"
	"testing"
)

// unsetEnv removes KEDIT_SEED for the test (t.Setenv puts it back after).
func unsetEnv(t *testing.T) {
	t.Setenv(Env, "")
	os.Unsetenv(Env)
}

func TestEnvSetsTheSeed(t *testing.T) {
	t.Setenv(Env, "1234")
	if got := Fixed(t, 42); got != 1234 {
		t.Errorf("Fixed with %s=1234 = %d", Env, got)
	}
	if got := Seed(t); got != 1234 {
		t.Errorf("Seed with %s=1234 = %d", Env, got)
	}
	t.Setenv(Env, "0x10")
	if got := Seed(t); got != 16 {
		t.Errorf("Seed with %s=0x10 = %d", Env, got)
	}
}

func TestWithoutEnv(t *testing.T) {
	unsetEnv(t)
	if got := Fixed(t, 42); got != 42 {
		t.Errorf("Fixed = %d, want its own seed", got)
	}
	if a, b := Seed(t), Seed(t); a == b {
		t.Errorf("Seed gave %d twice: not new each run", a)
	}
}

// recorder is a test that has failed, keeping what it logs.
type recorder struct {
	testing.TB
	name     string
	logs     []string
	fatal    string
	cleanups []func()
}

func (r *recorder) Helper()          {}
func (r *recorder) Name() string     { return r.name }
func (r *recorder) Failed() bool     { return true }
func (r *recorder) Cleanup(f func()) { r.cleanups = append(r.cleanups, f) }
func (r *recorder) Logf(format string, args ...any) {
	r.logs = append(r.logs, fmt.Sprintf(format, args...))
}
func (r *recorder) Fatalf(format string, args ...any) { r.fatal = fmt.Sprintf(format, args...) }

func TestFailurePrintsTheSeed(t *testing.T) {
	unsetEnv(t)
	r := &recorder{name: "TestWalk/seed.1"}
	s := Fixed(r, 77)
	for _, f := range r.cleanups {
		f()
	}
	want := `random inputs from seed 77; replay: KEDIT_SEED=77 go test -run '^TestWalk$/^seed\.1$'`
	if s != 77 || len(r.logs) != 1 || r.logs[0] != want {
		t.Errorf("logged %q, want %q", r.logs, want)
	}
}

func TestBadEnvIsAnError(t *testing.T) {
	t.Setenv(Env, "tomorrow")
	r := &recorder{name: "TestWalk"}
	Seed(r)
	if r.fatal == "" {
		t.Errorf("%s=tomorrow was taken", Env)
	}
}
