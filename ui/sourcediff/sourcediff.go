package sourcediff

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/ui/common"
	"github.com/kedit/kedit/ui/pager"
)

// Content is what the view draws: the app builds it from the planned
// edit.
type Content struct {
	// Object names the object, or the objects when Several.
	Object  escape.Text
	Several bool
	// Where are the lines saying where it comes from and the file each
	// field goes into, drawn at the top of the body.
	Where []escape.Text
	// Notes are what the edit says beside the diff, drawn above it: the
	// fields it left out, the build's warnings (what kustomize printed
	// while it built), a line each.
	Notes []escape.Text
	// Diff is the files' unified diff, a line each; for a Secret only
	// the files' names (its values are never drawn).
	Diff []escape.Text
}

// Model shows an edit of the object's source before it is written.
type Model struct {
	keys   KeyMap
	styles *common.Styles
	width  int
	height int
	body   pager.Model
	c      Content
}

// New returns the view with nothing to show until SetContent.
func New(keys KeyMap, styles *common.Styles) Model {
	return Model{keys: keys, styles: styles, body: pager.New(keys.pager())}
}

// SetSize sets the view's size; the rows that wrap are wrapped again at
// the new width.
func (m *Model) SetSize(width, height int) {
	resized := width != m.width
	m.width, m.height = width, height
	m.layout()
	if resized {
		m.fill()
	}
}

// SetContent shows c from its top.
func (m *Model) SetContent(c Content) {
	m.c = c
	m.layout()
	m.fill()
	m.body.GotoTop()
}

// fill sets the body: where each field goes and the notes, wrapped at
// words so that every row can be read at any width (a continuation
// indented), then the diff.
func (m *Model) fill() {
	var b strings.Builder
	for _, l := range m.c.Where {
		for _, w := range m.wrap(string(l)) {
			b.WriteString(w + "\n")
		}
	}
	for _, l := range m.c.Notes {
		for _, w := range m.wrap(string(l)) {
			b.WriteString(m.styles.Changed.Render(w) + "\n")
		}
	}
	if len(m.c.Where)+len(m.c.Notes) > 0 && len(m.c.Diff) > 0 {
		b.WriteString("\n")
	}
	for i, l := range m.c.Diff {
		if i > 0 {
			b.WriteString("\n")
		}
		st := m.styles.Muted
		switch {
		case strings.HasPrefix(string(l), "+++ "), strings.HasPrefix(string(l), "--- "):
			st = m.styles.Title
		case strings.HasPrefix(string(l), "+"):
			st = m.styles.Added
		case strings.HasPrefix(string(l), "-"):
			st = m.styles.Removed
		case strings.HasPrefix(string(l), " "):
			st = m.styles.Muted.UnsetForeground()
		}
		b.WriteString(st.Render(string(l)))
	}
	m.body.SetContent(strings.TrimSuffix(b.String(), "\n"))
}

// wrap is a row of text wrapped at the view's width, its continuations
// indented by two.
func (m Model) wrap(text string) []string {
	if m.width <= 4 {
		return []string{text}
	}
	out := common.WrapWords(text, m.width-2)
	for i := 1; i < len(out); i++ {
		out[i] = "  " + out[i]
	}
	return out
}

func (m *Model) layout() { m.body.SetSize(m.width, m.height, len(m.header())) }

// header is the title, wrapped.
func (m Model) header() []string {
	to := " to its source"
	if m.c.Several {
		to = " to their sources"
	}
	var out []string
	for _, l := range m.wrap("write " + string(m.c.Object) + to + " (nothing written yet)") {
		out = append(out, m.styles.Title.Render(l))
	}
	return out
}

// WriteMsg asks the app to write the files (y), and with Commit to commit
// them on a new branch (c).
type WriteMsg struct{ Commit bool }

// CloseMsg asks to go back to the object view, writing nothing (esc).
type CloseMsg struct{}

// Update answers the view's keys: writing and closing come back as
// intents, the others scroll.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	if k, ok := msg.(tea.KeyMsg); ok {
		if in := common.FirstIntent(k, []common.KeyIntent{{Keys: m.keys.ForceQuit, Intent: common.ForceQuitMsg{}}, {Keys: m.keys.Help, Intent: common.HelpMsg{}},
			{Keys: m.keys.Quit, Intent: common.QuitRequestedMsg{}}, {Keys: m.keys.Close, Intent: CloseMsg{}},
			{Keys: m.keys.Write, Intent: WriteMsg{}}, {Keys: m.keys.Commit, Intent: WriteMsg{Commit: true}}}); in != nil {
			return m, common.Emit(in)
		}
	}
	var cmd tea.Cmd
	m.body, cmd = m.body.Update(msg)
	return m, cmd
}

// View draws the header and the diff.
func (m Model) View() string {
	return strings.Join(m.header(), "\n") + "\n" + m.body.View()
}

// ShortHelp is the view's keys for the help line.
func (m Model) ShortHelp() []key.Binding {
	k := m.keys
	return []key.Binding{k.Write, k.Commit, k.Close, k.Down, k.PageDown, k.Help}
}

// FullHelp is every key of the view.
func (m Model) FullHelp() [][]key.Binding {
	k := m.keys
	return [][]key.Binding{{k.Write, k.Commit, k.Close, k.Help, k.Quit, k.ForceQuit}, {k.Up, k.Down, k.PageUp, k.PageDown, k.HalfPageUp, k.HalfPageDown, k.Home, k.End}}
}
