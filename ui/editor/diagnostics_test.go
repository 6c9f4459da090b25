package editor

import (
	"errors"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/kedit/kedit/ui/common"
)

// TestDiagnosticsAreSaidAtTheCursor: a diagnostic is drawn under its
// line only while the cursor is on that line; a text changed since it was
// found does not take it; a parse error drops the diagnostics, and the
// notes of the next check keep them.
func TestDiagnosticsAreSaidAtTheCursor(t *testing.T) {
	m := New(DefaultKeyMap(), common.NewStyles())
	m.SetSize(80, 20)
	m.Open("a: 1\nbb: 2\nc: 3\n", false, nil)
	const why = "bb: unknown field, did you mean b?"
	m.SetDiagnostics(m.Version()+1, []Diagnostic{{Line: 2, Text: why}})
	if strings.Contains(m.View(), why) {
		t.Fatal("a diagnostic of another version of the text is drawn")
	}
	m.SetDiagnostics(m.Version(), []Diagnostic{{Line: 2, Text: why}})
	if strings.Contains(m.View(), why) {
		t.Fatalf("the diagnostic of line 2 is drawn with the cursor on line 1:\n%s", m.View())
	}
	m, _ = m.Update(tea.KeyMsg{Type: tea.KeyDown})
	if !strings.Contains(m.View(), why) {
		t.Fatalf("the diagnostic of line 2 is not drawn with the cursor on it:\n%s", m.View())
	}
	m.SetNotes(nil, nil)
	if !strings.Contains(m.View(), why) {
		t.Fatalf("a check's notes dropped the diagnostics of a text that parses:\n%s", m.View())
	}
	m.SetNotes(nil, errors.New("does not parse"))
	if strings.Contains(m.View(), why) {
		t.Fatalf("a text that does not parse keeps its diagnostics:\n%s", m.View())
	}
}

// TestDiagnosticsSayWhose: the schema's refusal, the server's own, and a
// field the server will drop are each said so at the cursor, within 80
// columns, a long reason wrapped whole under its line.
func TestDiagnosticsSayWhose(t *testing.T) {
	for _, tc := range []struct {
		d    Diagnostic
		want string
	}{
		{Diagnostic{Line: 1, Text: "replicass: unknown field, did you mean replicas?"}, "↑ the schema refuses: replicass: unknown field, did you mean replicas?"},
		{Diagnostic{Line: 1, Text: "replicas: Invalid value: -1: must be greater than or equal to 0", Server: true}, "↑ the server refuses: replicas: Invalid value: -1: must be greater than or equal to 0"},
		{Diagnostic{Line: 1, Text: "the server will drop imagePullPolicyy (--validate=warn)", Dropped: true}, "↑ the server will drop imagePullPolicyy (--validate=warn)"},
	} {
		m := New(DefaultKeyMap(), common.NewStyles())
		m.SetSize(80, 10)
		m.Open("imagePullPolicyy: Always\n", false, nil)
		m.SetDiagnostics(m.Version(), []Diagnostic{tc.d})
		v := m.View()
		if !strings.Contains(strings.Join(strings.Fields(v), " "), tc.want) {
			t.Errorf("want %q at the cursor:\n%s", tc.want, v)
		}
		for _, row := range strings.Split(v, "\n") {
			if strings.Contains(row, "…") {
				t.Errorf("a reason is cut:\n%s", v)
			}
		}
	}
}
