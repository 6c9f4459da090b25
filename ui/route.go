package ui

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// Routing the user's input: a key goes to a pending question, else to the
// help page while it shows, else to the active view; each answers with
// what it asks of the app (intent.go).

// key routes a key: a pending question takes its answer, the help page
// when it shows takes its keys, and else the active view takes it. Each
// acts on its own keys and answers with what it asks of the app (answer),
// ctrl+c included.
func (m App) key(msg tea.KeyMsg) (App, tea.Cmd) {
	if key.Matches(msg, m.keys.Screen.Redraw) {
		return m, tea.ClearScreen
	}
	if msg.Type == tea.KeyRunes && len(msg.Runes) > 1 && !msg.Paste && m.screen != screenEditor && m.screen != screenBrowser {
		// Keys typed faster than the terminal is read (a quick typist, a
		// slow link, tmux) arrive as one message, which would match no
		// binding: each is a key of its own. One that opens the in-app
		// editor makes the rest typing. (The editor takes runes as text,
		// and the browser splits them itself.)
		var cmds []tea.Cmd
		for _, r := range msg.Runes {
			one := msg
			one.Runes = []rune{r}
			var cmd tea.Cmd
			m, cmd = m.key(one)
			cmds = append(cmds, cmd)
		}
		return m, tea.Batch(cmds...)
	}
	if msg.Paste && m.screen == screenEditor && m.confirm.kind == confirmNone {
		// A paste is text for the editor, never a key of the app's, and
		// a long one comes as thousands: matching bindings would render
		// each as a string, once per binding. It goes where it is seen.
		m.help.Close()
		var cmd tea.Cmd
		m.editor, cmd = m.editor.Update(msg)
		return m, cmd
	}
	if m.confirm.kind != confirmNone {
		var cmd tea.Cmd
		m.prompt, cmd = m.prompt.Update(msg)
		return m.answer(cmd)
	}
	if m.help.Shown() {
		var cmd tea.Cmd
		m.help, cmd = m.help.Update(msg)
		return m.answer(cmd)
	}
	if m.requestsOpen {
		var cmd tea.Cmd
		m.requests, cmd = m.requests.Update(msg)
		return m.answer(cmd)
	}
	if m.tourTakes(msg) {
		var cmd tea.Cmd
		m.tour, cmd = m.tour.Update(msg)
		return m.answer(cmd)
	}
	if m.opensRequests(msg) {
		return m.openRequests()
	}
	return m.toView(msg)
}

// toView hands a key to the active view, and acts on its answer.
func (m App) toView(msg tea.KeyMsg) (App, tea.Cmd) {
	blaming := m.screen == screenObject && m.object.Blaming()
	cmd := m.views.update(m.screen, msg)
	if blaming && !m.object.Blaming() {
		// The status bar named the blame cursor's line: it goes with the
		// blame, before the key's own answer is said.
		m.status.Info("")
	}
	return m.answer(cmd)
}

// mouse hands a mouse event to the view that scrolls or clicks with it.
func (m App) mouse(msg tea.MouseMsg) (App, tea.Cmd) {
	// The views count their lines from the body's top, under the tour's
	// line when it shows.
	msg.Y -= m.frame.topHeight()
	if m.requestsOpen {
		var cmd tea.Cmd
		m.requests, cmd = m.requests.Update(msg)
		return m, cmd
	}
	switch m.screen {
	case screenObject, screenBrowser, screenSet, screenEditor:
		cmd := m.views.update(m.screen, msg)
		return m, cmd
	}
	return m, nil // the other views do not take the mouse
}
