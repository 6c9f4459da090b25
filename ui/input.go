package ui

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kedit/kedit/model"
)

// key routes a key: a pending question takes its answer, the help page
// when it shows takes its keys, and else the active view takes it. Each
// acts on its own keys and answers with what it asks of the app (answer),
// ctrl+c included.
func (m App) key(msg tea.KeyMsg) (App, tea.Cmd) {
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
	if msg.Paste && m.screen == screenEditor && m.confirm == confirmNone {
		// A paste is text for the editor, never a key of the app's, and
		// a long one comes as thousands: matching bindings would render
		// each as a string, once per binding. It goes where it is seen.
		m.help.Close()
		var cmd tea.Cmd
		m.editor, cmd = m.editor.Update(msg)
		return m, cmd
	}
	if m.leaving && !key.Matches(msg, m.keys.Object.BackToList, m.keys.Object.ForceQuit) {
		// Another key after esc: the user stays. (Esc and ctrl+c are
		// the object view's, but leaving is the app's.)
		m.leaving = false
	}
	if m.confirm != confirmNone {
		var cmd tea.Cmd
		m.prompt, cmd = m.prompt.Update(msg)
		return m.answer(cmd)
	}
	if m.help.Shown() {
		var cmd tea.Cmd
		m.help, cmd = m.help.Update(msg)
		return m.answer(cmd)
	}
	return m.toView(msg)
}

// toView hands a key to the active view, and acts on its answer.
func (m App) toView(msg tea.KeyMsg) (App, tea.Cmd) {
	var cmd tea.Cmd
	switch m.screen {
	case screenObject:
		m.object, cmd = m.object.Update(msg)
	case screenConflict:
		m.conflict, cmd = m.conflict.Update(msg)
	case screenTimeline:
		m.timeline, cmd = m.timeline.Update(msg)
	case screenPreview:
		m.preview, cmd = m.preview.Update(msg)
	case screenEditor:
		m.editor, cmd = m.editor.Update(msg)
	case screenBrowser:
		m.browser, cmd = m.browser.Update(msg)
	}
	return m.answer(cmd)
}

// leaveEditor leaves the in-app editor (esc), keeping what was typed as
// the draft; with save (ctrl+s) it also saves.
func (m App) leaveEditor(save bool) (App, tea.Cmd) {
	if m.editingMerged {
		return m.leaveMergedEditor(save)
	}
	m.closeEditor(screenObject)
	var cmds []tea.Cmd
	if m.editor.unkept() {
		cmds = append(cmds, m.handle(model.DraftEdited{Text: m.editor.Text(), From: m.editorFrom}))
		m.editor.setKept()
		if d := m.sess.Draft(); d != nil && d.Err != nil {
			// handle has said why; a draft that does not parse is not sent.
			return m, tea.Batch(cmds...)
		}
	}
	if st := m.sess.State(); st == model.StateRebasing || st == model.StateResolving {
		// A save met a conflict while the editor was open (reopened
		// while it was in flight): its view opens now, with the text
		// just kept merged in.
		m.screen = screenConflict
		return m, tea.Batch(cmds...)
	}
	if save {
		cmds = append(cmds, m.handle(model.SaveRequested{}))
	}
	return m, tea.Batch(cmds...)
}

// openEditor opens the in-app editor on text: the draft, or with merged
// the rebase's merged result. The gutter compares the draft with base, and
// the merged result with theirs (what the server has now: the marks are
// what the resubmit changes on the server), each rendered as the session
// renders a draft, in the background. A draft that is base itself is its
// own base: no marks. The causes of a refused save are drawn under their
// fields' lines.
func (m *App) openEditor(text string, merged bool) tea.Cmd {
	m.screen, m.editingMerged, m.editorFrom = screenEditor, merged, text
	var causes []model.FieldCause
	if f := m.sess.Failure(); f != nil && !merged {
		causes = f.Causes
	}
	m.editor.Open(text, merged, causes)
	var base *unstructured.Unstructured
	switch {
	case merged:
		base = m.sess.Rebase().Theirs.Object
	case m.sess.Draft() != nil:
		base = m.sess.Base().Object
	}
	return renderBaseCmd(m.editor.opening, base)
}

// closeEditor leaves the in-app editor for screen s, bringing the views
// up to the session: they are not while the editor is open.
func (m *App) closeEditor(s screen) {
	m.screen = s
	m.refresh()
}

// editorChecked takes the editor's text as checked in the background:
// for the draft, the session takes it (and the store writes it), so that
// typing is kept; then the parse error, if any, is drawn on its line
// beside the refused save's causes. A result for a text that has changed
// since still goes to the session (it is newer than what the session
// has), but its notes would be on the wrong lines: they wait for the next.
func (m App) editorChecked(msg editorCheckedMsg) (App, tea.Cmd) {
	fresh, cmd := m.editor.checkDone(msg)
	if !fresh || m.screen != screenEditor {
		return m, cmd
	}
	err := msg.parsed.Err(m.sess.Ref())
	if !m.editingMerged && msg.version > m.editor.kept {
		cmd = tea.Batch(cmd, m.handle(model.DraftEdited{Text: msg.text, Parsed: msg.parsed, From: m.editorFrom}))
		m.editor.kept = msg.version
		err = nil
		if d := m.sess.Draft(); d != nil {
			// handle said it in the status bar too, which drops it once
			// the draft changes (Settle).
			err = d.Err
		}
	}
	if msg.version == m.editor.Version() {
		m.editor.setNotes(msg.causes, err)
	}
	return m, cmd
}

// leaveMergedEditor hands the merged text edited in the app to the
// session: taken, the rebase is done and ctrl+s saves the draft; refused,
// the conflict view comes back with the resolutions, and i or e opens the
// text again.
func (m App) leaveMergedEditor(save bool) (App, tea.Cmd) {
	m.editingMerged = false
	m.closeEditor(screenConflict)
	var cmds []tea.Cmd
	if m.editor.Changed() {
		cmds = append(cmds, m.handle(model.MergedEdited{Text: m.editor.Text()}))
		if m.sess.Rebase() != nil {
			// Refused: handle has said why; nothing is saved.
			return m, tea.Batch(cmds...)
		}
	}
	switch {
	case save && m.sess.Rebase() == nil:
		cmds = append(cmds, m.handle(model.SaveRequested{}))
	case save:
		cmds = append(cmds, m.handle(model.Resubmit{}))
	}
	return m, tea.Batch(cmds...)
}

// ask puts question c on the bottom line; its answer comes back from the
// prompt as AnswerMsg.
func (m *App) ask(c confirmation) {
	m.confirm = c
	picks := 0
	if c == confirmRecover {
		picks = len(m.stored)
	}
	m.prompt.Ask(picks)
}

// answered acts on the answer to the pending question.
func (m App) answered(a AnswerMsg) (App, tea.Cmd) {
	c := m.confirm
	if c == confirmRecover {
		return m.answerRecover(a)
	}
	m.confirm = confirmNone
	switch c {
	case confirmQuit:
		if a.Yes {
			return m, tea.Quit
		}
		m.forceArmed = false
	case confirmDiscard:
		if a.Yes {
			cmd := m.handle(model.DiscardDraft{})
			m.status.Info("draft discarded")
			return m, cmd
		}
		m.status.Info("the draft is kept")
	case confirmTimelineTake, confirmGitOps:
		return m.answerOncall(c, a.Yes)
	case confirmNewObject:
		return m.answerNewObject(a.Yes)
	}
	return m, nil
}
