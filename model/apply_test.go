package model

import (
	"errors"
	"strings"
	"testing"

	"github.com/kedit/kedit/diff"
)

// ownershipErr is server-side apply refusing .data.foo (and bar, with two)
// for other field managers, the object being base's.
func ownershipErr(fields ...string) error {
	e := &APIError{Kind: ErrorFieldManagerConflict, Message: "Apply failed with conflicts"}
	for _, f := range fields {
		e.Owners = append(e.Owners, OwnedField{Field: f, Manager: "kubectl-patch"})
	}
	return e
}

// ownershipConflict saves a draft that changes foo and bar, and gets an
// apply conflict on the fields given.
func ownershipConflict(t *testing.T, fields ...string) *Session {
	t.Helper()
	s := opened(t, cmRef, cm("1", "foo", "1", "bar", "1", "baz", "1"))
	must(t, s, DraftEdited{Text: text(t, cm("1", "foo", "mine", "bar", "mine", "baz", "mine"))})
	must(t, s, SaveRequested{})
	effects := must(t, s, SaveFailed{Err: ownershipErr(fields...)})
	if len(effects) != 0 {
		t.Fatalf("an apply conflict asks for %s", describe(effects))
	}
	wantState(t, s, StateResolving)
	rb := s.Rebase()
	if rb == nil || !rb.Ownership || rb.Theirs.ResourceVersion != "1" {
		t.Fatalf("rebase %+v, want an ownership rebase at base's rv", rb)
	}
	if len(s.Conflicts()) != len(fields) {
		t.Fatalf("conflicts %v, want %v", s.Conflicts(), fields)
	}
	for i, c := range s.Conflicts() {
		if c.Path.String() != fields[i] || c.Owner != "kubectl-patch" || c.Mine.Value != "mine" || c.Theirs.Value != "1" || c.Base.Value != "1" {
			t.Errorf("conflict %d: %+v", i, c)
		}
	}
	return s
}

func TestApplyConflictResolvedToMineForces(t *testing.T) {
	s := ownershipConflict(t, ".data.bar", ".data.foo")
	if _, _, err := s.Handle(Resolve{Index: 0, Resolution: diff.Resolution{Choice: diff.TakeBase}}); !errors.Is(err, ErrOwnershipChoice) {
		t.Errorf("base for an owned field: err = %v", err)
	}
	if _, _, err := s.Handle(ResolveAll{Choice: diff.TakeBase}); !errors.Is(err, ErrOwnershipChoice) {
		t.Errorf("all base for owned fields: err = %v", err)
	}
	must(t, s, Resolve{Index: 1, Resolution: diff.Resolution{Choice: diff.TakeMine}})
	if _, _, err := s.Handle(Resubmit{}); err == nil {
		t.Fatal("resubmit with a conflict open")
	}
	must(t, s, Resolve{Index: 0, Resolution: diff.Resolution{Choice: diff.TakeMine}})
	save := saveOf(t, must(t, s, Resubmit{}))
	if !save.Force || !save.Resubmit || save.ResourceVersion != "1" {
		t.Fatalf("save force %v resubmit %v rv %s, want a forced resubmit at rv 1", save.Force, save.Resubmit, save.ResourceVersion)
	}
	for _, k := range []string{"foo", "bar", "baz"} {
		if v, _ := dataOf(save.Object, k); v != "mine" {
			t.Errorf("sent %s = %q, want mine", k, v)
		}
	}
	stored := save.Object.DeepCopy()
	stored.SetResourceVersion("2")
	must(t, s, Saved{Object: stored, At: at(1)})
	r := s.LastSave()
	if r == nil || len(r.Forced) != 2 || r.Forced[0] != (OwnedField{Field: ".data.bar", Manager: "kubectl-patch"}) || len(r.NotStored) != 0 {
		t.Errorf("report %+v, want bar and foo forced from kubectl-patch", r)
	}
}

func TestApplyConflictResolvedToTheirsStopsClaiming(t *testing.T) {
	s := ownershipConflict(t, ".data.bar", ".data.foo")
	must(t, s, Resolve{Index: 0, Resolution: diff.Resolution{Choice: diff.TakeTheirs}})
	must(t, s, Resolve{Index: 1, Resolution: diff.Resolution{Choice: diff.TakeMine}})
	effects := must(t, s, Resubmit{})
	save := saveOf(t, effects)
	if !save.Force {
		t.Error("foo resolved to mine is not forced")
	}
	if _, ok := dataOf(save.Object, "bar"); ok || len(save.LeftOut) != 1 || save.LeftOut[0] != ".data.bar" {
		t.Errorf("bar, left to its owner, is still applied: %v (left out: %v)", save.Object.Object["data"], save.LeftOut)
	}
	if v, _ := dataOf(save.Object, "foo"); v != "mine" {
		t.Errorf("foo = %q, want mine", v)
	}
	// The draft is what the user wants stored: bar as its owner has it.
	if d := s.Draft(); d == nil || !strings.Contains(d.Text, `bar: "1"`) || !strings.Contains(d.Text, "foo: mine") {
		t.Errorf("draft after the resubmit:\n%v", d)
	}
	// The server keeps bar: not a field the save failed to store.
	stored := save.Object.DeepCopy()
	stored.SetResourceVersion("2")
	stored.Object["data"].(map[string]any)["bar"] = "1"
	must(t, s, Saved{Object: stored, At: at(1)})
	if r := s.LastSave(); r == nil || len(r.NotStored) != 0 || len(r.Forced) != 1 {
		t.Errorf("report %+v", r)
	}

	// Everything left to its owners: nothing is forced.
	s = ownershipConflict(t, ".data.foo")
	must(t, s, ResolveAll{Choice: diff.TakeTheirs})
	save = saveOf(t, must(t, s, Resubmit{}))
	if save.Force {
		t.Error("an apply with every owned field left to its owner is forced")
	}
}

func TestApplyConflictOnAMovedObjectUsesItsVersion(t *testing.T) {
	s := opened(t, cmRef, cm("1", "foo", "1"))
	must(t, s, DraftEdited{Text: text(t, cm("1", "foo", "mine"))})
	must(t, s, SaveRequested{})
	err := ownershipErr(".data.foo").(*APIError)
	// kedit's own migration of its fields to its apply manager moved the
	// object to rv 2, with the same content.
	err.LiveObject = cm("2", "foo", "1")
	must(t, s, SaveFailed{Err: err})
	must(t, s, ResolveAll{Choice: diff.TakeMine})
	if save := saveOf(t, must(t, s, Resubmit{})); save.ResourceVersion != "2" {
		t.Errorf("resubmit at rv %s, want the live object's 2", save.ResourceVersion)
	}
}

func TestApplyConflictNamingNoFieldOfMineFails(t *testing.T) {
	s := editing(t, "2")
	must(t, s, SaveRequested{})
	must(t, s, SaveFailed{Err: ownershipErr(".data.other")})
	wantState(t, s, StateFailed)
	if f := s.Failure(); f == nil || f.Kind != ErrorFieldManagerConflict {
		t.Errorf("failure %+v", f)
	}
}

func TestSaveAsUpdate(t *testing.T) {
	s := editing(t, "2")
	must(t, s, SaveRequested{})
	must(t, s, SaveFailed{Err: &APIError{Kind: ErrorApplyCannotRemove, Causes: []FieldCause{{Field: ".data.baz", Message: "owned by kubectl-patch"}}}})
	wantState(t, s, StateFailed)
	if f := s.Failure(); f.Kind.Retryable() || f.Kind != ErrorApplyCannotRemove {
		t.Fatalf("failure %+v", f)
	}
	save := saveOf(t, must(t, s, SaveRequested{AsUpdate: true}))
	if !save.Update || save.Force || save.ResourceVersion != "1" {
		t.Errorf("save update %v force %v rv %s", save.Update, save.Force, save.ResourceVersion)
	}
	stored := save.Object.DeepCopy()
	stored.SetResourceVersion("2")
	must(t, s, Saved{Object: stored, At: at(1)})
	if r := s.LastSave(); r == nil || !r.AsUpdate || r.ResourceVersion != "2" {
		t.Errorf("report %+v", r)
	}
	if save := saveOf(t, must(t, opened2(t), SaveRequested{})); save.Update {
		t.Error("a plain save is sent as an update")
	}
}

func opened2(t *testing.T) *Session { return editing(t, "3") }

// TestSaveReportNamesWhatTheServerKeptOtherwise: after a save the session
// compares the server's answer with the draft.
func TestSaveReportNamesWhatTheServerKeptOtherwise(t *testing.T) {
	s := opened(t, cmRef, cm("1", "foo", "1", "baz", "1", "def", "1"))
	must(t, s, DraftEdited{Text: text(t, cm("1", "foo", "2"))})
	save := saveOf(t, must(t, s, SaveRequested{}))
	stored := save.Object.DeepCopy()
	stored.SetResourceVersion("2")
	d := stored.Object["data"].(map[string]any)
	d["foo"] = "normalized"
	d["baz"] = "1" // another manager owns it: the removal did not happen
	d["def"] = "1" // only kedit owns it: a default put back
	d["new"] = "x" // the server added it: not the draft's business
	withManaged(stored,
		mf{manager: "kubectl-patch", op: "Update", fields: `{"f:data":{"f:baz":{}}}`},
		mf{manager: FieldManager, op: "Update", fields: `{"f:data":{"f:def":{}, "f:foo":{}}}`})
	must(t, s, Saved{Object: stored, At: at(1)})
	r := s.LastSave()
	if r == nil || r.ResourceVersion != "2" {
		t.Fatalf("report %+v", r)
	}
	var got []string
	for _, m := range r.NotStored {
		got = append(got, m.Path.String())
	}
	if strings.Join(got, " ") != ".data.baz .data.foo" {
		t.Errorf("not stored: %v, want .data.baz and .data.foo", got)
	}
	if r.NotStored[1].Sent.Value != "2" || r.NotStored[1].Stored.Value != "normalized" {
		t.Errorf("foo: %+v", r.NotStored[1])
	}
}

func TestRebaseWithoutADraft(t *testing.T) {
	s := opened(t, cmRef, cm("1", "foo", "1"))
	must(t, s, LiveChanged{Type: LiveModified, Object: cm("2", "foo", "2"), At: at(1)})
	if _, _, err := s.Handle(RebaseRequested{}); !errors.Is(err, ErrNoDraft) {
		t.Errorf("rebase without a draft: err = %v, want ErrNoDraft", err)
	}
}
