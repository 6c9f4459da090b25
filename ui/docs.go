package ui

import (
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/kube"
	"github.com/kedit/kedit/kube/schemacheck"
	"github.com/kedit/kedit/model"
	"github.com/kedit/kedit/ui/common"
	"github.com/kedit/kedit/ui/editor"
	"github.com/kedit/kedit/ui/fielddoc"
	"github.com/kedit/kedit/ui/internal/editfile"
	"github.com/kedit/kedit/ui/internal/effect"
	"github.com/kedit/kedit/ui/object"
)

// The server's schema of the object's kind, for people: the field docs
// (alt+k in the in-app editor, K on blame's cursor line) and the in-app
// editor's completion. The schema is the one the draft is checked against
// (the Object's Schema, read once per kind, from disk when the server's
// document is unchanged), read off the UI's goroutine.

// FieldSchema returns the server's schema of the object's kind; it may
// wait for the server the first time.
type FieldSchema func() (*schemacheck.Schema, error)

// docsReadMsg is the docs of a field of the object of, read while screen
// from showed.
type docsReadMsg struct {
	of      effect.ID
	from    screen
	content fielddoc.Content
}

// docsIntent acts on the asks for a field's docs and on the docs' own;
// false for any other message.
func (m App) docsIntent(msg tea.Msg) (App, tea.Cmd, bool) {
	var cmd tea.Cmd
	switch msg := msg.(type) {
	case editor.DocsMsg:
		cmd = m.readDocs(msg.Path)
	case object.DocsMsg:
		cmd = m.readDocs(msg.Path)
	case fielddoc.CloseMsg:
		m.pop()
	case editor.NoCompletionMsg:
		m.status.Info(m.noCompletionText(msg))
	default:
		return m, nil, false
	}
	return m, cmd, true
}

// readDocs reads the docs of the field at path in the background; they
// show when read, unless the user moved on meanwhile.
func (m *App) readDocs(path []string) tea.Cmd {
	if m.opened == nil || m.opened.Schema == nil {
		m.status.Info("no docs: kedit has no schema of this object's kind")
		return nil
	}
	read, id, from, kind := m.opened.Schema, m.id, m.screen, m.sess.Ref()
	m.status.Info("reading the docs of " + fieldName(path) + " from the server's schema")
	return func() tea.Msg {
		s, err := read()
		c := fielddoc.Content{Kind: escape.Safe(kind.Kind), Version: escape.Safe(kind.Resource.GroupVersion().String())}
		switch f, ok := explain(s, err, path); {
		case err != nil:
			c.Missing = "no docs: the server's schema of " + escape.Safe(kind.Kind) + " could not be read: " + common.ErrorText(err)
		case !ok:
			c.Missing = "no docs: the server's schema of " + escape.Safe(kind.Kind) + " has no field " + fieldName(path)
		default:
			c = docsContent(c, f)
		}
		return docsReadMsg{of: id, from: from, content: c}
	}
}

func explain(s *schemacheck.Schema, err error, path []string) (schemacheck.Field, bool) {
	if err != nil || s == nil {
		return schemacheck.Field{}, false
	}
	return s.Explain(path)
}

// docsContent is f as the docs draw it, every text the server's escaped.
func docsContent(c fielddoc.Content, f schemacheck.Field) fielddoc.Content {
	c.Path, c.Type, c.Required = escape.Safe(f.Path), escape.Safe(f.Type), f.Required
	c.Description, c.AnyField = escape.Safe(f.Description), f.AnyField
	for _, v := range f.Values {
		c.Values = append(c.Values, escape.Safe(v))
	}
	for _, ch := range f.Fields {
		c.Fields = append(c.Fields, fielddoc.Field{Name: escape.Safe(ch.Name), Type: escape.Safe(ch.Type), Required: ch.Required})
	}
	return c
}

// fieldName names a field for the status bar: .spec.replicas; the object
// for an empty path.
func fieldName(path []string) escape.Text {
	if len(path) == 0 {
		return "the object"
	}
	return escape.Safe("." + strings.Join(path, "."))
}

// docsRead shows the docs read, over the screen they were asked from.
func (m App) docsRead(msg docsReadMsg) App {
	if _, shown := m.whose(msg.of); !shown || m.screen != msg.from {
		return m // the object or the screen was left meanwhile
	}
	m.status.Info("")
	m.push(screenDocs)
	m.docs.SetContent(msg.content)
	return m
}

// readSchema reads the schema the in-app editor completes from, once per
// object, in the background.
func (m *App) readSchema() tea.Cmd {
	if m.fieldSchema != nil || m.schemaReading || m.opened == nil || m.opened.Schema == nil {
		return nil
	}
	m.schemaReading, m.schemaErr = true, nil
	return effect.ReadSchema(m.id, m.opened.Schema)
}

// schemaRead keeps the schema for the object's in-app editor.
func (m App) schemaRead(msg effect.SchemaRead) App {
	st, shown := m.whose(msg.Of)
	if st == nil {
		return m
	}
	st.schemaReading = false
	if msg.Err != nil {
		st.schemaErr = msg.Err
		return m
	}
	st.fieldSchema = completionSchema{msg.Schema}
	if shown {
		m.editor.SetSchema(st.fieldSchema)
	}
	return m
}

// completionSchema is a kind's schema as the in-app editor's completion
// asks it (editor.Schema).
type completionSchema struct{ s *schemacheck.Schema }

func (c completionSchema) FieldNames(path []string) []string {
	var out []string
	for _, f := range c.s.Fields(path) {
		out = append(out, f.Name)
	}
	return out
}

func (c completionSchema) Values(path []string) []string { return c.s.Values(path) }

// noCompletionText says why completion offers nothing: the view's words,
// or where the schema stands.
func (m App) noCompletionText(msg editor.NoCompletionMsg) escape.Text {
	kind := escape.Safe(m.sess.Ref().Kind)
	switch {
	case !msg.NoSchema:
		return escape.Safe(msg.Why)
	case m.schemaReading:
		return "no completion yet: the server's schema of " + kind + " is being read"
	case m.schemaErr != nil:
		return "no completion: the server's schema of " + kind + " could not be read: " + common.ErrorText(m.schemaErr)
	}
	return "no completion: kedit has no schema of " + kind
}

// The draft in $EDITOR: the file and the editor are ui/internal/editfile's;
// what goes at the file's top (why the draft was refused) and what comes
// back are the app's.

// RemoveEditorFiles removes the $EDITOR files no running kedit has open:
// those of kedits that are gone, and with self, this kedit's own, as it
// ends (editfile.RemoveStale).
func RemoveEditorFiles(self bool) error { return editfile.RemoveStale(self) }

// editorFinished hands what $EDITOR left in the file to the session, and
// checks the draft it makes: the schema's word, then the server's.
func (m App) editorFinished(msg effect.EditorFinished) (App, tea.Cmd) {
	m.diag.headLines = msg.HeadLines
	m.server.said = ""
	switch {
	case msg.Err != nil:
		m.status.Error("editor: " + common.ErrorText(msg.Err) + " (the draft is unchanged)")
		return m, nil
	case msg.Text == msg.Original:
		m.status.Info("no change")
		return m, nil
	case msg.Merged:
		cmd, _ := m.mergedEdited(msg.Text)
		if d := m.sess.Draft(); m.sess.Rebase() == nil && d != nil && d.Err == nil && d.Text == msg.Text {
			// Taken, the merged result is the draft: checked as one.
			cmd = tea.Batch(cmd, m.checkReturned(d.Text, d.Object))
		}
		return m, cmd
	}
	cmd := m.handle(model.DraftEdited{Text: msg.Text, From: msg.Original})
	if d := m.sess.Draft(); d != nil && d.Err == nil && d.Text == msg.Text {
		cmd = tea.Batch(cmd, m.checkReturned(d.Text, d.Object))
	}
	return m, cmd
}

// checkReturned checks text (obj parsed), the draft back from $EDITOR:
// against the schema, whose word passing it asks the server's
// (diagnosed); without a schema check, the server's at once.
func (m *App) checkReturned(text string, obj *unstructured.Unstructured) tea.Cmd {
	if c := m.diagnose(false, text, obj); c != nil {
		return c
	}
	return m.serverCheckDraft()
}

// refusalsOf are why the object's text was refused: its last save's
// causes, and the schema's word when it is on text.
func (st *objectState) refusalsOf(text string) []editfile.Refusal {
	var causes []model.FieldCause
	if f := st.sess.Failure(); f != nil {
		causes = f.Causes
	}
	var found []schemacheck.Diagnostic
	if st.diag.text == text {
		found = refusedOf(st.diag.found)
	}
	if st.diag.serverText == text {
		found = append(found, refusedOf(st.diag.server)...)
	}
	return editfile.Refusals(text, causes, found, st.sess.Ref().IsSecret())
}

// refusedHead is the head of the $EDITOR file of text, the draft (or
// the merged result): the server's field causes of its refused save and
// the schema's word on it, each with its line in the file (the head's
// lines and extra counted). Nothing when text was not refused.
func (m App) refusedHead(text string, extra int) []string {
	return editfile.HeadOf("kedit: the draft was refused; these lines go when the file is saved", m.objectState.refusalsOf(text), extra)
}

// mergedHead makes, off the UI's goroutine, the head of the $EDITOR
// file of text, the rebase's merged result not checked yet: the reasons
// of refusedHead with the schema's word on text. Nil without a check.
func (m App) mergedHead(text string) func() ([]string, []string) {
	if m.opened == nil || m.opened.Check == nil {
		return nil
	}
	var causes []model.FieldCause
	if f := m.sess.Failure(); f != nil {
		causes = f.Causes
	}
	check, ctx, format, ref := m.opened.Check, m.ctx, m.sess.Format(), m.sess.Ref()
	secret := ref.IsSecret()
	// The merged result is sent on theirs, which the server holds.
	old := m.sess.Base().Object
	if r := m.sess.Rebase(); r != nil {
		old = r.Theirs.Object
	}
	return func() ([]string, []string) {
		var found []schemacheck.Diagnostic
		if p := format.ParseDraft(text); p.Err(ref) == nil && p.Object() != nil {
			found, _ = check(ctx, text, p.Object(), old)
			found = refusedOf(found)
		}
		rs := editfile.Refusals(text, causes, found, secret)
		title := "kedit: the merged result is refused; these lines go when the file is saved"
		return editfile.HeadOf(title, rs, 0), editfile.HeadOf(title, rs, 1)
	}
}

// setRefusedHead is the head of the $EDITOR file of e, a set's List:
// each object's reasons, as refusedHead's, on their lines of the List.
func (m App) setRefusedHead(e *model.SetEdit) []string {
	if len(e.Lines) != len(e.Members) {
		return nil // a refused text given back: its items are not known
	}
	var rs []editfile.Refusal
	for k, i := range e.Members {
		st := m.member(i)
		text, err := st.sess.DraftText()
		if err != nil {
			continue
		}
		key := keyOf(st.target)
		name := kube.ResourceName(key.Resource) + "/" + key.Name
		for _, r := range st.refusalsOf(text) {
			if r.Line > 0 {
				r.Line += e.Lines[k] - 1
			}
			r.Of = name
			rs = append(rs, r)
		}
	}
	return editfile.HeadOf("kedit: drafts were refused; these lines go when the file is saved", rs, 0)
}
