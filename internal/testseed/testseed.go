// Package testseed gives every randomized test a seed it can be replayed
// from: the seed is printed when the test fails, and KEDIT_SEED sets it.
//
//	KEDIT_SEED=1234 go test -run '^TestPasteSplitAnywhere$' ./ui/pasteinput
//
// A test draws all its random inputs from the one seed it is given (a
// walk of several seeds numbers them from it), so the printed seed
// replays the whole test as it failed.
package testseed

import (
	"math/rand/v2"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// Env is the variable that sets the seed of every randomized test the run
// runs: use it with -run.
const Env = "KEDIT_SEED"

// Seed returns the seed of a test that tries new inputs every run:
// KEDIT_SEED when it is set, else a new one. When t fails, the seed is
// printed with the command that replays it.
func Seed(t testing.TB) uint64 {
	t.Helper()
	return from(t, rand.Uint64())
}

// Fixed returns the seed of a test that runs the same inputs every run,
// from seed: KEDIT_SEED when it is set (to try others), else seed. When t
// fails, the seed is printed with the command that replays it.
func Fixed(t testing.TB, seed uint64) uint64 {
	t.Helper()
	return from(t, seed)
}

// from returns KEDIT_SEED, else def, and prints it when t fails.
func from(t testing.TB, def uint64) uint64 {
	t.Helper()
	s := def
	if v, ok := os.LookupEnv(Env); ok {
		n, err := strconv.ParseUint(strings.TrimSpace(v), 0, 64)
		if err != nil {
			t.Fatalf("%s=%q: want a whole number: %v", Env, v, err)
		}
		s = n
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("random inputs from seed %d; replay: %s=%d go test -run '%s'", s, Env, s, runPattern(t.Name()))
		}
	})
	return s
}

// runPattern is the -run pattern that selects exactly the test name.
func runPattern(name string) string {
	parts := strings.Split(name, "/")
	for i, p := range parts {
		parts[i] = "^" + regexp.QuoteMeta(p) + "$"
	}
	return strings.Join(parts, "/")
}
