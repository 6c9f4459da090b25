package ui

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
)

// helpState is the help page: shown in place of the body by ? (f1 in
// the in-app editor), scrolled to off.
type helpState struct {
	helpShown bool
	helpOff   int
	// helpRows are the page's rows as relayout drew them for the body.
	helpRows []string
}

// helpSource is what the active view shows of its keys: its name, the
// footer's bindings, every binding in groups, and the key that opens and
// closes the page.
type helpSource struct {
	name  string
	short []key.Binding
	full  [][]key.Binding
	help  key.Binding
}

// keyHelp is a view's keys for the footer and the help page.
type keyHelp interface {
	ShortHelp() []key.Binding
	FullHelp() [][]key.Binding
}

// helpSource returns the active view's keys.
func (m App) helpSource() helpSource {
	src := func(name string, v keyHelp) helpSource {
		return helpSource{name: name, short: v.ShortHelp(), full: v.FullHelp(), help: m.keys.Help}
	}
	switch m.screen {
	case screenConflict:
		return src("conflict view", m.conflict)
	case screenEditor:
		s := src("in-app editor", m.editor)
		s.help = m.keys.EditorHelp
		return s
	case screenTimeline:
		return src("timeline", m.timeline)
	case screenLost:
		return src("lost updates", m.lost)
	case screenPreview:
		return src("preview", m.preview)
	case screenBrowser:
		return src("browser", m.browser)
	case screenSet:
		return src("set", m.setView)
	}
	if m.set != nil {
		return src("object view", leaveHelp{m.object, stateHelp(m.keys.BackToList, "back to the set")})
	}
	if m.canLeave() {
		return src("object view", leaveHelp{m.object, m.keys.BackToList})
	}
	return src("object view", m.object)
}

// helpScrollKeys are the keys that scroll the help page: in the editor,
// whose letters are typed, the arrows and page keys only.
func (m App) helpScrollKeys() (up, down, pgup, pgdown, top, bottom key.Binding) {
	if m.screen == screenEditor {
		k := m.editor.area.KeyMap
		return k.Up, k.Down, k.PageUp, k.PageDown, k.DocStart, k.DocEnd
	}
	k := m.keys
	return k.Up, k.Down, k.PageUp, k.PageDown, k.Home, k.End
}

// helpView is the footer: the active view's keys, or, with the help page
// shown, how to scroll and close it.
func (m App) helpView() string {
	src := m.helpSource()
	if !m.helpShown {
		return footerLine(m.styles, src.short, src.help, m.width)
	}
	up, down, pgup, pgdown, _, _ := m.helpScrollKeys()
	closing := key.NewBinding(key.WithKeys(src.help.Keys()...), key.WithHelp(src.help.Help().Key+"/esc", "close help"))
	return footerLine(m.styles, []key.Binding{closing, up, down, pgup, pgdown}, key.Binding{}, m.width)
}

// helpPageLines are every line of the help page: a title naming the view,
// its keys, then the legend of the escapes.
func (m App) helpPageLines() []string {
	src := m.helpSource()
	title := m.styles.Title.Render(ansi.Truncate("keys of the "+src.name, m.width, "…"))
	lines := append([]string{title, ""}, helpLines(m.styles, src.full, m.width)...)
	lines = append(lines, "")
	for _, l := range strings.Split(ansi.Wrap(escapeLegend(m.styles), m.width, " "), "\n") {
		lines = append(lines, m.styles.Muted.Render(l))
	}
	return lines
}

// layoutHelp draws the help page for a body of height rows, keeping its
// offset within the page.
func (m *App) layoutHelp(height int) {
	if !m.helpShown {
		m.helpRows, m.helpOff = nil, 0
		return
	}
	m.helpRows, m.helpOff = helpWindow(m.styles, m.helpPageLines(), m.helpOff, height)
}

// helpKey handles a key while the help page shows: its own key or esc
// closes it, the scrolling keys scroll it; any other key closes it and
// is then what it always is (true: the key was the page's).
func (m *App) helpKey(msg tea.KeyMsg) bool {
	src := m.helpSource()
	up, down, pgup, pgdown, top, bottom := m.helpScrollKeys()
	page := max(1, len(m.helpRows)-2)
	switch {
	case key.Matches(msg, src.help), msg.Type == tea.KeyEsc:
		m.helpShown = false
	case key.Matches(msg, up):
		m.helpOff--
	case key.Matches(msg, down):
		m.helpOff++
	case key.Matches(msg, pgup):
		m.helpOff -= page
	case key.Matches(msg, pgdown):
		m.helpOff += page
	case key.Matches(msg, top):
		m.helpOff = 0
	case key.Matches(msg, bottom):
		m.helpOff = 1 << 30 // helpWindow keeps it within the page
	default:
		m.helpShown = false
		return false
	}
	m.helpOff = max(0, m.helpOff)
	return true
}
