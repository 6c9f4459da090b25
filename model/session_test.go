package model

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kedit/kedit/diff"
)

// editing returns a session on cm("1", foo=1, bar=1) with a draft setting
// foo to draftFoo.
func editing(t *testing.T, draftFoo string) *Session {
	t.Helper()
	s := opened(t, cmRef, cm("1", "foo", "1", "bar", "1"))
	must(t, s, DraftEdited{Text: text(t, cm("1", "foo", draftFoo, "bar", "1"))})
	wantState(t, s, StateEditing)
	return s
}

func conflictErr() error {
	return &APIError{Kind: ErrorConflict, Message: `Operation cannot be fulfilled on configmaps "testmap": the object has been modified`}
}

func TestHandleBeforeOpened(t *testing.T) {
	s := NewSession(cmRef)
	for _, ev := range []Event{DraftEdited{Text: "x"}, SaveRequested{}, LiveChanged{Type: LiveDeleted, Object: cm("2")}} {
		if _, _, err := s.Handle(ev); !errors.Is(err, ErrNotOpen) {
			t.Errorf("%T before Opened: err = %v, want ErrNotOpen", ev, err)
		}
	}
	// The informer's first event opens the session.
	must(t, s, LiveChanged{Type: LiveAdded, Object: cm("2", "foo", "1"), At: at(1)})
	if s.Base().ResourceVersion != "2" || len(s.Timeline()) != 1 {
		t.Fatalf("base %q, %d timeline entries", s.Base().ResourceVersion, len(s.Timeline()))
	}
	wantState(t, s, StateViewing)
}

func TestCleanSave(t *testing.T) {
	s := editing(t, "2")
	effects := must(t, s, SaveRequested{})
	wantState(t, s, StateSaving)
	save := saveOf(t, effects)
	if save.ResourceVersion != "1" || save.Object.GetResourceVersion() != "1" {
		t.Fatalf("save rv = %q, object rv = %q, want base's 1", save.ResourceVersion, save.Object.GetResourceVersion())
	}
	if save.Resubmit {
		t.Error("first save marked as resubmit")
	}
	if v, _ := dataOf(save.Object, "foo"); v != "2" {
		t.Fatalf("saved foo = %q, want 2", v)
	}
	if save.Ref != cmRef {
		t.Errorf("save ref = %v", save.Ref)
	}

	effects = must(t, s, Saved{Object: cm("2", "foo", "2", "bar", "1"), At: at(1)})
	wantState(t, s, StateSaved)
	if !reflect.DeepEqual(effects, []Effect{DeleteDraft{Ref: cmRef, Seq: 2}}) {
		t.Errorf("effects after save = %s, want DeleteDraft after the WriteDraft", describe(effects))
	}
	if s.Draft() != nil {
		t.Error("draft kept after a save")
	}
	if got := s.Base().ResourceVersion; got != "2" {
		t.Errorf("base rv after save = %q, want 2", got)
	}
	if _, ok := s.ServerChange(); ok {
		t.Error("banner shown after a save")
	}
}

func TestDraftEditedStoresTheDraft(t *testing.T) {
	s := opened(t, cmRef, cm("1", "foo", "1"))
	txt := text(t, cm("1", "foo", "2"))
	effects := must(t, s, DraftEdited{Text: txt})
	want := []Effect{WriteDraft{Ref: cmRef, Text: txt, Format: FormatYAML, BaseResourceVersion: "1", Base: s.Base().Object, Seq: 1}}
	if !reflect.DeepEqual(effects, want) {
		t.Fatalf("effects = %#v, want %#v", effects, want)
	}
	if d := s.Draft(); d == nil || d.Text != txt || d.Object == nil || d.Err != nil {
		t.Fatalf("draft = %+v", d)
	}
}

func TestDraftWithoutChangeGoesBackToViewing(t *testing.T) {
	s := opened(t, cmRef, withManaged(cm("1", "foo", "1"), mf{"kubectl", "Update", 0, `{"f:data":{"f:foo":{}}}`}))
	txt, err := s.DraftText()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(txt, "managedFields") {
		t.Errorf("draft text shows managedFields:\n%s", txt)
	}
	effects := must(t, s, DraftEdited{Text: txt})
	wantState(t, s, StateViewing)
	if s.Draft() != nil || !reflect.DeepEqual(effects, []Effect{DeleteDraft{Ref: cmRef, Seq: 1}}) {
		t.Fatalf("unchanged draft: draft %v, effects %s", s.Draft(), describe(effects))
	}
}

func TestInvalidDraftKeepsTextAndNamesTheLine(t *testing.T) {
	good := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: testmap\n  namespace: ns\ndata:\n  foo: \"2\"\n"
	tests := []struct {
		name      string
		text      string
		wantLine  int
		wantField string
		wantMsg   string
	}{
		{"bad indentation", strings.Replace(good, "  foo: \"2\"", "  foo: \"2\"\n bar: 3", 1), 8, "", ""},
		{"tab", strings.Replace(good, "  foo:", "\tfoo:", 1), 7, "", "tab"},
		{"unclosed quote", strings.Replace(good, `"2"`, `"2`, 1), 7, "", ""},
		{"duplicate key", good + "  foo: \"3\"\n", 8, ".data.foo", "already defined on line 7"},
		{"no kind", strings.Replace(good, "kind: ConfigMap\n", "", 1), 0, "", "not a Kubernetes object"},
		{"empty", "  \n", 0, "", "empty"},
		{"renamed", strings.Replace(good, "name: testmap", "name: other", 1), 4, "metadata.name", `"other"`},
		{"other namespace", strings.Replace(good, "namespace: ns", "namespace: prod", 1), 5, "metadata.namespace", `"prod"`},
		{"renamed, namespace left out", strings.Replace(strings.Replace(good, "  namespace: ns\n", "", 1), "name: testmap", "name: other", 1), 4, "metadata.name", `"other"`},
		{
			"conflict block left",
			strings.Replace(good, "  foo: \"2\"\n", "<<<<<<< mine\n  foo: \"2\"\n||||||| base\n  foo: \"1\"\n=======\n  foo: \"3\"\n>>>>>>> theirs\n", 1),
			7, ".data.foo", "unresolved conflict",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := opened(t, cmRef, cm("1", "foo", "1"))
			state, effects, err := s.Handle(DraftEdited{Text: tt.text})
			var de *DraftError
			if !errors.As(err, &de) {
				t.Fatalf("err = %v, want a *DraftError", err)
			}
			if de.Line != tt.wantLine || de.Field != tt.wantField {
				t.Errorf("line %d field %q, want line %d field %q (%v)", de.Line, de.Field, tt.wantLine, tt.wantField, de)
			}
			if tt.wantLine > 0 && !strings.Contains(de.Error(), "line ") {
				t.Errorf("message %q does not name the line", de)
			}
			if n := strings.Count(de.Error(), fmt.Sprintf("line %d", de.Line)); n > 1 {
				t.Errorf("message %q names the line twice", de)
			}
			if tt.wantMsg != "" && !strings.Contains(de.Error(), tt.wantMsg) {
				t.Errorf("message %q does not say %q", de, tt.wantMsg)
			}
			if state != StateEditing {
				t.Errorf("state = %s, want editing", state)
			}
			d := s.Draft()
			if d == nil || d.Text != tt.text || d.Object != nil || d.Err != err {
				t.Fatalf("draft = %+v, want the text kept with the error", d)
			}
			if len(effects) != 1 || effects[0].(WriteDraft).Text != tt.text {
				t.Errorf("effects = %s, want the text stored", describe(effects))
			}
			// A save is refused with the same error and sends nothing.
			_, effects, err = s.Handle(SaveRequested{})
			if err != d.Err || effects != nil {
				t.Errorf("save of an invalid draft: err %v effects %s", err, describe(effects))
			}
			wantState(t, s, StateEditing)
		})
	}
}

func TestNeverSavesWithoutResourceVersion(t *testing.T) {
	s := opened(t, cmRef, cm("", "foo", "1"))
	must(t, s, DraftEdited{Text: text(t, cm("", "foo", "2"))})
	_, effects, err := s.Handle(SaveRequested{})
	if !errors.Is(err, ErrNoResourceVersion) || effects != nil {
		t.Fatalf("err %v effects %s, want ErrNoResourceVersion and nothing sent", err, describe(effects))
	}
	wantState(t, s, StateEditing)
}

func TestSaveUsesBaseResourceVersionNotTheText(t *testing.T) {
	s := opened(t, cmRef, cm("7", "foo", "1"))
	// The user typed an older resourceVersion into the text.
	must(t, s, DraftEdited{Text: text(t, cm("3", "foo", "2"))})
	save := saveOf(t, must(t, s, SaveRequested{}))
	if save.ResourceVersion != "7" || save.Object.GetResourceVersion() != "7" {
		t.Fatalf("save rv %q / %q, want base's 7", save.ResourceVersion, save.Object.GetResourceVersion())
	}
}

func TestRefusals(t *testing.T) {
	tests := []struct {
		name string
		ev   Event
	}{
		{"save without draft", SaveRequested{}},
		{"resubmit without rebase", Resubmit{}},
		{"resolve without rebase", Resolve{Index: 0, Resolution: diff.Resolution{Choice: diff.TakeMine}}},
		{"resolve all without rebase", ResolveAll{Choice: diff.TakeMine}},
		{"saved without save", Saved{Object: cm("2")}},
		{"save failed without save", SaveFailed{Err: conflictErr()}},
		{"conflicted without save", Conflicted{Theirs: cm("2")}},
		{"rebase without draft", RebaseRequested{}},
		{"recreate while the object exists", Recreate{}},
		{"open twice", Opened{Object: cm("1")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := opened(t, cmRef, cm("1", "foo", "1"))
			state, effects, err := s.Handle(tt.ev)
			if err == nil || effects != nil || state != StateViewing {
				t.Fatalf("got state %s effects %s err %v, want a refusal", state, describe(effects), err)
			}
		})
	}
}

func TestConflictRebasesDisjointChangeAndResubmitsWithTheirsRV(t *testing.T) {
	s := editing(t, "2") // mine: foo 1 -> 2
	must(t, s, SaveRequested{})

	// The informer has not seen theirs yet: the session asks for it.
	effects := must(t, s, SaveFailed{Err: conflictErr()})
	wantState(t, s, StateWaitingTheirs)
	if !reflect.DeepEqual(effects, []Effect{FetchTheirs{Ref: cmRef, NotRV: "1"}}) {
		t.Fatalf("effects = %#v, want FetchTheirs not at rv 1", effects)
	}
	if d := s.Draft(); d == nil || d.Object == nil {
		t.Fatal("conflict lost the draft")
	}

	// theirs: bar 1 -> 9.
	must(t, s, Conflicted{Theirs: cm("5", "foo", "1", "bar", "9"), At: at(2)})
	wantState(t, s, StateRebasing)
	if n := len(s.Conflicts()); n != 0 || s.OpenConflicts() != 0 {
		t.Fatalf("%d conflicts, want 0", n)
	}
	rb := s.Rebase()
	if rb == nil || rb.Theirs.ResourceVersion != "5" || rb.Merge == nil {
		t.Fatalf("rebase = %+v", rb)
	}

	effects = must(t, s, Resubmit{})
	wantState(t, s, StateSaving)
	save := saveOf(t, effects)
	if save.ResourceVersion != "5" || save.Object.GetResourceVersion() != "5" || !save.Resubmit {
		t.Fatalf("resubmit rv %q / %q resubmit %v, want theirs' 5", save.ResourceVersion, save.Object.GetResourceVersion(), save.Resubmit)
	}
	for k, want := range map[string]string{"foo": "2", "bar": "9"} {
		if v, _ := dataOf(save.Object, k); v != want {
			t.Errorf("resubmitted %s = %q, want %q (both changes kept)", k, v, want)
		}
	}
	// The merged draft is stored, now made from theirs.
	wd, ok := effects[0].(WriteDraft)
	if !ok || wd.BaseResourceVersion != "5" {
		t.Errorf("effects = %s, want the merged draft stored with theirs' rv first", describe(effects))
	}

	must(t, s, Saved{Object: cm("6", "foo", "2", "bar", "9"), At: at(3)})
	wantState(t, s, StateSaved)
	if s.Rebase() != nil || s.Draft() != nil {
		t.Error("rebase or draft left after the resubmit was saved")
	}
}

func TestConflictTakesTheirsFromLiveWhenNewer(t *testing.T) {
	s := editing(t, "2")
	must(t, s, SaveRequested{})
	must(t, s, LiveChanged{Type: LiveModified, Object: cm("4", "foo", "1", "bar", "8"), At: at(1)})
	effects := must(t, s, SaveFailed{Err: conflictErr()})
	if effects != nil {
		t.Fatalf("effects = %s, want none: live is theirs", describe(effects))
	}
	wantState(t, s, StateRebasing)
	if rb := s.Rebase(); rb.Theirs.ResourceVersion != "4" {
		t.Fatalf("theirs rv = %q, want live's 4", rb.Theirs.ResourceVersion)
	}
	if save := saveOf(t, must(t, s, SaveRequested{})); save.ResourceVersion != "4" {
		t.Fatalf("resubmit via SaveRequested rv = %q, want 4", save.ResourceVersion)
	}
}

func TestStaleTheirsIsFetchedAgain(t *testing.T) {
	s := editing(t, "2")
	must(t, s, SaveRequested{})
	must(t, s, SaveFailed{Err: conflictErr()})
	effects := must(t, s, Conflicted{Theirs: cm("1", "foo", "1", "bar", "1")})
	if !reflect.DeepEqual(effects, []Effect{FetchTheirs{Ref: cmRef, NotRV: "1", Fresh: true}}) {
		t.Fatalf("effects = %#v, want FetchTheirs again, from the server", effects)
	}
	wantState(t, s, StateWaitingTheirs)
}

// sameFieldConflict brings a session to one conflict on data.foo: base 1,
// mine 2, theirs 3.
func sameFieldConflict(t *testing.T) *Session {
	t.Helper()
	s := editing(t, "2")
	must(t, s, SaveRequested{})
	must(t, s, SaveFailed{Err: conflictErr()})
	must(t, s, Conflicted{Theirs: cm("5", "foo", "3", "bar", "1"), At: at(1)})
	wantState(t, s, StateResolving)
	cs := s.Conflicts()
	if len(cs) != 1 || cs[0].Path.String() != ".data.foo" {
		t.Fatalf("conflicts = %v, want one on .data.foo", cs)
	}
	c := cs[0]
	if c.Base.Value != "1" || c.Mine.Value != "2" || c.Theirs.Value != "3" {
		t.Fatalf("conflict base %v mine %v theirs %v", c.Base.Value, c.Mine.Value, c.Theirs.Value)
	}
	return s
}

func TestSameFieldConflictResolutions(t *testing.T) {
	tests := []struct {
		name    string
		ev      Event
		wantFoo string
		present bool
	}{
		{"mine", Resolve{Index: 0, Resolution: diff.Resolution{Choice: diff.TakeMine}}, "2", true},
		{"theirs", Resolve{Index: 0, Resolution: diff.Resolution{Choice: diff.TakeTheirs}}, "3", true},
		{"base", Resolve{Index: 0, Resolution: diff.Resolution{Choice: diff.TakeBase}}, "1", true},
		{"custom", Resolve{Index: 0, Resolution: diff.Resolution{Choice: diff.TakeCustom, Value: diff.FieldValue{Present: true, Value: "23"}}}, "23", true},
		{"custom removal", Resolve{Index: 0, Resolution: diff.Resolution{Choice: diff.TakeCustom}}, "", false},
		{"all mine", ResolveAll{Choice: diff.TakeMine}, "2", true},
		{"all theirs", ResolveAll{Choice: diff.TakeTheirs}, "3", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := sameFieldConflict(t)
			before := s.Rebase().Merge
			must(t, s, tt.ev)
			wantState(t, s, StateRebasing)
			if before.Open() != 1 {
				t.Error("resolving changed a merge handed out before")
			}
			save := saveOf(t, must(t, s, Resubmit{}))
			if save.ResourceVersion != "5" {
				t.Errorf("resubmit rv = %q, want theirs' 5", save.ResourceVersion)
			}
			v, ok := dataOf(save.Object, "foo")
			if v != tt.wantFoo || ok != tt.present {
				t.Errorf("foo = %q (present %v), want %q (present %v)", v, ok, tt.wantFoo, tt.present)
			}
		})
	}
}

func TestReopenedConflictGoesBackToResolving(t *testing.T) {
	s := sameFieldConflict(t)
	must(t, s, Resolve{Index: 0, Resolution: diff.Resolution{Choice: diff.TakeMine}})
	wantState(t, s, StateRebasing)
	must(t, s, Resolve{Index: 0, Resolution: diff.Resolution{Choice: diff.Unresolved}})
	wantState(t, s, StateResolving)
	if _, _, err := s.Handle(Resolve{Index: 3, Resolution: diff.Resolution{Choice: diff.TakeMine}}); err == nil {
		t.Error("resolving a conflict that does not exist was taken")
	}
	if _, _, err := s.Handle(ResolveAll{Choice: diff.TakeCustom}); err == nil {
		t.Error("resolve all with a custom value was taken")
	}
}

func TestResubmitRefusedWhileConflictsAreOpen(t *testing.T) {
	for _, ev := range []Event{Resubmit{}, SaveRequested{}} {
		s := sameFieldConflict(t)
		state, effects, err := s.Handle(ev)
		var oe *OpenConflictsError
		if !errors.As(err, &oe) || oe.Open != 1 || effects != nil || state != StateResolving {
			t.Fatalf("%T with an open conflict: state %s effects %s err %v", ev, state, describe(effects), err)
		}
		if !strings.Contains(err.Error(), "1 of 1") {
			t.Errorf("message %q does not say how many are open", err)
		}
	}
}

func TestSecondConflictDuringResubmitStartsOverWithNewerTheirs(t *testing.T) {
	s := sameFieldConflict(t) // theirs1 at rv 5: foo 3
	must(t, s, Resolve{Index: 0, Resolution: diff.Resolution{Choice: diff.TakeMine}})
	must(t, s, Resubmit{})

	// Someone writes again before the resubmit lands.
	effects := must(t, s, SaveFailed{Err: conflictErr()})
	if !reflect.DeepEqual(effects, []Effect{FetchTheirs{Ref: cmRef, NotRV: "5"}}) {
		t.Fatalf("effects = %#v, want FetchTheirs newer than theirs1", effects)
	}
	// theirs2 at rv 8 changes bar, and foo again.
	must(t, s, Conflicted{Theirs: cm("8", "foo", "4", "bar", "7"), At: at(4)})
	rb := s.Rebase()
	if rb.Theirs.ResourceVersion != "8" || rb.Base.GetResourceVersion() != "5" {
		t.Fatalf("second rebase: base rv %q theirs rv %q, want 5 and 8", rb.Base.GetResourceVersion(), rb.Theirs.ResourceVersion)
	}
	cs := s.Conflicts()
	if len(cs) != 1 || cs[0].Base.Value != "3" || cs[0].Mine.Value != "2" || cs[0].Theirs.Value != "4" {
		t.Fatalf("second conflicts = %+v, want foo base 3 mine 2 theirs 4", cs)
	}
	must(t, s, ResolveAll{Choice: diff.TakeMine})
	save := saveOf(t, must(t, s, Resubmit{}))
	if save.ResourceVersion != "8" {
		t.Fatalf("second resubmit rv = %q, want 8", save.ResourceVersion)
	}
	for k, want := range map[string]string{"foo": "2", "bar": "7"} {
		if v, _ := dataOf(save.Object, k); v != want {
			t.Errorf("%s = %q, want %q", k, v, want)
		}
	}
}

// TestMergedTextLeavesOutManagedFields: the merge's text, open conflict
// or not, in YAML and JSON, leaves out theirs' managedFields as a draft's
// text does, so that e on a conflict does not put them into the draft.
func TestMergedTextLeavesOutManagedFields(t *testing.T) {
	for _, f := range []Format{FormatYAML, FormatJSON} {
		s := editing(t, "2")
		s.SetFormat(f)
		must(t, s, SaveRequested{})
		must(t, s, SaveFailed{Err: conflictErr()})
		theirs := cm("5", "foo", "3", "bar", "1")
		theirs.SetManagedFields([]metav1.ManagedFieldsEntry{{Manager: "kubectl-patch", Operation: metav1.ManagedFieldsOperationUpdate}})
		must(t, s, Conflicted{Theirs: theirs, At: at(1)})
		for _, resolved := range []bool{false, true} {
			if resolved {
				must(t, s, ResolveAll{Choice: diff.TakeMine})
			}
			text, err := s.MergedText()
			if err != nil || strings.Contains(text, "managedFields") || strings.Contains(text, "kubectl-patch") {
				t.Errorf("%s, resolved %v: the merged text (%v):\n%s", f, resolved, err, text)
			}
		}
		if len(s.Rebase().Theirs.Object.GetManagedFields()) != 1 {
			t.Errorf("%s: theirs lost its managedFields", f)
		}
	}
}

// TestResubmitOfTheirsReportsUnchanged: a conflict resolved to theirs
// resubmits theirs; the server answers with the version it had (it wrote
// nothing), and the report says so. A save that wrote is not Unchanged.
func TestResubmitOfTheirsReportsUnchanged(t *testing.T) {
	s := sameFieldConflict(t) // theirs at rv 5
	must(t, s, ResolveAll{Choice: diff.TakeTheirs})
	save := saveOf(t, must(t, s, Resubmit{}))
	must(t, s, Saved{Object: save.Object.DeepCopy(), At: at(5)})
	if r := s.LastSave(); r == nil || !r.Unchanged || r.ResourceVersion != "5" {
		t.Errorf("report %+v, want Unchanged at rv 5", r)
	}

	s = sameFieldConflict(t)
	must(t, s, ResolveAll{Choice: diff.TakeMine})
	save = saveOf(t, must(t, s, Resubmit{}))
	stored := save.Object.DeepCopy()
	stored.SetResourceVersion("6")
	must(t, s, Saved{Object: stored, At: at(5)})
	if r := s.LastSave(); r == nil || r.Unchanged {
		t.Errorf("report %+v, want a write", r)
	}
}

func TestDeploymentContainerConflict(t *testing.T) {
	s := opened(t, deployRef, deploy("1", "nginx:1", 1))
	must(t, s, DraftEdited{Text: text(t, deploy("1", "nginx:2", 1))})
	must(t, s, SaveRequested{})
	must(t, s, LiveChanged{Type: LiveModified, Object: deploy("3", "nginx:3", 5), At: at(1)})
	must(t, s, SaveFailed{Err: conflictErr()})
	wantState(t, s, StateResolving)
	cs := s.Conflicts()
	if len(cs) != 1 || cs[0].Path.String() != `.spec.template.spec.containers[name="app"].image` {
		t.Fatalf("conflicts = %v", cs)
	}
	merged, err := s.MergedText()
	if err != nil || !strings.Contains(merged, "<<<<<<< mine") {
		t.Fatalf("merged text (%v):\n%s", err, merged)
	}
	must(t, s, Resolve{Index: 0, Resolution: diff.Resolution{Choice: diff.TakeMine}})
	save := saveOf(t, must(t, s, Resubmit{}))
	if r, _, _ := unstructured.NestedInt64(save.Object.Object, "spec", "replicas"); r != 5 {
		t.Errorf("replicas = %d, want theirs' 5", r)
	}
}

// TestRefusedMergedTextKeepsTheRebase: merged text edited by hand with a
// block left in, or YAML that does not parse, is refused with its line and
// field; the rebase, its resolutions and the draft stay as they were, and
// the edited text is offered again by MergedText.
func TestRefusedMergedTextKeepsTheRebase(t *testing.T) {
	for _, tc := range []struct {
		name  string
		edit  func(merged string) string
		field string
	}{
		{"block left in", func(m string) string { return m }, ".data.foo"},
		{"does not parse", func(m string) string { return m + "data: [\n" }, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := editing(t, "2")
			draft := s.Draft().Text
			must(t, s, SaveRequested{})
			must(t, s, SaveFailed{Err: conflictErr()})
			must(t, s, Conflicted{Theirs: cm("5", "foo", "3", "bar", "1", "baz", "x"), At: at(1)})
			// A second conflict, resolved before the edit.
			must(t, s, LiveChanged{Type: LiveModified, Object: cm("6", "foo", "3", "bar", "9", "baz", "x"), At: at(2)})
			must(t, s, DraftEdited{Text: strings.Replace(draft, `bar: "1"`, `bar: "8"`, 1)})
			must(t, s, RebaseRequested{})
			if len(s.Conflicts()) != 2 {
				t.Fatalf("conflicts %v", s.Conflicts())
			}
			must(t, s, Resolve{Index: 0, Resolution: diff.Resolution{Choice: diff.TakeMine}})
			draft = s.Draft().Text
			baseRV := s.Base().ResourceVersion
			merged, err := s.MergedText()
			if err != nil {
				t.Fatal(err)
			}
			edited := tc.edit(merged)
			state, effects, err := s.Handle(MergedEdited{Text: edited})
			var de *DraftError
			if !errors.As(err, &de) || de.Field != tc.field || de.Line == 0 {
				t.Fatalf("err = %v, want a DraftError on %q with a line", err, tc.field)
			}
			if state != StateResolving || len(effects) != 0 || s.Draft().Text != draft || s.Base().ResourceVersion != baseRV {
				t.Fatalf("state %s, effects %v, base %s: the refusal changed the session", state, effects, s.Base().ResourceVersion)
			}
			if r := s.Resolutions(); len(r) != 2 || r[0].Choice != diff.TakeMine || r[1].Choice != diff.Unresolved {
				t.Errorf("resolutions %v, want mine and open", r)
			}
			if again, _ := s.MergedText(); again != edited {
				t.Errorf("MergedText after the refusal:\n%s\nwant the edited text", again)
			}
			// Fixed by hand: the rebase is done, the draft made from theirs.
			fixed := strings.Replace(text(t, cm("6", "foo", "3", "bar", "9", "baz", "x")), `foo: "3"`, `foo: "42"`, 1)
			must(t, s, MergedEdited{Text: fixed})
			wantState(t, s, StateEditing)
			save := saveOf(t, must(t, s, SaveRequested{}))
			if v, _ := dataOf(save.Object, "foo"); v != "42" || save.ResourceVersion != "6" {
				t.Fatalf("save foo %q rv %q, want 42 at theirs' 6", v, save.ResourceVersion)
			}
		})
	}
}

func TestUserRequestedRebase(t *testing.T) {
	s := editing(t, "2")
	if _, _, err := s.Handle(RebaseRequested{}); !errors.Is(err, ErrUpToDate) {
		t.Fatalf("rebase onto the same version: err = %v, want ErrUpToDate", err)
	}
	must(t, s, LiveChanged{Type: LiveModified, Object: cm("3", "foo", "1", "bar", "2"), At: at(1)})
	must(t, s, RebaseRequested{})
	wantState(t, s, StateRebasing)
	save := saveOf(t, must(t, s, Resubmit{}))
	if save.ResourceVersion != "3" {
		t.Fatalf("rv = %q, want live's 3", save.ResourceVersion)
	}
}

func TestFailuresKeepTheDraft(t *testing.T) {
	causes := []FieldCause{{Field: "metadata.labels", Message: "Invalid value: \"-x\"", Type: "FieldValueInvalid"}}
	tests := []struct {
		kind      ErrorKind
		err       error
		wantDelay time.Duration
	}{
		{ErrorInvalid, &APIError{Kind: ErrorInvalid, Message: "ConfigMap is invalid", Causes: causes}, 0},
		{ErrorForbidden, &APIError{Kind: ErrorForbidden, Message: "cannot update configmaps"}, 0},
		{ErrorNotFound, &APIError{Kind: ErrorNotFound}, 0},
		{ErrorTooLarge, &APIError{Kind: ErrorTooLarge}, 0},
		{ErrorImmutable, &APIError{Kind: ErrorImmutable}, 0},
		{ErrorUnauthorized, &APIError{Kind: ErrorUnauthorized}, 0},
		{ErrorFieldManagerConflict, &APIError{Kind: ErrorFieldManagerConflict, Causes: []FieldCause{{Field: ".data.foo", Message: `conflict with "kubectl-patch"`}}}, 0},
		{ErrorUnavailable, &APIError{Kind: ErrorUnavailable}, time.Second},
		{ErrorTimeout, &APIError{Kind: ErrorTimeout}, time.Second},
		{ErrorUnknown, errors.New("connection reset by peer"), 0},
	}
	for _, tt := range tests {
		t.Run(tt.kind.String(), func(t *testing.T) {
			s := editing(t, "2")
			draft := s.Draft()
			must(t, s, SaveRequested{})
			// Wrapped, as kube/ wraps with %w.
			effects := must(t, s, SaveFailed{Err: errWrap{tt.err}})
			wantState(t, s, StateFailed)
			f := s.Failure()
			if f == nil || f.Kind != tt.kind {
				t.Fatalf("failure = %+v, want kind %s", f, tt.kind)
			}
			if want := CausesOf(tt.err); !reflect.DeepEqual(f.Causes, want) {
				t.Errorf("causes = %v, want %v", f.Causes, want)
			}
			if got := s.Draft(); got == nil || got.Text != draft.Text || got.Object == nil {
				t.Fatalf("draft after %s = %+v", tt.kind, got)
			}
			if tt.wantDelay > 0 {
				if !reflect.DeepEqual(effects, []Effect{RetrySave{Attempt: 1, Delay: tt.wantDelay}}) {
					t.Fatalf("effects = %#v, want a retry after %s", effects, tt.wantDelay)
				}
			} else if effects != nil {
				t.Fatalf("effects = %s, want none", describe(effects))
			}
			// The same draft can be saved again, with base's rv; after a
			// lost answer, only once the object read back shows that the
			// save did not go through.
			effects = must(t, s, SaveRequested{})
			if tt.kind.Retryable() {
				if !reflect.DeepEqual(effects, []Effect{VerifySave{Ref: cmRef, ResourceVersion: "1"}}) {
					t.Fatalf("effects = %s, want the object read back first", describe(effects))
				}
				effects = must(t, s, SaveVerified{Object: cm("1", "foo", "1", "bar", "1")})
			}
			if save := saveOf(t, effects); save.ResourceVersion != "1" {
				t.Errorf("retry rv = %q", save.ResourceVersion)
			}
		})
	}
}

type errWrap struct{ err error }

func (e errWrap) Error() string { return "saving: " + e.err.Error() }
func (e errWrap) Unwrap() error { return e.err }

func TestRetryBacksOff(t *testing.T) {
	s := editing(t, "2")
	var delays []time.Duration
	for range 8 {
		must(t, s, SaveRequested{})
		effects := must(t, s, SaveFailed{Err: &APIError{Kind: ErrorUnavailable}})
		delays = append(delays, effects[0].(RetrySave).Delay)
	}
	want := []time.Duration{1, 2, 4, 8, 16, 30, 30, 30}
	for i := range want {
		want[i] *= time.Second
	}
	if !reflect.DeepEqual(delays, want) {
		t.Fatalf("delays = %v, want %v", delays, want)
	}
	if f := s.Failure(); f.Attempt != 8 {
		t.Errorf("attempt = %d", f.Attempt)
	}
	must(t, s, SaveRequested{})
	must(t, s, SaveVerified{Object: cm("1", "foo", "1", "bar", "1")})
	must(t, s, Saved{Object: cm("2", "foo", "2", "bar", "1")})
	must(t, s, DraftEdited{Text: text(t, cm("2", "foo", "3", "bar", "1"))})
	must(t, s, SaveRequested{})
	if effects := must(t, s, SaveFailed{Err: &APIError{Kind: ErrorTimeout}}); effects[0].(RetrySave).Attempt != 1 {
		t.Error("retry count not reset by a successful save")
	}
}

func TestEditWhileSaving(t *testing.T) {
	s := editing(t, "2")
	must(t, s, SaveRequested{})
	newer := text(t, cm("1", "foo", "2", "bar", "5"))
	must(t, s, DraftEdited{Text: newer})
	wantState(t, s, StateSaving)
	effects := must(t, s, Saved{Object: cm("2", "foo", "2", "bar", "1")})
	wantState(t, s, StateEditing)
	if d := s.Draft(); d == nil || d.Text != newer {
		t.Fatalf("draft edited while saving was lost: %+v", d)
	}
	if wd, ok := effects[0].(WriteDraft); !ok || wd.BaseResourceVersion != "2" {
		t.Fatalf("effects = %#v, want the draft stored against the saved version", effects)
	}
	if save := saveOf(t, must(t, s, SaveRequested{})); save.ResourceVersion != "2" {
		t.Fatalf("next save rv = %q, want 2", save.ResourceVersion)
	}
}

func TestDiscardDraft(t *testing.T) {
	s := editing(t, "2")
	must(t, s, LiveChanged{Type: LiveModified, Object: cm("2", "foo", "1", "bar", "2")})
	effects := must(t, s, DiscardDraft{})
	wantState(t, s, StateViewing)
	if s.Draft() != nil || !reflect.DeepEqual(effects, []Effect{DeleteDraft{Ref: cmRef, Seq: 2}}) {
		t.Fatalf("draft %v effects %s", s.Draft(), describe(effects))
	}
	if s.Base().ResourceVersion != "2" {
		t.Errorf("base after discard = %s, want live's 2", s.Base().ResourceVersion)
	}

	s = sameFieldConflict(t)
	must(t, s, DiscardDraft{})
	if s.Rebase() != nil || s.Conflicts() != nil {
		t.Error("discard kept the rebase")
	}

	s = editing(t, "2")
	must(t, s, SaveRequested{})
	if _, _, err := s.Handle(DiscardDraft{}); err == nil || s.Draft() == nil {
		t.Error("discard during a save was taken")
	}
}

func TestRecoverDraft(t *testing.T) {
	draftText := func(t *testing.T) string { return text(t, cm("1", "foo", "2", "bar", "1")) }
	t.Run("same base", func(t *testing.T) {
		s := opened(t, cmRef, cm("1", "foo", "1", "bar", "1"))
		must(t, s, RecoverDraft{Draft: StoredDraft{Text: draftText(t), BaseResourceVersion: "1"}})
		wantState(t, s, StateEditing)
		if save := saveOf(t, must(t, s, SaveRequested{})); save.ResourceVersion != "1" {
			t.Fatalf("rv = %q", save.ResourceVersion)
		}
	})
	t.Run("object moved on, base stored", func(t *testing.T) {
		s := opened(t, cmRef, cm("4", "foo", "1", "bar", "3"))
		must(t, s, RecoverDraft{Draft: StoredDraft{Text: draftText(t), BaseResourceVersion: "1", Base: cm("1", "foo", "1", "bar", "1")}})
		wantState(t, s, StateEditing)
		if b := s.Base().ResourceVersion; b != "1" {
			t.Fatalf("base rv = %q, want the draft's 1", b)
		}
		if ch, ok := s.ServerChange(); !ok || ch.FromRV != "1" || ch.ToRV != "4" {
			t.Fatalf("banner = %+v %v", ch, ok)
		}
		// The save conflicts and the rebase keeps theirs' bar.
		must(t, s, SaveRequested{})
		must(t, s, SaveFailed{Err: conflictErr()})
		save := saveOf(t, must(t, s, Resubmit{}))
		if v, _ := dataOf(save.Object, "bar"); v != "3" || save.ResourceVersion != "4" {
			t.Fatalf("bar %q rv %q, want theirs' 3 at 4", v, save.ResourceVersion)
		}
	})
	t.Run("object moved on, base not stored", func(t *testing.T) {
		s := opened(t, cmRef, cm("4", "foo", "1", "bar", "3"))
		_, effects, err := s.Handle(RecoverDraft{Draft: StoredDraft{Text: draftText(t), BaseResourceVersion: "1"}})
		var se *StaleDraftError
		if !errors.As(err, &se) || se.DraftBase != "1" || se.Current != "4" || effects != nil || s.Draft() != nil {
			t.Fatalf("err %v effects %s draft %v", err, describe(effects), s.Draft())
		}
	})
	t.Run("unparsable stored text is kept", func(t *testing.T) {
		s := opened(t, cmRef, cm("1", "foo", "1"))
		_, _, err := s.Handle(RecoverDraft{Draft: StoredDraft{Text: "data: [", BaseResourceVersion: "1"}})
		var de *DraftError
		if !errors.As(err, &de) || s.Draft() == nil || s.Draft().Text != "data: [" {
			t.Fatalf("err %v draft %+v", err, s.Draft())
		}
	})
	t.Run("refused over a draft", func(t *testing.T) {
		s := editing(t, "2")
		if _, _, err := s.Handle(RecoverDraft{Draft: StoredDraft{Text: draftText(t), BaseResourceVersion: "1"}}); err == nil {
			t.Fatal("recovery replaced an open draft")
		}
	})
}

func TestLiveChangedBanner(t *testing.T) {
	s := opened(t, cmRef, cm("1", "foo", "1", "bar", "1"))
	// Without a draft base follows live and there is no banner.
	must(t, s, LiveChanged{Type: LiveModified, Object: cm("2", "foo", "1", "bar", "2"), At: at(1)})
	if _, ok := s.ServerChange(); ok || s.Base().ResourceVersion != "2" {
		t.Fatalf("viewing: banner %v, base %s", ok, s.Base().ResourceVersion)
	}
	must(t, s, DraftEdited{Text: text(t, cm("2", "foo", "2", "bar", "2"))})
	if _, ok := s.ServerChange(); ok {
		t.Fatal("banner with live at base")
	}
	theirs := withManaged(cm("3", "foo", "1", "bar", "9", "baz", "new"),
		mf{"kubectl-edit", "Update", 0, `{"f:data":{".":{},"f:foo":{}}}`},
		mf{"kubectl-patch", "Update", 2, `{"f:data":{"f:bar":{},"f:baz":{}}}`},
	)
	must(t, s, LiveChanged{Type: LiveModified, Object: theirs, At: at(2)})
	ch, ok := s.ServerChange()
	want := ServerChange{FromRV: "2", ToRV: "3", Manager: "kubectl-patch", Changes: []FieldChange{
		{Path: ".data.bar", Kind: diff.Modified},
		{Path: ".data.baz", Kind: diff.Added},
	}}
	if !ok || !reflect.DeepEqual(ch, want) {
		t.Fatalf("banner = %+v, want %+v", ch, want)
	}
	if s.Base().ResourceVersion != "2" {
		t.Error("base moved under the draft")
	}
	// A stale informer event does not move live back.
	must(t, s, LiveChanged{Type: LiveModified, Object: cm("2", "foo", "1", "bar", "2")})
	if lv, _ := s.Live(); lv.ResourceVersion != "3" {
		t.Errorf("live = %s after a stale event", lv.ResourceVersion)
	}
}

func TestDeleteWhileEditing(t *testing.T) {
	s := editing(t, "2")
	last := cm("1", "foo", "1", "bar", "1")
	must(t, s, LiveChanged{Type: LiveDeleted, Object: last, At: at(1)})
	wantState(t, s, StateEditing)
	if ch, ok := s.ServerChange(); !ok || !ch.Deleted {
		t.Fatalf("banner = %+v, want deleted", ch)
	}
	if _, gone := s.Live(); !gone {
		t.Fatal("live not marked deleted")
	}
	if _, _, err := s.Handle(RebaseRequested{}); err == nil {
		t.Error("rebase onto a deleted object was taken")
	}
	// The save goes out (the server decides) and comes back 404.
	must(t, s, SaveRequested{})
	must(t, s, SaveFailed{Err: &APIError{Kind: ErrorNotFound}})
	wantState(t, s, StateFailed)

	effects := must(t, s, Recreate{})
	wantState(t, s, StateSaving)
	if len(effects) != 1 {
		t.Fatalf("effects = %s", describe(effects))
	}
	c, ok := effects[0].(Create)
	if !ok {
		t.Fatalf("effect = %T, want Create", effects[0])
	}
	if c.Object.GetResourceVersion() != "" || c.Object.GetUID() != "" {
		t.Errorf("create carries rv %q uid %q", c.Object.GetResourceVersion(), c.Object.GetUID())
	}
	if v, _ := dataOf(c.Object, "foo"); v != "2" {
		t.Errorf("created foo = %q, want the draft's 2", v)
	}
	must(t, s, Saved{Object: cm("10", "foo", "2", "bar", "1"), At: at(2)})
	wantState(t, s, StateSaved)
	if lv, gone := s.Live(); gone || lv.ResourceVersion != "10" {
		t.Errorf("live %s gone %v after recreate", lv.ResourceVersion, gone)
	}
}

func TestRecreateWithoutEventAfterNotFound(t *testing.T) {
	s := editing(t, "2")
	must(t, s, SaveRequested{})
	must(t, s, SaveFailed{Err: &APIError{Kind: ErrorNotFound}})
	if _, ok := must(t, s, Recreate{})[0].(Create); !ok {
		t.Fatal("no Create after a 404")
	}
}

func TestFetchTheirsFailure(t *testing.T) {
	s := editing(t, "2")
	must(t, s, SaveRequested{})
	must(t, s, SaveFailed{Err: conflictErr()})
	must(t, s, SaveFailed{Err: &APIError{Kind: ErrorNotFound}})
	wantState(t, s, StateFailed)
	if s.Rebase() != nil || s.Draft() == nil {
		t.Fatal("failed fetch of theirs: rebase kept or draft lost")
	}
}

func TestMergeFailureKeepsDraft(t *testing.T) {
	s := editing(t, "2")
	must(t, s, SaveRequested{})
	must(t, s, SaveFailed{Err: conflictErr()})
	other := cm("5", "foo", "1")
	other.SetName("other")
	must(t, s, Conflicted{Theirs: other})
	wantState(t, s, StateFailed)
	var ie *diff.IdentityError
	if f := s.Failure(); f == nil || !errors.As(f.Err, &ie) {
		t.Fatalf("failure = %+v, want the identity error", f)
	}
	if s.Draft() == nil || s.Draft().Object == nil {
		t.Fatal("draft lost")
	}
}

func TestMergedEditedOutsideARebaseIsRefused(t *testing.T) {
	s := editing(t, "2")
	if _, _, err := s.Handle(MergedEdited{Text: "x"}); err == nil || s.Draft().Text == "x" {
		t.Fatal("merged text taken without a rebase")
	}
}

func TestDraftEditedDuringARebaseMergesAgain(t *testing.T) {
	// Two conflicts: foo (base 1, mine 2, theirs 3) and bar (1, 2, 3).
	s := opened(t, cmRef, cm("1", "foo", "1", "bar", "1", "baz", "1"))
	must(t, s, DraftEdited{Text: text(t, cm("1", "foo", "2", "bar", "2", "baz", "1"))})
	must(t, s, SaveRequested{})
	must(t, s, SaveFailed{Err: conflictErr()})
	must(t, s, Conflicted{Theirs: cm("5", "foo", "3", "bar", "3", "baz", "1")})
	if n := len(s.Conflicts()); n != 2 {
		t.Fatalf("%d conflicts, want 2", n)
	}
	must(t, s, Resolve{Index: 0, Resolution: diff.Resolution{Choice: diff.TakeMine}}) // bar: mine

	// Mine changes foo to theirs' value and baz: foo's conflict goes away,
	// bar's resolution stays, baz is merged in.
	effects := must(t, s, DraftEdited{Text: text(t, cm("1", "foo", "3", "bar", "2", "baz", "7"))})
	if _, ok := effects[0].(WriteDraft); !ok {
		t.Errorf("effects = %s, want the draft stored", describe(effects))
	}
	wantState(t, s, StateRebasing)
	if cs := s.Conflicts(); len(cs) != 1 || cs[0].Path.String() != ".data.bar" || s.OpenConflicts() != 0 {
		t.Fatalf("conflicts after the edit = %v, open %d", cs, s.OpenConflicts())
	}
	save := saveOf(t, must(t, s, Resubmit{}))
	for k, want := range map[string]string{"foo": "3", "bar": "2", "baz": "7"} {
		if v, _ := dataOf(save.Object, k); v != want {
			t.Errorf("%s = %q, want %q", k, v, want)
		}
	}
}

func TestUnparsableDraftDuringARebaseBlocksResubmit(t *testing.T) {
	s := sameFieldConflict(t)
	must(t, s, Resolve{Index: 0, Resolution: diff.Resolution{Choice: diff.TakeMine}})
	_, _, err := s.Handle(DraftEdited{Text: "data: ["})
	var de *DraftError
	if !errors.As(err, &de) {
		t.Fatalf("err = %v", err)
	}
	wantState(t, s, StateRebasing)
	if !s.Rebase().Stale() {
		t.Error("rebase not marked stale")
	}
	if _, effects, err := s.Handle(Resubmit{}); !errors.As(err, &de) || effects != nil {
		t.Fatalf("resubmit of a stale merge: err %v effects %s", err, describe(effects))
	}
	if s.Draft().Text != "data: [" {
		t.Fatal("typed text lost")
	}
	// Fixing the draft merges again and unblocks.
	must(t, s, DraftEdited{Text: text(t, cm("1", "foo", "2", "bar", "1"))})
	if s.Rebase().Stale() {
		t.Fatal("still stale after a good draft")
	}
	if save := saveOf(t, must(t, s, Resubmit{})); save.ResourceVersion != "5" {
		t.Fatalf("rv %q", save.ResourceVersion)
	}
}

func TestDraftEditedWhileWaitingForTheirs(t *testing.T) {
	s := editing(t, "2")
	must(t, s, SaveRequested{})
	must(t, s, SaveFailed{Err: conflictErr()})
	must(t, s, DraftEdited{Text: text(t, cm("1", "foo", "2", "bar", "1", "new", "x"))})
	wantState(t, s, StateWaitingTheirs)
	must(t, s, Conflicted{Theirs: cm("5", "foo", "1", "bar", "9")})
	save := saveOf(t, must(t, s, Resubmit{}))
	for k, want := range map[string]string{"foo": "2", "bar": "9", "new": "x"} {
		if v, _ := dataOf(save.Object, k); v != want {
			t.Errorf("%s = %q, want %q", k, v, want)
		}
	}
}

func TestPreview(t *testing.T) {
	s := editing(t, "2")
	effects := must(t, s, PreviewRequested{})
	wantState(t, s, StateEditing)
	save := saveOf(t, effects)
	if !save.DryRun || save.ResourceVersion != "1" {
		t.Fatalf("dry run = %+v", save)
	}
	if _, ok := s.Preview(); ok {
		t.Fatal("preview before the answer")
	}
	must(t, s, Previewed{Object: cm("1", "foo", "2", "bar", "1", "defaulted", "y")})
	p, ok := s.Preview()
	if v, _ := dataOf(p.Object, "defaulted"); !ok || v != "y" || p.Err != nil {
		t.Fatalf("preview = %+v, %v", p, ok)
	}
	// A newer draft makes the preview outdated.
	must(t, s, DraftEdited{Text: text(t, cm("1", "foo", "3", "bar", "1"))})
	if _, ok := s.Preview(); ok {
		t.Fatal("preview of an older draft shown")
	}
	must(t, s, PreviewRequested{})
	must(t, s, Previewed{Err: &APIError{Kind: ErrorInvalid}})
	if p, ok := s.Preview(); !ok || KindOf(p.Err) != ErrorInvalid {
		t.Fatalf("refused preview = %+v, %v", p, ok)
	}
	if _, _, err := s.Handle(Previewed{}); err == nil {
		t.Error("second answer to one dry run taken")
	}
	wantState(t, s, StateEditing)
}

func TestRetryBackOffSurvivesAnEdit(t *testing.T) {
	s := editing(t, "2")
	must(t, s, SaveRequested{})
	must(t, s, SaveFailed{Err: &APIError{Kind: ErrorUnavailable}})
	must(t, s, DraftEdited{Text: text(t, cm("1", "foo", "3", "bar", "1"))})
	wantState(t, s, StateEditing)
	must(t, s, SaveRequested{})
	effects := must(t, s, SaveFailed{Err: &APIError{Kind: ErrorUnavailable}})
	if r := effects[0].(RetrySave); r.Attempt != 2 || r.Delay != 2*time.Second {
		t.Fatalf("retry = %+v, want attempt 2 after 2s", r)
	}
	// A refusal that is not worth retrying ends the back-off.
	must(t, s, SaveRequested{})
	must(t, s, SaveFailed{Err: &APIError{Kind: ErrorForbidden}})
	must(t, s, SaveRequested{})
	if effects := must(t, s, SaveFailed{Err: &APIError{Kind: ErrorTimeout}}); effects[0].(RetrySave).Attempt != 1 {
		t.Fatal("back-off not reset by a forbidden save")
	}
}

func TestRebaseOntoNewerLiveWhileResolving(t *testing.T) {
	s := opened(t, cmRef, cm("1", "foo", "1", "bar", "1"))
	must(t, s, DraftEdited{Text: text(t, cm("1", "foo", "2", "bar", "2"))})
	must(t, s, SaveRequested{})
	must(t, s, SaveFailed{Err: conflictErr()})
	must(t, s, Conflicted{Theirs: cm("5", "foo", "3", "bar", "3")})
	must(t, s, Resolve{Index: 0, Resolution: diff.Resolution{Choice: diff.TakeTheirs}}) // bar
	if _, _, err := s.Handle(RebaseRequested{}); !errors.Is(err, ErrUpToDate) {
		t.Fatalf("rebase with live at theirs: %v", err)
	}
	// theirs changes foo again and adds baz while the user resolves.
	must(t, s, LiveChanged{Type: LiveModified, Object: cm("6", "foo", "4", "bar", "3", "baz", "1")})
	if ch, ok := s.ServerChange(); !ok || ch.FromRV != "5" || ch.ToRV != "6" {
		t.Fatalf("banner while resolving = %+v %v", ch, ok)
	}
	must(t, s, RebaseRequested{})
	rb := s.Rebase()
	if rb.Theirs.ResourceVersion != "6" || rb.Base.GetResourceVersion() != "1" {
		t.Fatalf("theirs %s base %s", rb.Theirs.ResourceVersion, rb.Base.GetResourceVersion())
	}
	// bar's conflict is unchanged and stays resolved; foo's is new.
	if s.OpenConflicts() != 1 {
		t.Fatalf("open = %d, want 1", s.OpenConflicts())
	}
	wantState(t, s, StateResolving)
	must(t, s, ResolveAll{Choice: diff.TakeMine})
	save := saveOf(t, must(t, s, Resubmit{}))
	for k, want := range map[string]string{"foo": "2", "bar": "3", "baz": "1"} {
		if v, _ := dataOf(save.Object, k); v != want {
			t.Errorf("%s = %q, want %q", k, v, want)
		}
	}
	if save.ResourceVersion != "6" {
		t.Errorf("rv %q, want 6", save.ResourceVersion)
	}
}

func TestSecretRebase(t *testing.T) {
	secret := func(rv, pw, user string) *unstructured.Unstructured {
		return &unstructured.Unstructured{Object: map[string]any{
			"apiVersion": "v1", "kind": "Secret", "type": "Opaque",
			"metadata": map[string]any{"name": "creds", "namespace": "ns", "resourceVersion": rv},
			"data": map[string]any{
				"password": base64.StdEncoding.EncodeToString([]byte(pw)),
				"user":     base64.StdEncoding.EncodeToString([]byte(user)),
			},
		}}
	}
	ref := ObjectRef{Resource: schema.GroupVersionResource{Version: "v1", Resource: "secrets"}, Kind: "Secret", Namespace: "ns", Name: "creds"}
	s := opened(t, ref, secret("1", "old", "admin"))
	must(t, s, DraftEdited{Text: text(t, secret("1", "mine", "admin"))})
	must(t, s, SaveRequested{})
	must(t, s, LiveChanged{Type: LiveModified, Object: secret("2", "theirs", "root"), At: at(1)})
	must(t, s, SaveFailed{Err: conflictErr()})
	cs := s.Conflicts()
	if len(cs) != 1 || cs[0].Mine.Value != "mine" || cs[0].Theirs.Value != "theirs" {
		t.Fatalf("conflicts = %+v, want password decoded", cs)
	}
	must(t, s, Resolve{Index: 0, Resolution: diff.Resolution{Choice: diff.TakeMine}})
	save := saveOf(t, must(t, s, Resubmit{}))
	for k, want := range map[string]string{"password": "mine", "user": "root"} {
		v, _ := dataOf(save.Object, k)
		if raw, _ := base64.StdEncoding.DecodeString(v); string(raw) != want {
			t.Errorf("%s = %q, want base64 of %q", k, v, want)
		}
	}
}

func TestAbandonRebaseKeepsTheDraft(t *testing.T) {
	s := sameFieldConflict(t)
	draft := s.Draft().Text
	base := s.Base().ResourceVersion
	must(t, s, Resolve{Index: 0, Resolution: diff.Resolution{Choice: diff.TakeMine}})

	must(t, s, AbandonRebase{})
	wantState(t, s, StateEditing)
	if s.Rebase() != nil || len(s.Conflicts()) != 0 {
		t.Fatal("the rebase is still there")
	}
	if s.Draft().Text != draft || s.Base().ResourceVersion != base {
		t.Errorf("leaving the rebase changed the draft or its base (rv %s -> %s)", base, s.Base().ResourceVersion)
	}
	if _, ok := s.ServerChange(); !ok {
		t.Error("the banner forgot that the object changed on the server")
	}
	// Saving again goes out from the old base: the server decides, and a
	// conflict starts a new rebase rather than putting mine over theirs.
	if save := saveOf(t, must(t, s, SaveRequested{})); save.ResourceVersion != base {
		t.Errorf("save after leaving the rebase at rv %s, want base's %s", save.ResourceVersion, base)
	}

	if _, _, err := opened(t, cmRef, cm("1", "foo", "1")).Handle(AbandonRebase{}); err == nil {
		t.Error("AbandonRebase without a rebase was accepted")
	}
}

// TestParsedDraftIsParsing: a draft parsed ahead with ParseDraft (off the
// UI's goroutine) is taken as the session would take the text parsed
// itself, whether it parses or not, changes the object's identity or is
// base again; a ParsedDraft of another text is not taken.
func TestParsedDraftIsParsing(t *testing.T) {
	good := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: testmap\n  namespace: ns\ndata:\n  foo: \"2\"\n"
	base := opened(t, cmRef, cm("1", "foo", "1"))
	unchanged, err := base.DraftText()
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{
		good, unchanged, "  \n", good + "  foo: \"3\"\n",
		strings.Replace(good, "  foo:", "\tfoo:", 1),
		strings.Replace(good, "name: testmap", "name: other", 1),
		strings.Replace(good, "kind: ConfigMap\n", "", 1),
		strings.Replace(good, "  foo: \"2\"\n", "<<<<<<< mine\n  foo: \"2\"\n||||||| base\n  foo: \"1\"\n=======\n  foo: \"3\"\n>>>>>>> theirs\n", 1),
	} {
		outcome := func(parsed *ParsedDraft) string {
			s := opened(t, cmRef, cm("1", "foo", "1"))
			state, effects, err := s.Handle(DraftEdited{Text: text, Parsed: parsed})
			d := s.Draft()
			if d == nil {
				return fmt.Sprintf("%s %s %v no draft", state, describe(effects), err)
			}
			obj, _ := json.Marshal(d.Object)
			return fmt.Sprintf("%s %s %v draft %q %v %s", state, describe(effects), err, d.Text, d.Err, obj)
		}
		want := outcome(nil)
		if got := outcome(FormatYAML.ParseDraft(text)); got != want {
			t.Errorf("%q parsed ahead:\n%s\nwant\n%s", text, got, want)
		}
		if got := outcome(FormatYAML.ParseDraft(good + "# another text\n")); got != want {
			t.Errorf("%q with another text's ParsedDraft:\n%s\nwant\n%s", text, got, want)
		}
	}
	if p := FormatYAML.ParseDraft("a: [\n"); p.Err(cmRef) == nil {
		t.Error("ParseDraft took YAML that does not parse")
	}
}

// TestDraftWithoutNamespaceIsTheSessions: a draft that leaves its
// namespace out means the session's, and saves there.
func TestDraftWithoutNamespaceIsTheSessions(t *testing.T) {
	s := opened(t, cmRef, cm("1", "foo", "1"))
	text := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: testmap\ndata:\n  foo: \"2\"\n"
	must(t, s, DraftEdited{Text: text})
	_, effects, err := s.Handle(SaveRequested{})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range effects {
		if save, ok := e.(Save); ok {
			if ns := save.Object.GetNamespace(); ns != "ns" {
				t.Errorf("the save goes to namespace %q, want the session's", ns)
			}
			return
		}
	}
	t.Fatalf("no save: %s", describe(effects))
}
