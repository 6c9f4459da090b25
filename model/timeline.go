package model

import (
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kedit/kedit/diff"
)

// Entry is one version on the timeline. It holds what the timeline view
// lists; the version's object is rebuilt on demand by Timeline.Object,
// since the timeline keeps only what each version changed.
type Entry struct {
	// ID names the entry for as long as the session lives: IDs grow in the
	// order entries joined the timeline and are never reused, so an entry
	// picked in the UI stays the same entry after older ones are dropped.
	ID int
	// ResourceVersion is the version's metadata.resourceVersion.
	ResourceVersion string
	// Observed is when kedit saw this version (not when it was written,
	// which the API server does not record beyond managedFields' seconds).
	Observed time.Time
	// Manager is the field manager that most likely wrote this version
	// (see Writer); empty for a deletion, which the API does not
	// attribute.
	Manager string
	// Operation is that manager's operation, "Update" or "Apply".
	Operation string
	// Subresource is the writer's subresource, e.g. "status", when the
	// writer wrote through one.
	Subresource string
	// Deleted is true for the object's deletion; the entry's object is
	// then its last state.
	Deleted bool
	// Recreated is true for the first version of an object created again
	// after a deletion (a new uid under the same name). Changes are then
	// against the deleted object's last state.
	Recreated bool
	// Changes are the fields this version changed against the entry
	// before it; nil for the first entry and for a deletion.
	Changes []FieldChange
	// Err is set when the comparison with the previous version failed;
	// Changes is then empty.
	Err error

	uid string
	// back turns the next newer entry's object into this one's; unused
	// for the newest entry, whose object the timeline keeps whole.
	back delta
	// size is what the entry's own fields and back take, in bytes.
	size int
}

// Timeline is every version observed since the session opened, oldest
// first, each once. It keeps the newest version whole and, for each older
// one, only the fields that differ from the version after it, bounded by
// MaxTimelineBytes and MaxTimeline.
type Timeline struct {
	entries []Entry
	opts    []diff.Option
	dropped int
	nextID  int
	// newest is the newest entry's object, whole, owned by the timeline.
	newest     map[string]any
	newestSize int
	// bytes is the estimated heap of every entry's fields and delta; with
	// newestSize, all the timeline retains.
	bytes int
	// limit overrides MaxTimelineBytes in tests; 0 means the constant.
	limit int
	// fights are TimelineFights of the entries, worked out again only
	// after the entries changed (fightsFresh unset).
	fights      []Fight
	fightsFresh bool
}

// MaxTimeline bounds the number of entries: the timeline view lists them
// all and Entries copies them, so the count is bounded as well as the
// bytes.
const MaxTimeline = 1000

// MaxTimelineBytes bounds the bytes the timeline retains, estimated as the
// Go heap holds them (see Bytes). The oldest versions go first; each kept
// entry still lists what it changed.
const MaxTimelineBytes = 32 << 20

// Dropped returns how many of the oldest versions were let go to stay
// within MaxTimeline and MaxTimelineBytes.
func (t *Timeline) Dropped() int { return t.dropped }

// Bytes returns the estimated heap bytes the timeline retains: the newest
// object whole, and each entry's fields and reverse delta.
func (t *Timeline) Bytes() int { return t.bytes + t.newestSize }

// Entries returns the timeline, oldest first. The slice is a copy.
func (t *Timeline) Entries() []Entry {
	out := make([]Entry, len(t.entries))
	for i, e := range t.entries {
		e.back = delta{}
		out[i] = e
	}
	return out
}

// Len returns how many versions the timeline holds.
func (t *Timeline) Len() int { return len(t.entries) }

// Index returns the position in Entries of the entry with id, or false
// when there is none (it was dropped, or never was).
func (t *Timeline) Index(id int) (int, bool) {
	// IDs grow with insertion, not with position (an entry inserted out
	// of order sits before entries with smaller IDs), so a scan it is.
	for i, e := range t.entries {
		if e.ID == id {
			return i, true
		}
	}
	return 0, false
}

// writerOf is the writer the timeline found for version rv (deleted: of
// the deletion), newest first; false when it holds no such entry.
func (t *Timeline) writerOf(rv string, deleted bool) (Entry, bool) {
	for i := len(t.entries) - 1; i >= 0; i-- {
		if e := t.entries[i]; e.ResourceVersion == rv && e.Deleted == deleted {
			return e, true
		}
	}
	return Entry{}, false
}

// Object rebuilds the object of the entry with id, as it was observed. The
// object is the caller's own.
func (t *Timeline) Object(id int) (*unstructured.Unstructured, bool) {
	i, ok := t.Index(id)
	if !ok {
		return nil, false
	}
	return t.objectAt(i), true
}

// objectAt rebuilds entry i's object: the newest, taken back one delta at
// a time.
func (t *Timeline) objectAt(i int) *unstructured.Unstructured {
	v := runtime.DeepCopyJSONValue(t.newest)
	for j := len(t.entries) - 2; j >= i; j-- {
		v = t.entries[j].back.apply(v)
	}
	m, _ := v.(map[string]any)
	return &unstructured.Unstructured{Object: m}
}

// each calls f with each entry and its object, newest first, each object
// rebuilt from the one after it: the whole timeline in one pass. obj is
// changed into the next entry's after f returns: f must not keep it.
func (t *Timeline) each(f func(e Entry, obj map[string]any)) {
	if len(t.entries) == 0 {
		return
	}
	v := runtime.DeepCopyJSONValue(t.newest)
	for i := len(t.entries) - 1; i >= 0; i-- {
		if i < len(t.entries)-1 {
			v = t.entries[i].back.apply(v)
		}
		m, _ := v.(map[string]any)
		f(t.entries[i], m)
	}
}

func (t *Timeline) maxBytes() int {
	if t.limit > 0 {
		return t.limit
	}
	return MaxTimelineBytes
}

// Observe records a version seen at at, unless the timeline already has
// its resourceVersion (a save's result and then the informer's event for
// it). A version older than the newest (an informer event arriving after
// kedit's own save result) is put in its place. It reports whether the
// version was new.
func (t *Timeline) Observe(obj *unstructured.Unstructured, at time.Time, deleted bool) bool {
	if obj == nil {
		return false
	}
	rv := obj.GetResourceVersion()
	for _, e := range t.entries {
		if e.ResourceVersion == rv && e.Deleted == deleted {
			return false
		}
	}
	cur := obj.DeepCopy().Object
	e := Entry{ID: t.nextID, ResourceVersion: rv, Observed: at, Deleted: deleted, uid: string(obj.GetUID())}
	t.nextID++
	i := len(t.entries)
	for i > 0 && !deleted && t.entries[i-1].ResourceVersion != rv && !newerRV(rv, t.entries[i-1].ResourceVersion) {
		i--
	}
	// The neighbours' objects, before the insertion changes what the
	// deltas lead to.
	var prev, next map[string]any
	if i > 0 {
		prev = t.objectAt(i - 1).Object
	}
	if i < len(t.entries) {
		next = t.objectAt(i).Object
	}
	t.entries = append(t.entries, Entry{})
	copy(t.entries[i+1:], t.entries[i:])
	t.entries[i] = e
	switch {
	case next == nil:
		// The common case: a new newest version.
		t.newest, t.newestSize = cur, valueSize(cur)
		if prev != nil {
			t.setBack(i-1, reverseDelta(cur, prev))
		}
	default:
		t.setBack(i, reverseDelta(next, cur))
		if prev != nil {
			t.setBack(i-1, reverseDelta(cur, prev))
		}
	}
	t.describe(i, prev, cur)
	if next != nil {
		t.describe(i+1, cur, next)
	}
	t.bound()
	t.fightsFresh = false
	return true
}

// Fights returns the fights among the versions the timeline holds
// (TimelineFights), oldest first.
func (t *Timeline) Fights() []Fight {
	if !t.fightsFresh {
		t.fights, t.fightsFresh = TimelineFights(t.entries), true
	}
	return t.fights
}

// setBack sets entry i's reverse delta, keeping the byte count.
func (t *Timeline) setBack(i int, d delta) {
	t.entries[i].back = d
	t.resize(i)
}

// resize recounts entry i's bytes.
func (t *Timeline) resize(i int) {
	e := &t.entries[i]
	t.bytes -= e.size
	e.size = entrySize(e) + e.back.size
	t.bytes += e.size
}

// bound drops the oldest entries while the timeline is over either bound;
// the newest entry always stays.
func (t *Timeline) bound() {
	n := 0
	total := t.bytes + t.newestSize
	for len(t.entries)-n > 1 && (len(t.entries)-n > MaxTimeline || total > t.maxBytes()) {
		total -= t.entries[n].size
		t.bytes -= t.entries[n].size
		n++
	}
	if n > 0 {
		t.entries = append(t.entries[:0:0], t.entries[n:]...)
		t.dropped += n
	}
}

// describe fills entry i's changes and writer; prev is the object of the
// entry before it (nil for the first) and cur its own.
func (t *Timeline) describe(i int, prev, cur map[string]any) {
	e := &t.entries[i]
	e.Changes, e.Err, e.Recreated = nil, nil, false
	if i > 0 && !e.Deleted {
		before := &t.entries[i-1]
		e.Recreated = before.Deleted || MadeOnEarlierObject(before.uid, e.uid)
		e.Changes, e.Err = Changes(&unstructured.Unstructured{Object: prev}, &unstructured.Unstructured{Object: cur}, t.opts...)
	}
	if e.Deleted {
		// A deleted object's managedFields name its last writer, not
		// whoever deleted it, which the API does not record.
		e.Manager, e.Operation, e.Subresource = "", "", ""
	} else {
		var before *unstructured.Unstructured
		if prev != nil {
			before = &unstructured.Unstructured{Object: prev}
		}
		w := WriterSince(before, &unstructured.Unstructured{Object: cur}, e.Changes)
		e.Manager, e.Operation, e.Subresource = w.Manager, w.Operation, w.Subresource
	}
	t.resize(i)
}
