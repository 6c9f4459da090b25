package ui

import (
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/kube"
	"github.com/kedit/kedit/model"
	"github.com/kedit/kedit/ui/common"
	"github.com/kedit/kedit/ui/editor"
	"github.com/kedit/kedit/ui/internal/say"
	"github.com/kedit/kedit/ui/timeline"
)

// The outcomes of the shown object's commands: its watch, its session's
// effects, its stored drafts, $EDITOR, and the background work for its
// views.

// Messages: results of commands, named in the past tense.
type (
	// watchEventMsg is one event from the watch's channel.
	watchEventMsg struct{ ev kube.WatchEvent }
	// watchClosedMsg says the watch's channel was closed.
	watchClosedMsg struct{}
	// watchedMsg is a watchEventMsg or watchClosedMsg from the watch of
	// channel ch: one of an object left for the browser is dropped.
	watchedMsg struct {
		ch  <-chan kube.WatchEvent
		msg tea.Msg
	}
	// performedMsg is the outcome of one effect of the object of.
	performedMsg struct {
		effect model.Effect
		event  model.Event
		err    error
		of     objectID
	}
	// retryDueMsg says the delay of RetrySave attempt is over, for the
	// object of.
	retryDueMsg struct {
		of      objectID
		attempt int
	}
	// editorFinishedMsg is $EDITOR's result.
	editorFinishedMsg struct {
		text, original string
		merged         bool
		err            error
		// headLines are the lines of kedit's head the file still had at
		// its top: a line of text is that many lines further in the file.
		headLines int
	}
	// storedDraftsMsg is the outcome of recovering, discarding or keeping
	// aside stored drafts: the file the draft goes to now, and the kept
	// file for a draft kept aside.
	storedDraftsMsg struct {
		path, kept string
		// why a draft was kept aside, said with where it is kept.
		why escape.Text
		err error
		// of is the object whose drafts they are.
		of objectID
	}
)

// objectOutcome takes an outcome of the shown object's commands; false
// for any other message. An outcome of an object left for the browser
// meanwhile is dropped (or kept for it: the access check's).
func (m App) objectOutcome(msg tea.Msg) (App, tea.Cmd, bool) {
	var cmd tea.Cmd
	switch msg := msg.(type) {
	case watchedMsg:
		if msg.ch != m.events {
			return m, nil, true // the watch of an object left for the browser
		}
		next, cmd := m.update(msg.msg)
		return next, cmd, true
	case watchEventMsg:
		if m.sess != nil {
			cmd = m.watched(msg.ev)
			cmd = tea.Batch(cmd, watchCmd(m.events))
		}
	case watchClosedMsg:
		m.object.SetConnection("watch stopped")
	case demoWroteMsg, demoStoppedMsg:
		m, cmd = m.demoWrote(msg)
	case performedMsg, storedDraftsMsg, retryDueMsg:
		m, cmd = m.outcomeOf(msg)
	case editorFinishedMsg:
		m, cmd = m.editorDone(msg)
	case docsReadMsg:
		m = m.docsRead(msg)
	case schemaReadMsg:
		m = m.schemaRead(msg)
	case editor.CheckedMsg:
		m, cmd = m.editorChecked(msg)
	case diagnosedMsg:
		m = m.diagnosed(msg)
	case accessCheckedMsg:
		m.accessChecked(msg)
	case baseRenderedMsg:
		m, cmd = m.baseRendered(msg)
	case timeline.HistoryReadMsg, timeline.HistoryDueMsg:
		// Whatever shows: the rows are ready when the timeline is.
		m.timeline, cmd = m.timeline.Update(msg)
	default:
		return m, nil, false
	}
	return m, cmd, true
}

// outcomeOf hands the outcome of an object's command (performedMsg,
// storedDraftsMsg, retryDueMsg) to its object: shown, in the set, or left
// for the browser. One of an object let go of is dropped.
func (m App) outcomeOf(msg tea.Msg) (App, tea.Cmd) {
	var id objectID
	switch msg := msg.(type) {
	case performedMsg:
		id = msg.of
	case storedDraftsMsg:
		id = msg.of
	case retryDueMsg:
		id = msg.of
	}
	st, shown := m.whose(id)
	switch {
	case shown:
		return m.shownOutcome(msg)
	case st == nil:
		return m, nil
	}
	i, ok := m.memberOf(st)
	if !ok {
		return m.leftOutcome(st, msg)
	}
	switch msg := msg.(type) {
	case performedMsg:
		return m.memberPerformed(i, msg)
	case storedDraftsMsg:
		return m.memberStoredDrafts(i, msg)
	case retryDueMsg:
		return m.memberRetry(i, msg)
	}
	return m, nil
}

// shownOutcome takes an outcome of the shown object's commands.
func (m App) shownOutcome(msg tea.Msg) (App, tea.Cmd) {
	switch msg := msg.(type) {
	case performedMsg:
		return m.performed(msg)
	case storedDraftsMsg:
		return m.storedDrafts(msg)
	case retryDueMsg:
		return m.retryDue(msg)
	}
	return m, nil
}

// performed hands the outcome of an effect to the shown object's session.
func (m App) performed(msg performedMsg) (App, tea.Cmd) {
	if msg.of != (objectID{}) {
		m.inflight--
	}
	var cmd tea.Cmd
	if seq := storeSeq(msg.effect); seq > 0 {
		m.draftStored(msg.effect, seq, msg.err)
	} else if msg.err != nil {
		m.status.Error(common.ErrorText(msg.err))
	}
	if msg.event != nil {
		cmd = m.handle(msg.event)
	}
	if m.set != nil {
		// The save round goes on, and an object n opened goes back to the
		// set once saved.
		cmd = tea.Batch(cmd, m.pumpSet())
		m, cmd = m.shownSettled(cmd)
	}
	return m, cmd
}

// storedDrafts takes the outcome of recovering, discarding or keeping
// aside stored drafts.
func (m App) storedDrafts(msg storedDraftsMsg) (App, tea.Cmd) {
	if n, ok := m.objectState.storedDrafts(msg); ok {
		n.say(&m.status)
	}
	return m, nil
}

// retryDue tries a save again once its back-off is over.
func (m App) retryDue(msg retryDueMsg) (App, tea.Cmd) {
	if m.sess == nil {
		return m, nil
	}
	if !m.sess.RetryWaiting() || m.sess.Failure().Attempt != msg.attempt {
		// The user did something else meanwhile (discarded, edited and
		// saved), or the save was tried already (the server came back).
		return m, nil
	}
	cmd := m.handle(model.SaveRequested{})
	return m, cmd
}

// editorDone takes what $EDITOR left, and ends the app if a signal came
// while it ran.
func (m App) editorDone(msg editorFinishedMsg) (App, tea.Cmd) {
	if m.sess == nil {
		return m, nil // cannot happen: no object is left while $EDITOR runs
	}
	m.life.editorOpen = false
	m, cmd := m.editorFinished(msg)
	if m.life.terminating != nil {
		return m, tea.Batch(cmd, tea.Quit)
	}
	return m, cmd
}

// watched turns a watch event into a LiveChanged, or a connection state.
func (m *App) watched(ev kube.WatchEvent) tea.Cmd {
	if ev.Type == kube.ConnectionChanged {
		m.object.SetConnection(say.Connection(ev.Connection))
		if ev.Connection.State.Up() && m.sess.RetryWaiting() {
			// The server answers again: a save waiting out its back-off
			// goes now, not when the back-off ends.
			return m.handle(model.Reconnected{})
		}
		return nil
	}
	typ := map[kube.WatchEventType]model.LiveType{kube.ObjectAdded: model.LiveAdded, kube.ObjectModified: model.LiveModified, kube.ObjectDeleted: model.LiveDeleted}[ev.Type]
	if typ == 0 || ev.Object == nil {
		return nil
	}
	cmd := m.handle(model.LiveChanged{Type: typ, Object: ev.Object, At: time.Now()})
	m.sayDemoWrite()
	return cmd
}
