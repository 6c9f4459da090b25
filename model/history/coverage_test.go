package history

import (
	"encoding/json"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kedit/kedit/internal/testseed"
)

// incident is the kubectl edit race of the README at the instants of its
// first line: bob's kubectl patch at 05:49:20, alice's kubectl edit (read
// at 05:49:10) at 05:49:24. bodies false logs the writes at Metadata
// level.
func incident(bodies bool) []Event {
	alice := Client{User: "alice", UserAgent: "kubectl/v1.33.1 (linux/amd64) kubernetes/8adc0f0"}
	bob := Client{User: "bob", UserAgent: "kubectl/v1.33.1 (linux/amd64) kubernetes/8adc0f0"}
	admin := Client{User: "admin", UserAgent: "kubectl/v1.33.1 (linux/amd64) kubernetes/8adc0f0"}
	t0 := time.Date(2026, 11, 28, 5, 49, 0, 0, time.UTC)
	at := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
	level := "RequestResponse"
	if !bodies {
		level = "Metadata"
	}
	body := func(rv, foo string) *unstructured.Unstructured {
		if !bodies {
			return nil
		}
		return cmWith(rv, foo)
	}
	return []Event{
		{Verb: VerbCreate, Client: admin, Manager: "kubectl-create", Received: at(0), Time: at(0), Code: 201, Object: body("1", "1"), Level: level},
		{Verb: VerbGet, Client: alice, Received: at(10), Time: at(10), Code: 200, Level: "Metadata"},
		{Verb: VerbGet, Client: bob, Received: at(19), Time: at(19), Code: 200, Level: "Metadata"},
		// kubectl patch's own get, right before its patch: not what bob
		// saw.
		{Verb: VerbGet, Client: bob, Received: at(20).Add(-2 * time.Millisecond), Time: at(20).Add(-time.Millisecond), Code: 200, Level: "Metadata"},
		{Verb: VerbPatch, Client: bob, Manager: "kubectl-patch", Received: at(20), Time: at(20), Code: 200, Object: body("2", "bob"), Level: level},
		{Verb: VerbPatch, Client: alice, Manager: "kubectl-edit", Received: at(24), Time: at(24), Code: 200, Object: body("3", "alice"), Level: level},
	}
}

// TestMetadataLevelWritesAreInconclusive: the same incident logged with
// its writes at Metadata level finds nothing, and says it could judge
// none of the 3 writes (text and JSON), never "none" alone or "OK".
func TestMetadataLevelWritesAreInconclusive(t *testing.T) {
	h := Analyze(incident(false))
	c := h.Coverage
	if c.Writes != 3 || c.WithoutBodies != 3 || c.Unjudged != 3 || c.Level != "Metadata" || c.Judged() || len(h.LostUpdates) != 0 ||
		c.Short() != "cannot judge 3 writes (Metadata level)" {
		t.Fatalf("coverage %+v, lost %d", c, len(h.LostUpdates))
	}
	rep := h.Report(ReportObject{Resource: "configmaps", Namespace: "ns", Name: "cm"})
	text := rep.Text()
	if !strings.HasPrefix(text, "INCONCLUSIVE: 3 of 3 writes recorded without their bodies: lost updates cannot be judged") ||
		!strings.Contains(text, "(logged at Metadata level; writes need RequestResponse)") || strings.Contains(text, "OK:") || strings.Contains(text, "LOST UPDATES: none\n") || !strings.Contains(text, "LOST UPDATES: none found, but not all could be judged (INCONCLUSIVE above)") {
		t.Errorf("text:\n%s", text)
	}
	js, _ := rep.JSON()
	var back struct{ Coverage Coverage }
	if err := json.Unmarshal(js, &back); err != nil || back.Coverage.WithoutBodies != 3 || back.Coverage.Unjudged != 3 {
		t.Errorf("--json coverage %+v (%v):\n%s", back.Coverage, err, js)
	}

	// At Request level the bodies sent are there, the objects stored
	// are not: said as such.
	request := incident(false)
	for i := range request {
		if request[i].IsWrite() {
			request[i].Level = "Request"
		}
	}
	if lines := Analyze(request).Coverage.Lines(); len(lines) == 0 ||
		!strings.HasPrefix(lines[0], "3 of 3 writes logged at Request level: the bodies they sent are there, the objects the server stored are not") {
		t.Errorf("Request level: %q", lines)
	}

	// With the bodies: found, judged.
	h = Analyze(incident(true))
	if !h.Coverage.Judged() || len(h.LostUpdates) != 1 {
		t.Errorf("RequestResponse: coverage %+v, lost %d", h.Coverage, len(h.LostUpdates))
	}

	// Without the reads: alice's and bob's patches carried no
	// resourceVersion, and what they saw is unknown.
	var noReads []Event
	for _, ev := range incident(true) {
		if ev.IsWrite() {
			noReads = append(noReads, ev)
		}
	}
	h = Analyze(noReads)
	if h.Coverage.WithoutReads != 2 || h.Coverage.Judged() ||
		!strings.Contains(strings.Join(h.Coverage.Lines(), "\n"), "2 of 3 writes carried no resourceVersion") ||
		!strings.Contains(strings.Join(h.Coverage.Lines(), "\n"), "reads need Metadata level") {
		t.Errorf("no reads: coverage %+v %q", h.Coverage, h.Coverage.Lines())
	}

	// A log that ends early: said once, and nothing found is not OK.
	h = Analyze(incident(true)[:5])
	h.Coverage.Partial = []string{"audit.log.gz:9: the gzip stream ends early (the file is cut short): the lines from 9 on are missing"}
	text = h.Report(ReportObject{Name: "cm"}).Text()
	if !strings.HasPrefix(text, "PARTIAL: audit.log.gz:9: the gzip stream ends early") || strings.Count(text, "audit.log.gz:9") != 1 ||
		strings.Contains(text, "OK:") || !strings.Contains(text, "LOST UPDATES: none found, but not all could be judged (PARTIAL above)") {
		t.Errorf("partial:\n%s", text)
	}

	// Everything judged, nothing found.
	ok := incident(true)[:5]
	rep = Analyze(ok).Report(ReportObject{Resource: "configmaps", Namespace: "ns", Name: "cm"})
	if !strings.HasPrefix(rep.Text(), "OK: no lost update, blind write, reverted value or fight among 2 versions; every write judged\n") {
		t.Errorf("judged, nothing found:\n%s", rep.Text())
	}
}

// TestFirstLineIsTheFinding: the report starts with one line per
// finding, with the replacing value and the value live now.
func TestFirstLineIsTheFinding(t *testing.T) {
	h := Analyze(incident(true))
	live := cmWith("3", "alice").Object
	text := h.ReportLive(ReportObject{Resource: "configmaps", Namespace: "ns", Name: "cm"}, live).Text()
	first, _, _ := strings.Cut(text, "\n")
	want := `LOST .data.foo: bob's "bob" (05:49:20, kubectl-patch) overwritten by alice's kubectl edit (05:49:24) with "alice"; now "alice" (live)`
	if first != want {
		t.Errorf("first line\n got %s\nwant %s\n%s", first, want, text)
	}
	first, _, _ = strings.Cut(h.Report(ReportObject{Name: "cm"}).Text(), "\n")
	if !strings.HasSuffix(first, `; now "alice" (the log's newest version)`) {
		t.Errorf("without the live object: %s", first)
	}
	gone := h.ReportLive(ReportObject{Name: "cm"}, map[string]any{})
	if l := gone.LostUpdates[0]; l.NowValue != nil || l.NowFrom != "live" || !strings.HasSuffix(gone.Findings()[0], "; now absent (live)") {
		t.Errorf("a deleted object: %+v %q", l, gone.Findings())
	}
}

// TestVersionTableFits80Columns: long users, managers, user agents and
// lists of fields keep every line of the default table within 80
// columns; --wide has the user agent and whole cells; --since and
// --until bound the table.
func TestVersionTableFits80Columns(t *testing.T) {
	events := incident(true)
	for i := range events {
		events[i].Client.User = "system:serviceaccount:argocd:argocd-application-controller-" + events[i].Client.User
		events[i].Manager += "-with-a-very-long-field-manager-name"
	}
	obj := cmWith("3", "alice")
	for i := range 20 {
		obj.Object["data"].(map[string]any)["key-number-"+string(rune('a'+i))] = "v"
	}
	events[5].Object = obj
	rep := Analyze(events).Report(ReportObject{Resource: "configmaps", Namespace: "ns", Name: "cm"})
	text := rep.Text()
	_, table, _ := strings.Cut(text, "\nRV ")
	table, _, _ = strings.Cut("RV "+table, "\n\n")
	if strings.Count(table, "\n") != 3 {
		t.Fatalf("table:\n%s\nin\n%s", table, text)
	}
	for _, line := range strings.Split(table, "\n") {
		if n := utf8.RuneCountInString(line); n > 80 {
			t.Errorf("%d columns: %q", n, line)
		}
	}
	if strings.Contains(table, "kubectl/v1.33.1") || !strings.Contains(table, "05:49:24") || strings.Contains(table, "2026-11-28T") {
		t.Errorf("default table has the user agent or full times:\n%s", table)
	}
	wide := rep.TextWith(TextOptions{Wide: true})
	if !strings.Contains(wide, "USER AGENT") || !strings.Contains(wide, "kubectl/v1.33.1 (linux/amd64)") || !strings.Contains(wide, ".data.key-number-t") {
		t.Errorf("--wide:\n%s", wide)
	}
	t0 := time.Date(2026, 11, 28, 5, 49, 0, 0, time.UTC)
	bounded := rep.TextWith(TextOptions{Since: t0.Add(10 * time.Second), Until: t0.Add(22 * time.Second)})
	if !strings.Contains(bounded, "1 version before --since and 1 after --until not shown") || strings.Contains(bounded, "05:49:00") ||
		!strings.Contains(bounded, "\n2   05:49:20") {
		t.Errorf("--since, --until:\n%s", bounded)
	}
}

// TestCoverageNeverHidesALoss plays random histories (the detector's
// property test's), then logs them as a poorer policy would: some writes
// without their bodies (Metadata level), or no reads at all. Whatever is
// left out, a report that finds fewer lost updates than the whole log
// holds is never judged complete: it says what it could not judge, so
// that "nothing found" is never said of a log that cannot tell.
func TestCoverageNeverHidesALoss(t *testing.T) {
	walks, steps := 40, 30
	if testing.Short() {
		walks = 10
	}
	base := testseed.Fixed(t, 0)
	hidden := 0
	for w := range walks {
		seed := base + uint64(w)
		r := rand.New(rand.NewPCG(seed, 28))
		s := newSim(r)
		for range steps {
			s.step()
		}
		s.end()
		whole := Analyze(s.events)
		for try := range 6 {
			events := slices.Clone(s.events)
			stripped := 0
			for i := range events {
				ev := &events[i]
				switch {
				case try == 0 && !ev.IsWrite():
					ev.Verb = "" // no reads logged
				case try > 0 && ev.IsWrite() && ev.Verb != VerbDelete && ev.Object != nil && r.IntN(try+1) == 0:
					ev.Object = nil
					stripped++
				}
			}
			events = slices.DeleteFunc(events, func(ev Event) bool { return ev.Verb == "" })
			h := Analyze(events)
			if len(h.LostUpdates) < len(whole.LostUpdates) {
				hidden++
			}
			if len(h.LostUpdates) < len(whole.LostUpdates) && h.Coverage.Judged() {
				t.Fatalf("seed %d, try %d: %d of %d lost updates found, and the coverage says all was judged: %+v\n%s",
					seed, try, len(h.LostUpdates), len(whole.LostUpdates), h.Coverage, dump(events))
			}
			if stripped > 0 && (h.Coverage.Judged() || h.Coverage.WithoutBodies == 0) {
				t.Fatalf("seed %d, try %d: %d writes without their bodies, coverage %+v", seed, try, stripped, h.Coverage)
			}
		}
	}
	// The walks must hide losses for the rule to be tried.
	if hidden == 0 {
		t.Errorf("no walk hid a lost update: the property was never tried")
	}
	t.Logf("%d logs hid a lost update", hidden)
}
