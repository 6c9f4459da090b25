package ui

import (
	"encoding/base64"
	"io"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/model"
	"github.com/kedit/kedit/ui/editor"
)

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
	return m, tea.Batch(cmd, clipboardCmd(m.cfg.Clipboard, c.Text))
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

// clipboardCmd writes text to the terminal's clipboard as an OSC 52
// sequence. A terminal that does not allow it ignores the sequence, so
// there is nothing to report. The renderer writes to the same terminal
// from its own goroutine; each write of an *os.File is whole.
func clipboardCmd(w io.Writer, text string) tea.Cmd {
	seq := osc52(text)
	return func() tea.Msg {
		_, _ = w.Write(seq)
		return nil
	}
}

// osc52 is the sequence that sets the clipboard to text.
func osc52(text string) []byte {
	return []byte("\x1b]52;c;" + base64.StdEncoding.EncodeToString([]byte(text)) + "\a")
}
