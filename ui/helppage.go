package ui

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/kedit/kedit/ui/common"
)

// HelpPage shows every key of the active view in place of its body (? or
// f1 in the in-app editor), from the view's own bindings: a title naming
// the view, each group of its FullHelp a column (help.go lays them out),
// then the legend of the escapes. A page taller than the body scrolls.
//
// Its own keys scroll it, and the view's help key or esc closes it; any
// other key closes it too, and then does what it does in the view.
type HelpPage struct {
	keys   HelpPageKeyMap
	styles *common.Styles
	width  int
	height int

	shown bool
	// name names the view the page shows the keys of, groups are its
	// bindings (SetView).
	name   string
	groups [][]key.Binding
	// off is the first line in view; rows are the lines drawn.
	off  int
	rows []string
}

// HelpClosedMsg says that a key that is not the help page's closed it:
// the key then does what it does in the view.
type HelpClosedMsg struct{ Key tea.KeyMsg }

// NewHelpPage returns a help page, hidden until Open.
func NewHelpPage(keys HelpPageKeyMap, styles *common.Styles) HelpPage {
	return HelpPage{keys: keys, styles: styles}
}

// Open shows the page from its top.
func (m *HelpPage) Open() { m.shown, m.off = true, 0 }

// Close hides the page.
func (m *HelpPage) Close() { m.shown = false }

// Shown reports whether the page shows.
func (m HelpPage) Shown() bool { return m.shown }

// SetView gives the page the view it shows the keys of: its name, its
// bindings in groups (FullHelp), and the page's keys over it (Close is the
// view's help key). The app calls it at every layout while the page
// shows: a view's keys change with what it shows.
func (m *HelpPage) SetView(name string, groups [][]key.Binding, keys HelpPageKeyMap) {
	m.name, m.groups, m.keys = name, groups, keys
}

// SetSize lays the page out for the body's size, keeping its offset
// within the page.
func (m *HelpPage) SetSize(width, height int) {
	m.width, m.height = width, height
	if !m.shown {
		m.rows, m.off = nil, 0
		return
	}
	m.rows, m.off = common.HelpWindow(m.styles, m.lines(), m.off, height)
}

// lines are every line of the page.
func (m HelpPage) lines() []string {
	st := m.styles
	title := st.Title.Render(ansi.Truncate("keys of the "+m.name, m.width, "…"))
	lines := append([]string{title, ""}, common.HelpLines(st, m.groups, m.width)...)
	lines = append(lines, "")
	for _, l := range strings.Split(ansi.Wrap(common.EscapeLegend(st), m.width, " "), "\n") {
		lines = append(lines, st.Muted.Render(l))
	}
	return lines
}

// Update scrolls the page, or closes it. A key that is not the page's
// closes it and comes back in HelpClosedMsg; ctrl+c asks to quit.
func (m HelpPage) Update(msg tea.Msg) (HelpPage, tea.Cmd) {
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
		return m, common.Emit(HelpClosedMsg{k})
	}
	m.off = max(0, m.off)
	return m, nil
}

// View draws the page's rows in view.
func (m HelpPage) View() string { return strings.Join(m.rows, "\n") }

// ShortHelp is the page's keys for the footer: how to close and scroll it.
func (m HelpPage) ShortHelp() []key.Binding {
	k := m.keys
	closing := key.NewBinding(key.WithKeys(k.Close.Keys()...), key.WithHelp(k.Close.Help().Key+"/esc", "close help"))
	return []key.Binding{closing, k.Up, k.Down, k.PageUp, k.PageDown}
}

// FullHelp is every key of the page.
func (m HelpPage) FullHelp() [][]key.Binding {
	k := m.keys
	return [][]key.Binding{append(m.ShortHelp(), k.Top, k.Bottom, k.ForceQuit)}
}

// helpSource is what the footer and the help page show of the active
// view: its name, its bindings for the footer and in groups, its help key,
// and the help page's keys over it.
type helpSource struct {
	name  string
	short []key.Binding
	full  [][]key.Binding
	help  key.Binding
	page  HelpPageKeyMap
}

// keyHelp is a view's keys for the footer and the help page.
type keyHelp interface {
	ShortHelp() []key.Binding
	FullHelp() [][]key.Binding
}

// helpSource returns the active view's keys.
func (m App) helpSource() helpSource {
	src := func(name string, v keyHelp, help key.Binding) helpSource {
		page := m.keys.HelpPage
		page.Close = help
		return helpSource{name: name, short: v.ShortHelp(), full: v.FullHelp(), help: help, page: page}
	}
	k := m.keys
	switch m.screen {
	case screenConflict:
		return src("conflict view", m.conflict, k.Conflict.Help)
	case screenEditor:
		s := src("in-app editor", m.editor, k.Editor.Help)
		s.page = editorHelpPage(m.editor, s.page)
		return s
	case screenTimeline:
		return src("timeline", m.timeline, k.Timeline.Help)
	case screenLost:
		return src("lost updates", m.lost, k.Lost.Help)
	case screenPreview:
		return src("preview", m.preview, k.Preview.Help)
	case screenBrowser:
		return src("browser", m.browser, k.Browser.Help)
	case screenSet:
		return src("set view", m.setView, k.Set.Help)
	}
	return src("object view", m.object, k.Object.Help)
}

// helpView is the footer: the active view's keys, or, with the help page
// shown, how to scroll and close it.
func (m App) helpView() string {
	if m.help.Shown() {
		return common.FooterLine(m.styles, m.help.ShortHelp(), key.Binding{}, m.frame.width, common.FooterRows(m.frame.height))
	}
	src := m.helpSource()
	return common.FooterLine(m.styles, src.short, src.help, m.frame.width, common.FooterRows(m.frame.height))
}
