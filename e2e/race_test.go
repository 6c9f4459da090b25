package e2e

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/kedit/kedit/internal/testseed"
)

// raceSeeds is how many random races TestHistoryAgainstRealRaces plays:
// a few in make test, KEDIT_RACE_SEEDS (make stress: hundreds) else.
func raceSeeds(t *testing.T) int {
	if n, err := strconv.Atoi(os.Getenv("KEDIT_RACE_SEEDS")); err == nil && n > 0 {
		return n
	}
	return 4
}

// TestHistoryAgainstRealRaces scores kedit history, through the real
// binary on a real audit log, against the race harness's ground truth:
// the incidents the on-call engineer meets, played as they happen, then
// random races of two or three people with every verb. Every write's
// verdict must be its truth: a lost update LOST, a blind write BLIND, a
// value set back by a person who had read the change REVERTED, anything
// else OK; a failing race prints the commands that replay it. The
// confusion table of all races is logged (and written to
// KEDIT_RACE_REPORT). Then the log is shipped to a real VictoriaLogs and
// every race must get the same verdicts and exit status from it as from
// the file.
func TestHistoryAgainstRealRaces(t *testing.T) {
	if testing.Short() {
		t.Skip("integration test: needs a real API server; not run with -short")
	}
	env := newRaceEnv(t)
	tb := &raceTable{}
	alice, bob := func() *racePerson { return &racePerson{name: "alice"} }, func() *racePerson { return &racePerson{name: "bob"} }
	a := raceConfigMap.fields[0]

	// alice saved the object to a file, bob changed foo, and alice
	// replaced the object from her file, its resourceVersion taken out:
	// kubectl replace read the object itself a moment before its PUT.
	t.Run("a stale kubectl replace", func(t *testing.T) {
		al, b := alice(), bob()
		run := newRaceRun(t, env, "race-stale-replace", raceConfigMap, al, b)
		run.create()
		run.read(al)
		run.write(b, verbPatchMerge, a, "bob")
		run.write(al, verbReplace, a, "alice")
		_, code := run.score(tb)
		out, _, _ := runBinary(t, "", "history", "configmap/obj", "-n", run.ns, "--kubeconfig", env.c.Kubeconfig(), "--audit-log", env.c.AuditLog())
		if code != 1 || !strings.HasPrefix(out, `LOST .data.race-a: bob's "bob" (`) || !strings.Contains(out, `overwritten by alice's kubectl replace (`) {
			t.Errorf("exit %d:\n%s", code, out)
		}
	})

	// alice (kedit set --if) and bob (kubectl get, then kubectl replace
	// with the resourceVersion he read) take foo in turn, three rounds:
	// each knew the value they replaced.
	t.Run("kedit set --if rounds", func(t *testing.T) {
		al, b := &racePerson{name: "alice", kedit: true}, bob()
		run := newRaceRun(t, env, "race-set-rounds", raceConfigMap, al, b)
		run.create()
		for i := range 3 {
			run.keditSet(al, a, fmt.Sprintf("a%d", i))
			run.read(b)
			run.write(b, verbReplaceRV, a, fmt.Sprintf("bob%d", i))
			run.keditSet(al, a, fmt.Sprintf("a%d", i)) // refused: foo is bob's now, and kedit says so
			run.keditSet(al, a, fmt.Sprintf("a%d-again", i))
		}
		if _, code := run.score(tb); code != 0 {
			t.Errorf("kedit history: exit %d, want 0", code)
		}
	})

	// A pipeline force-applies its manifest; its user listed the
	// namespace once, before the object was created, and never read it.
	t.Run("a force-applying pipeline", func(t *testing.T) {
		al, b := alice(), bob()
		run := newRaceRun(t, env, "race-pipeline", raceConfigMap, al, b)
		run.list(al)
		run.create()
		run.read(b)
		run.write(b, verbPatchMerge, a, "bob")
		run.write(al, verbForceApply, a, "2")
		rep, code := run.score(tb)
		if code != 3 || len(rep.BlindWrites) != 1 ||
			!strings.Contains(rep.BlindWrites[0].Evidence, "alice never read configmap/obj in this log: the last read by alice was a list at ") {
			t.Errorf("exit %d, blind writes %+v", code, rep.BlindWrites)
		}
	})

	// carol edits in kedit while alice changes the same field with
	// kubectl: carol's save meets a conflict, which shows her alice's value,
	// and she keeps hers: no loss, she saw it. bob, who read before both,
	// then replaces his file: he loses carol's value.
	t.Run("kedit's own save", func(t *testing.T) {
		al, b, carol := alice(), bob(), &racePerson{name: "carol", tuiUser: true}
		run := newRaceRun(t, env, "race-kedit-save", raceConfigMap, al, b, carol)
		run.create()
		run.read(b)
		run.openTUI(carol)
		run.read(al)
		run.write(al, verbPatchMerge, a, "2")
		run.tuiSave(carol, a, "3")
		run.write(b, verbReplace, a, "1")
		rep, code := run.score(tb)
		if code != 1 || len(rep.LostUpdates) != 1 || rep.LostUpdates[0].LostAt.User != "carol" || rep.LostUpdates[0].OverwrittenBy.User != "bob" {
			t.Errorf("exit %d, lost %v; want carol's value lost by bob's replace", code, lostPaths(rep.LostUpdates))
		}
	})

	t.Run("random", func(t *testing.T) {
		base := testseed.Fixed(t, 1)
		for i := range raceSeeds(t) {
			seed := base + uint64(i)
			t.Run(strconv.FormatUint(seed, 10), func(t *testing.T) {
				t.Parallel()
				r := rand.New(rand.NewPCG(seed, 38))
				kind := raceConfigMap
				if seed%2 == 1 {
					kind = raceDeployment
				}
				people := []*racePerson{alice(), bob()}
				if r.IntN(2) == 0 {
					tool := r.IntN(3) // kubectl, kedit set --if, kedit itself
					people = append(people, &racePerson{name: "carol", kedit: tool == 1, tuiUser: tool == 2})
				}
				run := newRaceRun(t, env, fmt.Sprintf("race-%d", seed), kind, people...)
				run.race(r, 18)
				run.score(tb)
			})
		}
	})
	tb.write(t)
	// The same log shipped to a real VictoriaLogs, as the README ships
	// it: every race's verdicts as from the file.
	tb.sameFromEngine(t, shipped(t, env.c.AuditLog()))
}
