package ui

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/kedit/kedit/diff"
	"github.com/kedit/kedit/kube"
	"github.com/kedit/kedit/model"
)

// key handles a key press: a pending question first, then the keys of
// every screen, then the screen's own.
func (m App) key(msg tea.KeyMsg) (App, tea.Cmd) {
	if key.Matches(msg, m.keys.ForceQuit) {
		cmd := m.takeEditorText()
		if m.sess.Draft() != nil && m.inMemory() && !m.forceArmed {
			// Quitting would lose it: ask, and let a second ctrl+c quit.
			m.forceArmed, m.confirm = true, confirmQuit
			return m, cmd
		}
		return m, tea.Batch(cmd, tea.Quit)
	}
	if m.confirm != confirmNone {
		return m.answer(msg)
	}
	if m.screen == screenEditor {
		// Every other key is typed into the draft, q and ? included.
		return m.editorKey(msg)
	}
	switch {
	case key.Matches(msg, m.keys.Help):
		m.help.ShowAll = !m.help.ShowAll
		return m, nil
	case key.Matches(msg, m.keys.Quit):
		if m.sess.Draft() != nil {
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
	case screenPreview:
		return m.previewKey(msg)
	}
	if next, cmd, ok := m.oncallKey(msg); ok {
		return next, cmd
	}
	switch {
	case key.Matches(msg, m.keys.Edit):
		text, err := m.sess.DraftText()
		if err != nil {
			m.status.Error(errorText(err))
			return m, nil
		}
		m.editorOpen = true
		return m, editCmd(text, false)
	case key.Matches(msg, m.keys.EditInApp):
		text, err := m.sess.DraftText()
		if err != nil {
			m.status.Error(errorText(err))
			return m, nil
		}
		if kube.HasControl(text) {
			// The editor would draw them raw; $EDITOR is the user's choice.
			m.status.Error("the draft holds control characters: e edits it in $EDITOR")
			return m, nil
		}
		m.screen = screenEditor
		m.editor.merged = false
		return m, m.editor.Open(text)
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

// editorKey handles the in-app editor's keys: esc leaves, keeping what was
// typed as the draft; ctrl+s keeps it and saves.
func (m App) editorKey(msg tea.KeyMsg) (App, tea.Cmd) {
	leave := key.Matches(msg, m.keys.EditorLeave)
	save := key.Matches(msg, m.keys.EditorSave)
	if !leave && !save {
		var cmd tea.Cmd
		m.editor, cmd = m.editor.Update(msg)
		return m, cmd
	}
	if m.editingMerged {
		return m.leaveMergedEditor(save)
	}
	m.screen = screenObject
	var cmds []tea.Cmd
	if m.editor.Changed() {
		cmds = append(cmds, m.handle(model.DraftEdited{Text: m.editor.Text()}))
		if d := m.sess.Draft(); d != nil && d.Err != nil {
			// handle has said why; a draft that does not parse is not sent.
			return m, tea.Batch(cmds...)
		}
	}
	if save {
		cmds = append(cmds, m.handle(model.SaveRequested{}))
	}
	return m, tea.Batch(cmds...)
}

// leaveMergedEditor hands the merged text edited in the app to the
// session: taken, the rebase is done and ctrl+s saves the draft; refused,
// the conflict view comes back with the resolutions, and i or e opens the
// text again.
func (m App) leaveMergedEditor(save bool) (App, tea.Cmd) {
	m.editingMerged = false
	m.screen = screenConflict
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
		if kube.HasControl(text) {
			m.status.Error("the merged text holds control characters: e edits it in $EDITOR")
			return m, nil
		}
		m.screen, m.editingMerged = screenEditor, true
		m.editor.merged = true
		return m, m.editor.Open(text)
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
	if m.confirm == confirmRecover {
		return m.answerRecover(msg)
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
	case confirmTimelineTake, confirmGitOps:
		return m.answerOncall(c, yes)
	}
	return m, nil
}
