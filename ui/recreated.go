package ui

import (
	"errors"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/kedit/kedit/model"
)

// The question before saving a draft made on an earlier object of this
// name onto the object created again since, and the words for the rebases
// resubmitted at once while an object's data keeps changing.

// newObjectQuestion is asked before such a save, with or without
// --auto-rebase.
const newObjectQuestion = "your draft was made on an earlier object of this name, deleted since; save it onto the new one? (y/n)"

// asksNewObject turns the session's refusal of a save (or a resubmit) of a
// draft made on an earlier object into the question; the save waits for
// the answer. It reports false for any other refusal.
func (m *App) asksNewObject(ev model.Event, err error) bool {
	var re *model.RecreatedError
	if !errors.As(err, &re) {
		return false
	}
	switch e := ev.(type) {
	case model.SaveRequested:
		e.OntoNewObject = true
		m.newObjectSave = e
	case model.Resubmit:
		e.OntoNewObject = true
		m.newObjectSave = e
	default:
		return false
	}
	m.ask(confirmNewObject)
	return true
}

// answerNewObject takes y or n to newObjectQuestion: y saves onto the new
// object (through the conflict view when it holds anything the draft's
// object did not), n leaves the draft as it is.
func (m App) answerNewObject(yes bool) (App, tea.Cmd) {
	ev := m.newObjectSave
	m.newObjectSave = nil
	if !yes || ev == nil {
		m.status.Info("not saved; the draft is kept, made on the earlier object")
		return m, nil
	}
	cmd := m.handle(ev)
	return m, cmd
}
