package ui

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/kedit/kedit/internal/escape"
)

// How a view tells the app what the user asked for (doc.go has the whole
// pattern).
//
// A view answers its own keys in its Update. What it can do alone it does:
// move a selection, scroll, show the draft's diff. What needs the session,
// the other views or I/O (resolve a conflict, save, open an object) it
// asks for with an intent: a message, such as ResolveMsg or SaveMsg, that
// its Update returns through the command emit makes. The app acts on it.
//
// The app takes a view's answer to a key at once (App.answer), in the same
// Update, not once Bubble Tea has run the command: keys typed faster than
// the terminal is read come in one message, and each must meet what the
// one before it did (i then text types the text into the editor i opened).
// So a view answers a key with an intent or nothing, and hands work that
// takes time, such as a timer, to Bubble Tea through background.

// emit returns the command that reports msg, an intent, to the app.
func emit(msg tea.Msg) tea.Cmd { return func() tea.Msg { return msg } }

// emitIf is emit(msg) when ok, else no command.
func emitIf(ok bool, msg tea.Msg) tea.Cmd {
	if !ok {
		return nil
	}
	return emit(msg)
}

// background wraps cmd, work of a view's own that takes time (a timer),
// for the view's answer to a key: the app calls that answer at once, and
// this command returns at once, handing cmd to Bubble Tea.
func background(cmd tea.Cmd) tea.Cmd {
	if cmd == nil {
		return nil
	}
	return func() tea.Msg { return tea.BatchMsg{cmd} }
}

// The intents several views share.
type (
	// HelpMsg asks for the help page of the view: ? (f1 in the in-app
	// editor).
	HelpMsg struct{}
	// QuitRequestedMsg asks to quit (q); the app asks first when a draft
	// would be lost or left behind.
	QuitRequestedMsg struct{}
	// ForceQuitMsg asks to quit now (ctrl+c), from any view, a question or
	// the help page included: the app asks once when a draft exists only
	// in memory.
	ForceQuitMsg struct{}
	// SayMsg asks the app to say Text in the status bar: the answer to a
	// key that has nothing to act on ("nothing to resolve"), or what the
	// view now shows (the owners of the blame cursor's line). An empty
	// Text clears it.
	SayMsg struct{ Text escape.Text }
	// EditMsg asks to edit the draft (e), or with InApp in the in-app
	// editor (i); with Merged, the rebase's merged result rather than the
	// draft.
	EditMsg struct{ InApp, Merged bool }
)

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
	default:
		return m.update(msg)
	}
}

// intent acts on what a view asked for; false for any other message.
func (m App) intent(msg tea.Msg) (App, tea.Cmd, bool) {
	for _, act := range [...]func(App, tea.Msg) (App, tea.Cmd, bool){
		App.commonIntent, App.objectIntent, App.conflictIntent, App.editorIntent, App.oncallIntent, App.auditIntent,
		App.browserIntent, App.setIntent,
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
	case HelpMsg:
		m.help.Open()
		return m, nil, true
	case QuitRequestedMsg:
		if (m.sess != nil && m.sess.Draft() != nil) || len(m.othersInMemory()) > 0 {
			m.ask(confirmQuit)
			return m, nil, true
		}
		return m, tea.Quit, true
	case ForceQuitMsg:
		next, cmd := m.forceQuit()
		return next, cmd, true
	case SayMsg:
		m.status.Info(msg.Text)
		return m, nil, true
	case EditMsg:
		next, cmd := m.edit(msg)
		return next, cmd, true
	case AnswerMsg:
		next, cmd := m.answered(msg)
		return next, cmd, true
	case HelpClosedMsg:
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
// in-app editor. Editing the draft asks once whether the user may save the
// object (access.go).
func (m App) edit(e EditMsg) (App, tea.Cmd) {
	text, err := m.sess.DraftText()
	if e.Merged {
		text, err = m.sess.MergedText()
	}
	if err != nil {
		m.status.Error(errorText(err))
		return m, nil
	}
	var cmd tea.Cmd
	if e.InApp {
		cmd = m.openEditor(text, e.Merged)
	} else {
		m.life.editorOpen = true
		cmd = editCmd(text, e.Merged, m.sess.Format())
	}
	if !e.Merged {
		cmd = tea.Batch(cmd, m.askAccess())
	}
	return m, cmd
}
