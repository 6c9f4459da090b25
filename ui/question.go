package ui

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/model"
	"github.com/kedit/kedit/ui/common"
)

// The questions the app asks on the bottom line (the common.Prompt view shows
// them and takes the answer), and what it does with the answers.

// confirmation is what a question asks about.
type confirmation int

const (
	confirmNone confirmation = iota
	confirmQuit
	confirmDiscard
	confirmRecover
	confirmTimelineTake
	confirmGitOps
	confirmNewObject
	confirmUndo
	confirmSetRecover
	confirmSetGitOps
)

// confirmState is the question on the bottom line, if any.
type confirmState struct {
	kind confirmation
	// forceArmed: ctrl+c asked once about a draft that exists only in
	// memory; the next one quits.
	forceArmed bool
}

// ask puts question c on the bottom line; its answer comes back from the
// prompt as common.AnswerMsg.
func (m *App) ask(c confirmation) {
	m.confirm.kind = c
	picks := 0
	if c == confirmRecover {
		picks = len(m.stored)
	}
	m.prompt.Ask(picks)
	if c == confirmGitOps || c == confirmSetGitOps {
		m.prompt.OfferSource()
	}
}

// question is the pending question's words.
func (m App) question() escape.Text {
	switch m.confirm.kind {
	case confirmQuit:
		return m.quitQuestion()
	case confirmDiscard:
		return "discard the draft? (y/n)"
	case confirmRecover:
		return m.recoverQuestion()
	case confirmTimelineTake, confirmGitOps, confirmUndo:
		return m.oncallQuestion()
	case confirmNewObject:
		return newObjectQuestion
	case confirmSetRecover:
		return m.setRecoverQuestion()
	case confirmSetGitOps:
		return m.setGitOpsQuestion()
	}
	return ""
}

// answered acts on the answer to the pending question.
func (m App) answered(a common.AnswerMsg) (App, tea.Cmd) {
	c := m.confirm.kind
	switch c {
	case confirmRecover:
		return m.answerRecover(a)
	case confirmSetRecover:
		return m.answerSetRecover(a)
	}
	m.confirm.kind = confirmNone
	switch c {
	case confirmQuit:
		if a.Yes {
			return m, tea.Quit
		}
		m.confirm.forceArmed = false
	case confirmDiscard:
		if a.Yes {
			cmd := m.handle(model.DiscardDraft{})
			m.status.Info("draft discarded")
			return m, cmd
		}
		m.status.Info("the draft is kept")
	case confirmGitOps:
		switch {
		case a.Source && a.Yes:
			// The draft is read now, before the save takes it; its
			// source is planned once the save's outcome is said, so
			// that what the source diff or its failure says comes last.
			next, plan := m.planSource(screenObject, m.objectState)
			next.planAfterSave = plan
			return next.answerOncall(c, true)
		case a.Source:
			m.oncall.gitOpsSave = nil
			return m.planSource(screenObject, m.objectState)
		}
		return m.answerOncall(c, a.Yes)
	case confirmTimelineTake, confirmUndo:
		return m.answerOncall(c, a.Yes)
	case confirmNewObject:
		return m.answerNewObject(a.Yes)
	case confirmSetGitOps:
		if a.Source {
			// The drafts are read before the save takes them.
			next, plan := m.planSource(screenSet, m.setMembers(m.set.gitOps)...)
			next, save := next.answerSetGitOps(a.Yes)
			return next, tea.Batch(save, plan)
		}
		return m.answerSetGitOps(a.Yes)
	}
	return m, nil
}
