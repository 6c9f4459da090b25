// Package helppage is the help page: every key of the active view in
// place of its body (? or f1 in the in-app editor), drawn from the view's
// own bindings, which the app hands it (SetView). Its keys scroll it; any
// other key closes it and comes back to the app to do what it does in the
// view (ClosedMsg).
package helppage

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/ui/common"
)

// Model shows every key of the active view in place of its body (? or
// f1 in the in-app editor), from the view's own bindings: a title naming
// the view, each group of its FullHelp a column (common.HelpLines lays
// them out), then the legend of the escapes. A page taller than the body
// scrolls.
//
// Its own keys scroll it, and the view's help key or esc closes it; any
// other key closes it too, and then does what it does in the view.
type Model struct {
	keys   KeyMap
	styles *common.Styles
	width  int
	height int

	shown bool
	// name names the view the page shows the keys of, groups are its
	// bindings (SetView).
	name   string
	groups [][]key.Binding
	// note is said under the keys on every page (SetNote).
	note []escape.Text
	// off is the first line in view; rows are the lines drawn.
	off  int
	rows []string
}

// ClosedMsg says that a key that is not the help page's closed it: the
// key then does what it does in the view.
type ClosedMsg struct{ Key tea.KeyMsg }

// New returns a help page, hidden until Open.
func New(keys KeyMap, styles *common.Styles) Model {
	return Model{keys: keys, styles: styles}
}

// Open shows the page from its top.
func (m *Model) Open() { m.shown, m.off = true, 0 }

// Close hides the page.
func (m *Model) Close() { m.shown = false }

// Shown reports whether the page shows.
func (m Model) Shown() bool { return m.shown }

// SetView gives the page the view it shows the keys of: its name, its
// bindings in groups (FullHelp), and the page's keys over it (Close is the
// view's help key). The app calls it at every layout while the page
// shows: a view's keys change with what it shows.
func (m *Model) SetView(name string, groups [][]key.Binding, keys KeyMap) {
	m.name, m.groups, m.keys = name, groups, keys
}

// SetNote gives the page lines to say under the keys of every view, such
// as how a second terminal joins kedit demo's cluster.
func (m *Model) SetNote(lines []escape.Text) { m.note = lines }

// SetSize lays the page out for the body's size, keeping its offset
// within the page.
func (m *Model) SetSize(width, height int) {
	m.width, m.height = width, height
	if !m.shown {
		m.rows, m.off = nil, 0
		return
	}
	m.rows, m.off = common.HelpWindow(m.styles, m.lines(), m.off, height)
}

// lines are every line of the page.
func (m Model) lines() []string {
	st := m.styles
	title := st.Title.Render(ansi.Truncate("keys of the "+m.name, m.width, "…"))
	lines := append([]string{title, ""}, common.HelpLines(st, m.groups, m.width)...)
	lines = append(lines, "")
	for _, l := range common.WrapWords(common.EscapeLegend(st), m.width) {
		lines = append(lines, st.Muted.Render(l))
	}
	if len(m.note) > 0 {
		lines = append(lines, "")
	}
	for _, l := range m.note {
		// Never cut: a sentence is wrapped at words; a command to copy
		// (indented) runs on from line to line, as one text.
		if strings.HasPrefix(string(l), "  ") {
			lines = append(lines, strings.Split(ansi.Hardwrap(string(l), m.width, false), "\n")...)
			continue
		}
		lines = append(lines, common.WrapWords(string(l), m.width)...)
	}
	return lines
}

// Update scrolls the page, or closes it. A key that is not the page's
// closes it and comes back in ClosedMsg; ctrl+c asks to quit.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		return m, nil
	}
	page := max(1, len(m.rows)-2)
	switch {
	case key.Matches(k, m.keys.ForceQuit):
		return m, common.Emit(common.ForceQuitMsg{})
	case key.Matches(k, m.keys.Close, m.keys.Back):
		m.shown = false
	case key.Matches(k, m.keys.Up):
		m.off--
	case key.Matches(k, m.keys.Down):
		m.off++
	case key.Matches(k, m.keys.PageUp):
		m.off -= page
	case key.Matches(k, m.keys.PageDown):
		m.off += page
	case key.Matches(k, m.keys.Top):
		m.off = 0
	case key.Matches(k, m.keys.Bottom):
		m.off = 1 << 30 // common.HelpWindow keeps it within the page
	default:
		m.shown = false
		return m, common.Emit(ClosedMsg{k})
	}
	m.off = max(0, m.off)
	return m, nil
}

// View draws the page's rows in view.
func (m Model) View() string { return strings.Join(m.rows, "\n") }

// ShortHelp is the page's keys for the footer: how to close and scroll it.
func (m Model) ShortHelp() []key.Binding {
	k := m.keys
	closing := key.NewBinding(key.WithKeys(k.Close.Keys()...), key.WithHelp(k.Close.Help().Key+"/esc", "close help"))
	return []key.Binding{closing, k.Up, k.Down, k.PageUp, k.PageDown}
}

// FullHelp is every key of the page.
func (m Model) FullHelp() [][]key.Binding {
	k := m.keys
	return [][]key.Binding{append(m.ShortHelp(), k.Top, k.Bottom, k.ForceQuit)}
}
