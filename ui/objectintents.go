package ui

import (
	"errors"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/kedit/kedit/diff"
	"github.com/kedit/kedit/internal/demo"
	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/kube"
	"github.com/kedit/kedit/model"
	"github.com/kedit/kedit/model/history"
	"github.com/kedit/kedit/ui/conflict"
	"github.com/kedit/kedit/ui/internal/effect"
	"github.com/kedit/kedit/ui/object"
)

// What the app does for the object view and the conflict view: the
// session's intents behind their keys.

// objectIntent acts on what the object view asked for; false for any
// other message.
func (m App) objectIntent(msg tea.Msg) (App, tea.Cmd, bool) {
	var cmd tea.Cmd
	switch msg := msg.(type) {
	case object.BackToListMsg:
		m, cmd = m.leave()
	case object.SaveMsg:
		m, cmd = m.save(msg)
	case object.RebaseMsg:
		cmd = m.handle(model.RebaseRequested{})
		if m.sess.Rebase() != nil {
			// Also when a rebase was already under way: r shows it again.
			m.goTo(screenConflict)
		}
	case object.DiscardMsg:
		if m.sess.Draft() == nil {
			m.status.Info("there is no draft to discard")
		} else {
			m.ask(confirmDiscard)
		}
	case object.ShowConflictsMsg:
		if m.sess.Rebase() != nil {
			m.goTo(screenConflict)
		}
	case object.ShowTimelineMsg:
		m.timeline.Open(timelineContent(m.sess, history.Path{}))
		m.push(screenTimeline)
		// The audit log is read again each time: a write logged since is
		// in it.
		cmd = m.timeline.ReadHistory(m.ctx, m.history)
	case object.PreviewMsg:
		var err error
		if cmd, err = m.handleErr(model.PreviewRequested{}); err == nil {
			m.push(screenPreview)
			m.preview.SetContent(previewContent(m.sess))
		}
	case object.DemoWriteMsg:
		m.demoAct(DemoWriter.WriteNow, demo.WriterManager+" is writing ...",
			"w makes the demo writer write at once: only in kedit demo")
	case object.DemoKubectlEditMsg:
		m.demoAct(DemoWriter.KubectlEdit, demo.EditorUser+"'s kubectl edit is reading the object ...",
			"W plays a colleague's kubectl edit that loses a value saved meanwhile: only in kedit demo")
	case object.DemoRaceMsg:
		m.demoAct(DemoWriter.Race, escape.Textf("racing %d × kedit set --if ...", demo.RaceRacers),
			"A races ten kedit set --if on one field: only in kedit demo")
	default:
		return m, nil, false
	}
	return m, cmd, true
}

// conflictIntent acts on what the conflict view asked for; false for
// any other message.
func (m App) conflictIntent(msg tea.Msg) (App, tea.Cmd, bool) {
	var cmd tea.Cmd
	switch msg := msg.(type) {
	case conflict.ResolveMsg:
		cmd = m.handle(model.Resolve{Index: msg.Index, Resolution: diff.Resolution{Choice: msg.Choice}})
	case conflict.ResolveAllMsg:
		cmd = m.handle(model.ResolveAll{Choice: msg.Choice})
	case conflict.ResubmitMsg:
		cmd = m.handle(model.Resubmit{})
	case conflict.AbandonRebaseMsg:
		// Back to the draft, unchanged: the rebase and its resolutions
		// are dropped; r (or a save that conflicts) starts a new one.
		cmd = m.handle(model.AbandonRebase{})
		m.goTo(screenObject)
		m.status.Info("back to the draft, unchanged; r rebases again")
	default:
		return m, nil, false
	}
	return m, cmd, true
}

// save saves the draft: over a deleted object it can only create it
// again; as an update only after server-side apply could not remove a
// field another manager owns.
func (m App) save(msg object.SaveMsg) (App, tea.Cmd) {
	f := m.sess.Failure()
	switch {
	case msg.AsUpdate && (f == nil || f.Kind != model.ErrorApplyCannotRemove):
		m.status.Info("u sends a save as an update when server-side apply cannot remove a field another manager owns")
		return m, nil
	case msg.AsUpdate:
		cmd := m.handle(model.SaveRequested{AsUpdate: true})
		return m, cmd
	case f != nil && f.Kind == model.ErrorNotFound:
		cmd := m.handle(model.Recreate{})
		return m, cmd
	case m.schemaHold(escape.Safe(m.keys.Object.Save.Help().Key)):
		return m, nil
	}
	cmd := m.handle(model.SaveRequested{})
	return m, cmd
}

// demoAct has kedit demo's second writer do what w or W asked (act), and
// says what it does; outside the demo, that the key is the demo's.
func (m *App) demoAct(act func(DemoWriter), doing, outside escape.Text) {
	if m.demo == nil {
		m.status.Info(outside)
		return
	}
	act(m.demo)
	m.status.Info(doing)
}

// A user who may read an object but not save it learns so when starting a
// draft, not only at the 403 of the save: the first e or i of an object
// asks the server once (one SelfSubjectAccessReview, not at start-up, which
// stays one GET), and a no is said at that e or i and every later one. The
// draft can still be made; the save is still sent when asked, as rights
// may have been given meanwhile.

// accessState is what the app learnt of the user's right to save one
// object.
type accessState struct {
	// asked: the question was sent; known: its answer came (a question
	// that could not be asked too).
	asked, known bool
	// denied is the server's no; nil while unknown or allowed.
	denied *kube.ForbiddenError
}

// askAccess says a known no, or asks the server, once per object.
func (m *App) askAccess() tea.Cmd {
	if m.access.denied != nil {
		m.sayDenied()
		return nil
	}
	return m.accessQuestion()
}

// accessQuestion asks the server whether the user may save the object
// shown, unless it was asked.
func (m *App) accessQuestion() tea.Cmd {
	if m.access.asked || m.opened == nil || m.opened.MaySave == nil {
		return nil
	}
	m.access.asked = true
	return effect.AskAccess(m.ctx, m.id, m.opened.MaySave)
}

// accessChecked takes the server's answer. A question that could not be
// asked says nothing: the save's own answer will. The in-app editor's
// server checks wait for it (servercheck.go); in the editor, their line
// says a no.
func (m *App) accessChecked(msg effect.AccessChecked) tea.Cmd {
	st, shown := m.whose(msg.Of)
	if st == nil {
		return nil // let go of meanwhile
	}
	// An object left for the browser meanwhile learns it too.
	st.access.known = true
	var denied *kube.ForbiddenError
	if errors.As(msg.Err, &denied) {
		st.access.denied = denied
	}
	switch {
	case shown && m.screen == screenEditor:
		return m.serverChecks()
	case shown && denied != nil:
		m.sayDenied()
	case shown && msg.Err == nil:
		// A draft back from $EDITOR before the answer came was not
		// asked of the server (whether it may be was not known): it is
		// now, before the first s, as any other.
		if d := m.sess.Draft(); d != nil && d.Err == nil && st.diag.serverText != d.Text {
			return m.checkReturned(d.Text, d.Object)
		}
	}
	return nil
}

// sayDenied says that the draft can be made but not saved.
func (m *App) sayDenied() {
	d := m.access.denied
	m.status.ObjectError(escape.Textf("you may not %s %s: a draft can be made but not saved", d.Verb, d.Target.Objects()))
}
