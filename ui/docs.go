package ui

import (
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/kube/schemacheck"
	"github.com/kedit/kedit/ui/common"
	"github.com/kedit/kedit/ui/editor"
	"github.com/kedit/kedit/ui/fielddoc"
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

type (
	// docsReadMsg is the docs of a field of the object of, read while
	// screen from showed.
	docsReadMsg struct {
		of      objectID
		from    screen
		content fielddoc.Content
	}
	// schemaReadMsg is the schema of the kind of the object of, for the
	// in-app editor's completion, or why it could not be read.
	schemaReadMsg struct {
		of     objectID
		schema *schemacheck.Schema
		err    error
	}
)

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
		m.screen = m.docsFrom
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
	m.docsFrom, m.screen = m.screen, screenDocs
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
	read, id := m.opened.Schema, m.id
	return func() tea.Msg {
		s, err := read()
		return schemaReadMsg{of: id, schema: s, err: err}
	}
}

// schemaRead keeps the schema for the object's in-app editor.
func (m App) schemaRead(msg schemaReadMsg) App {
	st, shown := m.whose(msg.of)
	if st == nil {
		return m
	}
	st.schemaReading = false
	if msg.err != nil {
		st.schemaErr = msg.err
		return m
	}
	st.fieldSchema = completionSchema{msg.schema}
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
