package ui

import (
	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textarea"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
)

// EditorView edits the draft in the app, with line numbers, for a quick
// change without leaving for $EDITOR.
type EditorView struct {
	keys     KeyMap
	styles   *Styles
	area     textarea.Model
	original string
	width    int
	// merged is set while the text is the rebase's merged result, not
	// the draft.
	merged bool
}

// NewEditorView returns an editor with nothing in it until Open.
func NewEditorView(keys KeyMap, styles *Styles) EditorView {
	ta := textarea.New()
	ta.ShowLineNumbers = true
	ta.Prompt = ""
	// No limits: a Deployment's YAML is longer than textarea's defaults
	// (400 characters, 99 lines), and cutting a draft would lose text.
	ta.CharLimit = 0
	ta.MaxHeight = 0
	// A steady cursor: a blinking one redraws the screen twice a second
	// for nothing.
	ta.Cursor.SetMode(cursor.CursorStatic)
	return EditorView{keys: keys, styles: styles, area: ta}
}

// Open puts text in the editor, cursor at the top, and focuses it.
func (m *EditorView) Open(text string) tea.Cmd {
	m.original = text
	m.area.SetValue(text)
	for m.area.Line() > 0 {
		m.area.CursorUp()
	}
	m.area.CursorStart()
	return m.area.Focus()
}

// Text returns the text as edited.
func (m EditorView) Text() string { return m.area.Value() }

// Changed reports whether the text differs from what Open put in.
func (m EditorView) Changed() bool { return m.area.Value() != m.original }

// SetSize gives the editor the body's size, less its title line.
func (m *EditorView) SetSize(width, height int) {
	m.width = width
	m.area.SetWidth(width)
	m.area.SetHeight(max(1, height-1))
}

// Update types into the text; the app handles leaving (esc) and saving (ctrl+s).
func (m EditorView) Update(msg tea.Msg) (EditorView, tea.Cmd) {
	var cmd tea.Cmd
	m.area, cmd = m.area.Update(msg)
	return m, cmd
}

// View draws a title line and the text with line numbers.
func (m EditorView) View() string {
	title := "editing the draft: esc leaves and keeps it, ctrl+s saves"
	if m.merged {
		title = "editing the merged result: esc hands it to the rebase, ctrl+s also saves"
	}
	if m.Changed() {
		title += "  (changed)"
	}
	return m.styles.Draft.Render(ansi.Truncate(title, m.width, "…")) + "\n" + m.area.View()
}

// ShortHelp is the editor's keys for the help line.
func (m EditorView) ShortHelp() []key.Binding {
	return []key.Binding{m.keys.EditorLeave, m.keys.EditorSave, m.keys.ForceQuit}
}

// FullHelp is the editor's keys, in one group.
func (m EditorView) FullHelp() [][]key.Binding { return [][]key.Binding{m.ShortHelp()} }
