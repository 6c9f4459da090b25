package timeline

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/model/history"
	"github.com/kedit/kedit/ui/common"
)

// The timeline's keys: moving and scrolling are its own; the versions'
// diffs, the lost updates, making a version the draft, the undo and
// closing are asked of the app.

// The timeline's intents (common has those views share, the lost
// updates' common.UndoOverwriteMsg among them).
type (
	// ShowVersionMsg asks for the diff of the live timeline's entry ID
	// against the entry before it (enter on a version kedit observed): the
	// app reads it from the session and hands it to ShowChange.
	ShowVersionMsg struct{ ID int }
	// TakeVersionMsg asks to make version ID, at resourceVersion RV,
	// the draft (y), after a confirmation. For a version only
	// the audit log holds, ID is -1 and Object is the log's object.
	TakeVersionMsg struct {
		ID     int
		RV     escape.Text
		Object *unstructured.Unstructured
	}
	// CloseMsg asks to go back to the object view (t, esc).
	CloseMsg struct{}
	// ShowLostMsg asks to show the lost updates of version Write of
	// History (enter on a LOST row).
	ShowLostMsg struct {
		History *history.History
		Write   int
	}
)

// Update moves the selection, or scrolls the diff while it shows; the
// audit log's reads come back here. enter shows the selected version
// (enter or esc goes back to the list), y asks to make it the draft, u
// to undo a LOST row's overwrite, and t or esc closes the timeline.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	if cmd, ok := m.logUpdate(msg); ok {
		return m, cmd
	}
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		return m.ownMsg(msg)
	}
	if m.pathInput.typing && !key.Matches(k, m.keys.ForceQuit) {
		return m.pathKey(k)
	}
	if in := common.FirstIntent(k, []common.KeyIntent{{Keys: m.keys.ForceQuit, Intent: common.ForceQuitMsg{}}, {Keys: m.keys.Help, Intent: common.HelpMsg{}}, {Keys: m.keys.Quit, Intent: common.QuitRequestedMsg{}}}); in != nil {
		return m, common.Emit(in)
	}
	switch {
	case key.Matches(k, m.keys.Take):
		return m, m.take()
	case m.showing && (key.Matches(k, m.keys.Diff) || key.Matches(k, m.keys.Back)):
		m.HideChange()
		return m, nil
	case key.Matches(k, m.keys.Diff):
		// enter shows a version only the log holds itself: it changes m.
		cmd := m.enter()
		return m, cmd
	case !m.showing && key.Matches(k, m.keys.Undo):
		return m, m.undo()
	case !m.showing && key.Matches(k, m.keys.Path):
		m.pathInput.typing, m.pathInput.text = true, m.pathInput.path.String()
		m.scroll()
		return m, nil
	case !m.showing && !m.pathInput.path.IsZero() && key.Matches(k, m.keys.Back):
		// esc stops following the field before it closes the timeline.
		return m.stopFollowing()
	case m.sidewaysKey(k):
		return m, nil
	case key.Matches(k, m.keys.Close):
		m.HideChange()
		return m, common.Emit(CloseMsg{})
	}
	return m.ownMsg(msg)
}

// take asks to make the selected version the draft: a version only the
// audit log holds, with the log's object of it.
func (m Model) take() tea.Cmd {
	id, rv, ok := m.Selected()
	switch {
	case !ok:
		return nil
	case id >= 0:
		return common.Emit(TakeVersionMsg{ID: id, RV: rv})
	}
	obj, ok := m.SelectedLogObject()
	if !ok {
		return common.Emit(common.SayMsg{Text: "the audit log holds no object of this version: there is nothing to make the draft"})
	}
	return common.Emit(TakeVersionMsg{ID: id, RV: rv, Object: obj})
}

// ownMsg moves the selection, or scrolls the diff while it shows.
func (m Model) ownMsg(msg tea.Msg) (Model, tea.Cmd) {
	if m.showing {
		var cmd tea.Cmd
		m.body, cmd = m.body.Update(msg)
		return m, cmd
	}
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		return m, nil
	}
	if d, ok := m.keys.list().Step(k, m.listHeight(), len(m.rows)); ok {
		m.cur.Move(d, len(m.rows), m.listHeight())
	}
	m.scroll()
	return m, nil
}
