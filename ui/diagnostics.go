package ui

import (
	"context"

	tea "github.com/charmbracelet/bubbletea"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/internal/words"
	"github.com/kedit/kedit/kube/schemacheck"
	"github.com/kedit/kedit/ui/editor"
)

// The draft checked against the server's schema of its kind (the
// Object's Check, kube/schemacheck) off the UI's goroutine: in the in-app
// editor once typing pauses, each refused line marked and its reason said
// at the cursor; for a draft back from $EDITOR, in the status bar; and
// before a save, which asks first when the schema refuses the draft. The
// server's dry run (p) stays the final word: a schema read earlier may be
// older than the server's.

// SchemaCheck says why the server's schema of the object's kind refuses
// obj, read from text, as an update of old (the version the draft is
// made from, which the server ratchets against; only read), each reason
// on its line of text; an error when the schema cannot be read (then
// nothing is said: the server judges). A diagnostic marked Dropped is of
// a field the server takes the object without (an unknown field under
// --validate warn or ignore): it is said, but holds no save.
type SchemaCheck func(ctx context.Context, text string, obj, old *unstructured.Unstructured) ([]schemacheck.Diagnostic, error)

// diagnosedMsg is the schema's word on a text of the object of: of the
// in-app editor's text at version of opening, or (inEditor false) of a
// draft back from $EDITOR.
type diagnosedMsg struct {
	of               objectID
	inEditor         bool
	opening, version uint64
	text             string
	found            []schemacheck.Diagnostic
	err              error
}

// diagState is the schema's word on the draft, for the save.
type diagState struct {
	// text is the text found is about.
	text  string
	found []schemacheck.Diagnostic
	// armed is the draft text whose save was asked for once in spite of
	// found: the next one sends it.
	armed string
	// listLine is the line of a set's List file where text's first line
	// was, when text came back in one (setdiagnostics.go); 0 otherwise.
	listLine int
	// headLines are the lines of kedit's head above the draft in the
	// $EDITOR file it came back in: the status bar names a line in the
	// file, as the user saw it.
	headLines int
}

// diagnose checks text, obj parsed, against the schema in the
// background; inEditor: it is the in-app editor's text as it is now.
// Nothing without a schema check (an app started on a session alone).
func (m *App) diagnose(inEditor bool, text string, obj *unstructured.Unstructured) tea.Cmd {
	if m.opened == nil || m.opened.Check == nil || obj == nil {
		return nil
	}
	check, ctx, old := m.opened.Check, m.ctx, m.sess.Base().Object
	msg := diagnosedMsg{of: m.id, inEditor: inEditor, text: text}
	if inEditor {
		msg.opening, msg.version = m.editor.Opening(), m.editor.Version()
	}
	return func() tea.Msg {
		msg.found, msg.err = check(ctx, text, obj, old)
		return msg
	}
}

// diagnosed takes the schema's word: marks in the in-app editor, or for
// a draft back from $EDITOR, the status bar.
func (m App) diagnosed(msg diagnosedMsg) App {
	if _, shown := m.whose(msg.of); !shown || msg.err != nil {
		return m
	}
	m.diag.text, m.diag.found, m.diag.listLine = msg.text, msg.found, 0
	if msg.inEditor {
		m.diag.headLines = 0
		if m.screen == screenEditor && msg.opening == m.editor.Opening() {
			m.editor.SetDiagnostics(msg.version, m.editorDiagnostics(msg.found))
		}
		return m
	}
	d := m.sess.Draft()
	if d == nil || d.Text != msg.text {
		return m
	}
	if refused := refusedOf(msg.found); len(refused) > 0 {
		m.status.Error(m.diagnosticsText(refused) + "; p asks the server")
	} else if len(msg.found) > 0 {
		m.status.Info(m.droppedText(msg.found))
	}
	return m
}

// refusedOf are the diagnostics of found that the server refuses the
// object for (not those of fields it drops).
func refusedOf(found []schemacheck.Diagnostic) []schemacheck.Diagnostic {
	var out []schemacheck.Diagnostic
	for _, d := range found {
		if !d.Dropped {
			out = append(out, d)
		}
	}
	return out
}

// droppedText sums up found, each of a field the server drops: the
// first with its line (its words say what the server will do), and how
// many more.
func (m App) droppedText(found []schemacheck.Diagnostic) escape.Text {
	t := escape.Textf("line %d: %s", found[0].Line+m.diag.headLines, m.diagnosticText(found[0]))
	if len(found) > 1 {
		t += escape.Textf(" (and %d more)", len(found)-1)
	}
	return t
}

// editorDiagnostics are found as the editor draws them.
func (m App) editorDiagnostics(found []schemacheck.Diagnostic) []editor.Diagnostic {
	out := make([]editor.Diagnostic, len(found))
	for i, d := range found {
		out[i] = editor.Diagnostic{Line: d.Line, Text: m.diagnosticText(d), Server: d.Server, Dropped: d.Dropped}
	}
	return out
}

// diagnosticText is one diagnostic's words. A Secret's quote its values:
// only the field is named.
func (m App) diagnosticText(d schemacheck.Diagnostic) escape.Text {
	return m.objectState.schemaWord(d)
}

// schemaWord is diagnosticText for the object's draft.
func (st *objectState) schemaWord(d schemacheck.Diagnostic) escape.Text {
	if st.sess.Ref().IsSecret() {
		return escape.Safe(d.Path) + ": not as the schema says"
	}
	return escape.Safe(d.Message)
}

// diagnosticsText sums found up for the status bar: how many, and the
// first with its line.
func (m App) diagnosticsText(found []schemacheck.Diagnostic) escape.Text {
	t := escape.Textf("the schema refuses %s: line %d: %s", words.Count(len(found), "field"), found[0].Line+m.diag.headLines, m.diagnosticText(found[0]))
	if len(found) > 1 {
		t += escape.Textf(" (and %d more)", len(found)-1)
	}
	return t
}

// schemaHold reports whether a save of the draft waits for a second
// asking: the schema refuses the draft as it is, and the save was not
// asked for since. It says why, and what sends it.
func (m *App) schemaHold(again escape.Text) bool {
	d := m.sess.Draft()
	refused := refusedOf(m.diag.found)
	if d == nil || d.Err != nil || len(refused) == 0 || m.diag.text != d.Text || m.diag.armed == d.Text {
		return false
	}
	m.diag.armed = d.Text
	// The server may take what its schema, as kedit read it, refuses:
	// the second asking sends it.
	m.status.Error(m.diagnosticsText(refused) + "; " + again + " again sends it, p asks the server")
	return true
}
