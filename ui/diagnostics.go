package ui

import (
	"context"

	tea "github.com/charmbracelet/bubbletea"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/internal/words"
	"github.com/kedit/kedit/kube/schemacheck"
	"github.com/kedit/kedit/ui/editor"
	"github.com/kedit/kedit/ui/internal/effect"
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

// diagnosis is the schema's word on text, the draft of the object of;
// listLine is the line of a set's List file where text began, 0 when it
// did not come back in one.
type diagnosis struct {
	of       effect.ID
	text     string
	listLine int
	found    []schemacheck.Diagnostic
	err      error
}

// diagnosedMsg is the schema's word on the drafts of objects: of the
// shown object's in-app editor's text at version of opening (inEditor),
// of a draft back from $EDITOR, or (set) of each draft a set's List file
// gave its objects.
type diagnosedMsg struct {
	drafts           []diagnosis
	set              bool
	inEditor         bool
	opening, version uint64
}

// diagState is the schema's and the server's word on the draft, for the
// save.
type diagState struct {
	// text is the text found is about.
	text  string
	found []schemacheck.Diagnostic
	// server are the server's diagnostics of serverText, from its dry run
	// (servercheck.go).
	server     []schemacheck.Diagnostic
	serverText string
	// armed is the draft text whose save was asked for once in spite of
	// found: the next one sends it.
	armed string
	// listLine is the line of a set's List file where text's first line
	// was, when text came back in one (diagnostics.go); 0 otherwise.
	listLine int
	// headLines are the lines of kedit's head above the draft in the
	// $EDITOR file it came back in: the status bar names a line in the
	// file, as the user saw it.
	headLines int
}

// check is the check of text (obj parsed) against o's schema, to run off
// the UI's goroutine; false without a schema check (an Object without
// Check).
func (o *objectState) check(ctx context.Context, text string, obj *unstructured.Unstructured, listLine int) (func() diagnosis, bool) {
	if o.opened == nil || o.opened.Check == nil || obj == nil {
		return nil, false
	}
	check, old, d := o.opened.Check, o.sess.Base().Object, diagnosis{of: o.id, text: text, listLine: listLine}
	return func() diagnosis {
		d.found, d.err = check(ctx, text, obj, old)
		return d
	}, true
}

// diagnoseCmd runs the checks in one command, whose message is msg with
// their words.
func diagnoseCmd(msg diagnosedMsg, checks []func() diagnosis) tea.Cmd {
	if len(checks) == 0 {
		return nil
	}
	return func() tea.Msg {
		for _, c := range checks {
			msg.drafts = append(msg.drafts, c())
		}
		return msg
	}
}

// diagnose checks text, obj parsed, the shown object's, against the
// schema in the background; inEditor: it is the in-app editor's text as
// it is now.
func (m *App) diagnose(inEditor bool, text string, obj *unstructured.Unstructured) tea.Cmd {
	c, ok := m.objectState.check(m.ctx, text, obj, 0)
	if !ok {
		return nil
	}
	msg := diagnosedMsg{inEditor: inEditor}
	if inEditor {
		msg.opening, msg.version = m.editor.Opening(), m.editor.Version()
	}
	return diagnoseCmd(msg, []func() diagnosis{c})
}

// diagnosed keeps d, the schema's word on o's draft, unless it could not
// be said (then the server judges).
func (o *objectState) diagnosed(d diagnosis) bool {
	if d.err != nil || d.of != o.id {
		return false
	}
	o.diag.text, o.diag.found, o.diag.listLine = d.text, d.found, d.listLine
	return true
}

// diagnosed takes the schema's word: each object keeps it, for its next
// save; for the object shown, marks in the in-app editor, or for a draft
// back from $EDITOR, the status bar; for a set's List, its rows and the
// status bar (setDiagnosed). A text the schema passes is then the
// server's to check (servercheck.go): the in-app editor asks once typing
// pauses, a draft back from $EDITOR is asked at once. A schema that
// could not be read says nothing, and passes the text to the server.
func (m App) diagnosed(msg diagnosedMsg) (App, tea.Cmd) {
	if msg.set {
		return m.setDiagnosed(msg), nil
	}
	if len(msg.drafts) != 1 {
		return m, nil
	}
	d := msg.drafts[0]
	st, shown := m.whose(d.of)
	if st == nil {
		return m, nil
	}
	known := st.diagnosed(d)
	if !shown || d.of != st.id {
		return m, nil
	}
	var found []schemacheck.Diagnostic
	if known {
		found = d.found
	}
	if msg.inEditor {
		m.diag.headLines = 0
		if m.screen == screenEditor && msg.opening == m.editor.Opening() {
			return m, m.editor.SetDiagnostics(msg.version, m.editorDiagnostics(found))
		}
		return m, nil
	}
	if dr := m.sess.Draft(); dr == nil || dr.Text != d.text {
		return m, nil
	}
	if refused := refusedOf(found); len(refused) > 0 {
		m.status.Error(m.diagnosticsText(refused) + "; p asks the server")
		return m, nil
	} else if len(found) > 0 {
		m.status.Info(m.droppedText(found))
	}
	return m, m.serverCheckDraft()
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
	switch {
	case !st.sess.Ref().IsSecret():
		return escape.Safe(d.Message)
	case d.Server && d.Path != "":
		return escape.Safe(d.Path)
	case d.Server:
		return "the object"
	}
	return escape.Safe(d.Path) + ": not as the schema says"
}

// whoseRefusal names who refuses found: the schema, the server (its dry
// run), or both.
func whoseRefusal(found []schemacheck.Diagnostic) escape.Text {
	schema, server := false, false
	for _, d := range found {
		schema, server = schema || !d.Server, server || d.Server
	}
	switch {
	case schema && server:
		return "the schema and the server refuse"
	case server:
		return "the server refuses"
	}
	return "the schema refuses"
}

// diagnosticsText sums found up for the status bar: who refuses, how
// many, and the first with its line.
func (m App) diagnosticsText(found []schemacheck.Diagnostic) escape.Text {
	t := escape.Textf("%s %s: line %d: %s", whoseRefusal(found), words.Count(len(found), "field"), found[0].Line+m.diag.headLines, m.diagnosticText(found[0]))
	if len(found) > 1 {
		t += escape.Textf(" (and %d more)", len(found)-1)
	}
	return t
}

// schemaHold reports whether a save of the shown object's draft waits
// for a second asking (objectState.schemaHeld), and says why and what
// sends it.
func (m *App) schemaHold(again escape.Text) bool {
	if !m.objectState.schemaHeld() {
		return false
	}
	// The server may take what its schema, as kedit read it, refuses
	// (or what its dry run refused on an older base): the second asking
	// sends it.
	refused := m.schemaRefusals()
	t := m.diagnosticsText(refused) + "; " + again + " again sends it"
	if whoseRefusal(refused) == "the schema refuses" {
		t += ", p asks the server"
	}
	m.status.Error(t)
	return true
}

// schemaRefusals are the diagnostics of the schema, and of the server's
// dry run, that refuse o's draft as it is now; none when their word is on
// another text, or said nothing.
func (o *objectState) schemaRefusals() []schemacheck.Diagnostic {
	d := o.sess.Draft()
	if d == nil || d.Err != nil {
		return nil
	}
	var out []schemacheck.Diagnostic
	if o.diag.text == d.Text {
		out = refusedOf(o.diag.found)
	}
	if o.diag.serverText == d.Text {
		out = append(out, refusedOf(o.diag.server)...)
	}
	return out
}

// schemaRefuses reports whether the schema refuses the object's draft
// as it is now.
func (o *objectState) schemaRefuses() bool { return len(o.schemaRefusals()) > 0 }

// schemaHeld is the schema-hold rule, for one object and each object of
// a set alike: a save of the draft waits for a second asking when the
// schema refuses the draft as it is now and the save was not asked for
// since. It arms the second asking.
func (o *objectState) schemaHeld() bool {
	if !o.schemaRefuses() || o.diag.armed == o.sess.Draft().Text {
		return false
	}
	o.diag.armed = o.sess.Draft().Text
	return true
}
