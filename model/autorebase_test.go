package model

import (
	"testing"
)

// TestAutoRebaseResubmitsACleanRebase: with SetAutoRebase, a clean
// rebase after a conflict is sent at once with theirs' resourceVersion,
// AutoRebased says what it merged while the save is in flight, the save's
// report keeps it, and it goes with the save.
func TestAutoRebaseResubmitsACleanRebase(t *testing.T) {
	s := editing(t, "2") // mine: foo 1 -> 2
	s.SetAutoRebase(true)
	must(t, s, SaveRequested{})
	must(t, s, SaveFailed{Err: conflictErr()})
	if _, ok := s.AutoRebased(); ok {
		t.Fatal("AutoRebased before any rebase")
	}
	effects := must(t, s, Conflicted{Theirs: cm("5", "foo", "1", "bar", "9"), At: at(2)}) // theirs: bar 1 -> 9
	wantState(t, s, StateSaving)
	save := saveOf(t, effects)
	if save.ResourceVersion != "5" || !save.Resubmit {
		t.Fatalf("auto-resubmit rv %q resubmit %v, want theirs' 5", save.ResourceVersion, save.Resubmit)
	}
	a, ok := s.AutoRebased()
	if !ok || a.OntoRV != "5" || a.Merge == nil || len(a.Merge.Changes) != 2 {
		t.Fatalf("AutoRebased = %+v, %v; want onto rv 5 with both changes", a, ok)
	}
	must(t, s, Saved{Object: cm("6", "foo", "2", "bar", "9"), At: at(3)})
	wantState(t, s, StateSaved)
	if r := s.LastSave(); r == nil || r.AutoRebased == nil || r.AutoRebased.OntoRV != "5" {
		t.Errorf("report = %+v, want AutoRebased onto rv 5", r)
	}
	if _, ok := s.AutoRebased(); ok {
		t.Error("AutoRebased outlives the save it sent")
	}
}

// TestAutoRebaseLeavesConflictsToTheUser: a rebase with a conflict waits
// in the conflict view with --auto-rebase as without it, and so does the
// same rebase without SetAutoRebase.
func TestAutoRebaseLeavesConflictsToTheUser(t *testing.T) {
	for _, auto := range []bool{false, true} {
		s := editing(t, "2")
		s.SetAutoRebase(auto)
		must(t, s, SaveRequested{})
		must(t, s, SaveFailed{Err: conflictErr()})
		effects := must(t, s, Conflicted{Theirs: cm("5", "foo", "3", "bar", "1"), At: at(1)})
		wantState(t, s, StateResolving)
		if len(effects) != 0 {
			t.Errorf("auto %v: effects %s on a conflict, want none", auto, describe(effects))
		}
		if _, ok := s.AutoRebased(); ok {
			t.Errorf("auto %v: AutoRebased with a conflict open", auto)
		}
	}
	s := editing(t, "2")
	must(t, s, SaveRequested{})
	must(t, s, SaveFailed{Err: conflictErr()})
	must(t, s, Conflicted{Theirs: cm("5", "foo", "1", "bar", "9"), At: at(2)})
	wantState(t, s, StateRebasing) // clean, but waits: no --auto-rebase
}
