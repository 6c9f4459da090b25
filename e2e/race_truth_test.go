package e2e

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kedit/kedit/internal/testwait"
	"github.com/kedit/kedit/model/history"
)

// The ground truth of a race, from what the harness knows each person's
// write was made from, and kedit history's verdicts scored against it.

// raceTruth is what a write truly did, worst first.
type raceTruth int

const (
	// truthLost: it replaced another person's change made after the
	// version its body was made from.
	truthLost raceTruth = iota
	// truthBlind: its person had read nothing, and it replaced another
	// person's value.
	truthBlind
	// truthReverted: it set a field back to its value before another
	// person's change, which its person had read.
	truthReverted
	truthSafe
)

var truthNames = []string{"lost", "blind", "reverted", "safe"}

// wantVerdict is the verdict kedit history must give a write of each
// truth.
var wantVerdict = []history.Verdict{history.VerdictLost, history.VerdictBlind, history.VerdictReverted, history.VerdictOK}

// truth is what version k's write truly did, field by field: for each
// field it changed, the last change of it before (a person's, or the
// creation's) against the version its body was made from.
func (run *raceRun) truth(k int) (raceTruth, string) {
	v := &run.versions[k]
	prev := &run.versions[k-1]
	worst, why := truthSafe, ""
	for _, f := range run.kind.fields {
		was, wasOK := f.get(prev.obj)
		now, nowOK := f.get(v.obj)
		if was == now && wasOK == nowOK {
			continue
		}
		s := run.setter(k, f)
		if run.versions[s].person == v.person {
			continue
		}
		base := v.base
		if v.informed || v.tested[f.name] {
			base = k - 1
		}
		t := truthSafe
		switch {
		case base < 0:
			t = truthBlind
		case s > base:
			t = truthLost
		case s > 0:
			if old, oldOK := f.get(run.versions[s-1].obj); old == now && oldOK == nowOK {
				t = truthReverted
			}
		}
		if t < worst {
			worst = t
			why = fmt.Sprintf("%s: %q set by %s at %s, the write made from %s", f.name, was, who(run.versions[s].person),
				run.versions[s].rv, run.baseName(base))
		}
	}
	return worst, why
}

func who(person string) string {
	if person == "" {
		return "the creation"
	}
	return person
}

func (run *raceRun) baseName(i int) string {
	if i < 0 {
		return "no read"
	}
	return "resourceVersion " + run.versions[i].rv
}

// setter is the last version before k that changed field f: the one whose
// value differs from the version before it, else the creation.
func (run *raceRun) setter(k int, f raceField) int {
	for j := k - 1; j > 0; j-- {
		a, aok := f.get(run.versions[j-1].obj)
		b, bok := f.get(run.versions[j].obj)
		if a != b || aok != bok {
			return j
		}
	}
	return 0
}

// raceTable is the confusion table of truths and verdicts over races, and
// the races scored.
type raceTable struct {
	mu    sync.Mutex
	races int
	cells map[raceTruth]map[history.Verdict]int
	runs  []scoredRun
}

// scoredRun is a race and kedit history's verdict on each of its writes
// (by resourceVersion) and exit status, read from the audit log file.
type scoredRun struct {
	run      *raceRun
	verdicts map[string]history.Verdict
	code     int
}

func verdictsOf(rep history.Report) map[string]history.Verdict {
	out := map[string]history.Verdict{}
	for _, v := range rep.Versions {
		out[v.ResourceVersion] = v.Verdict
	}
	return out
}

// sameFromEngine holds kedit history to the same verdicts and exit status
// on every race when it reads the audit log shipped to a log engine (a
// real VictoriaLogs) as when it reads the file, race by race.
func (tb *raceTable) sameFromEngine(t *testing.T, engine string) {
	t.Helper()
	for _, s := range tb.runs {
		rep, code := s.run.reportFrom(engine)
		if got := verdictsOf(rep); !maps.Equal(got, s.verdicts) || code != s.code {
			t.Errorf("%s: from %s, verdicts %v exit %d; from the file, %v exit %d\n%s", s.run.name, engine, got, code, s.verdicts, s.code, s.run.replay())
		}
	}
	t.Logf("%d races: the same verdicts from the file and from the log engine", len(tb.runs))
}

var verdictColumns = []history.Verdict{history.VerdictLost, history.VerdictBlind, history.VerdictReverted, history.VerdictInconclusive, history.VerdictOK}

func (tb *raceTable) add(t raceTruth, v history.Verdict) {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	if tb.cells == nil {
		tb.cells = map[raceTruth]map[history.Verdict]int{}
	}
	if tb.cells[t] == nil {
		tb.cells[t] = map[history.Verdict]int{}
	}
	tb.cells[t][v]++
}

// markdown is the table as RELIABILITY.md prints it.
func (tb *raceTable) markdown() string {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	var b strings.Builder
	fmt.Fprintf(&b, "| truth \\ verdict (%d races) |", tb.races)
	for _, v := range verdictColumns {
		fmt.Fprintf(&b, " %s |", strings.ToUpper(string(v)))
	}
	b.WriteString("\n|---|" + strings.Repeat("---|", len(verdictColumns)) + "\n")
	for t := truthLost; t <= truthSafe; t++ {
		fmt.Fprintf(&b, "| %s |", truthNames[t])
		for _, v := range verdictColumns {
			fmt.Fprintf(&b, " %d |", tb.cells[t][v])
		}
		b.WriteString("\n")
	}
	return b.String()
}

// report runs the real kedit history on the run's object, with the
// audit log, until its report holds every version the harness saw, and
// returns it with the exit status.
func (run *raceRun) report() (history.Report, int) {
	run.t.Helper()
	return run.reportFrom(run.env.c.AuditLog())
}

// reportFrom is report of the events in source: the audit log, or a log
// engine's URL.
func (run *raceRun) reportFrom(source string) (history.Report, int) {
	run.t.Helper()
	var rep history.Report
	var out, stderr string
	var code int
	want := map[string]bool{}
	for _, v := range run.versions {
		want[v.rv] = true
	}
	if !testwait.Until(30*time.Second, func() bool {
		out, stderr, code = runBinary(run.t, "", "history", run.kind.typ+"/obj", "-n", run.ns, "--kubeconfig", run.env.c.Kubeconfig(),
			"--audit-log", source, "--json")
		rep = history.Report{}
		if json.Unmarshal([]byte(out), &rep) != nil {
			return false
		}
		n := 0
		for _, v := range rep.Versions {
			if want[v.ResourceVersion] {
				n++
			}
		}
		return n == len(want)
	}) {
		run.t.Fatalf("kedit history: exit %d, the log's versions %d of the harness's %d after 30 s\n%s\n%s\n%s", code, len(rep.Versions), len(want), out, stderr, run.replay())
	}
	return rep, code
}

// score runs kedit history and holds each write's verdict to its truth,
// adding them to tb; a mismatch fails the test with the commands that
// replay the race, what the harness knows of the write and the report's
// evidence.
func (run *raceRun) score(tb *raceTable) (history.Report, int) {
	run.t.Helper()
	rep, code := run.report()
	verdicts := verdictsOf(rep)
	tb.mu.Lock()
	tb.runs = append(tb.runs, scoredRun{run: run, verdicts: verdicts, code: code})
	tb.mu.Unlock()
	var wrong []string
	for k := 1; k < len(run.versions); k++ {
		t, why := run.truth(k)
		got := verdicts[run.versions[k].rv]
		tb.add(t, got)
		if got != wantVerdict[t] {
			wrong = append(wrong, fmt.Sprintf("resourceVersion %s (%s by %s): truly %s (%s), kedit history says %q",
				run.versions[k].rv, run.versions[k].command, run.versions[k].person, truthNames[t], why, got))
		}
	}
	tb.mu.Lock()
	tb.races++
	tb.mu.Unlock()
	if len(wrong) > 0 {
		js, _ := json.MarshalIndent(rep, "", "  ")
		run.t.Errorf("%s\n%s\nkedit history's report:\n%s", strings.Join(wrong, "\n"), run.replay(), js)
	}
	return rep, code
}

// writeTable writes the table to KEDIT_RACE_REPORT when it is set, and
// logs it.
func (tb *raceTable) write(t *testing.T) {
	text := tb.markdown()
	t.Logf("kedit history against the race harness's ground truth:\n%s", text)
	if p := os.Getenv("KEDIT_RACE_REPORT"); p != "" {
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Error(err)
		}
	}
}
