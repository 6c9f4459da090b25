package victorialogs

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/kedit/kedit/internal/testseed"
	"github.com/kedit/kedit/kube/auditlog"
	"github.com/kedit/kedit/kube/auditlog/vltest"
	"github.com/kedit/kedit/model/history"
)

// inserter is a VictoriaLogs, one node or a cluster.
type inserter interface {
	Insert(t testing.TB, lines []byte, params url.Values)
}

// TestEngineGivesTheFilesEvents: a random log of a busy namespace, read
// as a file and from a real VictoriaLogs it was sent to (random ingest
// choices), gives the object the same events: the same requests, users,
// times, bodies, watches paired, dry runs and other objects left out. The
// engine is asked for the lists and watches of the writers only (the
// reads that can be a write's base), so the file's reads by anyone else
// are left out of the comparison; and the history's report (versions,
// lost updates, blind writes, reverts, fights, coverage) is the file's,
// but for its count of reads.
func TestEngineGivesTheFilesEvents(t *testing.T) {
	if testing.Short() {
		t.Skip("starts VictoriaLogs; not run with -short")
	}
	s := vltest.Start(t)
	sameEvents(t, s, "victorialogs://"+s.Addr)
}

// TestEngineClusterGivesTheFilesEvents: the same queries, asked of a
// cluster (two storage nodes, the events spread over them, and a front),
// give the same events.
func TestEngineClusterGivesTheFilesEvents(t *testing.T) {
	if testing.Short() {
		t.Skip("starts VictoriaLogs; not run with -short")
	}
	c := vltest.StartCluster(t)
	sameEvents(t, c, "victorialogs://"+c.Front.Addr)
	for i, n := range c.Storage {
		if n.Rows(t) == 0 {
			t.Errorf("storage node %d holds no event: the front did not spread them", i)
		}
	}
}

func sameEvents(t *testing.T, engine inserter, u string) {
	r := rand.New(rand.NewPCG(testseed.Seed(t), 2))
	for round := range 4 {
		lines := randomLog(r, 300, time.Now().Add(-time.Duration(10-round)*time.Hour))
		in := randomIngest(r, round, true)
		engine.Insert(t, in.lines(t, lines), in.params)
		file := filepath.Join(t.TempDir(), "audit.log")
		if err := os.WriteFile(file, append(bytes.Join(lines, []byte("\n")), '\n'), 0o600); err != nil {
			t.Fatal(err)
		}
		src, err := New(u+"?filter="+url.QueryEscape("round:="+string(rune('0'+round))), Options{})
		if err != nil {
			t.Fatal(err)
		}
		typed := auditlog.Match{Resources: []string{"configmaps"}, Namespace: "shop", Name: "r1", Scoped: true, Namespaced: true}
		named, err := auditlog.MatchType("cm", "shop", "r1")
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range []auditlog.Match{typed, named} {
			want, err := auditlog.Read([]string{file}, nil, m)
			if err != nil {
				t.Fatalf("round %d: the file: %v", round, err)
			}
			got, err := auditlog.ReadFrom(context.Background(), []auditlog.Source{src}, m, auditlog.Window{})
			if err != nil {
				t.Fatalf("round %d (ingest %s): the engine: %v", round, in.params.Encode(), err)
			}
			if len(got.Incomplete) > 0 || got.Resource != want.Resource || got.Group != want.Group || got.Namespace != want.Namespace {
				t.Fatalf("round %d: the engine: %+v; the file: %+v", round, got, want)
			}
			writers := map[string]bool{}
			for _, ev := range want.Events {
				if ev.IsWrite() {
					writers[ev.Client.User] = true
				}
			}
			var kept []history.Event
			for _, ev := range want.Events {
				if ev.Verb == history.VerbGet || ev.IsWrite() || writers[ev.Client.User] {
					kept = append(kept, ev)
				}
			}
			a, b := comparable(kept), comparable(got.Events)
			if len(a) == 0 || len(b) != len(a) {
				t.Fatalf("round %d, match %v (ingest %s): the engine gave %d events, the file %d of the object, %d with the writers' reads; only the engine's:\n%s\nonly the file's:\n%s", round, m, in.params.Encode(), len(b), len(want.Events), len(a), only(b, a), only(a, b))
			}
			for i := range a {
				if !reflect.DeepEqual(a[i], b[i]) {
					t.Fatalf("round %d, match %v (ingest %s): event %d:\nfile   %+v\nengine %+v", round, m, in.params.Encode(), i, a[i], b[i])
				}
			}
			if !strings.HasPrefix(got.Events[0].Source, u+" _time ") {
				t.Errorf("an event's source %q", got.Events[0].Source)
			}
			// The verdict: the same report from the whole file, but for
			// its count of reads, which counts everyone's.
			obj := history.ReportObject{Resource: want.Resource, APIGroup: want.Group, Namespace: want.Namespace, Name: m.Name}
			fromFile, fromEngine := history.Analyze(want.Events).Report(obj), history.Analyze(got.Events).Report(obj)
			fromFile.Coverage.Reads, fromEngine.Coverage.Reads = 0, 0
			if !reflect.DeepEqual(fromFile, fromEngine) {
				f, _ := json.Marshal(fromFile)
				e, _ := json.Marshal(fromEngine)
				t.Errorf("round %d, match %v: the file's report\n%s\nthe engine's\n%s", round, m, f, e)
			}
		}
	}
}

// only lists the events of a that b lacks, one a line.
func only(a, b []history.Event) string {
	var out []string
	for _, x := range a {
		found := false
		for _, y := range b {
			if reflect.DeepEqual(x, y) {
				found = true
				break
			}
		}
		if !found {
			out = append(out, fmt.Sprintf("%+v", x))
		}
	}
	return strings.Join(out, "\n")
}

// comparable are events in one order, without where each was read.
func comparable(evs []history.Event) []history.Event {
	out := append([]history.Event(nil), evs...)
	for i := range out {
		out[i].Source = ""
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if !a.Time.Equal(b.Time) {
			return a.Time.Before(b.Time)
		}
		if !a.Received.Equal(b.Received) {
			return a.Received.Before(b.Received)
		}
		return a.Verb < b.Verb
	})
	return out
}

// TestWindowIsAskedFor: --since and --until are asked of the engine (the
// events' _time, here their stageTimestamp): only the object's events
// between them come back, both ends in.
func TestWindowIsAskedFor(t *testing.T) {
	if testing.Short() {
		t.Skip("starts VictoriaLogs; not run with -short")
	}
	s := vltest.Start(t)
	r := rand.New(rand.NewPCG(testseed.Seed(t), 6))
	lines := randomLog(r, 400, time.Now().Add(-3*time.Hour))
	s.Insert(t, bytes.Join(lines, []byte("\n")), url.Values{"preserve_json_keys": {"requestObject,responseObject"}, "_time_field": {"stageTimestamp"}})
	file := filepath.Join(t.TempDir(), "audit.log")
	if err := os.WriteFile(file, bytes.Join(lines, []byte("\n")), 0o600); err != nil {
		t.Fatal(err)
	}
	m := auditlog.Match{Resources: []string{"configmaps"}, Namespace: "shop", Name: "r1", Scoped: true, Namespaced: true}
	all, err := auditlog.Read([]string{file}, nil, m)
	if err != nil {
		t.Fatal(err)
	}
	// From the 10th event of the object to the 30th, both in.
	evs := comparable(all.Events)
	w := auditlog.Window{Since: evs[10].Time, Until: evs[30].Time}
	src, _ := New("victorialogs://"+s.Addr, Options{})
	got, err := auditlog.ReadFrom(context.Background(), []auditlog.Source{src}, m, w)
	if err != nil {
		t.Fatal(err)
	}
	for _, ev := range got.Events {
		if ev.Time.Before(w.Since) || ev.Time.After(w.Until) {
			t.Errorf("an event of %s outside %s..%s", ev.Time, w.Since, w.Until)
		}
	}
	byName := 0
	for _, ev := range evs[10:31] {
		if ev.Verb != history.VerbList && ev.Verb != history.VerbWatch {
			byName++
		}
	}
	got2 := 0
	for _, ev := range got.Events {
		if ev.Verb != history.VerbList && ev.Verb != history.VerbWatch {
			got2++
		}
	}
	if got2 != byName {
		t.Errorf("%d of the object's own events in the window, want %d", got2, byName)
	}
}

// TestOverlappingSourcesCountEachEventOnce: the same events from two
// sources (a file given twice; a file and the VictoriaLogs it was shipped
// to, as when yesterday's file and today's engine overlap) are one
// history: each event once, the report the file's alone.
func TestOverlappingSourcesCountEachEventOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("starts VictoriaLogs; not run with -short")
	}
	s := vltest.Start(t)
	r := rand.New(rand.NewPCG(testseed.Seed(t), 9))
	lines := randomLog(r, 400, time.Now().Add(-time.Hour))
	s.Insert(t, bytes.Join(lines, []byte("\n")), url.Values{"preserve_json_keys": {"requestObject,responseObject"}, "_time_field": {"stageTimestamp"}})
	file := filepath.Join(t.TempDir(), "audit.log")
	if err := os.WriteFile(file, bytes.Join(lines, []byte("\n")), 0o600); err != nil {
		t.Fatal(err)
	}
	m := auditlog.Match{Resources: []string{"configmaps"}, Namespace: "shop", Name: "r1", Scoped: true, Namespaced: true}
	once, err := auditlog.Read([]string{file}, nil, m)
	if err != nil {
		t.Fatal(err)
	}
	src, _ := New("victorialogs://"+s.Addr, Options{})
	obj := history.ReportObject{Resource: "configmaps", Namespace: "shop", Name: "r1"}
	want := history.Analyze(once.Events).Report(obj)
	for name, srcs := range map[string][]auditlog.Source{
		"the file twice":          {auditlog.Files{Names: []string{file, file}}},
		"the file and the engine": {auditlog.Files{Names: []string{file}}, src},
		"the engine and the file": {src, auditlog.Files{Names: []string{file}}},
	} {
		got, err := auditlog.ReadFrom(context.Background(), srcs, m, auditlog.Window{})
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Events) != len(once.Events) {
			t.Errorf("%s: %d events, the file alone %d", name, len(got.Events), len(once.Events))
		}
		if rep := history.Analyze(got.Events).Report(obj); !reflect.DeepEqual(rep, want) {
			a, _ := json.Marshal(rep)
			b, _ := json.Marshal(want)
			t.Errorf("%s: the report\n%s\nthe file's alone\n%s", name, a, b)
		}
	}
}
