package ui

// One home for each open object. The registry holds every object the app
// has open (the one shown, a set's objects, those left for the browser with
// a draft) by its key, each an *objectState held by pointer and never
// copied. The set's order and the shelf's objects are views of it. The
// commands of an object carry its objectID, so that each outcome finds its
// object, shown or not, and the outcome of an object let go of finds none.

// objectID names one opening of an object: its key, and the registry's
// count of openings when it was opened, so that an object opened again is
// another. Every outcome of an object's commands and watch carries it; the
// zero objectID names no object.
type objectID struct {
	key DraftKey
	n   uint64
}

// registry is the app's open objects.
type registry struct {
	open map[DraftKey]*objectState
	// closing are objects let go of whose commands' outcomes are not all
	// back (a draft's deletion), kept until they are: each outcome finds
	// its object, and what waits for them (the store's drafts listed
	// again, the object's handle closed) comes after.
	closing map[objectID]*objectState
	opened  uint64
}

func newRegistry() registry {
	return registry{open: map[DraftKey]*objectState{}, closing: map[objectID]*objectState{}}
}

// add makes st an open object, and returns it.
func (r *registry) add(st *objectState) *objectState {
	r.opened++
	st.id = objectID{key: st.key(), n: r.opened}
	r.open[st.id.key] = st
	return st
}

// find returns the object id names, if it is still open or closing.
func (r registry) find(id objectID) (*objectState, bool) {
	if st, ok := r.open[id.key]; ok && st.id == id {
		return st, true
	}
	st, ok := r.closing[id]
	return st, ok
}

// release lets go of st. It reports whether st is closed: else outcomes
// of its commands are still to come, and st is closing until they are
// back (closed).
func (r *registry) release(st *objectState) bool {
	if cur, ok := r.open[st.id.key]; ok && cur == st {
		delete(r.open, st.id.key)
	}
	if st.inflight > 0 {
		r.closing[st.id] = st
		return false
	}
	return true
}

// closed reports whether st, closing, has all its outcomes back, and lets
// go of it if so.
func (r *registry) closed(st *objectState) bool {
	if _, ok := r.closing[st.id]; !ok || st.inflight > 0 {
		return false
	}
	delete(r.closing, st.id)
	return true
}

// whose finds the open object an outcome of id is of, and reports whether
// it is the one shown; nil for an object let go of meanwhile.
func (m App) whose(id objectID) (st *objectState, shown bool) {
	st, ok := m.objects.find(id)
	if !ok {
		return nil, false
	}
	return st, st == m.objectState
}
