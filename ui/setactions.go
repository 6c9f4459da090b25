package ui

import (
	"errors"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/internal/words"
	"github.com/kedit/kedit/kube"
	"github.com/kedit/kedit/model"
	"github.com/kedit/kedit/ui/common"
	"github.com/kedit/kedit/ui/internal/effect"
	"github.com/kedit/kedit/ui/internal/say"
	"github.com/kedit/kedit/ui/objectset"
)

// What the set view's keys do, but the edit of several objects
// (setedit.go): the save of every draft, the stored drafts of earlier
// runs, and the rows that say how each object stands.

// saveSet saves every draft of the set (model.Set.SaveAll) but those of
// declined. The first save of objects a GitOps tool reconciles asks first,
// as for one object; confirmed says the user has answered.
func (m *App) saveSet(confirmed bool, declined []int) tea.Cmd {
	s := m.set
	if !confirmed && m.setSchemaHold() {
		return nil
	}
	if !confirmed {
		s.gitOps = nil
		for i := range s.states {
			sess := s.model.Session(i)
			if _, asks := sess.GitOpsYesNeeded(); asks && sess.Draft() != nil {
				s.gitOps = append(s.gitOps, i)
			}
		}
		if len(s.gitOps) > 0 {
			m.ask(confirmSetGitOps)
			return nil
		}
	}
	effects, round := s.model.SaveAll(declined...)
	cmd := m.runSetEffects(effects)
	for _, i := range round.Skipped {
		m.noteMember(i, notice{"not saved: you declined, as " + m.gitOpsOwner(i) + " reconciles it; the draft is kept (s asks again)", noticeInfo})
	}
	if len(round.Queued) == 0 {
		switch n := s.model.Conflicts(); {
		case len(round.Skipped) > 0:
			n := len(round.Skipped)
			m.status.Info(escape.Textf("nothing saved: you declined %s, which %s", m.setNames(round.Skipped),
				words.Agree(n, "a GitOps tool reconciles; the draft is kept", "GitOps tools reconcile; the drafts are kept")))
		case n > 0:
			m.status.Info(escape.Textf("no draft to send: %s %s for you (n opens the next)", words.Count(n, "conflict"), words.Agree(n, "waits", "wait")))
		case len(round.Busy) > 0:
			m.status.Info("no draft to send: every draft's save is on its way")
		default:
			m.status.Info("no draft to save: e edits them")
		}
		m.refreshSet()
		return cmd
	}
	s.round, s.declined, s.roundSaid = round.Queued, round.Skipped, false
	s.merges, s.cleanMerges = round.Merges, round.Clean
	text := say.Round(round)
	if len(round.Skipped) > 0 {
		text += "; not " + m.setNames(round.Skipped) + " (declined)"
	}
	if n := s.model.Conflicts(); n > 0 {
		text += escape.Textf("; %s %s for you (n opens the next)", words.Count(n, "conflict"), words.Agree(n, "waits", "wait"))
	}
	m.status.Info(text)
	m.refreshSet()
	return tea.Batch(cmd, m.status.SetBusy("saving"))
}

// gitOpsOwner names the GitOps tool that reconciles object i, for its
// row: "Flux", or "a GitOps tool".
func (m App) gitOpsOwner(i int) escape.Text {
	if live, _ := m.set.model.Session(i).Live(); live.Object != nil {
		if o, ok := model.GitOpsOwnerOf(live.Object); ok {
			return escape.Textf("%s", o.Tool)
		}
	}
	return "a GitOps tool"
}

// setGitOpsQuestion asks before the first save of objects GitOps tools
// reconcile: y saves them with the others, n saves the others only.
func (m App) setGitOpsQuestion() escape.Text {
	s := m.set
	n := len(s.gitOps)
	var what escape.Text = "reconciled by a GitOps tool, which may revert a save"
	if live, _ := s.model.Session(s.gitOps[0]).Live(); live.Object != nil {
		if o, ok := model.GitOpsOwnerOf(live.Object); ok {
			what = escape.Safe(o.Description())
			if n > 1 {
				what = "reconciled by GitOps tools, which may revert a save (" + m.setNames(s.gitOps[:1]) + ": " + what + ")"
			}
		}
	}
	return escape.Textf("%s %s %s. Save %s too? (y/n; n saves the other drafts only and keeps %s; g writes %s to the source instead, b does both)",
		m.setNames(s.gitOps), words.Agree(n, "is", "are"), what, words.Agree(n, "it", "them"), words.Agree(n, "its draft", "their drafts"), words.Agree(n, "it", "them"))
}

// answerSetGitOps takes the answer: y saves every draft; n every draft
// but those of the objects a GitOps tool reconciles, whose rows say so.
func (m App) answerSetGitOps(yes bool) (App, tea.Cmd) {
	s := m.set
	if !yes {
		cmd := m.saveSet(true, s.gitOps)
		return m, cmd
	}
	for _, i := range s.gitOps {
		s.model.Session(i).ConfirmGitOps()
	}
	cmd := m.saveSet(true, nil)
	return m, cmd
}

// roundDone says how the save round went once its last save is back.
func (m *App) roundDone() {
	s := m.set
	if s.round == nil || s.roundSaid || s.model.Busy() {
		return
	}
	s.roundSaid = true
	m.status.SetBusy("")
	counts := map[model.MemberState]int{}
	for _, i := range s.round {
		counts[s.model.Status(i).State]++
	}
	text := escape.Textf("saved %d of %s", counts[model.MemberSaved], words.Count(len(s.round), "draft"))
	if r := len(s.merges); r > 0 {
		text += " (" + say.Merges(r, s.cleanMerges) + " resubmitted)"
	}
	// Conflicts left open before the round wait as well as its own.
	if c := s.model.Conflicts(); c > 0 {
		text += escape.Textf("; %s: n opens the next", words.Count(c, "conflict"))
	}
	if r := counts[model.MemberRefused]; r > 0 {
		text += escape.Textf("; %d refused, the drafts kept (each row says why)", r)
	}
	if d := counts[model.MemberDeleted]; d > 0 {
		text += escape.Textf("; %d deleted on the server, the %s kept (enter, then s creates it again)", d, words.Agree(d, "draft", "drafts"))
	}
	if d := len(s.declined); d > 0 {
		text += escape.Textf("; %d not saved, as you answered (%s), the %s kept",
			d, words.Agree(d, "a GitOps tool reconciles it", "GitOps tools reconcile them"), words.Agree(d, "draft", "drafts"))
	}
	if counts[model.MemberSaved] == len(s.round) {
		m.status.OK(text)
	} else {
		m.status.Error(text)
	}
}

// setRecoverQuestion offers the stored drafts earlier runs left of the
// set's objects.
func (m App) setRecoverQuestion() escape.Text {
	var waiting []int
	for i := range m.set.states {
		if len(m.member(i).stored) > 0 {
			waiting = append(waiting, i)
		}
	}
	return escape.Textf("drafts an earlier kedit left of %s are stored: recover them? (y: the newest of each; n: enter one to answer for it)",
		m.setNames(waiting))
}

// answerSetRecover takes the answer: y recovers the newest stored draft of
// each object, as y does for one, and the others stay stored (kedit drafts
// lists them), as when one of several is picked; one made on an earlier
// object of the name is left to enter, whose question warns of it.
func (m App) answerSetRecover(a common.AnswerMsg) (App, tea.Cmd) {
	m.confirm.kind = confirmNone
	if !a.Yes {
		m.status.Info("the stored drafts stay on disk: enter an object to recover or discard its own")
		return m, nil
	}
	var cmds []tea.Cmd
	recovered := 0
	for i := range m.set.states {
		st := m.member(i)
		if len(st.stored) == 0 {
			continue
		}
		d := st.stored[0]
		uid := ""
		if b := st.sess.Base().Object; b != nil {
			uid = string(b.GetUID())
		}
		if model.MadeOnEarlierObject(d.UID, uid) {
			m.noteMember(i, notice{"a stored draft made on an earlier object of this name waits: enter says more", noticeInfo})
			continue
		}
		st.stored = nil
		h := st.handle(m.ctx, model.RecoverDraft{Draft: kube.StoredDraft(d)})
		cmd, err := tea.Batch(tea.Batch(h.cmds...), m.pumpSet()), h.err
		var stale *model.StaleDraftError
		switch {
		case errors.As(err, &stale):
			st.inflight++
			cmds = append(cmds, cmd, effect.KeepAside(st.id, st.drafts, d.Path, "the stored draft cannot be recovered: "+common.ErrorText(err)))
		case err != nil:
			m.noteMember(i, notice{common.ErrorText(err), noticeFailure})
			cmds = append(cmds, cmd)
		default:
			recovered++
			st.inflight++
			cmds = append(cmds, tea.Sequence(effect.Adopt(st.id, st.drafts, d.Path), cmd))
		}
	}
	m.status.Info(escape.Textf("%s recovered; other stored drafts stay on disk (kedit drafts lists them)", words.Count(recovered, "draft")))
	m.refreshSet()
	return m, tea.Batch(cmds...)
}

// refreshSet gives the set view its rows, and says how a save round went
// once it is over.
func (m *App) refreshSet() {
	s := m.set
	if s == nil {
		return
	}
	rows := make([]objectset.Row, len(s.states))
	for i := range s.states {
		rows[i] = m.setRow(i)
	}
	m.setView.SetRows(rows)
	if m.screen == screenSet {
		m.roundDone()
	}
}

// setRow is object i's row.
func (m *App) setRow(i int) objectset.Row {
	s := m.set
	st := m.member(i)
	status := s.model.Status(i)
	row := objectset.Row{Name: objectName(keyOf(st.target)), Namespace: escape.Safe(st.target.Namespace), Status: status}
	if status.Draft {
		place := DraftStored
		if st.inMemory() {
			place = DraftInMemory
		}
		row.Draft = escape.Safe(place.String())
	}
	row.State, row.Note = escape.Safe(status.State.String()), ""
	switch status.State {
	case model.MemberSaved:
		r := st.sess.LastSave()
		text, whole := say.Saved(status.ResourceVersion, r, st.sess.Ref().IsSecret())
		row.State = "saved rv " + escape.Safe(status.ResourceVersion)
		switch {
		case r != nil && r.Unchanged:
			row.State, row.Note = "unchanged rv "+escape.Safe(status.ResourceVersion), text
		case !whole:
			row.Note = escape.TrimPrefix(text, row.State+", ")
		}
	case model.MemberConflict:
		row.Note = "n opens it (or enter)"
		switch r := st.sess.Rebase(); {
		case status.OpenConflicts > 0:
			row.State = escape.Textf("conflict (%d open)", status.OpenConflicts)
		case status.Err != nil:
			row.Note = "not resubmitted: " + common.ErrorText(status.Err) + " (n opens it)"
		case r != nil && len(r.Merge.Conflicts) > 0:
			row.Note = "every conflict resolved: s resubmits it (n opens it)"
		default:
			row.Note = "merged cleanly: s resubmits it (n opens it)"
		}
	case model.MemberRefused:
		if status.Failure != nil {
			row.Note = say.Failure(status.Failure)
		} else {
			row.Note = common.ErrorText(status.Err)
		}
	case model.MemberDraft:
		if status.Err != nil {
			row.Note = "cannot be saved: " + common.ErrorText(status.Err)
		} else if st.schemaRefuses() {
			row.Note = m.memberDiagnosticsText(i)
		} else if ch, moved := st.sess.ServerChange(); moved {
			row.Note = common.BannerText(ch)
		} else if r, kept := st.sess.KeptAfterSave(); kept {
			// Saved, but not as written: the draft keeps the user's text.
			text, _ := say.Saved(r.ResourceVersion, r, st.sess.Ref().IsSecret())
			row.Note = text + say.KeptInSet
		}
	case model.MemberDeleted:
		if status.Draft {
			row.Note = "deleted on the server; the draft is kept (enter, then s creates it again)"
		}
	}
	switch {
	case len(st.stored) > 0:
		row.Note = escape.Textf("%s from an earlier kedit: enter to recover or discard", words.Count(len(st.stored), "stored draft"))
	case row.Note == "" && st.note.text != "" && st.noteOf == status.State:
		row.Note = st.note.text
	}
	return row
}
