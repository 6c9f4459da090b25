package ui

import (
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/kedit/kedit/ui/internal/effect"
	"github.com/kedit/kedit/ui/statusbar"
)

// Drawing the frame: the active view (or the help page) in the body, the
// status bar or the question under it, and the footer of the view's keys.

// frameState is the screen as relayout laid it out.
type frameState struct {
	width, height int
	// helpLine and bottom are the footer and the status bar (or the
	// question) rendered once for relayout and View; helpFor is what the
	// footer was rendered for.
	helpLine, bottom string
	helpFor          footerFor
	// top is kedit demo --tour's line over the body, "" without it.
	top string
	// pasting: the last message was a paste into the editor; cache is
	// the screen last drawn (View).
	pasting bool
	cache   *frameCache
}

// newFrameState is the frame of a terminal whose size is not known yet.
func newFrameState() frameState {
	return frameState{width: 80, height: 24, cache: &frameCache{}}
}

// footerFor is what the footer was rendered for.
type footerFor struct {
	screen    screen
	width     int
	all       bool
	prompting bool
	// editorMode is what else the editor's footer changes with: which
	// prompt is open, whether text is selected.
	editorMode int
	// asking is the question on the bottom line, whose answers the
	// footer names.
	asking confirmation
}

// relayout gives each part of the screen its height, and renders the footer
// once for it and View: rendering it is most of what the app adds to a
// keystroke in the editor.
func (m *App) relayout() {
	f := &m.frame
	m.status.SetSize(f.width, 1)
	if m.help.Shown() {
		src := m.helpSource()
		m.help.SetView(src.name, src.full, src.page)
	}
	// The editor's footer changes only with its prompt (and the size and
	// f1): typing and pasting reuse it.
	if key := (footerFor{m.screen, f.width, m.help.Shown(), m.editor.Prompting(), m.editor.HelpMode(), m.confirm.kind}); m.screen != screenEditor || key != f.helpFor {
		f.helpLine, f.helpFor = m.helpView(), key
	}
	f.bottom = m.bottomLine()
	f.top = ""
	if m.cfg.Tour {
		m.tour.SetSize(f.width, 2)
		f.top = m.tour.View()
	}
	m.views.setSize(f.width, f.height-lipgloss.Height(f.helpLine)-lipgloss.Height(f.bottom)-f.topHeight())
}

// topHeight is the lines the tour's line takes, 0 without it.
func (f frameState) topHeight() int {
	if f.top == "" {
		return 0
	}
	return lipgloss.Height(f.top)
}

// bottomLine is the status bar, or the pending question in its place,
// worded as the app stands now.
func (m *App) bottomLine() string {
	q := m.question()
	if q == "" {
		return m.status.View()
	}
	m.prompt.SetSize(m.frame.width, 1)
	m.prompt.SetQuestion(q)
	return m.prompt.View()
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
	f := m.frame
	if f.pasting && f.cache.text != "" && time.Since(f.cache.at) < frameTime {
		return f.cache.text
	}
	h := f.height - lipgloss.Height(f.helpLine) - lipgloss.Height(f.bottom) - f.topHeight()
	// Pad or cut the body so that the status bar and footer stay at the
	// bottom.
	lines := strings.Split(m.body(), "\n")
	if len(lines) > h {
		lines = lines[:max(0, h)]
	}
	for len(lines) < h {
		lines = append(lines, "")
	}
	screen := strings.Join(lines, "\n") + "\n" + f.bottom + "\n" + f.helpLine
	if f.top != "" {
		screen = f.top + "\n" + screen
	}
	f.cache.text, f.cache.at = screen, time.Now()
	return screen
}

// body draws the active view, or the help page over it.
func (m App) body() string {
	if m.help.Shown() {
		return m.help.View()
	}
	if m.requestsOpen {
		return m.requests.View()
	}
	return pages[m.screen].view(m.views)
}

// statusState sums up the app's state for the status bar.
func (m App) statusState() statusbar.State {
	st := statusbar.State{Browsing: m.screen == screenBrowser, List: m.browser.List(), View: m.screen}
	if m.sess != nil {
		// No session is a nil Object, never a nil *model.Session in one:
		// states compare with ==.
		st.Object = m.sess
		st.Phase, st.Draft = m.sess.State(), m.sess.DraftRevision()
		if r := m.sess.Rebase(); r != nil {
			st.Merge = r.Merge
		}
		_, st.Behind = m.sess.ServerChange()
	}
	return st
}

// warmDraftText renders the shown object's text in the background while
// there is no draft, so that e and i open at once instead of rendering
// it first (tens of milliseconds for a mebibyte). One render at a time.
func (m *App) warmDraftText() tea.Cmd {
	if m.sess == nil || m.life.warming {
		return nil
	}
	obj, ok := m.sess.BaseToRender()
	if !ok {
		return nil
	}
	m.life.warming = true
	return effect.Render(m.id, m.sess.Format(), obj)
}

// baseRendered hands a background render to its session.
func (m App) baseRendered(msg effect.BaseRendered) (App, tea.Cmd) {
	m.life.warming = false
	if _, shown := m.whose(msg.Of); shown && m.sess != nil && msg.Obj != nil {
		m.sess.SetBaseText(msg.Obj, msg.Format, msg.Text)
	}
	return m, nil
}
