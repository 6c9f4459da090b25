package ui

import (
	"errors"
	"fmt"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/kedit/kedit/diff"
	"github.com/kedit/kedit/kube"
	"github.com/kedit/kedit/model"
)

// handle hands ev to the session, turns its effects into commands and
// brings the views up to date.
func (m *App) handle(ev model.Event) tea.Cmd {
	if m.gitOpsAsks(ev) {
		// The first save of an object a GitOps tool reconciles waits for
		// a yes (oncall.go).
		return nil
	}
	cmd, _ := m.handleErr(ev)
	return cmd
}

// handleErr is handle, and also returns why the session refused ev.
func (m *App) handleErr(ev model.Event) (tea.Cmd, error) {
	before := m.sess.State()
	state, effects, err := m.sess.Handle(ev)
	var cmds []tea.Cmd
	for _, eff := range effects {
		if r, ok := eff.(model.RetrySave); ok {
			m.status.Error(failureText(m.sess.Failure()) + fmt.Sprintf("; next try in %s", r.Delay.Round(time.Second)))
			cmds = append(cmds, retryCmd(m.sess, r))
			continue
		}
		if m.runner != nil {
			m.inflight++
			cmds = append(cmds, performCmd(m.ctx, m.sess, m.runner, eff))
		}
	}
	m.refresh()
	// Even a refused event can move the session: merged text edited by
	// hand with a block left in ends the rebase as a draft that cannot be
	// saved yet.
	cmds = append(cmds, m.moved(before, state, ev))
	if err != nil {
		m.refused(ev, err)
	}
	// At once, as the effects are independent: a draft's write that
	// finishes after a newer write or the deletion after a save is dropped
	// by the store (their Seq), and the spinner's tick must not wait for
	// a save to come back.
	return tea.Batch(cmds...), err
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
		m.status.Error("the edited merge was not taken: " + errorText(err) + "; the resolutions are kept, e or i opens your text again")
	case errors.As(err, &de):
		// The text is kept (and stored) even though it cannot be saved.
		m.status.Error("the draft is kept but cannot be saved: " + errorText(err))
	case errors.Is(err, model.ErrUpToDate):
		m.status.Info("the draft is already based on the latest version")
	case rebase && errors.Is(err, model.ErrNoDraft):
		m.status.Info("nothing to rebase: no draft")
	case errors.Is(err, model.ErrNoDraft):
		m.status.Info("there is no draft: e edits one")
	default:
		m.status.Error(errorText(err))
	}
}

// moved reacts to the session's state change: the spinner, the outcome in
// the status bar, and which screen shows.
func (m *App) moved(before, state model.State, ev model.Event) tea.Cmd {
	var cmd tea.Cmd
	// The in-app editor stays open whatever comes: a watch event's banner
	// waits for the user to leave it, a save's outcome (the editor may be
	// reopened while a save is in flight) is said in the status line, and
	// a conflict's view opens once the editor is left (editorKey).
	editing := m.screen == screenEditor
	if editing && state == before {
		return nil
	}
	if over := m.screen; over == screenTimeline || over == screenLost || over == screenPreview {
		// These views only look: a new version or a save's outcome
		// meanwhile leaves them open, but a conflict still takes over.
		defer func() {
			if m.screen == screenObject {
				m.screen = over
			}
		}()
	}
	if state == model.StateSaving {
		cmd = m.status.SetBusy("saving")
		m.status.Info("")
		if a, ok := m.sess.RebasedAgain(); ok && a.Rounds > 0 {
			// The save in flight is a rebase resubmitted at once: say
			// what it merged.
			m.status.Info(againText(a))
		}
	} else {
		m.status.SetBusy("")
	}
	switch state {
	case model.StateSaved:
		_, saved := ev.(model.Saved)
		_, verified := ev.(model.SaveVerified)
		if saved || verified {
			text, whole := savedText(m.sess.Base().ResourceVersion, m.sess.LastSave(), m.sess.Ref().IsSecret())
			if m.autoMerged != "" {
				text += " (" + m.autoMerged + ")"
				m.autoMerged = ""
			}
			if whole {
				m.status.OK(text)
			} else {
				m.status.Error(text)
			}
		}
		if !editing {
			m.screen = screenObject
		}
	case model.StateFailed:
		m.autoMerged = ""
		// A retryable failure already said when the next try is.
		if f := m.sess.Failure(); f != nil && !f.Kind.Retryable() {
			m.status.Error(failureText(f))
		}
		if f := m.sess.Failure(); f != nil && f.Kind == model.ErrorRecreated && (before == model.StateSaving || before == model.StateWaitingTheirs) {
			// The save met the object created again: ask, as a save
			// of a draft made on an earlier object always does.
			m.asksNewObject(model.SaveRequested{}, f.Err)
		}
		if !editing {
			m.screen = screenObject
		}
	case model.StateWaitingTheirs:
		// theirs is read before anything is merged; a hot object's heartbeat
		// is then rebased at once (model's rule), so the conflict view
		// opens only once there is something to show.
		m.status.Info("the object changed on the server since base: reading it")
	case model.StateRebasing, model.StateResolving:
		// A conflict's merge comes straight from the save (theirs was in
		// the informer's cache) or after reading theirs; a save onto an
		// object created again merges at the user's yes.
		yes, _ := ev.(model.SaveRequested)
		afterConflict := before == model.StateSaving || before == model.StateWaitingTheirs || yes.OntoNewObject
		if r := m.sess.Rebase(); m.cfg.AutoRebase && afterConflict && state == model.StateRebasing &&
			r != nil && len(r.Merge.Conflicts) == 0 {
			// --auto-rebase: a clean rebase after a conflict goes back at
			// once, never shown, and the status bar still says what was
			// merged.
			m.autoMerged = "auto-rebased onto rv " + kube.EscapeControl(r.Theirs.ResourceVersion) + ", merged: " + changeList(r.Merge)
			next := m.handle(model.Resubmit{})
			if m.sess.Rebase() == nil {
				m.status.Info(m.autoMerged)
				return tea.Batch(cmd, next)
			}
			// Refused (and said why): the rebase waits in its view.
			cmd = tea.Batch(cmd, next)
		}
		switch {
		case before == model.StateRebasing || before == model.StateResolving:
		case editing:
			m.status.Error("the save met a change on the server: esc leaves the editor for the conflict view")
		default:
			m.screen = screenConflict
		}
		if a, ok := m.sess.RebasedAgain(); ok && a.Stopped && afterConflict {
			m.status.Info(againStoppedText(a))
		}
	case model.StateViewing, model.StateEditing:
		if !editing {
			m.screen = screenObject
		}
		m.autoMerged = ""
	}
	return cmd
}

// changeList names a merge's changes for the status bar.
func changeList(mg *diff.ObjectMerge) string {
	if len(mg.Changes) == 0 {
		return "nothing"
	}
	var paths []string
	for _, c := range mg.Changes {
		paths = append(paths, c.Where()+" ("+c.Side.String()+")")
	}
	return kube.EscapeControl(strings.Join(paths, ", "))
}

// savedText says that a save went through at rv, and, from the session's
// report, what it forced and what the server stored otherwise than the
// draft said: `saved rv 812, but .data.baz is still on the server`. It
// reports false when the server did not store the draft whole. A Secret's
// value is never said (secret): only that it differs.
func savedText(rv string, r *model.SaveReport, secret bool) (string, bool) {
	// Each piece of server text is escaped on its own: a value is quoted
	// and escaped by shortValue, and escaping the sentence again would
	// draw its escapes as literal backslashes.
	esc := kube.EscapeControl
	text := "saved rv " + esc(rv)
	if r == nil {
		return text, true
	}
	if r.AsUpdate {
		text += " as an update"
	}
	if r.NewObject != "" {
		text += " onto the new object (uid " + esc(shortUID(r.NewObject)) + ")"
	}
	if r.ServerRebases > 0 {
		// A hot object: the conflict view never opened, so say why the
		// save went with another resourceVersion than base's.
		text += " (rebased at once onto rv " + esc(r.RebasedOnto) + ": only its status had changed on the server)"
	}
	if r.RebasedAgain.Rounds > 0 {
		text += " (" + againText(r.RebasedAgain) + ")"
	}
	if r.Verified {
		text += " (the server's answer was lost; read back, the object holds the draft, so nothing was sent again)"
	}
	if len(r.Forced) > 0 {
		var taken []string
		for _, f := range r.Forced {
			taken = append(taken, esc(f.Field)+" from "+esc(f.Manager))
		}
		text += ", applied with force: took " + strings.Join(taken, ", ")
	}
	var buts []string
	for _, ms := range r.NotStored {
		p := esc(ms.Path.String())
		switch {
		case !ms.Sent.Present:
			buts = append(buts, p+" is still on the server")
		case !ms.Stored.Present:
			buts = append(buts, p+" is not on the server")
		case secret && isSecretValue(ms.Path):
			buts = append(buts, p+" is otherwise on the server")
		default:
			buts = append(buts, p+" is "+shortValue(ms.Stored)+" on the server")
		}
	}
	if len(buts) > 0 {
		text += ", but " + strings.Join(buts, ", ")
	}
	return text, len(buts) == 0
}

// refresh copies the session into the views. While the in-app editor is
// open they are not shown, and the object view's copy renders the whole
// draft: the editor hands the session its text every second of typing,
// so closeEditor refreshes them instead, once.
func (m *App) refresh() {
	if m.screen == screenEditor {
		return
	}
	m.object.SetSession(m.sess)
	m.conflict.SetSession(m.sess)
	m.timeline.SetSession(m.sess)
	m.preview.SetSession(m.sess)
}
