package model

import (
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
	if !reflect.DeepEqual(effects, []Effect{FetchTheirs{Ref: cmRef, NotRV: "6"}}) {
		t.Fatalf("effects = %s, want FetchTheirs again", describe(effects))
	}
	wantState(t, s, StateWaitingTheirs)
}
