package model

import (
	"errors"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
)

// withUID is obj with uid: another object of the same name when uid is
// not obj's.
func withUID(obj *unstructured.Unstructured, uid string) *unstructured.Unstructured {
	o := obj.DeepCopy()
	o.SetUID(types.UID(uid))
	return o
}

func TestMadeOnEarlierObject(t *testing.T) {
	for _, tc := range []struct {
		madeOn, now string
		want        bool
	}{
		{"a", "a", false},
		{"a", "b", true},
		{"", "b", false}, // a draft stored before uids were recorded
		{"a", "", false},
		{"", "", false},
	} {
		if got := MadeOnEarlierObject(tc.madeOn, tc.now); got != tc.want {
			t.Errorf("MadeOnEarlierObject(%q, %q) = %v, want %v", tc.madeOn, tc.now, got, tc.want)
		}
	}
}

// recreatedUnderDraft is a session with a draft (foo=mine) made on uid
// 1234 at rv 1, whose object the watch then saw deleted and created again
// as uid "new" at rv 5 holding newObj's data; events says how the watch
// saw it.
func recreatedUnderDraft(t *testing.T, events []LiveChanged) *Session {
	t.Helper()
	s := editing(t, "mine")
	for _, ev := range events {
		must(t, s, ev)
	}
	return s
}

func deletedThenCreated(newObj *unstructured.Unstructured) []LiveChanged {
	return []LiveChanged{
		{Type: LiveDeleted, Object: cm("1", "foo", "1", "bar", "1")},
		{Type: LiveAdded, Object: newObj},
	}
}

// onlyNewUID is what a watch that relisted after missing the events sees:
// the object at a newer version with another uid, as a modification.
func onlyNewUID(newObj *unstructured.Unstructured) []LiveChanged {
	return []LiveChanged{{Type: LiveModified, Object: newObj}}
}

// TestRecreatedUnderDraft: an object deleted and created again under a
// draft is another object, whether the watch saw the delete and the create
// or only the new uid: the banner says so with the new uid, a save asks
// first (refused without the yes, nothing changed), the yes merges the
// draft onto the new object through the conflict view, whose rebase says
// theirs is a new object, and its resubmit goes onto the new object.
func TestRecreatedUnderDraft(t *testing.T) {
	newObj := withUID(cm("5", "foo", "1", "bar", "1", "newteam", "x"), "new-0123456789")
	for name, events := range map[string][]LiveChanged{"delete then create": deletedThenCreated(newObj), "only a new uid": onlyNewUID(newObj)} {
		t.Run(name, func(t *testing.T) {
			s := recreatedUnderDraft(t, events)
			ch, ok := s.ServerChange()
			if !ok || !ch.Recreated || ch.UID != "new-0123456789" || ch.FromRV != "1" || ch.ToRV != "5" || len(ch.Changes) != 0 {
				t.Fatalf("banner %+v (%v), want created again as uid new-0123456789, rv 1 -> 5", ch, ok)
			}
			draft := s.Draft().Text
			_, effects, err := s.Handle(SaveRequested{})
			var re *RecreatedError
			if !errors.As(err, &re) || re.UID != "new-0123456789" || re.ResourceVersion != "5" || len(effects) != 0 {
				t.Fatalf("save without the yes: err %v, effects %s; want a *RecreatedError and nothing done", err, describe(effects))
			}
			if KindOf(err) != ErrorRecreated {
				t.Errorf("kind %s", KindOf(err))
			}
			wantState(t, s, StateEditing)
			if s.Draft().Text != draft || s.Base().ResourceVersion != "1" {
				t.Fatal("the refused save changed the draft or its base")
			}
			// --auto-rebase's resubmit cannot pass either: no rebase is
			// there to resubmit.
			if _, _, err := s.Handle(Resubmit{}); err == nil {
				t.Fatal("a resubmit without a rebase was taken")
			}

			effects = must(t, s, SaveRequested{OntoNewObject: true})
			if len(effectsOf[Save](effects)) != 0 {
				t.Fatalf("effects %s: the yes sent the draft before the user saw what the new object holds", describe(effects))
			}
			wantState(t, s, StateRebasing)
			rb := s.Rebase()
			if rb.CreatedAgain != "5" || rb.Theirs.ResourceVersion != "5" || rb.Base.GetResourceVersion() != "1" {
				t.Fatalf("rebase created again at %q, theirs %s, base %s", rb.CreatedAgain, rb.Theirs.ResourceVersion, rb.Base.GetResourceVersion())
			}
			save := saveOf(t, must(t, s, Resubmit{}))
			if save.ResourceVersion != "5" || save.Object.GetUID() != "new-0123456789" {
				t.Fatalf("resubmit at rv %s with uid %s, want the new object's", save.ResourceVersion, save.Object.GetUID())
			}
			if v, _ := dataOf(save.Object, "foo"); v != "mine" {
				t.Errorf("foo = %q, want mine", v)
			}
			if v, _ := dataOf(save.Object, "newteam"); v != "x" {
				t.Errorf("newteam = %q: the new object's field was dropped", v)
			}
			saved := withUID(cm("6", "foo", "mine", "bar", "1", "newteam", "x"), "new-0123456789")
			must(t, s, Saved{Object: saved})
			if r := s.LastSave(); r == nil || r.NewObject != "new-0123456789" {
				t.Errorf("report %+v, want it to name the new object", r)
			}
		})
	}
}

// TestRecreatedSameContentTakesTheDraft: a new object that holds what the
// earlier one held has nothing to merge: the yes sends the draft as it
// stands, onto the new object.
func TestRecreatedSameContentTakesTheDraft(t *testing.T) {
	s := recreatedUnderDraft(t, deletedThenCreated(withUID(cm("5", "foo", "1", "bar", "1"), "new")))
	draft := s.Draft().Text
	save := saveOf(t, must(t, s, SaveRequested{OntoNewObject: true}))
	if save.ResourceVersion != "5" || save.Object.GetUID() != "new" || save.Base.GetUID() != "new" {
		t.Fatalf("save at rv %s uid %s, want onto the new object", save.ResourceVersion, save.Object.GetUID())
	}
	if s.Draft().Text != draft {
		t.Error("the draft was rewritten")
	}
}

// TestRecreatedFoundByTheSave: the watch saw nothing, and the save's
// conflict finds another object: nothing is merged or sent, the save
// stops with ErrorRecreated and the draft as it was; the yes then goes as
// above.
func TestRecreatedFoundByTheSave(t *testing.T) {
	s := editing(t, "mine")
	draft := s.Draft().Text
	must(t, s, SaveRequested{})
	must(t, s, SaveFailed{Err: conflictErr()})
	wantState(t, s, StateWaitingTheirs)
	effects := must(t, s, Conflicted{Theirs: withUID(cm("7", "foo", "1", "bar", "2"), "other")})
	if len(effects) != 0 {
		t.Fatalf("effects %s after meeting another object", describe(effects))
	}
	wantState(t, s, StateFailed)
	if f := s.Failure(); f.Kind != ErrorRecreated {
		t.Fatalf("failure %+v, want created again", f)
	}
	if s.Draft().Text != draft || s.Rebase() != nil {
		t.Fatal("the draft changed, or a rebase onto the other object was made")
	}
	if ch, _ := s.ServerChange(); !ch.Recreated || ch.UID != "other" {
		t.Errorf("banner %+v", ch)
	}
	if _, _, err := s.Handle(SaveRequested{}); KindOf(err) != ErrorRecreated {
		t.Fatalf("a second s: %v, want the question again", err)
	}
	must(t, s, SaveRequested{OntoNewObject: true})
	wantState(t, s, StateRebasing)
	if rb := s.Rebase(); rb.CreatedAgain != "7" {
		t.Errorf("created again at %q", rb.CreatedAgain)
	}
}

// TestRecreatedDuringAResubmit: the object is created again while a
// resubmit is in flight: the rebase after its conflict is not made, the
// hot-object rules never send onto the new object, and the yes goes on.
func TestRecreatedDuringAResubmit(t *testing.T) {
	s := editing(t, "mine")
	must(t, s, SaveRequested{})
	must(t, s, SaveFailed{Err: conflictErr()})
	must(t, s, Conflicted{Theirs: cm("3", "foo", "1", "bar", "2")})
	saveOf(t, must(t, s, Resubmit{})) // arms the rule for changing data
	must(t, s, SaveFailed{Err: conflictErr()})
	// Only server-owned fields differ: the hot-object rule would take it.
	effects := must(t, s, Conflicted{Theirs: withUID(withStatus(cm("9", "foo", "1", "bar", "2"), "9", "x"), "other")})
	if len(effectsOf[Save](effects)) != 0 {
		t.Fatalf("effects %s: sent onto another object without a yes", describe(effects))
	}
	wantState(t, s, StateFailed)
}

// TestRecreatedRebaseAsksAtResubmit: r rebases onto the new object
// without a yes (the view says theirs is a new object); its resubmit asks.
func TestRecreatedRebaseAsksAtResubmit(t *testing.T) {
	s := recreatedUnderDraft(t, onlyNewUID(withUID(cm("5", "foo", "1", "bar", "9"), "new")))
	must(t, s, RebaseRequested{})
	if rb := s.Rebase(); rb == nil || rb.CreatedAgain != "5" {
		t.Fatalf("rebase %+v", rb)
	}
	if _, effects, err := s.Handle(Resubmit{}); KindOf(err) != ErrorRecreated || len(effects) != 0 {
		t.Fatalf("resubmit without the yes: %v, %s", err, describe(effects))
	}
	if _, effects, err := s.Handle(SaveRequested{}); KindOf(err) != ErrorRecreated || len(effects) != 0 {
		t.Fatalf("s in the view without the yes: %v, %s", err, describe(effects))
	}
	save := saveOf(t, must(t, s, Resubmit{OntoNewObject: true}))
	if save.Object.GetUID() != "new" {
		t.Errorf("uid %s", save.Object.GetUID())
	}
	// Back in the view and out again: the yes is not kept past the rebase.
	s = recreatedUnderDraft(t, onlyNewUID(withUID(cm("5", "foo", "1", "bar", "9"), "new")))
	must(t, s, SaveRequested{OntoNewObject: true})
	must(t, s, AbandonRebase{})
	if _, _, err := s.Handle(SaveRequested{}); KindOf(err) != ErrorRecreated {
		t.Errorf("after leaving the view, s: %v, want the question again", err)
	}
}

// TestRecoveryAndSaveShareTheRule: a stored draft of uid 1234 recovered on
// another object is taken over it as it stands; a save of it then goes
// without a question (the recovery asked).
func TestRecoveryAndSaveShareTheRule(t *testing.T) {
	s := opened(t, cmRef, withUID(cm("5", "foo", "1", "bar", "1"), "new"))
	must(t, s, RecoverDraft{Draft: StoredDraft{Text: text(t, cm("1", "foo", "mine", "bar", "1")), BaseResourceVersion: "1", UID: "1234"}})
	save := saveOf(t, must(t, s, SaveRequested{}))
	if save.ResourceVersion != "5" || save.Object.GetUID() != "new" {
		t.Errorf("save at rv %s uid %s", save.ResourceVersion, save.Object.GetUID())
	}
}
