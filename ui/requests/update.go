package requests

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/kedit/kedit/ui/common"
)

// The pane's intents: the bodies of a request and closing the pane are
// asked of the app, which holds the log.
type (
	// ShowRequestMsg asks for the bodies of the request of row Seq
	// (enter); the app hands them to ShowDetail.
	ShowRequestMsg struct{ Seq uint64 }
	// CloseMsg asks to close the pane (L, esc).
	CloseMsg struct{}
)

// Update moves the selection, or scrolls the bodies while they show.
// enter asks for the selected request's bodies (enter or esc goes back
// to the rows), L or esc closes the pane.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		if m.showing {
			var cmd tea.Cmd
			m.body, cmd = m.body.Update(msg)
			return m, cmd
		}
		return m, nil
	}
	if in := common.FirstIntent(k, []common.KeyIntent{{Keys: m.keys.ForceQuit, Intent: common.ForceQuitMsg{}}, {Keys: m.keys.Help, Intent: common.HelpMsg{}}, {Keys: m.keys.Quit, Intent: common.QuitRequestedMsg{}}}); in != nil {
		return m, common.Emit(in)
	}
	switch {
	case m.showing && (key.Matches(k, m.keys.Show) || key.Matches(k, m.keys.Back)):
		m.hideDetail()
		return m, nil
	case m.showing && m.bodySidewaysKey(k):
		return m, nil
	case m.showing:
		var cmd tea.Cmd
		m.body, cmd = m.body.Update(msg)
		return m, cmd
	case key.Matches(k, m.keys.Show):
		r, ok := m.Selected()
		return m, common.EmitIf(ok, ShowRequestMsg{Seq: r.Seq})
	case key.Matches(k, m.keys.Close):
		return m, common.Emit(CloseMsg{})
	case m.sidewaysKey(k):
		return m, nil
	}
	if d, ok := m.keys.list().Step(k, m.listHeight(), len(m.rows)); ok {
		m.cur.Move(d, len(m.rows), m.listHeight())
	}
	m.scroll()
	m.follow = m.cur.Selected == len(m.rows)-1
	return m, nil
}
