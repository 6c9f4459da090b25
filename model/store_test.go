package model

import (
	"reflect"
	"testing"
)

// TestStoreEffectsAreOrdered: every WriteDraft and DeleteDraft carries a
// Seq that grows, so that the store can drop a write that arrives after a
// newer one (a draft written and saved at once, two quick edits).
func TestStoreEffectsAreOrdered(t *testing.T) {
	s := opened(t, cmRef, cm("1", "foo", "1"))
	var seqs []uint64
	collect := func(effects []Effect) {
		for _, e := range effects {
			switch e := e.(type) {
			case WriteDraft:
				seqs = append(seqs, e.Seq)
			case DeleteDraft:
				seqs = append(seqs, e.Seq)
			}
		}
	}
	collect(must(t, s, DraftEdited{Text: text(t, cm("1", "foo", "2"))}))
	collect(must(t, s, DraftEdited{Text: text(t, cm("1", "foo", "3"))}))
	collect(must(t, s, SaveRequested{}))
	collect(must(t, s, Saved{Object: cm("2", "foo", "3"), At: at(1)}))
	collect([]Effect{s.StoreDraft()})
	if !reflect.DeepEqual(seqs, []uint64{1, 2, 3, 4}) {
		t.Errorf("Seq of the store effects = %v, want 1 2 3 4", seqs)
	}
	if _, ok := s.StoreDraft().(DeleteDraft); !ok {
		t.Error("StoreDraft without a draft is not a DeleteDraft")
	}
	must(t, s, DraftEdited{Text: text(t, cm("2", "foo", "4"))})
	if w, ok := s.StoreDraft().(WriteDraft); !ok || w.Text != s.Draft().Text || w.BaseResourceVersion != "2" || w.Seq != 7 {
		t.Errorf("StoreDraft with a draft = %#v, want a WriteDraft of it", s.StoreDraft())
	}
}

// TestRecoverDraftOfRecreatedObject: a stored draft made on an object that
// was deleted and created again under the same name is taken as it
// stands, over the object as it is now: never rebased from the old
// object's base, and saved with the new object's uid.
func TestRecoverDraftOfRecreatedObject(t *testing.T) {
	now := cm("40", "foo", "new", "bar", "1")
	now.SetUID("new-uid")
	s := opened(t, cmRef, now)
	old := cm("7", "foo", "1", "bar", "1")
	mine := cm("7", "foo", "mine", "bar", "1")
	must(t, s, RecoverDraft{Draft: StoredDraft{Text: text(t, mine), BaseResourceVersion: "7", Base: old, UID: "1234"}})
	wantState(t, s, StateEditing)
	if got := s.Base().ResourceVersion; got != "40" {
		t.Fatalf("base rv = %s, want the object as it is now (40), not the old object's", got)
	}
	save := saveOf(t, must(t, s, SaveRequested{}))
	if save.ResourceVersion != "40" || save.Object.GetUID() != "new-uid" {
		t.Errorf("save at rv %s with uid %s, want rv 40 and the object's uid now", save.ResourceVersion, save.Object.GetUID())
	}
	if v, _ := dataOf(save.Object, "foo"); v != "mine" {
		t.Errorf("saved foo = %q, want the draft's", v)
	}
}
