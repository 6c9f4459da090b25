package ui

import (
	"errors"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/internal/words"
	"github.com/kedit/kedit/model"
	"github.com/kedit/kedit/ui/common"
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

// againText says what the last rebase resubmitted at once merged:
// `rebased again onto rv 3311: .data.heartbeat by heartbeater`.
func againText(a model.RebaseAgain) escape.Text {
	text := escape.Textf("rebased again onto rv %s: %s", a.OntoRV, common.SafeList(a.Changes, ", "))
	if a.Manager != "" {
		text += " by " + escape.Safe(a.Manager)
	}
	if a.Rounds > 1 {
		text += escape.Textf(" (%d in a row)", a.Rounds)
	}
	return text
}

// againStoppedText says why a clean rebase waits for the user although the
// object's data was being rebased at once.
func againStoppedText(a model.RebaseAgain) escape.Text {
	return escape.Textf("rebased again %s in a row and the object changed again each time: this rebase waits for you; s resubmits it", words.Count(a.Rounds, "time"))
}
