package ui

import (
	"sort"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/kedit/kedit/internal/drafts"
	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/kube"
	"github.com/kedit/kedit/model"
	"github.com/kedit/kedit/ui/common"
	"github.com/kedit/kedit/ui/internal/effect"
	"github.com/kedit/kedit/ui/internal/say"
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
		cmds = append(cmds, effect.Stop(st.watch.Stop))
	}
	st.watch, st.events, st.connKnown = nil, nil, false
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
	m.goTo(screenBrowser)
	m.help.Close()
	coll := st.target.Collection()
	if cur := m.browsing.listed; cur == nil || cur.Mapping.Resource != coll.Mapping.Resource ||
		(!cur.AllNamespaces && cur.Namespace != coll.Namespace) {
		cmds = append(cmds, m.listOn(coll))
	}
	m.browser.Select(st.target.Namespace, st.target.Name)
	m.browser.SetDrafts(m.shelf.marks(m.left()))
	cmds = append(cmds, effect.ListDrafts(m.cfg.Cluster.Drafts, false))
	return m, tea.Batch(cmds...)
}

// closeCmd closes the handle on an object let go of, which stops what
// reads it for the app.
func closeCmd(st *objectState) tea.Cmd {
	if st.opened == nil || st.opened.Close == nil {
		return nil
	}
	return effect.Stop(st.opened.Close)
}

// leftNotice says what ev did to st, an object left for the browser (or
// closing), that no view of it shows: how its save ended. A retry's
// attempt and what --auto-rebase resubmitted are the session's own
// notices (objectState.handle).
func (m *App) leftNotice(st *objectState, h handled, ev model.Event) (notice, bool) {
	if _, member := m.memberOf(st); member || h.after == h.before {
		return notice{}, false
	}
	switch h.after {
	case model.StateSaved:
		// The browser's row of the object opens the draft it keeps.
		return savedNotice(st.sess, ev, say.KeptInSet)
	case model.StateFailed:
		if f := st.sess.Failure(); f != nil && !f.Kind.Retryable() {
			return notice{say.Failure(f), noticeFailure}, true
		}
	case model.StateRebasing, model.StateResolving:
		return notice{"the save met a change on the server; the draft is kept: enter opens it, c its conflicts", noticeFailure}, true
	}
	return notice{}, false
}

// settleLeft lets go of st, an object left for the browser (or closing),
// once its draft is gone (its save, tried again, went through), closes it
// once its last outcome is back (and lists the store's drafts again, as its
// deletion may have come after the last listing), and marks the browser's
// drafts again.
func (m *App) settleLeft(st *objectState) []tea.Cmd {
	var cmds []tea.Cmd
	if cur, open := m.objects.open[st.id.Key]; open && cur == st && !st.keepsDraft() {
		m.shelf.forget(st.key())
		if m.objects.release(st) {
			cmds = append(cmds, closeCmd(st), effect.ListDrafts(m.cfg.Cluster.Drafts, false))
		}
	}
	if m.objects.closed(st) {
		cmds = append(cmds, closeCmd(st), effect.ListDrafts(m.cfg.Cluster.Drafts, false))
	}
	m.browser.SetDrafts(m.shelf.marks(m.left()))
	return cmds
}

// keepsDraft reports whether an object not shown has anything of the
// user's to keep open for: a draft, a rebase, or a save on its way.
func (o *objectState) keepsDraft() bool {
	st := o.sess.State()
	return o.sess.Draft() != nil || o.sess.Rebase() != nil || st == model.StateSaving || st == model.StateWaitingTheirs
}

// listOn shows collection c in the browser, in place of what it listed.
func (m *App) listOn(c *kube.Collection) tea.Cmd {
	var cmds []tea.Cmd
	if l := m.browsing.list; l != nil {
		cmds = append(cmds, effect.Stop(l.Stop))
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

// othersInMemory names the open objects not shown whose draft exists only
// in memory, which quitting loses, sorted: those left for the browser, or
// the set's.
func (m App) othersInMemory() []DraftKey {
	var out []DraftKey
	for k, st := range m.objects.open {
		if st != m.objectState && st.sess != nil && st.sess.Draft() != nil && st.inMemory() {
			out = append(out, k)
		}
	}
	sortKeys(out)
	return out
}

// shelf is which objects the store has drafts of on this cluster. With
// the objects left for the browser with a draft (left), which stay open
// and are taken up again when opened again, so that the draft comes back
// without the recovery question, they are the browser's DRAFT column.
type shelf struct {
	stored map[DraftKey]DraftPlace
}

// left are the objects left for the browser with a draft: the open objects
// but the one shown, as the browser and a set never go together.
func (m App) left() map[DraftKey]*objectState {
	out := map[DraftKey]*objectState{}
	if m.set != nil {
		return out
	}
	for k, st := range m.objects.open {
		if st != m.objectState {
			out[k] = st
		}
	}
	return out
}

// leftWith returns the object key if it was left with a draft.
func (m App) leftWith(key DraftKey) (*objectState, bool) {
	st, ok := m.left()[key]
	return st, ok
}

// setStored takes the store's drafts on this cluster.
func (s *shelf) setStored(entries []drafts.Entry) {
	s.stored = map[DraftKey]DraftPlace{}
	for _, e := range entries {
		s.stored[entryKey(e)] = DraftStored
	}
}

// forget drops the store's mark of key: its draft was saved or discarded,
// and the store's answer follows.
func (s *shelf) forget(key DraftKey) { delete(s.stored, key) }

// marks are the objects with a draft, for the browser: the store's, and
// those left with a draft in this run (left), which may exist only in
// memory.
func (s shelf) marks(left map[DraftKey]*objectState) map[DraftKey]DraftPlace {
	marks := make(map[DraftKey]DraftPlace, len(s.stored)+len(left))
	for k, p := range s.stored {
		marks[k] = p
	}
	for k, st := range left {
		if st.inMemory() {
			marks[k] = DraftInMemory
		} else {
			marks[k] = DraftStored
		}
	}
	return marks
}

// sortKeys sorts objects by name, then namespace.
func sortKeys(keys []DraftKey) {
	sort.Slice(keys, func(i, j int) bool {
		return string(objectName(keys[i]))+keys[i].Namespace < string(objectName(keys[j]))+keys[j].Namespace
	})
}

// lostText says that the objects keys, not shown, have a draft only in
// memory, for the quit question; "" for none.
func lostText(keys []DraftKey) escape.Text {
	if len(keys) == 0 {
		return ""
	}
	names := make([]escape.Text, len(keys))
	for i, k := range keys {
		names[i] = objectName(k)
	}
	if len(names) == 1 {
		return "the draft of " + names[0] + " exists only in memory and will be lost"
	}
	return "the drafts of " + escape.Join(names, ", ") + " exist only in memory and will be lost"
}
