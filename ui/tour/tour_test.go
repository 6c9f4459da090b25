package tour

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/ui/common"
)

func newTour(t *testing.T) Model {
	t.Helper()
	m := New(DefaultKeyMap(), common.NewStyles())
	m.SetSize(400, 2)
	if !m.SetContent(Content{Facts: Facts{BaseFoo: "1", BaseRV: "202"}}) || m.Step() != 0 {
		t.Fatalf("the first content starts step 1: step %d", m.Step())
	}
	return m
}

// TestStepsMoveOnByTheSessionsState walks the tour on the session's
// states alone: each step is done when its state shows, and not by the
// states of another step (the tour has no keys: what was pressed never
// counts).
func TestStepsMoveOnByTheSessionsState(t *testing.T) {
	m := newTour(t)
	put := func(seq uint64, who, sent, status, returned string, conflict bool) Request {
		return Request{Seq: seq, Who: escape.Safe(who), Method: "PUT", SentRV: escape.Safe(sent), Status: escape.Safe(status), ReturnedRV: escape.Safe(returned), Conflict: conflict}
	}
	var reqs []Request
	steps := []struct {
		name string
		// notYet are states that do not finish the step; done one that does.
		notYet []Facts
		done   Facts
		add    []Request
		said   []string
	}{
		{name: "draft",
			notYet: []Facts{{BaseFoo: "1", Timeline: true}, {Draft: true, DraftFoo: "1", BaseFoo: "1"}},
			done:   Facts{Draft: true, DraftFoo: "mine", BaseFoo: "1", BaseRV: "202"},
			said:   []string{"nothing was sent", "based on rv 202"}},
		{name: "conflict",
			notYet: []Facts{{Draft: true, DraftFoo: "mine", BaseFoo: "1"}, {Draft: true, Rebasing: true, Merged: 1}},
			done:   Facts{Draft: true, Rebasing: true, Conflicts: 1, OpenConflicts: 1, TheirsRV: "204"},
			add:    []Request{put(5, "demo-writer", "202", "200", "204", false), put(7, "kedit", "202", "409 Conflict", "", true)},
			said:   []string{"demo-writer sent PUT with rv 202; 200: stored as rv 204", "kedit sent PUT with rv 202; the server holds rv 204; 409 Conflict: nothing was overwritten"}},
		{name: "resolution",
			notYet: []Facts{{Draft: true, Rebasing: true, Conflicts: 1, TheirsRV: "204"}, {Timeline: true, Draft: true, Rebasing: true}},
			done:   Facts{SavedRV: "208", BaseFoo: "mine"},
			add:    []Request{put(9, "kedit", "204", "200", "208", false)},
			said:   []string{"kedit sent PUT with rv 204; 200: stored as rv 208"}},
		{name: "clean rebase",
			// A save without a clean rebase before it is not the step.
			notYet: []Facts{{Draft: true, DraftFoo: "mine2"}, {SavedRV: "210"}, {Rebasing: true, Merged: 2, Draft: true}},
			done:   Facts{SavedRV: "213"},
			said:   []string{"nothing was sent"}},
		{name: "timeline",
			// Shown is not yet done: closed after it is.
			notYet: []Facts{{SavedRV: "213"}, {SavedRV: "213", Timeline: true}},
			done:   Facts{SavedRV: "213", LiveFoo: "mine2"},
			said:   []string{"the versions the watch brought"}},
		{name: "blame",
			// Not before the reset shows, whatever shows.
			notYet: []Facts{{SavedRV: "213", Blame: true, LiveFoo: "mine2"}, {SavedRV: "213", LiveFoo: "1"}},
			done:   Facts{SavedRV: "213", Blame: true, LiveFoo: "1"},
			add:    []Request{put(11, "demo-writer", "213", "200", "215", false)},
			said:   []string{"demo-writer sent PUT with rv 213; 200: stored as rv 215; then nothing more was sent: blame reads the managedFields"}},
		{name: "lost update",
			// A save before the lost update showed, and the lost update
			// without a save after it, are not the step.
			notYet: []Facts{{SavedRV: "218", LiveFoo: "1"}, {SavedRV: "218", LiveFoo: "1", Lost: true}, {SavedRV: "218", Draft: true, DraftFoo: "mine", LiveFoo: "1"}},
			done:   Facts{SavedRV: "222", LiveFoo: "mine"},
			add: []Request{put(12, "kedit", "215", "200", "218", false),
				{Seq: 13, Who: "kubectl-edit", Method: "WATCH", ReturnedRV: "220", Status: "MODIFIED"},
				put(14, "kedit", "220", "200", "222", false)},
			said: []string{"kedit sent PUT with rv 215; 200: stored as rv 218; then the watch brought rv 220 by kubectl-edit, another client: its request is not kedit's; then kedit sent PUT with rv 220; 200: stored as rv 222"}},
		{name: "race",
			notYet: []Facts{{SavedRV: "222", LiveFoo: "mine", Races: 1}, {SavedRV: "222", LiveFoo: "1"}},
			done:   Facts{SavedRV: "222", LiveFoo: "2", Races: 2},
			add:    race(15, 10),
			said:   []string{"kedit sent 10 PATCH requests with rv none at once: 1 × 200 (stored as rv 230), 9 × 422 Unprocessable Entity: nothing was written"}},
	}
	if len(steps) != len(Steps) {
		t.Fatalf("the test walks %d steps of %d", len(steps), len(Steps))
	}
	for i, s := range steps {
		if Steps[i].Reset {
			if !strings.Contains(m.View(), "getting ready") && !strings.Contains(m.View(), Steps[i].Do) {
				t.Fatalf("%s: %s", s.name, m.View())
			}
		} else if !strings.Contains(m.View(), Steps[i].Do) {
			t.Fatalf("%s: the top line does not say %q:\n%s", s.name, Steps[i].Do, m.View())
		}
		for _, f := range s.notYet {
			if m.SetContent(Content{Facts: f, Requests: reqs}) || m.Step() != i {
				t.Fatalf("%s: %+v finished it (step %d)", s.name, f, m.Step())
			}
		}
		reqs = append(reqs, s.add...)
		if !m.SetContent(Content{Facts: s.done, Requests: reqs}) || m.Step() != i+1 {
			t.Fatalf("%s: %+v did not finish it (step %d)", s.name, s.done, m.Step())
		}
		for _, w := range s.said {
			if !strings.Contains(m.View(), w) {
				t.Errorf("%s: the explanation does not say %q:\n%s", s.name, w, m.View())
			}
		}
	}
	if !strings.Contains(m.View(), "tour done") {
		t.Errorf("after the last step: %s", m.View())
	}
}

// race is the requests of the demo's race from seq: n PATCHes without a
// resourceVersion, sent within a millisecond and each answered 5ms
// later, the first taken, the others refused with 422.
func race(seq uint64, n int) []Request {
	out := make([]Request, n)
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for i := range out {
		out[i] = Request{Seq: seq + uint64(i), Who: "kedit", Method: "PATCH", Status: "422 Unprocessable Entity",
			Sent: at.Add(time.Duration(i) * 50 * time.Microsecond), Latency: 5 * time.Millisecond}
	}
	out[0].Status, out[0].ReturnedRV = "200", "230"
	return out
}

// TestAResetStepWaitsForFoo: a step that starts from foo "1" says it is
// getting ready until the live object shows it, and nothing done before
// counts for it; the skip key moves on at once, and the step after it
// starts from its own state.
func TestAResetStepWaitsForFoo(t *testing.T) {
	m := newTour(t)
	for m.Step() < 5 {
		if !m.Skip(Content{Facts: Facts{LiveFoo: "mine"}}) {
			t.Fatalf("skip at step %d", m.Step())
		}
	}
	// Blame resets foo: not ready while foo is "mine".
	if m.Step() != 5 || m.Ready() || !strings.Contains(m.View(), `tour 6/8 (getting ready: demo-writer sets foo back to "1")`) || !strings.Contains(m.View(), "step 5 skipped") {
		t.Fatalf("after skipping to blame: ready %v\n%s", m.Ready(), m.View())
	}
	if m.SetContent(Content{Facts: Facts{LiveFoo: "mine", Blame: true}}) || m.Ready() {
		t.Fatal("blame before the reset showed finished the step")
	}
	m.SetContent(Content{Facts: Facts{LiveFoo: "1"}})
	if !m.Ready() || !strings.Contains(m.View(), Steps[5].Do) {
		t.Fatalf("after the reset: %s", m.View())
	}
	if !m.SetContent(Content{Facts: Facts{LiveFoo: "1", Blame: true}}) || m.Step() != 6 {
		t.Fatalf("blame did not finish its step: %d", m.Step())
	}
	for m.Step() < len(Steps) {
		m.Skip(Content{Facts: Facts{LiveFoo: "1"}})
	}
	if m.Skip(Content{}) || !strings.Contains(m.View(), "tour done") {
		t.Errorf("skip after the end: %s", m.View())
	}
}

// TestSkipKey: alt+n asks to skip while a step is under way, and is in
// the tour's help; other keys are the views'.
func TestSkipKey(t *testing.T) {
	m := newTour(t)
	_, cmd := m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("n"), Alt: true})
	if cmd == nil {
		t.Fatal("alt+n asked nothing")
	}
	if _, ok := cmd().(SkipMsg); !ok {
		t.Errorf("alt+n: %T", cmd())
	}
	if _, cmd := m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("n")}); cmd != nil || m.Takes(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("n")}) {
		t.Error("n is the tour's")
	}
	if h := DefaultKeyMap().ShortHelp(); len(h) != 1 || h[0].Help().Key != "alt+n" {
		t.Errorf("help: %v", h)
	}
}

// TestStepsPrepareTheWriter: the conflict's step makes the writer write
// foo next, the clean rebase's another field.
func TestStepsPrepareTheWriter(t *testing.T) {
	if Steps[1].Writes != WritesMine || Steps[3].Writes != WritesOther {
		t.Errorf("writes: %v %v", Steps[1].Writes, Steps[3].Writes)
	}
	// The steps that start from foo "1": the first (a kept demo's foo
	// may be anything), blame, the lost update and the race.
	var reset []int
	for i, s := range Steps {
		if s.Reset {
			reset = append(reset, i+1)
		}
	}
	if fmt.Sprint(reset) != "[1 6 7 8]" {
		t.Errorf("steps that reset foo: %v", reset)
	}
}

// TestReadsAreSaidWithWhy: the first step's e reads the schema and asks
// whether the user may save: the line says what was sent and why, and
// that nothing was written (was "nothing was sent").
func TestReadsAreSaidWithWhy(t *testing.T) {
	m := newTour(t)
	reads := []Request{
		{Seq: 3, Who: "kedit", Method: "GET", Path: "/openapi/v3", Status: "200", Read: ReadSchema},
		{Seq: 4, Who: "kedit", Method: "POST", Path: "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews", Status: "201", Read: ReadAccess},
		{Seq: 5, Who: "kedit", Method: "GET", Path: "/openapi/v3/api/v1", Status: "200", Read: ReadSchema},
	}
	m.SetContent(Content{Facts: Facts{Draft: true, DraftFoo: "mine", BaseFoo: "1", BaseRV: "202"}, Requests: reads})
	want := "on the wire: kedit read the schema to check the draft as the server will (GET /openapi/v3, GET /openapi/v3/api/v1) and asked whether you may save it (POST /apis/authorization.k8s.io/v1/selfsubjectaccessreviews); nothing was written: the draft is on your disk, based on rv 202"
	if got := strings.Join(strings.Fields(ansi.Strip(m.View())), " "); !strings.Contains(got, want) {
		t.Errorf("after step 1:\n%s\nwant %q", got, want)
	}
}

// TestOffThePathIsSaid: w pressed before e in the clean rebase's step
// spends the write on foo, and s opens a conflict: the tour says the
// session left the step's path and the ways back, wrapped at words within
// 80 columns, until the step is skipped.
func TestOffThePathIsSaid(t *testing.T) {
	m := newTour(t)
	m.SetSize(80, 2)
	for m.Step() < 3 {
		m.Skip(Content{Facts: Facts{LiveFoo: "1", Object: true}})
	}
	m.SetContent(Content{Facts: Facts{LiveFoo: "2", Draft: true, Rebasing: true, Conflicts: 1, OpenConflicts: 1}})
	out := ansi.Strip(m.View())
	flat := strings.Join(strings.Fields(out), " ")
	if !strings.Contains(flat, "tour 4/8: "+Steps[3].Do) ||
		!strings.Contains(flat, "off the step's path: a conflict opened, not a clean rebase: demo-writer wrote foo, which your draft changes; alt+n skips to the next step, prepared") {
		t.Errorf("the conflict off the step's path is not said:\n%s", out)
	}
	for _, l := range strings.Split(out, "\n") {
		if ansi.StringWidth(l) > 80 {
			t.Errorf("a line wider than 80: %q", l)
		}
	}
	m.Skip(Content{Facts: Facts{LiveFoo: "1"}})
	if strings.Contains(m.View(), "off the step's path") {
		t.Errorf("the next step still says the last one's path was left:\n%s", m.View())
	}
}

// TestARunIsAtOnceOnlyWhenTheTimesSaySo: the race's line says its
// requests went "at once" only when every one was sent before the first
// answer came back; requests a rate limit held back (two of ten sent 200
// and 400ms later, after the winner was stored) are said as they went.
func TestARunIsAtOnceOnlyWhenTheTimesSaySo(t *testing.T) {
	reqs := race(1, 10)
	if got := explainRun(reqs); !strings.Contains(got, "10 PATCH requests with rv none at once: 1 × 200") {
		t.Errorf("ten sent together: %q", got)
	}
	reqs[8].Sent = reqs[0].Sent.Add(200 * time.Millisecond)
	reqs[9].Sent = reqs[0].Sent.Add(400 * time.Millisecond)
	got := explainRun(reqs)
	if want := "kedit sent 10 PATCH requests with rv none over 400ms, 2 of them after the first answer: 1 × 200"; !strings.HasPrefix(got, want) || strings.Contains(got, "at once") {
		t.Errorf("two held back: %q, want it to start %q", got, want)
	}
}
