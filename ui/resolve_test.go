package ui

import (
	"fmt"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kedit/kedit/internal/fixture"
	"github.com/kedit/kedit/model"
	"github.com/kedit/kedit/ui/statusbar"
)

// TestTakeMineOnARegionKeepsTheirsCleanLine: taking mine keeps theirs'
// change beside the collision, through the app: m on the colliding line, and theirs' line 30 is saved.
func TestTakeMineOnARegionKeepsTheirsCleanLine(t *testing.T) {
	r := &fakeRunner{}
	m := newAppWith(t, 120, 40, r, map[string]any{"app.conf": fixture.AppConfBase})
	m = edit(t, m, "option5 = 5\n", "option5 = mine\n")
	m = edit(t, m, "option10 = 10\n", "option10 = mine\n")
	m = theirsWrite(t, m, r, "app.conf", fixture.AppConfTheirs)
	m = drive(t, m, keys("s")...)
	if screen := plain(m); !strings.Contains(screen, "1 conflict, 2 changes merged") || !strings.Contains(screen, ".data.app.conf line 10") {
		t.Fatalf("conflict view:\n%s", screen)
	}
	m = drive(t, m, keys("m")...)
	drive(t, m, keys("s")...)
	want := fixture.AppConfMineAt10
	if got := dataOf(r.server, "app.conf"); got != want {
		t.Errorf("app.conf on the server:\n%s\nwant\n%s", got, want)
	}
}

// TestMergedListReachesEveryChange: however many changes were merged,
// moving down the list shows each of them, with its value.
func TestMergedListReachesEveryChange(t *testing.T) {
	r := &fakeRunner{}
	data := map[string]any{"foo": "1"}
	for i := range 30 {
		data[fmt.Sprintf("key%02d", i)] = "1"
	}
	m := newAppWith(t, 80, 24, r, data)
	m = edit(t, m, `foo: "1"`, `foo: mine`)
	for i := range 30 {
		m = theirsWrite(t, m, r, fmt.Sprintf("key%02d", i), fmt.Sprintf("v%02d", i))
	}
	m = drive(t, m, keys("s")...)
	seen := map[string]bool{}
	for range 40 {
		for _, l := range strings.Split(plain(m), "\n") {
			if strings.Contains(l, "theirs  .data.key") {
				seen[strings.Fields(l[strings.Index(l, ".data."):])[0]+" "+l[strings.LastIndex(l, " ")+1:]] = true
			}
		}
		m = drive(t, m, keys("j")...)
	}
	for i := range 30 {
		if k := fmt.Sprintf(".data.key%02d v%02d", i, i); !seen[k] {
			t.Errorf("%s never shown", k)
		}
	}
	if !strings.Contains(plain(m), "↑") {
		t.Error("the end of a long list does not say what is above")
	}
}

func TestSavedReportSaysWhatTheServerKept(t *testing.T) {
	r := &fakeRunner{stored: func(o *unstructured.Unstructured) {
		_ = unstructured.SetNestedField(o.Object, "1", "data", "bar")
		o.SetManagedFields(nil)
		_ = unstructured.SetNestedSlice(o.Object, []any{map[string]any{
			"manager": "kubectl-patch", "operation": "Update", "apiVersion": "v1", "fieldsType": "FieldsV1",
			"fieldsV1": map[string]any{"f:data": map[string]any{"f:bar": map[string]any{}}},
		}}, "metadata", "managedFields")
	}}
	m := edit(t, newApp(t, 120, 40, r), "  bar: \"1\"\n", "")
	m = drive(t, m, keys("s")...)
	if got := m.status.Text(); got != "saved rv 813, but .data.bar is still on the server: the draft keeps what you wrote (x discards it, e edits it)" || m.status.Kind() != statusbar.KindError {
		t.Errorf("status %q (%v)", got, m.status.Kind())
	}
	// The draft is the user's text on the saved version, until discarded.
	if d := m.sess.Draft(); d == nil || strings.Contains(d.Text, "bar:") || m.sess.Base().ResourceVersion != "813" {
		t.Fatalf("draft %v on rv %s, want the user's text on rv 813", d, m.sess.Base().ResourceVersion)
	}
	if !strings.Contains(plain(m), "unsaved draft  based on rv 813") {
		t.Errorf("the object view does not show the kept draft:\n%s", plain(m))
	}
	m = drive(t, m, keys("x")...)
	if m.sess.Draft() != nil {
		m = drive(t, m, keys("y")...)
	}
	if m.sess.Draft() != nil {
		t.Errorf("x left the kept draft: status %q", m.status.Text())
	}
}

func TestSaveAsUpdateKey(t *testing.T) {
	r := &fakeRunner{failOnce: []error{&apiError{Kind: model.ErrorApplyCannotRemove,
		Causes: []model.FieldCause{{Field: ".data.bar", Message: "owned by kubectl-patch"}}}}}
	m := newApp(t, 120, 40, r)
	m = drive(t, m, keys("u")...)
	if got := m.status.Text(); !strings.Contains(got, "u sends a save as an update when") || r.saves != 0 {
		t.Errorf("u without the refusal says %q, %d saves", got, r.saves)
	}
	m = edit(t, m, "  bar: \"1\"\n", "")
	m = drive(t, m, keys("s")...)
	if got := m.status.Text(); !strings.Contains(got, "u sends this save as an update") || !strings.Contains(got, ".data.bar: owned by kubectl-patch") {
		t.Errorf("status %q", got)
	}
	if !strings.Contains(plain(m), "u save as update") {
		t.Error("the help line does not offer u")
	}
	m = drive(t, m, keys("u")...)
	if !r.last.Update || m.Session().State() != model.StateSaved {
		t.Fatalf("u sent update %v, state %v", r.last.Update, m.Session().State())
	}
	if got := m.status.Text(); got != "saved rv 813 as an update" {
		t.Errorf("status %q", got)
	}
}

func TestApplyConflictThroughTheApp(t *testing.T) {
	r := &fakeRunner{failOnce: []error{&apiError{Kind: model.ErrorFieldManagerConflict,
		Owners: []model.OwnedField{{Field: ".data.foo", Manager: "kubectl-patch"}}}}}
	m := edit(t, newApp(t, 120, 40, r), `foo: "1"`, `foo: mine`)
	m = drive(t, m, keys("s")...)
	if m.screen != screenConflict || !strings.Contains(plain(m), "owned by kubectl-patch") {
		t.Fatalf("no apply conflict:\n%s", plain(m))
	}
	m = drive(t, m, keys("b")...)
	if got := m.status.Text(); !strings.Contains(got, "mine (kedit takes it") {
		t.Errorf("b on an owned field says %q", got)
	}
	m = drive(t, m, keys("m")...)
	if !strings.Contains(plain(m), "s applies with force, taking .data.foo from kubectl-patch") {
		t.Errorf("the view does not say what s will force:\n%s", plain(m))
	}
	m = drive(t, m, keys("s")...)
	if !r.last.Force || dataOf(r.server, "foo") != "mine" {
		t.Fatalf("force %v, foo %q", r.last.Force, dataOf(r.server, "foo"))
	}
	if got := m.status.Text(); got != "saved rv 813, applied with force: took .data.foo from kubectl-patch" {
		t.Errorf("status %q", got)
	}
}

func TestRebaseWithoutADraftSaysSo(t *testing.T) {
	m := newApp(t, 80, 24, &fakeRunner{})
	m = drive(t, m, keys("r")...)
	if got := m.status.Text(); got != "nothing to rebase: no draft" {
		t.Errorf("r without a draft says %q", got)
	}
}

// TestDiffViewHunks: d shows the changes in hunks with three lines of
// context, not the whole object, and n/N jump between hunks.
func TestDiffViewHunks(t *testing.T) {
	m := newAppWith(t, 80, 12, &fakeRunner{}, map[string]any{"app.conf": fixture.AppConfBase})
	m = edit(t, m, "option5 = 5\n", "option5 = mine\n")
	m = edit(t, m, "option30 = 30\n", "option30 = mine\n")
	m = drive(t, m, keys("d")...)
	body := m.object.Body()
	if !strings.Contains(body, "@@ ") || !strings.Contains(body, "+     option5 = mine") {
		t.Fatalf("the diff has no hunk:\n%s", body)
	}
	if len(m.object.HunkStarts()) != 2 {
		t.Fatalf("hunks start at %v, want two", m.object.HunkStarts())
	}
	if all := m.object.Text(); strings.Contains(all, "option20 = 20") || !strings.Contains(all, "option27 = 27") || strings.Contains(all, "option26 = 26") {
		t.Errorf("the diff does not have three lines of context:\n%s", all)
	}
	m = drive(t, m, keys("n")...)
	if !strings.Contains(m.object.Body(), "option30 = mine") {
		t.Errorf("n does not jump to the second hunk:\n%s", m.object.Body())
	}
	m = drive(t, m, keys("N")...)
	if m.object.YOffset() != 0 {
		t.Errorf("N does not jump back to the first hunk: offset %d", m.object.YOffset())
	}
}
