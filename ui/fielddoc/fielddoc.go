// Package fielddoc is the field docs (alt+k in the in-app editor, K on
// blame's cursor line): what the server's schema says of the field at the
// cursor, as kubectl explain says it: its path, type, whether it is
// required, its description, the values it may take and its own fields,
// for built-in kinds and custom resources alike. The app reads the schema
// and hands it a Content; esc closes it (CloseMsg).
package fielddoc

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/ui/common"
	"github.com/kedit/kedit/ui/pager"
)

// CloseMsg asks to close the docs (esc, q), back to where they were
// opened.
type CloseMsg struct{}

// Content is what the docs show: one field as the server's schema
// describes it, or why there is none to show. Every text in it is the
// server's, escaped.
type Content struct {
	// Kind and Version name the object's kind: Deployment, apps/v1.
	Kind, Version escape.Text
	// Path names the field from the object's root (.spec.replicas); the
	// kind for the object itself.
	Path     escape.Text
	Type     escape.Text
	Required bool
	// Description is the schema's description of the field.
	Description escape.Text
	// Values are the values the field may take (an enum's, a boolean's).
	Values []escape.Text
	// Fields are the field's own fields; AnyField: it keeps fields the
	// schema does not name.
	Fields   []Field
	AnyField bool
	// Missing says why there is no field to show, in place of the rest.
	Missing escape.Text
}

// Field is one field of an object, in the FIELDS list.
type Field struct {
	Name, Type escape.Text
	Required   bool
}

// Model shows one field's docs in a body that scrolls.
type Model struct {
	keys    KeyMap
	styles  *common.Styles
	width   int
	height  int
	body    pager.Model
	content Content
}

// New returns the docs with nothing to show until SetContent.
func New(keys KeyMap, styles *common.Styles) Model {
	return Model{keys: keys, styles: styles, body: pager.New(keys.pager())}
}

// SetSize sets the view's size.
func (m *Model) SetSize(width, height int) {
	m.width, m.height = width, height
	m.body.SetSize(width, height, 1) // under the title
	m.render()
}

// SetContent shows c, from its top.
func (m *Model) SetContent(c Content) {
	m.content = c
	m.render()
	m.body.GotoTop()
}

// render lays the docs out as kubectl explain does.
func (m *Model) render() {
	c, st := m.content, m.styles
	if m.width <= 0 {
		return
	}
	wrap := func(text string, indent int) []string {
		pad := strings.Repeat(" ", indent)
		var out []string
		for _, para := range strings.Split(text, "\n") {
			for _, l := range strings.Split(ansi.Hardwrap(ansi.Wordwrap(para, max(10, m.width-indent), ""), max(10, m.width-indent), true), "\n") {
				out = append(out, pad+l)
			}
		}
		return out
	}
	var lines []string
	if c.Missing != "" {
		m.body.SetContent(strings.Join(wrap(string(c.Missing), 0), "\n"))
		return
	}
	lines = append(lines, st.Header.Render("KIND:")+"     "+string(c.Kind), st.Header.Render("VERSION:")+"  "+string(c.Version), "")
	field := st.Header.Render("FIELD:") + "    " + string(c.Path) + " <" + string(c.Type) + ">"
	if c.Required {
		field += " (required)"
	}
	lines = append(lines, wrap(field, 0)...)
	lines = append(lines, "", st.Header.Render("DESCRIPTION:"))
	desc := string(c.Description)
	if desc == "" {
		desc = "(the schema does not describe it)"
	}
	lines = append(lines, wrap(desc, 4)...)
	if len(c.Values) > 0 {
		vals := make([]string, len(c.Values))
		for i, v := range c.Values {
			vals[i] = string(v)
		}
		lines = append(lines, "", st.Header.Render("VALUES:"))
		lines = append(lines, wrap(strings.Join(vals, ", "), 4)...)
	}
	if len(c.Fields) > 0 || c.AnyField {
		lines = append(lines, "", st.Header.Render("FIELDS:"))
		wide := 0
		for _, f := range c.Fields {
			wide = max(wide, ansi.StringWidth(string(f.Name)))
		}
		for _, f := range c.Fields {
			name := string(f.Name)
			l := "  " + name + strings.Repeat(" ", wide-ansi.StringWidth(name)+2) + "<" + string(f.Type) + ">"
			if f.Required {
				l += " (required)"
			}
			lines = append(lines, l)
		}
		if c.AnyField {
			lines = append(lines, "  (any field: the schema keeps what it does not name)")
		}
	}
	m.body.SetContent(strings.Join(lines, "\n"))
}

// Update scrolls the body and answers esc, ? and ctrl+c as intents.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	if k, ok := msg.(tea.KeyMsg); ok {
		if in := common.FirstIntent(k, []common.KeyIntent{{Keys: m.keys.ForceQuit, Intent: common.ForceQuitMsg{}},
			{Keys: m.keys.Help, Intent: common.HelpMsg{}}, {Keys: m.keys.Close, Intent: CloseMsg{}}}); in != nil {
			return m, common.Emit(in)
		}
	}
	var cmd tea.Cmd
	m.body, cmd = m.body.Update(msg)
	return m, cmd
}

// View draws the title and the body.
func (m Model) View() string {
	title := "docs of " + string(m.content.Path) + " from the server's schema"
	if m.content.Missing != "" {
		title = "no docs"
	}
	return m.styles.Title.Render(ansi.Truncate(title, m.width, "…")) + "\n" + m.body.View()
}

// ShortHelp is the docs' keys for the help line.
func (m Model) ShortHelp() []key.Binding {
	k := m.keys
	return []key.Binding{k.Close, k.Down, k.PageDown, k.Help}
}

// FullHelp is every key of the docs.
func (m Model) FullHelp() [][]key.Binding {
	k := m.keys
	return [][]key.Binding{{k.Close, k.Help, k.ForceQuit}, {k.Up, k.Down, k.PageUp, k.PageDown, k.HalfPageUp, k.HalfPageDown, k.Home, k.End}}
}
