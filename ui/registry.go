package ui

// One home for each open object. The registry holds every object the app
// has open (the one shown, a set's objects, those left for the browser with
// a draft) by its key, each an *objectState held by pointer and never
// copied. The set's order and the shelf's objects are views of it. The
// commands of an object carry its objectID, so that each outcome finds its
// object, shown or not, and the outcome of an object let go of finds none.

// objectID names one opening of an object: its key, and the registry's
// count of openings when it was opened, so that an object opened again is
// another. The zero objectID names the object shown (an outcome made by
// hand, in tests).
type objectID struct {
	key DraftKey
	n   uint64
}

// registry is the app's open objects.
type registry struct {
	open   map[DraftKey]*objectState
	opened uint64
}

func newRegistry() registry { return registry{open: map[DraftKey]*objectState{}} }

// add makes st an open object, and returns it.
func (r *registry) add(st *objectState) *objectState {
	r.opened++
	st.id = objectID{key: st.key(), n: r.opened}
	r.open[st.id.key] = st
	return st
}

// find returns the open object id names, if it is still open.
func (r registry) find(id objectID) (*objectState, bool) {
	st, ok := r.open[id.key]
	return st, ok && st.id == id
}

// release lets go of st: an outcome of its commands finds nothing from now
// on.
func (r *registry) release(st *objectState) {
	if cur, ok := r.open[st.id.key]; ok && cur == st {
		delete(r.open, st.id.key)
	}
}

// whose finds the open object an outcome of id is of, and reports whether
// it is the one shown; nil for an object let go of meanwhile.
func (m App) whose(id objectID) (st *objectState, shown bool) {
	if id == (objectID{}) {
		return m.objectState, true
	}
	st, ok := m.objects.find(id)
	if !ok {
		return nil, false
	}
	return st, st == m.objectState
}
