package model

import (
	"errors"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/kedit/kedit/diff"
)

// TestRulesHoldOnRandomWalks drives sessions with random sequences of
// intents and outcomes and checks the session's rules after every step:
// no Save without a resourceVersion, no resubmit over an open conflict, no
// failure that touches the draft, refusals that change nothing, and states
// that agree with what the session holds.
func TestRulesHoldOnRandomWalks(t *testing.T) {
	walks, steps := 300, 40
	if testing.Short() {
		walks = 50
	}
	visited := map[State]int{}
	for w := range walks {
		r := rand.New(rand.NewPCG(uint64(w), 1))
		s := opened(t, cmRef, cm("1", "foo", "1", "bar", "1"))
		rv := 1
		next := func() string { rv++; return strconv.Itoa(rv) }
		val := func() string { return strconv.Itoa(r.IntN(3)) }
		for step := range steps {
			var ev Event
			switch r.IntN(14) {
			case 0, 1:
				ev = DraftEdited{Text: text(t, cm("0", "foo", val(), "bar", val()))}
			case 2:
				ev = DraftEdited{Text: "data: [\n"}
			case 3, 4:
				ev = SaveRequested{}
			case 5:
				ev = Saved{Object: cm(next(), "foo", val(), "bar", val())}
			case 6:
				kinds := []ErrorKind{ErrorConflict, ErrorConflict, ErrorInvalid, ErrorNotFound, ErrorUnavailable}
				ev = SaveFailed{Err: &APIError{Kind: kinds[r.IntN(len(kinds))]}}
			case 7:
				ev = Conflicted{Theirs: cm(next(), "foo", val(), "bar", val())}
			case 8:
				ev = LiveChanged{Type: LiveModified, Object: cm(next(), "foo", val(), "bar", val())}
			case 9:
				ev = Resolve{Index: r.IntN(2), Resolution: diff.Resolution{Choice: diff.Choice(r.IntN(4))}}
			case 10:
				ev = Resubmit{}
			case 11:
				ev = RebaseRequested{}
			case 12:
				ev = ResolveAll{Choice: diff.TakeTheirs}
			case 13:
				if n := r.IntN(8); n == 0 {
					ev = DiscardDraft{}
				} else if n == 1 {
					ev = AbandonRebase{}
				} else {
					ev = MergedEdited{Text: text(t, cm("0", "foo", val(), "bar", val()))}
				}
			}
			before := snapshot(s)
			openBefore := s.OpenConflicts()
			state, effects, err := s.Handle(ev)
			where := func() string { return "walk " + strconv.Itoa(w) + " step " + strconv.Itoa(step) + ": " }
			if state != s.State() {
				t.Fatalf("%sHandle returned %s, State() is %s", where(), state, s.State())
			}
			_, isDraftErr := err.(*DraftError)
			if err != nil && !isDraftErr && snapshot(s) != before {
				t.Fatalf("%s%T refused (%v) but changed the session:\n%+v\n%+v", where(), ev, err, before, snapshot(s))
			}
			for _, e := range effects {
				if sv, ok := e.(Save); ok {
					if sv.ResourceVersion == "" || sv.Object.GetResourceVersion() != sv.ResourceVersion {
						t.Fatalf("%sSave with rv %q, object rv %q", where(), sv.ResourceVersion, sv.Object.GetResourceVersion())
					}
					if sv.Base == nil || sv.Base.GetResourceVersion() != sv.ResourceVersion {
						t.Fatalf("%sSave at rv %q carries a base at another version", where(), sv.ResourceVersion)
					}
					if sv.Resubmit && openBefore > 0 {
						t.Fatalf("%sresubmit with %d open conflicts", where(), openBefore)
					}
				}
			}
			if _, ok := ev.(SaveFailed); ok && err == nil && s.Draft().Text != before.draft {
				t.Fatalf("%sa failure changed the draft", where())
			}
			checkStateAgrees(t, where(), s)
			visited[state]++
			if errors.Is(err, ErrNotOpen) {
				t.Fatalf("%s%v", where(), err)
			}
		}
	}
	// The walks must reach every state, or they check less than they say.
	for st := StateViewing; st <= StateWaitingTheirs; st++ {
		if visited[st] == 0 {
			t.Errorf("no walk reached %s: %v", st, visited)
		}
	}
	t.Logf("steps per state: %v", visited)
}

type snap struct {
	state        State
	draft        string
	hasDraft     bool
	base, live   string
	rebase       *Rebase
	open         int
	failure      *Failure
	pendingSaves bool
}

func snapshot(s *Session) snap {
	sn := snap{state: s.state, base: s.base.ResourceVersion, live: s.live.ResourceVersion, rebase: s.rebase, open: s.OpenConflicts(), failure: s.failure, pendingSaves: s.pending != nil}
	if s.draft != nil {
		sn.draft, sn.hasDraft = s.draft.Text, true
	}
	return sn
}

func checkStateAgrees(t *testing.T, where string, s *Session) {
	t.Helper()
	rb := s.Rebase()
	switch s.State() {
	case StateViewing, StateSaved:
		if s.Draft() != nil || rb != nil {
			t.Fatalf("%s%s with a draft or rebase", where, s.State())
		}
	case StateEditing:
		if s.Draft() == nil || rb != nil {
			t.Fatalf("%sediting without a draft, or with a rebase", where)
		}
	case StateSaving:
		if s.pending == nil || s.Draft() == nil {
			t.Fatalf("%ssaving without a save in flight or a draft", where)
		}
	case StateRebasing:
		if rb == nil || rb.Merge == nil || rb.Merge.Open() > 0 {
			t.Fatalf("%srebasing with %v", where, rb)
		}
	case StateWaitingTheirs:
		// Waiting for theirs: a rebase without a merge, and nothing in
		// flight but the FetchTheirs.
		if rb == nil || rb.Merge != nil || s.pending != nil || s.OpenConflicts() != 0 {
			t.Fatalf("%swaiting for theirs with %v, pending %v", where, rb, s.pending)
		}
	case StateResolving:
		if rb == nil || rb.Merge == nil || rb.Merge.Open() == 0 {
			t.Fatalf("%sresolving without open conflicts", where)
		}
	case StateFailed:
		if s.Failure() == nil || s.Draft() == nil {
			t.Fatalf("%sfailed without a failure or a draft", where)
		}
	}
	if s.State() != StateFailed && s.Failure() != nil {
		t.Fatalf("%s%s with a failure left over", where, s.State())
	}
}
