package ui

import (
	"context"
	"strconv"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kedit/kedit/kube/schemacheck"
	"github.com/kedit/kedit/ui/internal/editfile"
	"github.com/kedit/kedit/ui/internal/effect"
)

// refuseBaz is a schema check that refuses a field baz on its line.
func refuseBaz(_ context.Context, text string, obj, _ *unstructured.Unstructured) ([]schemacheck.Diagnostic, error) {
	if obj == nil {
		return nil, nil
	}
	for i, l := range strings.Split(text, "\n") {
		if strings.Contains(l, "baz:") {
			return []schemacheck.Diagnostic{{Line: i + 1, Path: "data.baz", Message: "baz: unknown field, did you mean bar?"}}, nil
		}
	}
	return nil, nil
}

// TestSchemaDiagnosticsInTheApp: a field the schema refuses, typed in the
// in-app editor, is said under its line once typing pauses; back in the
// object view, s says why and sends nothing, s again sends the draft.
func TestSchemaDiagnosticsInTheApp(t *testing.T) {
	r := &fakeRunner{}
	m := newApp(t, 100, 24, r)
	m.opened = &Object{Check: refuseBaz}
	m = drive(t, m, keys("i")...)
	m = typeIn(t, m, keyMsg("down"), keyMsg("end"), tea.KeyMsg{Type: tea.KeyEnter}, runes("  baz: typed"))
	if v := m.View(); !strings.Contains(v, "the schema refuses: baz: unknown field, did you mean bar?") {
		t.Fatalf("the diagnostic is not said at the cursor:\n%s", v)
	}
	m = drive(t, m, keyMsg("esc"), keyMsg("s"))
	if v := m.View(); !strings.Contains(v, "the schema refuses 1 field: line 3: baz: unknown field") || !strings.Contains(v, "s again sends it") {
		t.Fatalf("s does not say why it waits:\n%s", v)
	}
	if r.saves != 0 {
		t.Fatalf("the first s sent the draft (%d saves)", r.saves)
	}
	m = drive(t, m, keyMsg("s"))
	if r.saves != 1 {
		t.Fatalf("s again did not send the draft (%d saves)\n%s", r.saves, m.View())
	}
}

// TestSchemaDiagnosticsHoldCtrlS: ctrl+s in the in-app editor on a text
// the schema refuses keeps the draft and says why, sending nothing; the
// next ctrl+s sends it.
func TestSchemaDiagnosticsHoldCtrlS(t *testing.T) {
	r := &fakeRunner{}
	m := newApp(t, 100, 24, r)
	m.opened = &Object{Check: refuseBaz}
	m = drive(t, m, keys("i")...)
	m = typeIn(t, m, keyMsg("down"), keyMsg("end"), tea.KeyMsg{Type: tea.KeyEnter}, runes("  baz: typed"))
	m = drive(t, m, tea.KeyMsg{Type: tea.KeyCtrlS})
	if v := m.View(); !strings.Contains(v, "ctrl+s again sends it") || r.saves != 0 {
		t.Fatalf("ctrl+s sent the draft (%d saves) or did not say why:\n%s", r.saves, v)
	}
	if d := m.Session().Draft(); d == nil || !strings.Contains(d.Text, "baz: typed") {
		t.Fatalf("the draft is not kept: %+v", d)
	}
	m = drive(t, m, tea.KeyMsg{Type: tea.KeyCtrlS})
	if r.saves != 1 {
		t.Fatalf("ctrl+s again did not send the draft (%d saves)\n%s", r.saves, m.View())
	}
}

// TestDroppedFieldIsSaidButHoldsNoSave: a field the server would drop
// rather than refuse (an unknown field under --validate warn or ignore)
// is said at the cursor, and the save goes at the first s, the status
// saying that the server drops it, never that the schema refuses it.
func TestDroppedFieldIsSaidButHoldsNoSave(t *testing.T) {
	r := &fakeRunner{}
	m := newApp(t, 100, 24, r)
	m.opened = &Object{Check: func(ctx context.Context, text string, obj, old *unstructured.Unstructured) ([]schemacheck.Diagnostic, error) {
		found, err := refuseBaz(ctx, text, obj, old)
		for i := range found {
			found[i].Dropped = true
			found[i].Message = "the server will drop baz (--validate=ignore)"
		}
		return found, err
	}}
	m = drive(t, m, keys("i")...)
	m = typeIn(t, m, keyMsg("down"), keyMsg("end"), tea.KeyMsg{Type: tea.KeyEnter}, runes("  baz: typed"))
	if v := m.View(); !strings.Contains(v, "↑ the server will drop baz (--validate=ignore)") {
		t.Fatalf("the diagnostic is not said at the cursor:\n%s", v)
	}
	m = drive(t, m, keyMsg("esc"), keyMsg("s"))
	if r.saves != 1 {
		t.Fatalf("s held a draft whose only diagnostic is a dropped field (%d saves)\n%s", r.saves, m.View())
	}
	if v := m.View(); strings.Contains(v, "refuses") || strings.Contains(v, "again sends it") {
		t.Fatalf("the status says the schema refuses a field the server drops:\n%s", v)
	}
}

// TestMergedResultGetsTheDraftsDiagnostics: e on the merged result
// writes the file with the schema's word on it at the top, its line
// counted with the head's; the merged result back from $EDITOR with a
// field the schema refuses is said in the status bar, and s asks first
// as for a draft.
func TestMergedResultGetsTheDraftsDiagnostics(t *testing.T) {
	m, r := conflicted(t, 120)
	m.opened = &Object{Check: refuseBaz}
	m = drive(t, m, keys("m")...)
	merged, err := m.Session().MergedText()
	if err != nil || strings.Contains(merged, "<<<<<<<") {
		t.Fatalf("merged %q, %v", merged, err)
	}
	withBaz := strings.Replace(merged, "data:\n", "data:\n  baz: typed\n", 1)
	late := m.mergedHead(withBaz)
	if late == nil {
		t.Fatal("no head is made for the merged result")
	}
	head, _ := late()
	file := editfile.WithHead(head, withBaz)
	if want := "# line " + strconv.Itoa(lineOf(file, "baz: typed")) + ": baz: unknown field"; len(head) != 2 || !strings.HasPrefix(head[1], want) {
		t.Fatalf("head %q, want %q", head, want)
	}
	saves := r.saves
	m = drive(t, m, effect.EditorFinished{Merged: true, Original: merged, Text: withBaz})
	if v := plain(m); !strings.Contains(v, "the schema refuses 1 field: line "+strconv.Itoa(lineOf(withBaz, "baz: typed"))) {
		t.Fatalf("the merged result's check is not said:\n%s", v)
	}
	m = drive(t, m, keys("s")...)
	if v := plain(m); r.saves != saves || !strings.Contains(v, "s again sends it") {
		t.Fatalf("s sent the merged result (%d saves) or did not say why:\n%s", r.saves-saves, v)
	}
	if m.refusedHead(withBaz, 0) == nil {
		t.Error("the draft's head, e again, does not say the schema's word")
	}
	m = drive(t, m, keys("s")...)
	if r.saves != saves+1 {
		t.Fatalf("s again did not send it:\n%s", plain(m))
	}
}
