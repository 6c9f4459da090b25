package ui

import (
	tea "github.com/charmbracelet/bubbletea"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/model"
	"github.com/kedit/kedit/ui/editor"
	"github.com/kedit/kedit/ui/helppage"
	"github.com/kedit/kedit/ui/internal/effect"
)

// The in-app editor as the app drives it: opening it on the draft or the
// merged result, taking its text as typed, and leaving it.

// editorIntent acts on what the in-app editor asked for; false for any
// other message.
func (m App) editorIntent(msg tea.Msg) (App, tea.Cmd, bool) {
	switch msg := msg.(type) {
	case editor.KeepMsg:
		next, cmd := m.keepEditorText()
		return next, cmd, true
	case editor.CopyMsg:
		next, cmd := m.copied(msg)
		return next, cmd, true
	case editor.ReplacedMsg:
		next, cmd := m.sayOfEditorText(msg.Said)
		return next, cmd, true
	case editor.ServerCheckMsg:
		next, cmd := m.askServer(msg)
		return next, cmd, true
	}
	leave, ok := msg.(editor.LeaveMsg)
	if !ok {
		return m, nil, false
	}
	next, cmd := m.leaveEditor(leave.Save)
	return next, cmd, true
}

// leaveEditor leaves the in-app editor (esc), keeping what was typed as
// the draft; with save (ctrl+s) it also saves.
func (m App) leaveEditor(save bool) (App, tea.Cmd) {
	if m.editingMerged {
		return m.leaveMergedEditor(save)
	}
	m.closeEditor(screenObject)
	var cmds []tea.Cmd
	if m.editor.Unkept() {
		cmds = append(cmds, m.handle(model.DraftEdited{Text: m.editor.Text(), From: m.editorFrom}))
		m.editor.SetKept(m.editor.Version())
		if d := m.sess.Draft(); d != nil && d.Err != nil {
			// handle has said why; a draft that does not parse is not sent.
			return m, tea.Batch(cmds...)
		}
	}
	if st := m.sess.State(); st == model.StateRebasing || st == model.StateResolving {
		// A save met a conflict while the editor was open (reopened
		// while it was in flight): its view opens now, with the text
		// just kept merged in.
		m.goTo(screenConflict)
		return m, tea.Batch(cmds...)
	}
	if save && !m.schemaHold(escape.Safe(m.keys.Editor.Save.Help().Key)) {
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
// fields' lines. The server's checks are on when it may be asked
// (servercheck.go).
func (m *App) openEditor(text string, merged bool) tea.Cmd {
	m.editingMerged, m.editorFrom = merged, text
	m.goTo(screenEditor)
	m.server.said = ""
	var causes []model.FieldCause
	if f := m.sess.Failure(); f != nil && !merged {
		causes = f.Causes
	}
	m.editor.SetFormat(m.sess.Format())
	m.editor.Open(text, merged, causes)
	m.editor.SetSchema(m.fieldSchema)
	var diagnose tea.Cmd
	if d := m.sess.Draft(); d != nil && !merged && d.Text == text && d.Err == nil {
		diagnose = m.diagnose(true, text, d.Object)
	} else if d != nil {
		// Not known to parse: checked at once, its marks there as it opens.
		diagnose = m.editor.CheckOpened()
	}
	var base *unstructured.Unstructured
	switch {
	case merged:
		base = m.sess.Rebase().Theirs.Object
	case m.sess.Draft() != nil:
		base = m.sess.Base().Object
	}
	return tea.Batch(m.editor.RenderBase(m.sess.Format(), base), diagnose, m.readSchema(), m.serverChecks(), m.accessQuestion())
}

// closeEditor leaves the in-app editor for screen s, bringing the views
// up to the session: they are not while the editor is open.
func (m *App) closeEditor(s screen) {
	m.goTo(s)
	m.refresh()
}

// editorChecked takes the editor's text as checked in the background:
// for the draft, the session takes it (and the store writes it), so that
// typing is kept; then the parse error, if any, is drawn on its line
// beside the refused save's causes. A result for a text that has changed
// since still goes to the session (it is newer than what the session
// has), but its notes would be on the wrong lines: they wait for the next.
func (m App) editorChecked(msg editor.CheckedMsg) (App, tea.Cmd) {
	fresh, cmd := m.editor.CheckDone(msg)
	if !fresh || m.screen != screenEditor {
		return m, cmd
	}
	err := msg.Parsed.Err(m.sess.Ref())
	if !m.editingMerged && msg.Version > m.editor.Kept() {
		cmd = tea.Batch(cmd, m.handle(model.DraftEdited{Text: msg.Text, Parsed: msg.Parsed, From: m.editorFrom}))
		m.editor.SetKept(msg.Version)
		err = nil
		if d := m.sess.Draft(); d != nil {
			// handle said it in the status bar too, which drops it once
			// the draft changes (Settle).
			err = d.Err
		}
	}
	if msg.Version == m.editor.Version() {
		m.editor.SetNotes(msg.Causes, err)
		if err == nil {
			cmd = tea.Batch(cmd, m.diagnose(true, msg.Text, msg.Parsed.Object()))
		}
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
		cmd, _ := m.mergedEdited(m.editor.Text())
		cmds = append(cmds, cmd)
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

// mergedEdited hands the merged text edited by hand (in the app or in
// $EDITOR) to the session. Taken, it is the draft, rebased onto theirs,
// and the object view shows it: the status bar says what waits for the
// user there. Refused, handle has said why.
func (m *App) mergedEdited(text string) (tea.Cmd, error) {
	cmd, err := m.handleErr(model.MergedEdited{Text: text})
	if err == nil && m.sess.Rebase() == nil && m.sess.Draft() != nil {
		m.status.Info("rebased draft: s resubmits")
	}
	return cmd, err
}

// editorHelpPage is the help page's keys k over the in-app editor, whose
// letters are typed: it scrolls with the editor's arrows and page keys
// only.
func editorHelpPage(e editor.Model, k helppage.KeyMap) helppage.KeyMap {
	t := e.TextKeys()
	k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom = t.Up, t.Down, t.PageUp, t.PageDown, t.DocStart, t.DocEnd
	return k
}

// The in-app editor's intents that stay in it: ctrl+c keeping the text,
// and a copy handed to the terminal's clipboard.

// keepEditorText answers ctrl+c in the in-app editor (editor.KeepMsg):
// what is typed becomes the draft at once, the editor stays open, and the
// status line says so, and that a second ctrl+c quits (as ctrl+c does
// elsewhere, asking first when the draft would be lost). The merged result
// is not the draft until the rebase takes it: quitting keeps it as the
// draft, as every end of kedit does.
func (m App) keepEditorText() (App, tea.Cmd) {
	if m.screen != screenEditor {
		return m, nil
	}
	again := m.keys.Editor.ForceQuit.Help().Key
	leave := m.keys.Editor.Leave.Help().Key
	if m.editingMerged {
		m.status.Info(escape.Textf("editing the merged result: %s again quits and keeps it as the draft, %s leaves", again, leave))
		return m, nil
	}
	var cmd tea.Cmd
	if m.editor.Unkept() {
		cmd = m.handle(model.DraftEdited{Text: m.editor.Text(), From: m.editorFrom})
		m.editor.SetKept(m.editor.Version())
	}
	switch d := m.sess.Draft(); {
	case d == nil:
		m.status.Info(escape.Textf("nothing typed to keep: %s again quits, %s leaves", again, leave))
	case d.Err != nil:
		// The note under its line says why.
		m.status.Info(escape.Textf("draft kept, not yet one that can be saved: %s again quits, %s leaves", again, leave))
	case m.inMemory():
		m.status.Info(escape.Textf("draft kept, in memory only: %s again asks before it is lost, %s leaves", again, leave))
	default:
		m.status.Info(escape.Textf("draft kept: %s again quits, %s leaves", again, leave))
	}
	return m, cmd
}

// maxClipboard is the longest text handed to the terminal's clipboard:
// terminals refuse longer OSC 52 sequences (xterm's default limit is
// about this, in base64).
const maxClipboard = 74_994

// copied says what a copy or a cut in the in-app editor took and hands it
// to the terminal's clipboard (editor.CopyMsg); kedit's own register has it
// in any case.
func (m App) copied(c editor.CopyMsg) (App, tea.Cmd) {
	if len(c.Text) > maxClipboard {
		return m.sayOfEditorText(c.Said + ": too long for the terminal's clipboard, in kedit's register only")
	}
	m, cmd := m.sayOfEditorText(c.Said)
	if m.cfg.Clipboard == nil {
		return m, cmd
	}
	return m, tea.Batch(cmd, effect.Copy(m.cfg.Clipboard, c.Text))
}

// sayOfEditorText says what a key did to the in-app editor's text (a cut,
// a replace). A status line is of the draft it was said of, and the text
// typed becomes the draft once typing pauses, which would take it away
// at once: the text becomes the draft first, as ctrl+c makes it, so that
// what is said stays until the text changes again. (The merged result
// is not the draft while it is edited: nothing changes the state then.)
func (m App) sayOfEditorText(said escape.Text) (App, tea.Cmd) {
	var cmd tea.Cmd
	if m.screen == screenEditor && !m.editingMerged && m.editor.Unkept() {
		cmd = m.handle(model.DraftEdited{Text: m.editor.Text(), From: m.editorFrom})
		m.editor.SetKept(m.editor.Version())
	}
	m.status.Info(said)
	return m, cmd
}
