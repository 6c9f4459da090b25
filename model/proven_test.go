package model

import (
	"reflect"
	"strconv"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// withStatus is obj at rv with a status, as a controller writes it.
func withStatus(obj *unstructured.Unstructured, rv, heartbeat string) *unstructured.Unstructured {
	o := obj.DeepCopy()
	o.SetResourceVersion(rv)
	o.Object["status"] = map[string]any{"heartbeat": heartbeat}
	return o
}

func effectsOf[E Effect](effects []Effect) []E {
	var out []E
	for _, e := range effects {
		if x, ok := e.(E); ok {
			out = append(out, x)
		}
	}
	return out
}

// TestHotObjectRebasesAtOnce: a conflict whose theirs changed only status
// and server-owned metadata is resubmitted at once onto theirs, with the
// draft as typed; the conflict view never opens, and the report says so.
func TestHotObjectRebasesAtOnce(t *testing.T) {
	s := editing(t, "2")
	draft := s.Draft().Text
	must(t, s, SaveRequested{})
	base := s.Base().Object
	theirs := withStatus(base, "5", "12:00:01")
	must(t, s, SaveFailed{Err: &APIError{Kind: ErrorConflict}})
	if st := s.State(); st != StateWaitingTheirs {
		t.Fatalf("state %s, want waiting for theirs (live was not newer)", st)
	}
	effects := must(t, s, Conflicted{Theirs: theirs})
	wantState(t, s, StateSaving)
	save := saveOf(t, effects)
	if save.ResourceVersion != "5" || !save.Resubmit {
		t.Fatalf("save %+v, want a resubmit with theirs' rv 5", save)
	}
	if hb, _, _ := unstructured.NestedString(save.Object.Object, "status", "heartbeat"); hb != "12:00:01" {
		t.Errorf("the resubmit carries status %q, want theirs'", hb)
	}
	if v, _, _ := unstructured.NestedString(save.Object.Object, "data", "foo"); v != "2" {
		t.Errorf("the resubmit carries foo=%q, want mine", v)
	}
	if len(effectsOf[WriteDraft](effects)) != 1 {
		t.Errorf("effects %s: the stored draft's base must move to theirs", describe(effects))
	}
	if s.Draft().Text != draft {
		t.Error("the automatic rebase rewrote the draft")
	}
	// Another heartbeat before it lands: rebased again, at once.
	effects = must(t, s, SaveFailed{Err: &APIError{Kind: ErrorConflict}})
	effects = append(effects, must(t, s, Conflicted{Theirs: withStatus(base, "6", "12:00:02")})...)
	if save := saveOf(t, effects); save.ResourceVersion != "6" {
		t.Fatalf("second resubmit at rv %s, want 6", save.ResourceVersion)
	}
	must(t, s, Saved{Object: withStatus(cm("7", "foo", "2", "bar", "1"), "7", "12:00:02")})
	r := s.LastSave()
	if r == nil || r.ServerRebases != 2 || r.RebasedOnto != "6" {
		t.Fatalf("report %+v, want 2 rebases, the last onto rv 6", r)
	}
}

// TestHotObjectOtherChangeWaitsForTheUser: theirs changed something besides
// status, so the rebase waits in the conflict view (even when it is clean).
func TestHotObjectOtherChangeWaitsForTheUser(t *testing.T) {
	s := editing(t, "2")
	must(t, s, SaveRequested{})
	must(t, s, SaveFailed{Err: &APIError{Kind: ErrorConflict}})
	theirs := withStatus(cm("5", "foo", "1", "bar", "9"), "5", "12:00:01")
	effects := must(t, s, Conflicted{Theirs: theirs})
	wantState(t, s, StateRebasing)
	if len(effectsOf[Save](effects)) != 0 {
		t.Fatalf("effects %s: a change of theirs' data was resubmitted without the user", describe(effects))
	}
}

// TestHotObjectRebasesAreBounded: an object whose status changes faster
// than a save goes there and back leaves the last clean rebase to the user
// instead of looping for ever.
func TestHotObjectRebasesAreBounded(t *testing.T) {
	s := editing(t, "2")
	must(t, s, SaveRequested{})
	base := s.Base().Object
	for i := range maxServerRebases + 1 {
		must(t, s, SaveFailed{Err: &APIError{Kind: ErrorConflict}})
		must(t, s, Conflicted{Theirs: withStatus(base, strconv.Itoa(10+i), strconv.Itoa(i))})
	}
	wantState(t, s, StateRebasing)
	// The user's s resubmits it, and the count starts again.
	if save := saveOf(t, must(t, s, Resubmit{})); save.ResourceVersion != strconv.Itoa(10+maxServerRebases) {
		t.Errorf("resubmit at rv %s", save.ResourceVersion)
	}
}

// lostSave brings a session to a save whose answer was lost.
func lostSave(t *testing.T) *Session {
	t.Helper()
	s := editing(t, "2")
	must(t, s, SaveRequested{})
	must(t, s, SaveFailed{Err: &APIError{Kind: ErrorTimeout}})
	if !s.SaveUncertain() {
		t.Fatal("a timeout did not make the save uncertain")
	}
	effects := must(t, s, SaveRequested{})
	if !reflect.DeepEqual(effects, []Effect{VerifySave{Ref: cmRef, ResourceVersion: "1"}}) {
		t.Fatalf("effects %s after a lost answer, want the object read back first", describe(effects))
	}
	return s
}

func TestLostAnswerThatWentThrough(t *testing.T) {
	s := lostSave(t)
	effects := must(t, s, SaveVerified{Object: cm("2", "foo", "2", "bar", "1")})
	wantState(t, s, StateSaved)
	if len(effectsOf[Save](effects)) != 0 {
		t.Fatalf("effects %s: the save that went through was sent again", describe(effects))
	}
	if len(effectsOf[DeleteDraft](effects)) != 1 {
		t.Errorf("effects %s: the saved draft stays stored", describe(effects))
	}
	if r := s.LastSave(); r == nil || !r.Verified || r.ResourceVersion != "2" {
		t.Errorf("report %+v, want saved rv 2, verified", r)
	}
	if s.SaveUncertain() {
		t.Error("still uncertain")
	}
}

// TestLostAnswerWentThroughThenMovedOn: the save went through and someone
// changed another field since: saved, never a rebase against its own write.
func TestLostAnswerWentThroughThenMovedOn(t *testing.T) {
	s := lostSave(t)
	must(t, s, SaveVerified{Object: cm("3", "foo", "2", "bar", "7")})
	wantState(t, s, StateSaved)
	if s.Rebase() != nil {
		t.Fatal("a rebase against kedit's own write")
	}
}

func TestLostAnswerThatDidNotGoThrough(t *testing.T) {
	s := lostSave(t)
	save := saveOf(t, must(t, s, SaveVerified{Object: cm("1", "foo", "1", "bar", "1")}))
	if save.ResourceVersion != "1" {
		t.Fatalf("resent at rv %s, want base's", save.ResourceVersion)
	}
	must(t, s, Saved{Object: cm("2", "foo", "2", "bar", "1")})
	if r := s.LastSave(); r.Verified {
		t.Error("a save sent twice reported as verified")
	}
}

// TestLostAnswerSomeoneElseWrote: the save did not go through and the
// object moved on: a conflict, as the save would have met.
func TestLostAnswerSomeoneElseWrote(t *testing.T) {
	s := lostSave(t)
	effects := must(t, s, SaveVerified{Object: cm("2", "foo", "7", "bar", "1")})
	wantState(t, s, StateResolving)
	if len(effectsOf[Save](effects)) != 0 {
		t.Fatal("sent over someone else's write")
	}
}

// TestLostAnswerStillUnreachable: the read back fails too; the save stays
// uncertain and is retried with back-off.
func TestLostAnswerStillUnreachable(t *testing.T) {
	s := lostSave(t)
	effects := must(t, s, SaveFailed{Err: &APIError{Kind: ErrorUnavailable}})
	wantState(t, s, StateFailed)
	if r := effectsOf[RetrySave](effects); len(r) != 1 || r[0].Attempt != 2 {
		t.Fatalf("effects %s, want the second retry", describe(effects))
	}
	if !s.SaveUncertain() {
		t.Fatal("the save is no longer uncertain though nothing was learned")
	}
	if _, _, err := s.Handle(Saved{Object: cm("2", "foo", "2", "bar", "1")}); err == nil {
		t.Error("a Saved taken while nothing was sent")
	}
}

// TestLostAnswerThenEdited: the draft was edited after the lost save; the
// lost save is settled first, then the newer draft goes, made from what
// the server has.
func TestLostAnswerThenEdited(t *testing.T) {
	s := editing(t, "2")
	must(t, s, SaveRequested{})
	must(t, s, SaveFailed{Err: &APIError{Kind: ErrorUnavailable}})
	must(t, s, DraftEdited{Text: text(t, cm("1", "foo", "3", "bar", "1"))})
	effects := must(t, s, SaveRequested{})
	if len(effectsOf[VerifySave](effects)) != 1 || len(effectsOf[Save](effects)) != 0 {
		t.Fatalf("effects %s, want the lost save settled first", describe(effects))
	}
	save := saveOf(t, must(t, s, SaveVerified{Object: cm("2", "foo", "2", "bar", "1")}))
	if save.ResourceVersion != "2" {
		t.Fatalf("the newer draft went at rv %s, want 2 (the lost save's result)", save.ResourceVersion)
	}
	if v, _, _ := unstructured.NestedString(save.Object.Object, "data", "foo"); v != "3" {
		t.Errorf("sent foo=%q, want the newer draft's 3", v)
	}
}
