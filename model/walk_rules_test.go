package model

import (
	"errors"
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kedit/kedit/diff"
)

// walkRules drives the random walks through an object deleted and created
// again and through data that keeps changing, and checks after every step:
//
//   - no Save takes a draft made on one object onto another of the same
//     name (another uid) without the user's yes; a save that meets another
//     object merges nothing onto it and sends nothing to it before the yes,
//     and leaves the draft as it was;
//   - once the user has resubmitted a rebase they saw, a conflict whose
//     theirs collides with nothing the user changed or decided never waits
//     for the user (up to MaxRebasesAgain in a row), and one that collides
//     is never resubmitted without them;
//   - nothing is lost when a rebase is resubmitted at once: the Save holds
//     every change of mine's and every change of theirs', and the draft
//     becomes what was sent.
//
// What the user changed or decided is kept here from the events the walk
// gave, not read from the session.
type walkRules struct {
	tally *walkTally
	// uid is the object's uid now, as the walk's server has it.
	uid  string
	uids int
	// fresh is set when event made this step's event: its objects carry
	// their own uid.
	fresh bool
	// yes are the uids the user said a draft may be saved onto.
	yes map[string]bool
	// armed and protected are the rule for data that keeps changing, as
	// the user's resubmits armed it: the data keys the user changed or
	// decided.
	armed     bool
	protected map[string]bool
	// resubmittedAgain is set by after when this step's rebase was
	// resubmitted at once by the rule for changing data.
	resubmittedAgain bool

	// The session before the step.
	madeOn string
	base   *unstructured.Unstructured
	live   *unstructured.Unstructured
	mine   *unstructured.Unstructured
	draft  string
	state  State
	rebase *Rebase
}

// walkTally counts what the walks reached, so that they check what they
// say.
type walkTally struct {
	Asked, Stopped, Crossed, RebasedAgain, Collided, AutoRebased int
}

func (c walkTally) check(t *testing.T) {
	t.Helper()
	if c.Asked == 0 || c.Stopped == 0 || c.Crossed == 0 || c.RebasedAgain == 0 || c.Collided == 0 || c.AutoRebased == 0 {
		t.Errorf("the walks did not reach every case of the rules: %+v", c)
	}
}

func newWalkRules(tally *walkTally) *walkRules {
	return &walkRules{tally: tally, uid: "1234", yes: map[string]bool{}, protected: map[string]bool{}}
}

// event makes one of the events of these rules, about one step in four.
func (w *walkRules) event(r *rand.Rand, s *Session, next func() string, val func() string) (Event, bool) {
	w.fresh = false
	if r.IntN(4) != 0 {
		return nil, false
	}
	base := s.Base().Object
	// Another writer's change of a key the drafts never touch: the
	// heartbeat of an object whose data keeps changing.
	beat := func() *unstructured.Unstructured {
		o := base.DeepCopy()
		o.SetResourceVersion(next())
		o.SetUID(types.UID(w.uid))
		_ = unstructured.SetNestedField(o.Object, val(), "data", "hb")
		return o
	}
	created := func() *unstructured.Unstructured {
		w.uids++
		w.uid = "u" + strconv.Itoa(w.uids)
		o := cm(next(), "foo", val(), "bar", val())
		if r.IntN(3) == 0 {
			// The same content as the earlier object.
			o = base.DeepCopy()
			o.SetResourceVersion(next())
		}
		o.SetUID(types.UID(w.uid))
		w.fresh = true
		return o
	}
	switch r.IntN(10) {
	case 0, 1, 2:
		if st := s.State(); st == StateSaving || st == StateWaitingTheirs {
			return Conflicted{Theirs: beat()}, true
		}
		return LiveChanged{Type: LiveModified, Object: beat()}, true
	case 3:
		// A draft made from base, so that it keeps the heartbeat.
		o := base.DeepCopy()
		_ = unstructured.SetNestedField(o.Object, val(), "data", "foo")
		_ = unstructured.SetNestedField(o.Object, val(), "data", "bar")
		t, err := RenderYAML(o)
		if err != nil {
			return nil, false
		}
		return DraftEdited{Text: t}, true
	case 4:
		live, _ := s.Live()
		return LiveChanged{Type: LiveDeleted, Object: live.Object}, true
	case 5:
		return LiveChanged{Type: LiveAdded, Object: created()}, true
	case 6:
		// A watch that relisted after missing the delete and the create.
		return LiveChanged{Type: LiveModified, Object: created()}, true
	case 7:
		if st := s.State(); st == StateSaving || st == StateWaitingTheirs {
			return Conflicted{Theirs: created()}, true
		}
		return SaveRequested{}, true
	case 8:
		return SaveRequested{OntoNewObject: true}, true
	default:
		return Resubmit{OntoNewObject: r.IntN(2) == 0}, true
	}
}

// sameObject gives the objects of the walk's other events the uid of the
// object there now: they are versions of it.
func (w *walkRules) sameObject(ev Event) Event {
	if w.fresh {
		return ev
	}
	with := func(o *unstructured.Unstructured) *unstructured.Unstructured {
		o = o.DeepCopy()
		o.SetUID(types.UID(w.uid))
		return o
	}
	switch e := ev.(type) {
	case LiveChanged:
		if e.Type != LiveDeleted {
			e.Object = with(e.Object)
		}
		return e
	case Conflicted:
		e.Theirs = with(e.Theirs)
		return e
	case Saved:
		e.Object = with(e.Object)
		return e
	case SaveVerified:
		e.Object = with(e.Object)
		return e
	}
	return ev
}

func (w *walkRules) before(s *Session) {
	w.resubmittedAgain = false
	w.madeOn, w.base, w.state, w.rebase = uidOf(s.base.Object), s.base.Object, s.state, s.Rebase()
	w.live = s.live.Object
	w.mine, w.draft = nil, ""
	if d := s.Draft(); d != nil {
		w.mine, w.draft = d.Object, d.Text
	}
}

func (w *walkRules) after(t *testing.T, where string, s *Session, ev Event, effects []Effect, err error) {
	t.Helper()
	onto, user := false, false
	switch e := ev.(type) {
	case SaveRequested:
		onto, user = e.OntoNewObject, true
	case Resubmit:
		onto, user = e.OntoNewObject, true
	}
	var re *RecreatedError
	if errors.As(err, &re) {
		w.tally.Asked++
	}
	if onto && err == nil {
		w.yes[uidOf(w.live)] = true
		if w.rebase != nil && w.rebase.Theirs.Object != nil {
			w.yes[uidOf(w.rebase.Theirs.Object)] = true
		}
	}
	if _, ok := ev.(MergedEdited); ok && err == nil && w.rebase != nil && w.rebase.CreatedAgain != "" {
		// The merge edited by hand in the view that says theirs is a new
		// object is made on the new object.
		w.yes[uidOf(w.rebase.Theirs.Object)] = true
	}
	w.checkNewObject(t, where, s, ev, effects, user, err)
	w.track(s, ev, err)
	w.checkAgain(t, where, s, ev, effects, err)
}

// outcome reports whether ev is an outcome of a save (not the user's).
func outcome(ev Event) bool {
	switch ev.(type) {
	case SaveFailed, Conflicted, SaveVerified:
		return true
	}
	return false
}

func (w *walkRules) checkNewObject(t *testing.T, where string, s *Session, ev Event, effects []Effect, user bool, err error) {
	t.Helper()
	for _, e := range effects {
		sv, ok := e.(Save)
		if !ok || sv.DryRun {
			continue
		}
		u := uidOf(sv.Object)
		if !MadeOnEarlierObject(w.madeOn, u) {
			continue
		}
		if !user || !w.yes[u] {
			t.Fatalf("%s%T sent a draft made on uid %s onto uid %s without the user's yes", where, ev, w.madeOn, u)
		}
		w.tally.Crossed++
	}
	if !outcome(ev) || err != nil {
		return
	}
	if rb := s.Rebase(); rb != nil && rb.Theirs.Object != nil && MadeOnEarlierObject(uidOf(rb.Base), uidOf(rb.Theirs.Object)) && !w.yes[uidOf(rb.Theirs.Object)] {
		t.Fatalf("%s%T merged the draft onto another object without the user's yes", where, ev)
	}
	if f := s.Failure(); f != nil && f.Kind == ErrorRecreated {
		w.tally.Stopped++
		if d := s.Draft(); d == nil || d.Text != w.draft {
			t.Fatalf("%sa save that met another object changed the draft", where)
		}
	}
}

// track follows what the user changed or decided, from the events.
func (w *walkRules) track(s *Session, ev Event, err error) {
	rb := w.rebase
	_, resubmit := ev.(Resubmit)
	_, save := ev.(SaveRequested)
	merged, edited := ev.(MergedEdited)
	a, auto := s.AutoRebased()
	_, yes := ev.(SaveRequested)
	auto = auto && err == nil && (outcome(ev) || yes) && a.OntoRV == s.Base().ResourceVersion
	switch {
	case s.Draft() == nil:
		w.armed, w.protected = false, map[string]bool{}
	case auto:
		// --auto-rebase resubmitted for the user: as their resubmit, it
		// arms the rule for data that keeps changing.
		w.armed = true
		for _, c := range a.Merge.Changes {
			if c.Side != diff.SideTheirs {
				w.protected[dataKey(c.Path.String())] = true
			}
		}
	case err != nil || rb == nil || rb.Merge == nil:
		if _, ok := ev.(AbandonRebase); ok && err == nil {
			w.armed, w.protected = false, map[string]bool{}
		}
	case resubmit || save && (w.state == StateRebasing || w.state == StateResolving) || edited:
		w.armed = true
		for k := range dataKeys(rb.Base, rb.Mine) {
			if !sameData(rb.Base, rb.Mine, k) {
				w.protected[k] = true
			}
		}
		for _, c := range rb.Merge.Conflicts {
			w.protected[dataKey(c.Path.String())] = true
		}
		if edited {
			obj, perr := parseDraft(merged.Text)
			if perr == nil {
				for k := range dataKeys(rb.Theirs.Object, obj) {
					if !sameData(rb.Theirs.Object, obj, k) {
						w.protected[k] = true
					}
				}
			}
		}
	}
}

func (w *walkRules) checkAgain(t *testing.T, where string, s *Session, ev Event, effects []Effect, err error) {
	t.Helper()
	if !outcome(ev) || err != nil {
		return
	}
	for _, e := range effects {
		sv, ok := e.(Save)
		if !ok || !sv.Resubmit || MadeOnEarlierObject(w.madeOn, uidOf(sv.Object)) {
			continue
		}
		theirs := s.Base().Object
		if diff.ServerOwnedOnly(w.base, theirs) {
			continue // the hot-object rule's, checked by the walk itself
		}
		// --auto-rebase resubmits any clean rebase, armed or not, over
		// what the user changed or decided too.
		a, auto := s.AutoRebased()
		auto = auto && a.OntoRV == s.Base().ResourceVersion
		if !w.armed && !auto {
			t.Fatalf("%s%T resubmitted a rebase at once before the user resubmitted one", where, ev)
		}
		if w.mine == nil {
			t.Fatalf("%s%T resubmitted at once a draft that does not parse", where, ev)
		}
		for k := range dataKeys(w.base, theirs) {
			if auto {
				break
			}
			// A change of theirs to what mine holds too collides with
			// nothing.
			if !sameData(w.base, theirs, k) && w.protected[k] && !sameData(theirs, w.mine, k) {
				t.Fatalf("%s%T resubmitted at once over theirs' change to .data.%s, which the user changed or decided", where, ev, k)
			}
		}
		if w.mine == nil {
			t.Fatalf("%s%T resubmitted at once a draft that does not parse", where, ev)
		}
		for k := range dataKeys(w.base, w.mine, theirs) {
			switch {
			case !sameData(w.base, w.mine, k) && !sameData(w.mine, sv.Object, k):
				t.Fatalf("%s%T resubmitted at once without mine's change to .data.%s", where, ev, k)
			case !sameData(w.base, theirs, k) && !sameData(theirs, sv.Object, k):
				t.Fatalf("%s%T resubmitted at once without theirs' change to .data.%s", where, ev, k)
			}
		}
		if d := s.Draft(); d == nil || d.Object == nil || !reflect.DeepEqual(d.Object.Object["data"], sv.Object.Object["data"]) {
			t.Fatalf("%sthe draft is not what was resubmitted at once", where)
		}
		if s.again == nil || s.again.rounds > MaxRebasesAgain {
			t.Fatalf("%smore than %d rebases resubmitted at once in a row", where, MaxRebasesAgain)
		}
		w.resubmittedAgain = true
		w.tally.RebasedAgain++
	}
	rb := s.Rebase()
	if s.State() != StateRebasing && s.State() != StateResolving || w.state != StateSaving && w.state != StateWaitingTheirs ||
		rb == nil || !w.armed {
		return
	}
	theirsChanged, collides := false, false
	for _, c := range rb.Merge.Changes {
		if c.Side == diff.SideTheirs {
			theirsChanged = true
			collides = collides || w.protected[dataKey(c.Path.String())]
		}
	}
	if len(rb.Merge.Conflicts) > 0 || collides {
		w.tally.Collided++
		return
	}
	if s.State() == StateRebasing && theirsChanged && !rb.Ownership && !rb.Stale() && rb.CreatedAgain == "" &&
		!diff.ServerOwnedOnly(rb.Base, rb.Theirs.Object) && s.again != nil && s.again.rounds < MaxRebasesAgain {
		t.Fatalf("%safter %T a rebase whose theirs collides with nothing the user changed or decided waits for the user", where, ev)
	}
}

// dataKeys are the keys of the objects' data, together.
func dataKeys(objs ...*unstructured.Unstructured) map[string]bool {
	keys := map[string]bool{}
	for _, o := range objs {
		if o == nil {
			continue
		}
		d, _ := o.Object["data"].(map[string]any)
		for k := range d {
			keys[k] = true
		}
	}
	return keys
}

// sameData reports whether a and b have the same data[k], or both none.
func sameData(a, b *unstructured.Unstructured, k string) bool {
	get := func(o *unstructured.Unstructured) (any, bool) {
		if o == nil {
			return nil, false
		}
		d, _ := o.Object["data"].(map[string]any)
		v, ok := d[k]
		return v, ok
	}
	x, okx := get(a)
	y, oky := get(b)
	return okx == oky && reflect.DeepEqual(x, y)
}

// dataKey is the data key of a path such as .data.foo; a path that is not
// one key of data stands for itself.
func dataKey(path string) string {
	if k, ok := strings.CutPrefix(path, ".data."); ok {
		return k
	}
	return path
}
