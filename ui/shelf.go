package ui

import (
	"sort"

	"github.com/kedit/kedit/internal/drafts"
	"github.com/kedit/kedit/internal/escape"
)

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
