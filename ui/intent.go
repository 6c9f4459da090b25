package ui

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/kedit/kedit/ui/common"
	"github.com/kedit/kedit/ui/helppage"
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
// in-app editor. Editing the draft asks once whether the user may save the
// object (access.go).
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
		var head editorHead
		head.refused, head.refusedAfterSchema = m.refusedHead(text, 0), m.refusedHead(text, 1)
		if e.Merged && m.diag.text != text {
			// The merged result has not been checked: it is, as the
			// file is written, and its head says what the schema refuses.
			head.late = m.mergedHead(text)
		}
		if m.opened != nil && m.opened.Schema != nil {
			head.schema = m.opened.Schema
		}
		cmd = editHeadCmd(head, text, e.Merged, m.sess.Format())
	}
	if !e.Merged {
		cmd = tea.Batch(cmd, m.askAccess())
	}
	return m, cmd
}
