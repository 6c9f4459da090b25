package ui

import (
	"errors"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/model"
	"github.com/kedit/kedit/ui/common"
	"github.com/kedit/kedit/ui/internal/say"
)

// handle hands ev to the object shown (apply).
func (m *App) handle(ev model.Event) tea.Cmd {
	cmd, _ := m.apply(m.objectState, ev)
	return cmd
}

// handleErr is handle, and also returns why the session refused ev.
func (m *App) handleErr(ev model.Event) (tea.Cmd, error) {
	return m.apply(m.objectState, ev)
}

// apply hands ev to st's session, wherever st is (shown, a set's, left
// for the browser): the one way an event reaches an object. It runs the
// effects, says what there is to say where st is (notify), brings the
// views up to date when st is shown, and sends what a set's save round
// may send now. It also returns why the session refused ev.
func (m *App) apply(st *objectState, ev model.Event) (tea.Cmd, error) {
	shown := st == m.objectState
	h := st.handle(m.ctx, ev)
	// At once, as the effects are independent: a draft's write that
	// finishes after a newer write or the deletion after a save is dropped
	// by the store (their Seq), and the spinner's tick must not wait for
	// a save to come back.
	cmds := append(h.cmds, m.theirsReadCmd(st.target, st.sess, ev))
	var yes *model.GitOpsYesError
	switch {
	case shown && errors.As(h.err, &yes):
		// The first save of an object a GitOps tool reconciles waits for
		// the user's yes (model/gitops.go): ask, and save at the yes.
		m.oncall.gitOpsSave, m.oncall.gitOpsOwner = ev, escape.Safe(yes.Owner.Description())
		m.ask(confirmGitOps)
	case shown:
		m.refresh()
		// Even a refused event can move the session: merged text edited by
		// hand with a block left in ends the rebase as a draft that cannot be
		// saved yet.
		cmds = append(cmds, m.moved(h.before, h.after, ev))
		if h.err != nil {
			m.refused(ev, h.err)
		}
	case h.err != nil:
		m.notify(st, notice{common.ErrorText(h.err), noticeFailure})
	default:
		if n, ok := m.leftNotice(st, h, ev); ok {
			m.notify(st, n)
		}
	}
	for _, n := range h.notices {
		m.notify(st, n)
	}
	cmds = append(cmds, m.pumpSet())
	return tea.Batch(cmds...), h.err
}

// refused reports an intent the session did not take.
func (m *App) refused(ev model.Event, err error) {
	if m.asksNewObject(ev, err) {
		return
	}
	var de *model.DraftError
	_, merged := ev.(model.MergedEdited)
	_, rebase := ev.(model.RebaseRequested)
	switch {
	case merged && errors.As(err, &de):
		// The rebase, its resolutions and the draft are as they were.
		m.status.Error("the edited merge was not taken: " + common.ErrorText(err) + "; the resolutions are kept, e or i opens your text again")
	case errors.As(err, &de):
		// The text is kept (and stored) even though it cannot be saved.
		m.status.Error("the draft is kept but cannot be saved: " + common.ErrorText(err))
	case errors.Is(err, model.ErrUpToDate):
		m.status.Info("the draft is already based on the latest version")
	case rebase && errors.Is(err, model.ErrNoDraft):
		m.status.Info("nothing to rebase: no draft")
	case errors.Is(err, model.ErrNoDraft):
		m.status.Info("there is no draft: e edits one")
	default:
		m.status.Error(common.ErrorText(err))
	}
}

// moved reacts to the session's state change: the spinner, the outcome in
// the status bar, and which screen shows.
func (m *App) moved(before, state model.State, ev model.Event) tea.Cmd {
	// The in-app editor stays open whatever comes: a watch event's banner
	// waits for the user to leave it, a save's outcome (the editor may be
	// reopened while a save is in flight) is said in the status line, and
	// a conflict's view opens once the editor is left (leaveEditor).
	editing := m.screen == screenEditor
	if editing && state == before {
		return nil
	}
	cmd := m.busy(state)
	switch state {
	case model.StateSaved:
		m.saidSaved(ev)
		cmd = tea.Batch(cmd, m.takePlanAfterSave())
	case model.StateFailed:
		m.saidFailed(before)
		cmd = tea.Batch(cmd, m.takePlanAfterSave())
	case model.StateWaitingTheirs:
		// theirs is read before anything is merged; a hot object's heartbeat
		// is then rebased at once (model's rule), so the conflict view
		// opens only once there is something to show.
		m.status.Info("the object changed on the server since base: reading it")
		return cmd
	case model.StateRebasing, model.StateResolving:
		m.rebased(before, ev, editing)
		return cmd
	case model.StateEditing:
		// A save the server took that stored otherwise than the draft
		// leaves the draft with what the user wrote: say so.
		if _, kept := m.sess.KeptAfterSave(); kept {
			m.saidSaved(ev)
		}
	case model.StateViewing:
	default:
		return cmd
	}
	if !editing && !m.looking() {
		// A view that only looks stays open over the object view.
		m.goTo(screenObject)
	}
	return cmd
}

// busy runs the spinner while a save is in flight, and says what a
// rebase of a hot object resubmitted at once merged.
func (m *App) busy(state model.State) tea.Cmd {
	if state != model.StateSaving {
		m.status.SetBusy("")
		return nil
	}
	cmd := m.status.SetBusy("saving")
	m.status.Info("")
	if a, ok := m.sess.RebasedAgain(); ok && a.Rounds > 0 {
		// The save in flight is a rebase resubmitted at once: say what it
		// merged. (What --auto-rebase resubmitted is the session's
		// notice: objectState.handle.)
		m.status.Info(say.Again(a))
	}
	return cmd
}

// saidSaved says that a save went through, and what --auto-rebase merged
// on its way.
func (m *App) saidSaved(ev model.Event) {
	kept := say.Kept
	if m.screen == screenSet {
		kept = say.KeptInSet
	}
	if n, ok := savedNotice(m.sess, ev, kept); ok {
		n.say(&m.status)
	}
}

// savedNotice says that a save went through (ev, Saved or SaveVerified),
// and what --auto-rebase merged on its way; kept ends it when the draft
// keeps what the user wrote.
func savedNotice(sess *model.Session, ev model.Event, kept escape.Text) (notice, bool) {
	_, saved := ev.(model.Saved)
	_, verified := ev.(model.SaveVerified)
	if !saved && !verified {
		return notice{}, false
	}
	text, whole := say.Saved(sess.Base().ResourceVersion, sess.LastSave(), sess.Ref().IsSecret())
	if r := sess.LastSave(); r != nil && r.AutoRebased != nil {
		text += " (" + say.AutoRebased(*r.AutoRebased) + ")"
	}
	if _, k := sess.KeptAfterSave(); k {
		text += kept
	}
	if whole {
		return notice{text, noticeOK}, true
	}
	return notice{text, noticeFailure}, true
}

// saidFailed says why a save failed, and asks before saving onto an
// object created again.
func (m *App) saidFailed(before model.State) {
	f := m.sess.Failure()
	if f == nil {
		return
	}
	if !f.Kind.Retryable() {
		// A retryable failure already said when the next try is.
		text := say.Failure(f)
		if d := m.sess.Draft(); d != nil {
			text += say.CauseLines(d.Text, f.Causes)
		}
		m.status.Error(text)
	}
	if f.Kind == model.ErrorRecreated && (before == model.StateSaving || before == model.StateWaitingTheirs) {
		// The save met the object created again: ask, as a save of a
		// draft made on an earlier object always does.
		m.asksNewObject(model.SaveRequested{}, f.Err)
	}
}

// rebased opens the conflict view on the rebase the session has just made
// (editing, once the in-app editor is left). A clean one that
// --auto-rebase resubmitted never gets here: the session sent it (busy
// says what it merged).
func (m *App) rebased(before model.State, ev model.Event, editing bool) {
	// A conflict's merge comes straight from the save (theirs was in the
	// informer's cache) or after reading theirs; a save onto an object
	// created again merges at the user's yes.
	yes, _ := ev.(model.SaveRequested)
	afterConflict := before == model.StateSaving || before == model.StateWaitingTheirs || yes.OntoNewObject
	switch {
	case before == model.StateRebasing || before == model.StateResolving:
	case editing:
		m.status.Error("the save met a change on the server: esc leaves the editor for the conflict view")
	default:
		// A conflict takes over, from any view.
		m.goTo(screenConflict)
	}
	if a, ok := m.sess.RebasedAgain(); ok && a.Stopped && afterConflict {
		m.status.Info(say.AgainStopped(a))
	}
}

// refresh copies the session into the views. While the in-app editor is
// open they are not shown, and the object view's copy renders the whole
// draft: the editor hands the session its text every second of typing,
// so closeEditor refreshes them instead, once.
func (m *App) refresh() {
	if m.screen != screenEditor {
		m.views.refresh(m.sess)
		if m.objectState != nil {
			m.views.object.SetSource(m.srcLine.line)
		}
	}
}

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
