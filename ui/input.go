package ui

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kedit/kedit/diff"
	"github.com/kedit/kedit/model"
)

// key handles a key press: a pending question first, then the keys of
// every screen, then the screen's own.
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
		m.helpShown = false
		var cmd tea.Cmd
		m.editor, cmd = m.editor.Update(msg)
		return m, cmd
	}
	if key.Matches(msg, m.keys.ForceQuit) {
		cmd := m.takeEditorText()
		lost := m.sess != nil && m.sess.Draft() != nil && m.inMemory()
		if (lost || len(m.parkedInMemory()) > 0) && !m.forceArmed {
			// Quitting would lose it: ask, and let a second ctrl+c quit.
			m.forceArmed, m.confirm = true, confirmQuit
			return m, cmd
		}
		return m, tea.Batch(cmd, tea.Quit)
	}
	if m.leaving && !key.Matches(msg, m.keys.BackToList) {
		m.leaving = false // another key after esc: the user stays
	}
	if m.confirm != confirmNone {
		return m.answer(msg)
	}
	if m.helpShown && m.helpKey(msg) {
		return m, nil
	}
	if m.screen == screenEditor {
		// Every other key is typed into the draft, q and ? included.
		return m.editorKey(msg)
	}
	if m.screen == screenBrowser {
		return m.browserKey(msg)
	}
	if m.screen == screenSet {
		if key.Matches(msg, m.keys.Help) {
			m.helpShown, m.helpOff = true, 0
			return m, nil
		}
		var cmd tea.Cmd
		m.setView, cmd = m.setView.Update(msg)
		return m, cmd
	}
	switch {
	case key.Matches(msg, m.keys.Help):
		m.helpShown, m.helpOff = true, 0
		return m, nil
	case key.Matches(msg, m.keys.Quit):
		if m.sess.Draft() != nil || len(m.parkedInMemory()) > 0 {
			m.confirm = confirmQuit
			return m, nil
		}
		return m, tea.Quit
	}
	switch m.screen {
	case screenConflict:
		return m.conflictKey(msg)
	case screenTimeline:
		return m.timelineKey(msg)
	case screenLost:
		var cmd tea.Cmd
		m.lost, cmd = m.lost.Update(msg)
		return m, cmd
	case screenPreview:
		return m.previewKey(msg)
	}
	if next, cmd, ok := m.oncallKey(msg); ok {
		return next, cmd
	}
	switch {
	case key.Matches(msg, m.keys.BackToList) && m.canLeave():
		return m.leave()
	case key.Matches(msg, m.keys.Edit):
		text, err := m.sess.DraftText()
		if err != nil {
			m.status.Error(errorText(err))
			return m, nil
		}
		m.editorOpen = true
		return m, tea.Batch(editCmd(text, false), m.askAccess())
	case key.Matches(msg, m.keys.EditInApp):
		text, err := m.sess.DraftText()
		if err != nil {
			m.status.Error(errorText(err))
			return m, nil
		}
		return m, tea.Batch(m.openEditor(text, false), m.askAccess())
	case key.Matches(msg, m.keys.Save):
		if f := m.sess.Failure(); f != nil && f.Kind == model.ErrorNotFound {
			// Saving over a deleted object can only create it again.
			return m, m.handle(model.Recreate{})
		}
		return m, m.handle(model.SaveRequested{})
	case key.Matches(msg, m.keys.SaveAsUpdate):
		if f := m.sess.Failure(); f == nil || f.Kind != model.ErrorApplyCannotRemove {
			m.status.Info("u sends a save as an update when server-side apply cannot remove a field another manager owns")
			return m, nil
		}
		return m, m.handle(model.SaveRequested{AsUpdate: true})
	case key.Matches(msg, m.keys.Rebase):
		cmd := m.handle(model.RebaseRequested{})
		if m.sess.Rebase() != nil {
			// Also when a rebase was already under way: r shows it again.
			m.screen = screenConflict
		}
		return m, cmd
	case key.Matches(msg, m.keys.Discard):
		if m.sess.Draft() == nil {
			m.status.Info("there is no draft to discard")
			return m, nil
		}
		m.confirm = confirmDiscard
		return m, nil
	case key.Matches(msg, m.keys.Conflicts):
		if m.sess.Rebase() != nil {
			m.screen = screenConflict
		}
		return m, nil
	}
	var cmd tea.Cmd
	m.object, cmd = m.object.Update(msg)
	return m, cmd
}

// browserKey hands a key to the browser; ? toggles the full help unless
// the browser takes keys as text (a filter, a command, a picker).
func (m App) browserKey(msg tea.KeyMsg) (App, tea.Cmd) {
	if key.Matches(msg, m.keys.Help) && !m.browser.InputActive() {
		m.helpShown, m.helpOff = true, 0
		return m, nil
	}
	var cmd tea.Cmd
	m.browser, cmd = m.browser.Update(msg)
	return m, cmd
}

// editorKey handles the in-app editor's keys: esc leaves, keeping what was
// typed as the draft; ctrl+s keeps it and saves, also from inside the find
// or go-to-line prompt (it is "save" everywhere; the prompt closes). Esc
// inside a prompt closes the prompt.
func (m App) editorKey(msg tea.KeyMsg) (App, tea.Cmd) {
	if key.Matches(msg, m.keys.EditorHelp) {
		m.helpShown, m.helpOff = true, 0
		return m, nil
	}
	save := key.Matches(msg, m.keys.EditorSave)
	leave := key.Matches(msg, m.keys.EditorLeave) && !m.editor.Prompting()
	if !leave && !save {
		var cmd tea.Cmd
		m.editor, cmd = m.editor.Update(msg)
		return m, cmd
	}
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

// conflictKey handles the conflict view's keys that act on the session.
func (m App) conflictKey(msg tea.KeyMsg) (App, tea.Cmd) {
	resolve := func(c diff.Choice) tea.Cmd {
		if len(m.sess.Conflicts()) == 0 {
			m.status.Info("nothing to resolve: 0 conflicts")
			return nil
		}
		i, ok := m.conflict.SelectedConflict()
		if !ok {
			m.status.Info("a merged change has nothing to resolve: n/p moves to a conflict")
			return nil
		}
		return m.handle(model.Resolve{Index: i, Resolution: diff.Resolution{Choice: c}})
	}
	switch {
	case key.Matches(msg, m.keys.TakeMine):
		return m, resolve(diff.TakeMine)
	case key.Matches(msg, m.keys.TakeTheirs):
		return m, resolve(diff.TakeTheirs)
	case key.Matches(msg, m.keys.TakeBase):
		return m, resolve(diff.TakeBase)
	case key.Matches(msg, m.keys.AllMine):
		return m, m.handle(model.ResolveAll{Choice: diff.TakeMine})
	case key.Matches(msg, m.keys.AllTheirs):
		return m, m.handle(model.ResolveAll{Choice: diff.TakeTheirs})
	case key.Matches(msg, m.keys.Save):
		return m, m.handle(model.Resubmit{})
	case key.Matches(msg, m.keys.Edit):
		text, err := m.sess.MergedText()
		if err != nil {
			m.status.Error(errorText(err))
			return m, nil
		}
		m.editorOpen = true
		return m, editCmd(text, true)
	case key.Matches(msg, m.keys.EditInApp):
		text, err := m.sess.MergedText()
		if err != nil {
			m.status.Error(errorText(err))
			return m, nil
		}
		return m, m.openEditor(text, true)
	case key.Matches(msg, m.keys.Back):
		// Back to the draft, unchanged: the rebase and its resolutions
		// are dropped; r (or a save that conflicts) starts a new one.
		cmd := m.handle(model.AbandonRebase{})
		m.screen = screenObject
		m.status.Info("back to the draft, unchanged; r rebases again")
		return m, cmd
	}
	var cmd tea.Cmd
	m.conflict, cmd = m.conflict.Update(msg)
	return m, cmd
}

// answer takes y or n for the pending question.
func (m App) answer(msg tea.KeyMsg) (App, tea.Cmd) {
	switch m.confirm {
	case confirmRecover:
		return m.answerRecover(msg)
	case confirmSetRecover:
		return m.answerSetRecover(msg)
	}
	yes := key.Matches(msg, m.keys.Yes)
	if !yes && !key.Matches(msg, m.keys.No) {
		return m, nil
	}
	c := m.confirm
	m.confirm = confirmNone
	switch c {
	case confirmQuit:
		if yes {
			return m, tea.Quit
		}
		m.forceArmed = false
	case confirmDiscard:
		if yes {
			cmd := m.handle(model.DiscardDraft{})
			m.status.Info("draft discarded")
			return m, cmd
		}
		m.status.Info("the draft is kept")
	case confirmTimelineTake, confirmGitOps, confirmUndo:
		return m.answerOncall(c, yes)
	case confirmNewObject:
		return m.answerNewObject(yes)
	case confirmSetGitOps:
		return m.answerSetGitOps(yes)
	}
	return m, nil
}
