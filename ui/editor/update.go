package editor

import (
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/ui/common"
)

// LeaveMsg asks to leave the in-app editor (esc), keeping what was
// typed, and with Save to save it too (ctrl+s).
type LeaveMsg struct{ Save bool }

// KeepMsg asks to keep what is typed as the draft at once and to say so
// (ctrl+c with nothing selected): the editor stays open, and a second
// ctrl+c, with no key between, quits as ctrl+c does elsewhere
// (common.ForceQuitMsg).
type KeepMsg struct{}

// ReplacedMsg asks to say Said, what a replace did ("replaced 3
// occurrences"), of the text as it is now.
type ReplacedMsg struct{ Said escape.Text }

// CopyMsg asks to hand Text, just copied or cut into kedit's register
// (alt+c, ctrl+c on a selection, ctrl+x), to the terminal's clipboard, and
// to say Said ("copied 3 lines").
type CopyMsg struct {
	Text string
	Said escape.Text
}

// Update types into the text, scrolls and clicks (the mouse's row counted
// from the title line), takes the editor's background results, and checks
// the text once typing pauses. Leaving (esc, unless a prompt is open,
// which esc closes), saving (ctrl+s, from a prompt too), f1 and ctrl+c
// come back as intents; every other key is typed, q and ? included.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	if k, ok := msg.(tea.KeyMsg); ok {
		v := m.area.Version()
		if !k.Paste && m.completing != nil {
			// The list open takes esc, enter and the arrows; any other
			// key closes it and is the editor's.
			if cmd, ok := m.completeKey(k); ok {
				return m.completed(v, cmd)
			}
		}
		in := m.intent(k)
		// ctrl+c twice in a row quits; any other key in between starts over.
		_, keep := in.(KeepMsg)
		m.keptOnce = keep
		if in != nil {
			return m, common.Emit(in)
		}
		if !k.Paste {
			if cmd, ok := m.completeKey(k); ok {
				return m.completed(v, cmd)
			}
		}
		copies, said := m.area.Copied(), m.saidSeq()
		next, cmd := m.edit(msg)
		cmd = common.Background(cmd)
		seq, text := next.area.Said()
		switch {
		case next.area.Copied() != copies:
			cmd = tea.Batch(cmd, common.Emit(CopyMsg{Text: next.area.Register(), Said: text}))
		case seq != said:
			cmd = tea.Batch(cmd, common.Emit(ReplacedMsg{Said: text}))
		}
		return next, cmd
	}
	return m.edit(msg)
}

// saidSeq counts what the text said of its keys (textedit.Model.Said).
func (m Model) saidSeq() uint64 {
	seq, _ := m.area.Said()
	return seq
}

// intent is what k asks of the app; nil for a key that is typed.
func (m Model) intent(k tea.KeyMsg) tea.Msg {
	if k.Paste {
		// Text, never a key: matching bindings would render a long paste
		// as a string once per binding.
		return nil
	}
	switch {
	case key.Matches(k, m.keys.ForceQuit):
		switch {
		case m.area.Selected():
			// ctrl+c copies the selection.
			return nil
		case m.keptOnce:
			return common.ForceQuitMsg{}
		}
		return KeepMsg{}
	case key.Matches(k, m.keys.Help):
		return common.HelpMsg{}
	case key.Matches(k, m.keys.Save):
		return LeaveMsg{Save: true}
	case key.Matches(k, m.keys.Leave) && !m.area.Prompting() && !m.area.Selected():
		return LeaveMsg{}
	}
	return nil
}

// edit hands msg to the text, and checks the text once typing pauses.
func (m Model) edit(msg tea.Msg) (Model, tea.Cmd) {
	switch msg := msg.(type) {
	case dueMsg:
		if msg.opening != m.opening {
			return m, nil
		}
		m.ticking = false
		cmd := m.due()
		return m, cmd
	case serverDueMsg:
		if msg.opening != m.opening {
			return m, nil
		}
		m.server.ticking = false
		return m, m.askServer()
	case baseMsg:
		if msg.opening != m.opening {
			return m, nil
		}
		cmd := m.area.SetBase(msg.text)
		return m, cmd
	case tea.MouseMsg:
		// The title line is above the text.
		msg.Y--
		var cmd tea.Cmd
		m.area, cmd = m.area.Update(msg)
		return m, cmd
	}
	v := m.area.Version()
	var cmd tea.Cmd
	m.area, cmd = m.area.Update(msg)
	if m.area.Version() == v {
		return m, cmd
	}
	return m.typed(cmd)
}

// completed is the editor after a key of completion's: the text checked
// once typing pauses if the completion changed it (v is its version
// before).
func (m Model) completed(v uint64, cmd tea.Cmd) (Model, tea.Cmd) {
	if m.area.Version() != v {
		return m.typed(cmd)
	}
	return m, cmd
}

// typed notes that the text changed, and checks it once typing pauses.
func (m Model) typed(cmd tea.Cmd) (Model, tea.Cmd) {
	m.refreshChanged()
	now := time.Now()
	m.typedAt = now
	if m.dirtySince.IsZero() {
		m.dirtySince = now
	}
	tick := m.schedule(KeepQuiet)
	return m, tea.Batch(cmd, tick)
}
