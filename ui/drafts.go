package ui

import (
	"errors"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/kedit/kedit/internal/drafts"
	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/internal/words"
	"github.com/kedit/kedit/kube"
	"github.com/kedit/kedit/model"
	"github.com/kedit/kedit/ui/common"
	"github.com/kedit/kedit/ui/internal/effect"
)

// Where the draft is, and what the app says about it: the quit questions
// and the offer of stored drafts say where the draft really is, on disk or
// only in memory.

// storeSeq is the Seq of a draft write or delete, 0 for other effects.
func storeSeq(e model.Effect) uint64 {
	switch e := e.(type) {
	case model.WriteDraft:
		return e.Seq
	case model.DeleteDraft:
		return e.Seq
	}
	return 0
}

// draftStored takes the outcome of the draft write or delete number seq.
// Outcomes may come back in any order; only the newest one says where the
// draft is. It returns what there is to say of it, if anything.
func (o *objectState) draftStored(effect model.Effect, seq uint64, err error) (notice, bool) {
	if seq <= o.storeSeq {
		return notice{}, false
	}
	o.storeSeq = seq
	var secret *drafts.SecretError
	var write *drafts.WriteError
	switch {
	case errors.As(err, &secret):
		// The default for Secrets, not a failure: say it once, without alarm.
		if !o.secretSaid {
			o.secretSaid = true
			return notice{common.ErrorText(err), noticeInfo}, true
		}
	case errors.As(err, &write):
		o.diskFailed = true
		if !o.diskWarned {
			// Once: every edit would say it again.
			o.diskWarned = true
			return notice{common.ErrorText(err) + "; editing goes on in memory, and the draft is lost if kedit ends", noticeFailure}, true
		}
	case err != nil:
		return notice{common.ErrorText(err), noticeFailure}, true
	default:
		if _, ok := effect.(model.WriteDraft); ok && o.diskFailed {
			o.diskFailed, o.diskWarned = false, false
			return notice{"the draft is written to disk again: " + escape.Safe(o.draftPath), noticeInfo}, true
		}
	}
	return notice{}, false
}

// storedDrafts takes the outcome of recovering, discarding or keeping
// aside stored drafts, and returns what there is to say of it.
func (o *objectState) storedDrafts(msg effect.StoredDrafts) (notice, bool) {
	o.inflight--
	switch {
	case msg.Err != nil:
		return notice{common.ErrorText(msg.Err), noticeFailure}, true
	case msg.Kept != "":
		return notice{msg.Why + "; it is kept in " + escape.Safe(msg.Kept), noticeFailure}, true
	case msg.Path != "":
		o.draftPath = msg.Path
	}
	return notice{}, false
}

// inMemory reports whether the draft exists only in memory: a Secret's
// without --allow-secret-drafts, or one the disk refused.
func (o objectState) inMemory() bool { return o.memoryOnly || o.diskFailed }

// quitQuestion asks before quitting with a draft, saying where it is.
func (m App) quitQuestion() escape.Text {
	// Drafts of objects not shown (left for the browser, or the set's) that
	// quitting loses.
	others := lostText(m.othersInMemory())
	var anyway escape.Text = ": quit anyway? (y/n)"
	if m.confirm.forceArmed {
		anyway = ": quit anyway? (y/n; ctrl+c again quits)"
	}
	switch {
	case m.sess == nil || m.sess.Draft() == nil:
		return others + anyway
	case !m.inMemory() && others != "":
		return "this draft stays on disk in " + escape.Safe(m.draftPath) + ", but " + others + anyway
	case !m.inMemory():
		return "quit with an unsaved draft? It stays on disk in " + escape.Safe(m.draftPath) + " and is offered next time. (y/n)"
	}
	var q escape.Text = "the draft exists only in memory and will be lost"
	if m.memoryOnly && m.drafts != nil {
		q += " (a Secret's draft is written to disk only with --allow-secret-drafts)"
	}
	if others != "" {
		q += "; " + others
	}
	return q + anyway
}

// recoverQuestion offers the stored drafts, each with where it is and, for
// one made on an object deleted since, a warning.
func (m App) recoverQuestion() escape.Text {
	uid := ""
	if b := m.sess.Base().Object; b != nil {
		uid = string(b.GetUID())
	}
	describe := func(d *drafts.Draft) escape.Text {
		s := escape.Textf("from rv %s, saved %s, in %s", d.BaseResourceVersion,
			d.SavedAt.Local().Format("2006-01-02 15:04:05"), d.Path)
		if model.MadeOnEarlierObject(d.UID, uid) {
			s += " -- WARNING: made on an earlier object of this name that was deleted since; recovering it takes its text over the object as it is now, nothing is merged"
		}
		return s
	}
	if len(m.stored) == 1 {
		return "a draft of this object " + describe(m.stored[0]) + ", is stored: recover it? (y/n; n discards it)"
	}
	n := min(len(m.stored), 9)
	b := escape.Textf("%s of this object are stored:", words.Count(len(m.stored), "draft"))
	for i, d := range m.stored[:n] {
		b += escape.Textf("\n%d) %s", i+1, describe(d))
	}
	return b + escape.Textf("\n1-%d recovers that one (the others stay stored), n discards them all", n)
}

// answerRecover takes the answer to the offer of stored drafts: y or a
// number recovers one, n discards them all.
func (m App) answerRecover(a common.AnswerMsg) (App, tea.Cmd) {
	if !a.Yes {
		var paths []string
		for _, d := range m.stored {
			paths = append(paths, d.Path)
		}
		m.stored, m.confirm.kind = nil, confirmNone
		m.status.Info("stored draft discarded")
		if len(paths) > 1 {
			m.status.Info(escape.Textf("%s discarded", words.Count(len(paths), "stored draft")))
		}
		m.inflight++
		return m, effect.Discard(m.id, m.drafts, paths)
	}
	i := a.Pick
	if i < 0 || i >= len(m.stored) {
		return m, nil // the prompt offers no other: the question stays
	}
	d, others := m.stored[i], len(m.stored)-1
	m.stored, m.confirm.kind = nil, confirmNone
	cmd, err := m.handleErr(model.RecoverDraft{Draft: kube.StoredDraft(d)})
	var stale *model.StaleDraftError
	switch {
	case errors.As(err, &stale):
		// It cannot be taken up, and must not be written over by the
		// edits to come: it goes aside, and the status bar says where.
		m.inflight++
		return m, tea.Batch(cmd, effect.KeepAside(m.id, m.drafts, d.Path, "the stored draft cannot be recovered: "+common.ErrorText(err)))
	case m.sess.Draft() == nil:
		// Refused (said why), or the object as it is now: nothing to take.
		return m, cmd
	}
	text := "draft recovered from " + escape.Safe(d.Path)
	if others > 0 {
		text += escape.Textf("; %s %s on disk (kedit drafts lists them)", words.Count(others, "other stored draft"), words.Agree(others, "stays", "stay"))
	}
	m.status.Info(text)
	// The file becomes this kedit's before the recovered draft is written.
	m.inflight++
	return m, tea.Sequence(effect.Adopt(m.id, m.drafts, d.Path), cmd)
}

// takeEditorText makes what the in-app editor holds the draft, when kedit
// is about to end with the editor open.
func (m *App) takeEditorText() tea.Cmd {
	if m.screen != screenEditor {
		return nil
	}
	m.closeEditor(screenObject)
	if m.editingMerged && !m.editor.Changed() || !m.editingMerged && !m.editor.Unkept() {
		// The session has it already (the draft), or there is nothing
		// typed to keep (the merged result).
		return nil
	}
	m.editor.SetKept(m.editor.Version())
	return m.handle(model.DraftEdited{Text: m.editor.Text(), From: m.editorFrom})
}

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
