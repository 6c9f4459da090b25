package ui

import (
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/kedit/kedit/kube"
	"github.com/kedit/kedit/model"
	"github.com/kedit/kedit/ui/common"
	"github.com/kedit/kedit/ui/editor"
	"github.com/kedit/kedit/ui/internal/effect"
	"github.com/kedit/kedit/ui/internal/say"
	"github.com/kedit/kedit/ui/timeline"
)

// The outcomes of an object's commands and of its watch: each carries the
// effect.ID of the object it is of, and goes to that object wherever it is
// (outcome); and the outcomes of the shown object's $EDITOR and of the
// background work for its views.

// objectOutcome takes an outcome of an object's commands or watch, and of
// the background work for the shown object's views; false for any other
// message.
func (m App) objectOutcome(msg tea.Msg) (App, tea.Cmd, bool) {
	var cmd tea.Cmd
	switch msg := msg.(type) {
	case effect.Watched:
		cmd = m.outcome(msg.Of, msg)
	case effect.Performed:
		cmd = m.outcome(msg.Of, msg)
	case effect.StoredDrafts:
		cmd = m.outcome(msg.Of, msg)
	case effect.RetryDue:
		cmd = m.outcome(msg.Of, msg)
	case effect.DemoWrote, effect.DemoStopped:
		m, cmd = m.demoWrote(msg)
	case effect.EditorFinished:
		m, cmd = m.editorDone(msg)
	case docsReadMsg:
		m = m.docsRead(msg)
	case effect.SchemaRead:
		m = m.schemaRead(msg)
	case editor.CheckedMsg:
		m, cmd = m.editorChecked(msg)
	case diagnosedMsg:
		m, cmd = m.diagnosed(msg)
	case effect.ServerChecked:
		m, cmd = m.serverChecked(msg)
	case effect.AccessChecked:
		cmd = m.accessChecked(msg)
	case effect.BaseRendered:
		m, cmd = m.baseRendered(msg)
	case timeline.HistoryReadMsg, timeline.HistoryDueMsg:
		// Whatever shows: the rows are ready when the timeline is.
		m.timeline, cmd = m.timeline.Update(msg)
	default:
		return m, nil, false
	}
	return m, cmd, true
}

// outcome hands msg, an outcome of the commands or the watch of the
// object id, to that object wherever it is: shown, a set's, or left for
// the browser, one path for each (reach). An outcome of an object let go
// of is dropped.
func (m *App) outcome(id effect.ID, msg tea.Msg) tea.Cmd {
	st, ok := m.objects.find(id)
	if !ok {
		return nil
	}
	cmd := m.reach(st, msg)
	if st != m.objectState {
		m.refreshSet()
	}
	return cmd
}

// reach hands msg to st: its state takes the outcome (objectState.take),
// its session the event that makes (apply), and what there is to say
// goes where the object is (notify).
func (m *App) reach(st *objectState, msg tea.Msg) tea.Cmd {
	ev, notices, cmds := st.take(msg)
	for _, n := range notices {
		m.notify(st, n)
	}
	if ev != nil {
		cmd, _ := m.apply(st, ev)
		cmds = append(cmds, cmd)
	}
	switch {
	case st == m.objectState:
		if w, ok := msg.(effect.Watched); ok {
			m.showConnection()
			if w.Event.Type == kube.ConnectionChanged {
				// The in-app editor's server checks follow the connection.
				cmds = append(cmds, m.serverChecks())
			}
			if _, live := ev.(model.LiveChanged); live {
				m.sayDemoWrite()
			}
		}
		if m.set != nil {
			// An object n opened goes back to the set once saved.
			var cmd tea.Cmd
			*m, cmd = m.shownSettled(nil)
			cmds = append(cmds, cmd)
		}
	case m.set == nil:
		cmds = append(cmds, m.settleLeft(st)...)
	}
	return tea.Batch(cmds...)
}

// take takes an outcome of o's commands or watch: what it says of o (a
// draft's write that failed, where the draft is now), and the event it
// makes for o's session, nil for none: the effect's answer, a save
// tried again once its back-off is over, or the watch's news. A watch's
// next event is read, unless it ended.
func (o *objectState) take(msg tea.Msg) (model.Event, []notice, []tea.Cmd) {
	var ns []notice
	add := func(n notice, ok bool) {
		if ok {
			ns = append(ns, n)
		}
	}
	switch msg := msg.(type) {
	case effect.Performed:
		o.inflight--
		if seq := storeSeq(msg.Effect); seq > 0 {
			add(o.draftStored(msg.Effect, seq, msg.Err))
		} else if msg.Err != nil {
			add(notice{common.ErrorText(msg.Err), noticeFailure}, true)
		}
		return msg.Event, ns, nil
	case effect.StoredDrafts:
		add(o.storedDrafts(msg))
	case effect.RetryDue:
		if o.sess != nil && o.sess.RetryWaiting() && o.sess.Failure().Attempt == msg.Attempt {
			return model.SaveRequested{}, nil, nil
		}
		// The user did something else meanwhile (discarded, edited and
		// saved), or the save was tried already (the server came back).
	case effect.Watched:
		if msg.Ch != o.events || o.sess == nil {
			return nil, nil, nil // a watch stopped since
		}
		if msg.Closed {
			o.conn, o.connKnown = kube.Connection{State: kube.Stopped}, true
			return nil, nil, nil
		}
		return o.watched(msg.Event), nil, []tea.Cmd{effect.Watch(o.id, o.events)}
	}
	return nil, ns, nil
}

// watched takes a watch event of o: the connection's state is kept, and
// a save waiting out its back-off goes at once when the server answers
// again (Reconnected); a change of the object is a LiveChanged.
func (o *objectState) watched(ev kube.WatchEvent) model.Event {
	if ev.Type == kube.ConnectionChanged {
		o.conn, o.connKnown = ev.Connection, true
		if ev.Connection.State.Up() {
			// The server answers again: its checks may be sent, and a
			// second outage is said again.
			o.server.offline, o.server.said = false, ""
		}
		if ev.Connection.State.Up() && o.sess.RetryWaiting() {
			return model.Reconnected{}
		}
		return nil
	}
	typ := map[kube.WatchEventType]model.LiveType{kube.ObjectAdded: model.LiveAdded, kube.ObjectModified: model.LiveModified, kube.ObjectDeleted: model.LiveDeleted}[ev.Type]
	if typ == 0 || ev.Object == nil {
		return nil
	}
	return model.LiveChanged{Type: typ, Object: ev.Object, At: time.Now()}
}

// showConnection puts the shown object's connection state in the object
// view's header, once one is known.
func (m *App) showConnection() {
	if m.connKnown {
		m.object.SetConnection(say.Connection(m.conn))
	}
}

// editorDone takes what $EDITOR left, and ends the app if a signal came
// while it ran.
func (m App) editorDone(msg effect.EditorFinished) (App, tea.Cmd) {
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
