package model

import (
	"reflect"
	"strconv"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kedit/kedit/diff"
)

// beat is base with .data.heartbeat set to n at rv, written by the
// field manager heartbeater.
func beat(base *unstructured.Unstructured, rv string, n int) *unstructured.Unstructured {
	o := base.DeepCopy()
	o.SetResourceVersion(rv)
	_ = unstructured.SetNestedField(o.Object, strconv.Itoa(n), "data", "heartbeat")
	return withManaged(o, mf{"kubectl-create", "Update", 0, `{"f:data":{"f:foo":{},"f:bar":{}}}`},
		mf{"heartbeater", "Update", n, `{"f:data":{"f:heartbeat":{}}}`})
}

// seenAndResubmitted brings a session with a draft setting foo to mine
// through a first conflict whose theirs changed only the heartbeat: the
// rebase waits in the view (the user has not seen one yet), and the user
// resubmits it.
func seenAndResubmitted(t *testing.T) *Session {
	t.Helper()
	s := editing(t, "mine")
	base := s.Base().Object
	must(t, s, SaveRequested{})
	must(t, s, SaveFailed{Err: conflictErr()})
	must(t, s, Conflicted{Theirs: beat(base, "3", 1)})
	wantState(t, s, StateRebasing)
	if save := saveOf(t, must(t, s, Resubmit{})); save.ResourceVersion != "3" {
		t.Fatalf("resubmit at rv %s", save.ResourceVersion)
	}
	return s
}

// TestDataChangesRebaseAgainAtOnce: once the user has seen the rebase view
// and resubmitted, a conflict whose theirs changed only a field the user
// neither changed nor decided is rebased and resubmitted at once, again
// and again, keeping the user's change and theirs'; what was merged is
// reported, and the save's report counts the rounds.
func TestDataChangesRebaseAgainAtOnce(t *testing.T) {
	s := seenAndResubmitted(t)
	base := cm("1", "foo", "1", "bar", "1")
	for i := 2; i <= 4; i++ {
		rv := strconv.Itoa(2 + 2*i)
		must(t, s, SaveFailed{Err: conflictErr()})
		effects := must(t, s, Conflicted{Theirs: beat(base, rv, i)})
		save := saveOf(t, effects)
		if save.ResourceVersion != rv || !save.Resubmit {
			t.Fatalf("round %d: save %+v, want a resubmit at rv %s", i, save.ResourceVersion, rv)
		}
		if v, _ := dataOf(save.Object, "foo"); v != "mine" {
			t.Fatalf("round %d: foo = %q, want mine", i, v)
		}
		if v, _ := dataOf(save.Object, "heartbeat"); v != strconv.Itoa(i) {
			t.Fatalf("round %d: heartbeat = %q, want theirs' %d", i, v, i)
		}
		if v, _ := dataOf(s.Draft().Object, "heartbeat"); v != strconv.Itoa(i) {
			t.Fatalf("round %d: the draft's heartbeat is %q: a later save would undo theirs", i, v)
		}
		if len(effectsOf[WriteDraft](effects)) != 1 {
			t.Errorf("round %d: effects %s, want the merged draft stored", i, describe(effects))
		}
		ra, ok := s.RebasedAgain()
		want := RebaseAgain{Rounds: i - 1, OntoRV: rv, Changes: []string{".data.heartbeat"}, Manager: "heartbeater"}
		if !ok || !reflect.DeepEqual(ra, want) {
			t.Fatalf("round %d: RebasedAgain() = %+v, %v; want %+v", i, ra, ok, want)
		}
	}
	must(t, s, Saved{Object: beat(cm("11", "foo", "mine", "bar", "1"), "11", 4)})
	if r := s.LastSave(); r.RebasedAgain.Rounds != 3 || r.RebasedAgain.OntoRV != "10" || r.ServerRebases != 0 {
		t.Errorf("report %+v", r)
	}
	if _, ok := s.RebasedAgain(); ok {
		t.Error("the rule still reports after the save landed")
	}
}

// TestDataChangesStopAtANewCollision: a change of theirs to a field the
// user changed, or decided in the view (whatever the resolution), or that
// both sides had set alike, stops the rule: the rebase waits for the user.
func TestDataChangesStopAtANewCollision(t *testing.T) {
	for _, tc := range []struct {
		name string
		// draftBar is the draft's bar, theirs1 the first theirs' bar, and
		// choice how the conflict (if any) is resolved.
		draftBar, theirs1 string
		choice            diff.Choice
		// theirs2 is the bar of the theirs the resubmit meets.
		theirs2 string
		want    State
	}{
		{"decided to theirs, changed again", "mine", "t1", diff.TakeTheirs, "t2", StateRebasing},
		{"decided to mine, changed again", "mine", "t1", diff.TakeMine, "t2", StateResolving},
		{"both set alike, changed again", "same", "same", diff.Unresolved, "t2", StateRebasing},
		{"the user's change, changed by theirs", "mine", "1", diff.Unresolved, "t2", StateResolving},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := opened(t, cmRef, cm("1", "foo", "1", "bar", "1"))
			must(t, s, DraftEdited{Text: text(t, cm("1", "foo", "1", "bar", tc.draftBar))})
			must(t, s, SaveRequested{})
			must(t, s, SaveFailed{Err: conflictErr()})
			must(t, s, Conflicted{Theirs: beat(cm("3", "foo", "1", "bar", tc.theirs1), "3", 1)})
			if tc.choice != diff.Unresolved {
				must(t, s, ResolveAll{Choice: tc.choice})
			}
			saveOf(t, must(t, s, Resubmit{}))
			must(t, s, SaveFailed{Err: conflictErr()})
			effects := must(t, s, Conflicted{Theirs: beat(cm("5", "foo", "1", "bar", tc.theirs2), "5", 2)})
			if len(effectsOf[Save](effects)) != 0 {
				t.Fatalf("effects %s: resubmitted over a change to what the user decided", describe(effects))
			}
			wantState(t, s, tc.want)
		})
	}
}

// TestDataChangesNeedTheUsersResubmit: without a resubmit seen by the user
// the rule is not armed, and leaving the view (esc) disarms it.
func TestDataChangesNeedTheUsersResubmit(t *testing.T) {
	s := editing(t, "mine")
	must(t, s, SaveRequested{})
	must(t, s, SaveFailed{Err: conflictErr()})
	if effects := must(t, s, Conflicted{Theirs: beat(cm("3", "foo", "1", "bar", "1"), "3", 1)}); len(effectsOf[Save](effects)) != 0 {
		t.Fatalf("the first data change was resubmitted unseen: %s", describe(effects))
	}
	saveOf(t, must(t, s, Resubmit{}))
	must(t, s, SaveFailed{Err: conflictErr()})
	// bar is no one's decision: it goes at once.
	saveOf(t, must(t, s, Conflicted{Theirs: beat(cm("1", "foo", "1", "bar", "2"), "5", 2)}))
	must(t, s, SaveFailed{Err: conflictErr()})
	must(t, s, Conflicted{Theirs: beat(cm("1", "foo", "theirs", "bar", "2"), "7", 3)})
	wantState(t, s, StateResolving)
	must(t, s, AbandonRebase{})
	// The user takes theirs' foo and changes bar instead: the save meets
	// live (rv 7), which now changed only the heartbeat beside what the
	// draft holds. Clean, but the user left the view: it waits.
	must(t, s, DraftEdited{Text: text(t, beat(cm("5", "foo", "theirs", "bar", "x"), "5", 2))})
	effects := must(t, s, SaveRequested{})
	effects = append(effects, must(t, s, SaveFailed{Err: conflictErr()})...)
	if len(effectsOf[Save](effects)) != 1 {
		t.Fatalf("effects %s: want only the user's save", describe(effects))
	}
	wantState(t, s, StateRebasing)
}

// TestDataChangesAreBounded: after MaxRebasesAgain rounds in a row the
// next clean rebase waits for the user, and RebasedAgain says so; the
// user's resubmit starts the count again.
func TestDataChangesAreBounded(t *testing.T) {
	s := seenAndResubmitted(t)
	base := cm("1", "foo", "1", "bar", "1")
	rv := 10
	for i := range MaxRebasesAgain + 1 {
		rv++
		must(t, s, SaveFailed{Err: conflictErr()})
		must(t, s, Conflicted{Theirs: beat(base, strconv.Itoa(rv), 10+i)})
	}
	wantState(t, s, StateRebasing)
	ra, ok := s.RebasedAgain()
	if !ok || !ra.Stopped || ra.Rounds != MaxRebasesAgain {
		t.Fatalf("RebasedAgain() = %+v, %v; want stopped after %d", ra, ok, MaxRebasesAgain)
	}
	saveOf(t, must(t, s, Resubmit{}))
	if _, ok := s.RebasedAgain(); ok {
		t.Error("the count did not start again at the user's resubmit")
	}
	must(t, s, SaveFailed{Err: conflictErr()})
	saveOf(t, must(t, s, Conflicted{Theirs: beat(base, strconv.Itoa(rv+1), 99)}))
}

// TestHandEditedMergeArmsTheRule: the merged text edited by hand in the
// view and saved counts as the user's resubmit; what the edit changed is
// protected too.
func TestHandEditedMergeArmsTheRule(t *testing.T) {
	s := editing(t, "mine")
	must(t, s, SaveRequested{})
	must(t, s, SaveFailed{Err: conflictErr()})
	must(t, s, Conflicted{Theirs: beat(cm("3", "foo", "1", "bar", "1"), "3", 1)})
	merged := beat(cm("3", "foo", "mine", "bar", "by hand"), "3", 1)
	must(t, s, MergedEdited{Text: text(t, merged)})
	saveOf(t, must(t, s, SaveRequested{}))
	must(t, s, SaveFailed{Err: conflictErr()})
	saveOf(t, must(t, s, Conflicted{Theirs: beat(cm("3", "foo", "1", "bar", "1"), "5", 2)}))
	must(t, s, SaveFailed{Err: conflictErr()})
	if effects := must(t, s, Conflicted{Theirs: beat(cm("3", "foo", "1", "bar", "changed"), "7", 3)}); len(effectsOf[Save](effects)) != 0 {
		t.Fatalf("theirs changed the field edited by hand, and it went at once: %s", describe(effects))
	}
}
