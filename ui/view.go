package ui

import (
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/lipgloss"
)

// relayout gives each part of the screen its height, and renders the help
// line once for it and View: rendering it is most of what the app adds to
// a keystroke in the editor.
func (m *App) relayout() {
	m.status.SetSize(m.width, 1)
	// The editor's help changes only with the prompt (and the size and
	// f1): typing and pasting reuse it.
	if key := (helpKey{m.screen, m.width, m.helpShown, m.editor.Prompting()}); m.screen != screenEditor || key != m.helpFor {
		m.helpLine, m.helpFor = m.helpView(), key
	}
	m.bottom = m.bottomLine()
	h := m.height - lipgloss.Height(m.helpLine) - lipgloss.Height(m.bottom)
	m.object.SetSize(m.width, h)
	m.conflict.SetSize(m.width, h)
	m.editor.SetSize(m.width, h)
	m.timeline.SetSize(m.width, h)
	m.lost.SetSize(m.width, h)
	m.preview.SetSize(m.width, h)
	m.browser.SetSize(m.width, h)
	m.setView.SetSize(m.width, h)
	m.layoutHelp(h)
}

// helpKey is what the help line was rendered for.
type helpKey struct {
	screen    screen
	width     int
	all       bool
	prompting bool
}

// question is the pending question's text.
func (m App) question() string {
	switch m.confirm {
	case confirmQuit:
		return m.quitQuestion()
	case confirmDiscard:
		return "discard the draft? (y/n)"
	case confirmRecover:
		return m.recoverQuestion()
	case confirmTimelineTake, confirmGitOps, confirmUndo:
		return m.oncallQuestion()
	case confirmNewObject:
		return newObjectQuestion
	case confirmSetRecover:
		return m.setRecoverQuestion()
	case confirmSetGitOps:
		return m.setGitOpsQuestion()
	}
	return ""
}

// bottomLine is the status bar, or the pending question in its place.
func (m App) bottomLine() string {
	if q := m.question(); q != "" {
		return m.styles.Banner.Width(m.width).Render(q)
	}
	return m.status.View()
}

// frameTime is how often the screen is drawn while a paste comes in:
// Bubble Tea draws at most this often anyway (60 frames a second), but
// asks View for every message, and a long paste comes as thousands.
const frameTime = time.Second / 60

// frameCache is the screen View drew last, shared by the app's copies.
type frameCache struct {
	text string
	at   time.Time
	// redrawing: a redrawMsg is on its way.
	redrawing bool
}

// redrawMsg asks for the screen to be drawn after a paste.
type redrawMsg struct{}

// redraw makes sure that the screen is drawn once the paste is over.
func (f *frameCache) redraw() tea.Cmd {
	if f.redrawing {
		return nil
	}
	f.redrawing = true
	return tea.Tick(frameTime, func(time.Time) tea.Msg { return redrawMsg{} })
}

// View draws the screen. While a paste comes in it draws it at most once
// a frame (frameTime); redrawMsg draws it when the paste is over.
func (m App) View() string {
	if m.pasting && m.frame != nil && m.frame.text != "" && time.Since(m.frame.at) < frameTime {
		return m.frame.text
	}
	var body string
	switch {
	case m.helpShown:
		body = strings.Join(m.helpRows, "\n")
	case m.screen == screenConflict:
		body = m.conflict.View()
	case m.screen == screenEditor:
		body = m.editor.View()
	case m.screen == screenTimeline:
		body = m.timeline.View()
	case m.screen == screenLost:
		body = m.lost.View()
	case m.screen == screenPreview:
		body = m.preview.View()
	case m.screen == screenBrowser:
		body = m.browser.View()
	case m.screen == screenSet:
		body = m.setView.View()
	default:
		body = m.object.View()
	}
	h := m.height - lipgloss.Height(m.helpLine) - lipgloss.Height(m.bottom)
	// Pad or cut the body so that the status bar and help stay at the bottom.
	lines := strings.Split(body, "\n")
	if len(lines) > h {
		lines = lines[:max(0, h)]
	}
	for len(lines) < h {
		lines = append(lines, "")
	}
	screen := strings.Join(lines, "\n") + "\n" + m.bottom + "\n" + m.helpLine
	if m.frame != nil {
		m.frame.text, m.frame.at = screen, time.Now()
	}
	return screen
}

// leaveHelp is the object view's help with esc, which goes back to the
// list when kedit has one to go back to.
type leaveHelp struct {
	ObjectView
	back key.Binding
}

// ShortHelp adds esc to the object view's keys, after s: the footer cuts
// from the end when they do not fit, and leaving matters more than most.
func (h leaveHelp) ShortHelp() []key.Binding {
	b := h.ObjectView.ShortHelp()
	at := min(3, len(b))
	return append(append(b[:at:at], h.back), b[at:]...)
}

// FullHelp adds esc to the object view's first group.
func (h leaveHelp) FullHelp() [][]key.Binding {
	groups := h.ObjectView.FullHelp()
	groups[0] = append(groups[0], h.back)
	return groups
}
