package ui

import (
	"fmt"
	"sort"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/kedit/kedit/kube"
	"github.com/kedit/kedit/model"
)

// Leaving an object for the browser (esc): waiting for its outcomes,
// keeping it with its draft, and the draft marks and quit questions that
// objects kept so need.

// canLeave reports whether esc goes from the object view to the browser.
func (m App) canLeave() bool { return m.set != nil || m.cfg.Cluster != nil && m.target != nil }

// leave goes back to the browser from the object view (esc). A save in
// flight must come back first; so must the outcomes of the object's other
// commands, which takes a moment (leaveIfDue).
func (m App) leave() (App, tea.Cmd) {
	if m.set != nil {
		return m.backToSet()
	}
	if m.sess.State() == model.StateSaving {
		m.status.Info("a save is on its way: esc goes back to the list once the save is back")
		return m, nil
	}
	if m.inflight > 0 {
		m.leaving = true
		return m, nil
	}
	return m.leaveNow()
}

// leaveIfDue leaves once the last outcome esc waited for is back, if the
// object view still shows.
func (m App) leaveIfDue(cmd tea.Cmd) (App, tea.Cmd) {
	if !m.leaving || m.inflight > 0 {
		return m, cmd
	}
	m.leaving = false
	if m.screen != screenObject || m.confirm != confirmNone || m.editorOpen || m.sess.State() == model.StateSaving {
		return m, cmd // the outcome asked something of the user
	}
	m, leave := m.leaveNow()
	return m, tea.Batch(cmd, leave)
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
		m.parked[key] = st
		if st.inMemory() {
			m.status.Info("the draft of " + objectName(key) + " is kept in memory only: it is lost when kedit ends")
		} else {
			m.status.Info("the draft of " + objectName(key) + " stays on disk in " + kube.EscapeControl(st.draftPath))
		}
	} else {
		delete(m.storedMarks, key) // a draft saved or discarded; the store's answer follows
		if st.opened != nil && st.opened.Close != nil {
			cmds = append(cmds, stopCmd(st.opened.Close))
		}
		m.status.Info("")
	}
	m.objectState = objectState{}
	m.screen, m.helpShown = screenBrowser, false
	coll := st.target.Collection()
	if cur := m.browser.Collection(); cur == nil || cur.Mapping.Resource != coll.Mapping.Resource ||
		(!cur.AllNamespaces && cur.Namespace != coll.Namespace) {
		cmds = append(cmds, m.listOn(coll))
	}
	m.browser.Select(st.target.Namespace, st.target.Name)
	m.setDraftMarks()
	cmds = append(cmds, draftsCmd(m.cfg.Cluster, false))
	return m, tea.Batch(cmds...)
}

// listOn shows collection c in the browser, in place of what it listed.
func (m *App) listOn(c *kube.Collection) tea.Cmd {
	var cmds []tea.Cmd
	if m.list != nil {
		cmds = append(cmds, stopCmd(m.list.Stop))
		m.list = nil
	}
	l, err := m.cfg.Cluster.Browse(m.ctx, c)
	if err != nil {
		m.status.Error(errorText(err))
		return tea.Batch(cmds...)
	}
	m.list = l
	return tea.Batch(append(cmds, m.browser.SetList(c, l.Snapshots()))...)
}

// setDraftMarks gives the browser the objects with a draft: the store's,
// and those left with a draft in this run, which may exist only in memory.
func (m *App) setDraftMarks() {
	marks := make(map[DraftKey]DraftPlace, len(m.storedMarks)+len(m.parked))
	for k, p := range m.storedMarks {
		marks[k] = p
	}
	for k, st := range m.parked {
		if st.inMemory() {
			marks[k] = DraftInMemory
		} else {
			marks[k] = DraftStored
		}
	}
	m.browser.SetDrafts(marks)
}

// parkedInMemory names the objects left with a draft that exists only in
// memory, which quitting loses, sorted.
func (m App) parkedInMemory() []DraftKey {
	out := m.setInMemory()
	for k, st := range m.parked {
		if st.inMemory() {
			out = append(out, k)
		}
	}
	sort.Slice(out, func(i, j int) bool { return objectName(out[i])+out[i].Namespace < objectName(out[j])+out[j].Namespace })
	return out
}

// othersInMemory says which objects left for the browser have a draft only
// in memory, for the quit question; "" for none.
func (m App) othersInMemory() string {
	keys := m.parkedInMemory()
	if len(keys) == 0 {
		return ""
	}
	names := make([]string, len(keys))
	for i, k := range keys {
		names[i] = objectName(k)
	}
	if len(names) == 1 {
		return "the draft of " + names[0] + " exists only in memory and will be lost"
	}
	return fmt.Sprintf("the drafts of %s exist only in memory and will be lost", strings.Join(names, ", "))
}

// showsContent reports whether the screen shows what kedit was started
// for: the list, complete (its rows, or that there are none), or the
// object.
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
