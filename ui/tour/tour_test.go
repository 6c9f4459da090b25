package tour

import (
	"strings"
	"testing"

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
			notYet: []Facts{{Draft: true, DraftFoo: "mine again"}, {SavedRV: "210"}, {Rebasing: true, Merged: 2, Draft: true}},
			done:   Facts{SavedRV: "213"},
			said:   []string{"nothing was sent"}},
		{name: "timeline",
			notYet: []Facts{{SavedRV: "213"}},
			done:   Facts{SavedRV: "213", Timeline: true},
			said:   []string{"the versions the watch brought"}},
	}
	for i, s := range steps {
		if !strings.Contains(m.View(), Steps[i].Do) {
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

// TestStepsPrepareTheWriter: the conflict's step makes the writer write
// foo next, the clean rebase's another field.
func TestStepsPrepareTheWriter(t *testing.T) {
	if Steps[1].Writes != WritesMine || Steps[3].Writes != WritesOther {
		t.Errorf("writes: %v %v", Steps[1].Writes, Steps[3].Writes)
	}
}
