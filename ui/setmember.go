package ui

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/kedit/kedit/model"
	"github.com/kedit/kedit/ui/common"
	"github.com/kedit/kedit/ui/internal/say"
)

// Each object of the set, shown or not, as one object is: its session
// takes every outcome of its commands, and the save round goes on after
// each.

// memberHandle hands ev to object i, which is not shown, and performs what
// its session and the save round ask for.
func (m *App) memberHandle(i int, ev model.Event) tea.Cmd {
	s := m.set
	if i == s.shown {
		cmd := m.handle(ev)
		return tea.Batch(cmd, m.pumpSet())
	}
	st := s.states[i]
	h := st.handle(m.ctx, ev)
	theirs := m.theirsReadCmd(st.target, st.sess, ev)
	if h.err != nil {
		m.noteMember(i, notice{common.ErrorText(h.err), true})
	}
	if h.autoRebased != nil {
		// --auto-rebase, as for one object: the session resubmitted a
		// clean rebase after a conflict at once.
		m.noteMember(i, notice{say.AutoRebased(*h.autoRebased), false})
	}
	return tea.Batch(tea.Batch(h.cmds...), theirs, m.pumpSet())
}

// pumpSet sends what the save round may send now.
func (m *App) pumpSet() tea.Cmd {
	if m.set == nil {
		return nil
	}
	cmd := m.runSetEffects(m.set.model.Pump())
	m.refreshSet()
	return cmd
}

// runSetEffects performs the set's effects, each with its object's runner.
func (m *App) runSetEffects(effects []model.SetEffect) tea.Cmd {
	var cmds []tea.Cmd
	for _, e := range effects {
		cmds = append(cmds, m.member(e.Member).run(m.ctx, e.Effect)...)
		if e.Member == m.set.shown {
			m.refresh()
		}
	}
	return tea.Batch(cmds...)
}

// memberPerformed takes the outcome of an effect of an object not shown.
func (m App) memberPerformed(i int, msg performedMsg) (App, tea.Cmd) {
	st := m.member(i)
	st.inflight--
	if seq := storeSeq(msg.effect); seq > 0 {
		if n, ok := st.draftStored(msg.effect, seq, msg.err); ok {
			m.noteMember(i, n)
		}
	} else if msg.err != nil {
		m.noteMember(i, notice{common.ErrorText(msg.err), true})
	}
	var cmd tea.Cmd
	if msg.event != nil {
		cmd = m.memberHandle(i, msg.event)
	}
	m.refreshSet()
	return m, cmd
}

// memberStoredDrafts takes the outcome of recovering or discarding an
// object's stored drafts, for an object not shown.
func (m App) memberStoredDrafts(i int, msg storedDraftsMsg) (App, tea.Cmd) {
	if n, ok := m.member(i).storedDrafts(msg); ok {
		m.noteMember(i, n)
	}
	m.refreshSet()
	return m, nil
}

// memberRetry sends again a save of an object not shown whose back-off is
// over.
func (m App) memberRetry(i int, msg retryDueMsg) (App, tea.Cmd) {
	sess := m.set.model.Session(i)
	if !sess.RetryWaiting() || sess.Failure().Attempt != msg.attempt {
		return m, nil
	}
	cmd := m.memberHandle(i, model.SaveRequested{})
	return m, cmd
}

// noteMember says n on object i's row, until its state changes.
func (m *App) noteMember(i int, n notice) {
	st := m.set.states[i]
	st.note, st.noteOf = n, m.set.model.Status(i).State
}
