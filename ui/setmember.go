package ui

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/kedit/kedit/model"
)

// Each object of the set, shown or not, is one object as any other: its
// outcomes find it by its objectID (App.outcome), and the save round goes
// on after each of its events (App.apply).

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

// memberOf finds the object st in the set, by its objectID.
func (m *App) memberOf(st *objectState) (int, bool) {
	if st == nil {
		return -1, false
	}
	return m.memberByID(st.id)
}

// memberByID finds the object id names in the set.
func (m *App) memberByID(id objectID) (int, bool) {
	if m.set == nil {
		return -1, false
	}
	for i, o := range m.set.states {
		if o.id == id {
			return i, true
		}
	}
	return -1, false
}

// noteMember says n on object i's row, until its state changes.
func (m *App) noteMember(i int, n notice) {
	st := m.set.states[i]
	st.note, st.noteOf = n, m.set.model.Status(i).State
}

// setMembers are the objects members of the set.
func (m *App) setMembers(members []int) []*objectState {
	out := make([]*objectState, len(members))
	for k, i := range members {
		out[k] = m.member(i)
	}
	return out
}
