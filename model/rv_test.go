package model

import (
	"errors"
	"reflect"
	"testing"
)

// TestTheirsOlderThanBaseIsFetchedAgain: a theirs older than base (the
// watch's copy from before kedit's own save, while it reconnects) never
// starts a rebase: the merge would take base's changes back.
func TestTheirsOlderThanBaseIsFetchedAgain(t *testing.T) {
	s := opened(t, cmRef, cm("5", "foo", "1", "bar", "1"))
	must(t, s, DraftEdited{Text: text(t, cm("5", "foo", "2", "bar", "1"))})
	must(t, s, SaveRequested{})
	must(t, s, Saved{Object: cm("6", "foo", "2", "bar", "1"), At: at(1)})
	must(t, s, DraftEdited{Text: text(t, cm("6", "foo", "3", "bar", "1"))})
	must(t, s, SaveRequested{})
	must(t, s, SaveFailed{Err: conflictErr()})
	effects := must(t, s, Conflicted{Theirs: cm("5", "foo", "1", "bar", "1"), At: at(2)})
	if !reflect.DeepEqual(effects, []Effect{FetchTheirs{Ref: cmRef, NotRV: "6", Fresh: true}}) {
		t.Fatalf("effects = %s, want FetchTheirs again, from the server", describe(effects))
	}
	wantState(t, s, StateWaitingTheirs)
}

// TestTheirsNotNewerOnTheServerFailsTheSave: the session alone checks that
// theirs is newer than base. A stale copy from the informer is asked again
// from the server (Fresh); when the server's copy is not newer either, the
// save fails saying so, and the draft is kept.
func TestTheirsNotNewerOnTheServerFailsTheSave(t *testing.T) {
	s := opened(t, cmRef, cm("5", "foo", "1", "bar", "1"))
	must(t, s, DraftEdited{Text: text(t, cm("5", "foo", "2", "bar", "1"))})
	must(t, s, SaveRequested{})
	effects := must(t, s, SaveFailed{Err: conflictErr()})
	if !reflect.DeepEqual(effects, []Effect{FetchTheirs{Ref: cmRef, NotRV: "5"}}) {
		t.Fatalf("after the conflict: %s, want FetchTheirs from the informer", describe(effects))
	}
	effects = must(t, s, Conflicted{Theirs: cm("4", "foo", "1", "bar", "1"), At: at(1)})
	if !reflect.DeepEqual(effects, []Effect{FetchTheirs{Ref: cmRef, NotRV: "5", Fresh: true}}) {
		t.Fatalf("after a stale copy: %s, want FetchTheirs from the server", describe(effects))
	}
	wantState(t, s, StateWaitingTheirs)
	effects = must(t, s, Conflicted{Theirs: cm("5", "foo", "1", "bar", "1"), At: at(2)})
	wantState(t, s, StateFailed)
	var notNewer *TheirsNotNewerError
	if f := s.Failure(); len(effects) != 0 || f == nil || !errors.As(f.Err, &notNewer) {
		t.Fatalf("effects %s, failure %+v: want a *TheirsNotNewerError", describe(effects), s.Failure())
	}
	if want := "configmaps/testmap: the server refused the save as a conflict, but its copy (resourceVersion 5) is not newer than base (5): nothing to rebase onto; the draft is kept"; notNewer.Error() != want {
		t.Errorf("error %q, want %q", notNewer, want)
	}
	if foo, _ := dataOf(s.Draft().Object, "foo"); foo != "2" {
		t.Errorf("the draft holds foo=%q, want its 2", foo)
	}
	// A newer copy from the server after all: the rebase goes on.
	must(t, s, SaveRequested{})
	must(t, s, SaveFailed{Err: conflictErr()})
	must(t, s, Conflicted{Theirs: cm("4", "foo", "1", "bar", "1"), At: at(3)})
	must(t, s, Conflicted{Theirs: cm("6", "foo", "1", "bar", "3"), At: at(4)})
	if rb := s.Rebase(); rb == nil || rb.Theirs.ResourceVersion != "6" {
		t.Fatalf("state %s: want a rebase onto rv 6", s.State())
	}
}
