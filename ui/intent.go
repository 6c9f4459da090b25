package ui

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/kedit/kedit/ui/common"
	"github.com/kedit/kedit/ui/helppage"
	"github.com/kedit/kedit/ui/internal/editfile"
	"github.com/kedit/kedit/ui/internal/effect"
)

// How a view tells the app what the user asked for (doc.go has the whole
// pattern).
//
// A view answers its own keys in its Update. What it can do alone it does:
// move a selection, scroll, show the draft's diff. What needs the session,
// the other views or I/O (resolve a conflict, save, open an object) it
// asks for with an intent: a message, such as conflict.ResolveMsg or SaveMsg, that
// its Update returns through the command emit makes. The app acts on it.
//
// The app takes a view's answer to a key at once (App.answer), in the same
// Update, not once Bubble Tea has run the command: keys typed faster than
// the terminal is read come in one message, and each must meet what the
// one before it did (i then text types the text into the editor i opened).
// So a view answers a key with an intent or nothing, and hands work that
// takes time, such as a timer, to Bubble Tea through background.

// answer acts at once on what a view answered a key with (see above): an
// intent is handled in this Update, and work the view hands to Bubble
// Tea goes there.
func (m App) answer(cmd tea.Cmd) (App, tea.Cmd) {
	if cmd == nil {
		return m, nil
	}
	switch msg := cmd().(type) {
	case nil:
		return m, nil
	case tea.BatchMsg:
		return m, func() tea.Msg { return msg }
	case tea.SuspendMsg:
		// A view's ctrl+z: Bubble Tea's to act on.
		return m, tea.Suspend
	default:
		return m.update(msg)
	}
}

// intent acts on what a view asked for; false for any other message.
func (m App) intent(msg tea.Msg) (App, tea.Cmd, bool) {
	for _, act := range [...]func(App, tea.Msg) (App, tea.Cmd, bool){
		App.commonIntent, App.objectIntent, App.conflictIntent, App.editorIntent, App.oncallIntent, App.auditIntent,
		App.browserIntent, App.setIntent, App.docsIntent, App.requestsIntent, App.sourceIntent, App.tourIntent,
	} {
		if next, cmd, ok := act(m, msg); ok {
			return next, cmd, true
		}
	}
	return m, nil, false
}

// commonIntent acts on the intents several views share; false for any
// other message.
func (m App) commonIntent(msg tea.Msg) (App, tea.Cmd, bool) {
	switch msg := msg.(type) {
	case common.HelpMsg:
		m.help.Open()
		return m, nil, true
	case common.QuitRequestedMsg:
		if (m.sess != nil && m.sess.Draft() != nil) || len(m.othersInMemory()) > 0 {
			m.ask(confirmQuit)
			return m, nil, true
		}
		return m, tea.Quit, true
	case common.ForceQuitMsg:
		next, cmd := m.forceQuit()
		return next, cmd, true
	case common.SayMsg:
		m.status.Info(msg.Text)
		return m, nil, true
	case common.EditMsg:
		next, cmd := m.edit(msg)
		return next, cmd, true
	case common.AnswerMsg:
		next, cmd := m.answered(msg)
		return next, cmd, true
	case helppage.ClosedMsg:
		next, cmd := m.toView(msg.Key)
		return next, cmd, true
	}
	return m, nil, false
}

// forceQuit quits at once, unless a draft exists only in memory: then it
// asks, and a second ctrl+c quits. What the in-app editor holds becomes the
// draft first.
func (m App) forceQuit() (App, tea.Cmd) {
	cmd := m.takeEditorText()
	lost := m.sess != nil && m.sess.Draft() != nil && m.inMemory()
	if (lost || len(m.othersInMemory()) > 0) && !m.confirm.forceArmed {
		m.confirm.forceArmed = true
		m.ask(confirmQuit)
		return m, cmd
	}
	return m, tea.Batch(cmd, tea.Quit)
}

// edit opens the draft, or the rebase's merged result, in $EDITOR or in the
// in-app editor. Editing asks once whether the user may save the object
// (objectintents.go).
func (m App) edit(e common.EditMsg) (App, tea.Cmd) {
	text, err := m.sess.DraftText()
	if e.Merged {
		text, err = m.sess.MergedText()
	}
	if err != nil {
		m.status.Error(common.ErrorText(err))
		return m, nil
	}
	var cmd tea.Cmd
	if e.InApp {
		cmd = m.openEditor(text, e.Merged)
	} else {
		m.life.editorOpen = true
		var head editfile.Head
		head.Refused, head.RefusedAfterSchema = m.refusedHead(text, 0), m.refusedHead(text, 1)
		if e.Merged && m.diag.text != text {
			// The merged result has not been checked: it is, as the
			// file is written, and its head says what the schema refuses.
			head.Late = m.mergedHead(text)
		}
		if m.opened != nil && m.opened.Schema != nil {
			head.Schema = m.opened.Schema
		}
		cmd = effect.Edit(head, text, e.Merged, m.sess.Format())
	}
	if !e.Merged && !e.InApp {
		// The in-app editor asks as it opens, and says a no itself.
		cmd = tea.Batch(cmd, m.askAccess())
	}
	return m, cmd
}

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
	if !pages[m.screen].mouse {
		return m, nil // the view does not take the mouse
	}
	cmd := m.views.update(m.screen, msg)
	return m, cmd
}
