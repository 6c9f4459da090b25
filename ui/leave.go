package ui

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/kube"
	"github.com/kedit/kedit/model"
	"github.com/kedit/kedit/ui/common"
)

// Leaving an object for the browser (esc): waiting for its outcomes,
// keeping it with its draft, and the draft marks and quit questions that
// objects kept so need.

// canLeave reports whether esc goes from the object view to the browser.
// From an object of the set, esc goes back to the set.
func (m App) canLeave() bool { return m.set != nil || m.cfg.Cluster != nil && m.target != nil }

// leave goes back to the browser from the object view (esc). A save on
// its way (or its conflict's reading) must come back first. The outcomes
// of the object's other commands (its draft's write) find it wherever it
// is.
func (m App) leave() (App, tea.Cmd) {
	if m.set != nil {
		return m.backToSet()
	}
	if st := m.sess.State(); st == model.StateSaving || st == model.StateWaitingTheirs {
		m.status.Info("a save is on its way: esc goes back to the list once the save is back")
		return m, nil
	}
	return m.leaveNow()
}

// leaveNow stops the object's watch, keeps it when it has a draft (and
// lets go of it when not), and shows the browser on the object's type and
// namespace, with the object selected.
func (m App) leaveNow() (App, tea.Cmd) {
	st := m.objectState
	key := keyOf(st.target)
	var cmds []tea.Cmd
	if st.watch != nil {
		cmds = append(cmds, stopCmd(st.watch.Stop))
	}
	st.watch, st.events = nil, nil
	if d := st.sess.Draft(); d != nil {
		// It stays open, in the registry, until opened again.
		if st.inMemory() {
			m.status.Info("the draft of " + objectName(key) + " is kept in memory only: it is lost when kedit ends")
		} else {
			m.status.Info("the draft of " + objectName(key) + " stays on disk in " + escape.Safe(st.draftPath))
		}
	} else {
		m.shelf.forget(key)
		if m.objects.release(st) {
			cmds = append(cmds, closeCmd(st))
		}
		m.status.Info("")
	}
	m.objectState = &objectState{}
	m.screen = screenBrowser
	m.help.Close()
	coll := st.target.Collection()
	if cur := m.browsing.listed; cur == nil || cur.Mapping.Resource != coll.Mapping.Resource ||
		(!cur.AllNamespaces && cur.Namespace != coll.Namespace) {
		cmds = append(cmds, m.listOn(coll))
	}
	m.browser.Select(st.target.Namespace, st.target.Name)
	m.browser.SetDrafts(m.shelf.marks(m.left()))
	cmds = append(cmds, draftsCmd(m.cfg.Cluster, false))
	return m, tea.Batch(cmds...)
}

// closeCmd closes the handle on an object let go of, which stops what
// reads it for the app.
func closeCmd(st *objectState) tea.Cmd {
	if st.opened == nil || st.opened.Close == nil {
		return nil
	}
	return stopCmd(st.opened.Close)
}

// leftOutcome takes an outcome of the commands of st, an object left for
// the browser with a draft, or closing: the draft's write or deletion, a
// failure said with the object's name. A closing object whose last outcome is
// back is closed, and the store's drafts are listed again, as its
// deletion may have come after the last listing.
func (m App) leftOutcome(st *objectState, msg tea.Msg) (App, tea.Cmd) {
	var cmds []tea.Cmd
	var n notice
	said := false
	switch msg := msg.(type) {
	case performedMsg:
		st.inflight--
		if seq := storeSeq(msg.effect); seq > 0 {
			n, said = st.draftStored(msg.effect, seq, msg.err)
		} else if msg.err != nil {
			n, said = notice{common.ErrorText(msg.err), true}, true
		}
		if msg.event != nil {
			cmds = append(cmds, st.handle(m.ctx, msg.event).cmds...)
		}
	case storedDraftsMsg:
		n, said = st.storedDrafts(msg)
	}
	// A retry's back-off ends unheard: a failed save of an object not
	// shown waits for the user, who sees it failed when it is opened. Only
	// a failure is said: where the draft is was said on leaving.
	if said && n.err {
		n.text = objectName(st.key()) + ": " + n.text
		n.say(&m.status)
	}
	if m.objects.closed(st) {
		cmds = append(cmds, closeCmd(st), draftsCmd(m.cfg.Cluster, false))
	}
	m.browser.SetDrafts(m.shelf.marks(m.left()))
	return m, tea.Batch(cmds...)
}

// listOn shows collection c in the browser, in place of what it listed.
func (m *App) listOn(c *kube.Collection) tea.Cmd {
	var cmds []tea.Cmd
	if l := m.browsing.list; l != nil {
		cmds = append(cmds, stopCmd(l.Stop))
		m.browsing.list = nil
	}
	l, err := m.cfg.Cluster.Browse(m.ctx, c)
	if err != nil {
		m.status.Error(common.ErrorText(err))
		return tea.Batch(cmds...)
	}
	m.browsing.list = l
	return tea.Batch(append(cmds, m.setList(c, l.Snapshots()))...)
}

// showsContent reports whether the screen shows what kedit was started
// for: the list, complete (its rows, or that there are none), the object,
// or the set.
func (m App) showsContent() bool {
	switch m.screen {
	case screenBrowser:
		return m.browser.Listed()
	case screenObject:
		return m.sess != nil
	case screenSet:
		return true
	}
	return false
}

// othersInMemory names the objects not shown whose draft exists only in
// memory, which quitting loses, sorted: those left for the browser, and
// the set's.
func (m App) othersInMemory() []DraftKey {
	out := append(inMemory(m.left()), m.setInMemory()...)
	sortKeys(out)
	return out
}
