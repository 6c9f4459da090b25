package ui

import (
	"sort"

	"github.com/kedit/kedit/internal/drafts"
	"github.com/kedit/kedit/internal/escape"
)

// shelf keeps the objects left for the browser with a draft, taken up
// again when opened again, so that the draft comes back without the
// recovery question; and which objects the store has drafts of on this
// cluster. Together they are the browser's DRAFT column.
type shelf struct {
	parked map[DraftKey]*objectState
	stored map[DraftKey]DraftPlace
}

// park keeps st, the object key left with a draft.
func (s *shelf) park(key DraftKey, st *objectState) { s.parked[key] = st }

// take takes the object key off the shelf, if it is there.
func (s *shelf) take(key DraftKey) (*objectState, bool) {
	st, ok := s.parked[key]
	delete(s.parked, key)
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
// those left with a draft in this run, which may exist only in memory.
func (s shelf) marks() map[DraftKey]DraftPlace {
	marks := make(map[DraftKey]DraftPlace, len(s.stored)+len(s.parked))
	for k, p := range s.stored {
		marks[k] = p
	}
	for k, st := range s.parked {
		if st.inMemory() {
			marks[k] = DraftInMemory
		} else {
			marks[k] = DraftStored
		}
	}
	return marks
}

// inMemory names the objects left with a draft that exists only in
// memory, which quitting loses, sorted.
func (s shelf) inMemory() []DraftKey {
	var out []DraftKey
	for k, st := range s.parked {
		if st.inMemory() {
			out = append(out, k)
		}
	}
	sortKeys(out)
	return out
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
