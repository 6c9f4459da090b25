package model

import (
	"sort"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v6/typed"

	"github.com/kedit/kedit/diff"
)

// FieldChange is one field that changed between two versions.
type FieldChange struct {
	// Path is the field in server-side apply's syntax, e.g. `.data.foo`
	// or `.spec.template.spec.containers[name="app"].image`.
	Path string
	// Kind says whether the field was added, modified or removed.
	Kind diff.ChangeKind
}

// WriterInfo is the field manager that wrote a version, as far as
// managedFields tell.
type WriterInfo struct {
	// Manager is the field manager's name, e.g. "kubectl-edit".
	Manager string
	// Operation is "Update" or "Apply".
	Operation string
	// Subresource is set for writes through one, e.g. "status".
	Subresource string
	// Time is the manager's last write, to the second.
	Time time.Time
}

// Writer picks the field manager that wrote obj from its managedFields,
// when the version before it is not known: the entry with the latest
// time. managedFields' times have a resolution of one second, so among
// entries with that same time it prefers one that owns a field in changed
// (the fields this version changed), which is the manager whose operation
// made the change.
func Writer(obj *unstructured.Unstructured, changed []FieldChange) WriterInfo {
	if obj == nil {
		return WriterInfo{}
	}
	return latestWriter(obj.GetManagedFields(), changed, 0)
}

// WriterSince picks the field manager that wrote cur since prev, an
// earlier version of the same object (nil: not known, as Writer). A writer
// is known only by a managedFields entry that changed: one that is new
// since prev or whose time moved on. Of those, the latest that owns a
// changed field wrote it (a scale through the subresource, whose entry
// has no time, is not credited to the later writer of another field),
// else the latest (Writer's rule among them). When none changed, the write came within
// the second of an entry's time: the latest entry that owns a field
// changed (or one inside it) made it. When none owns one either, the
// writer left no entry (a JSON patch that only removes, by a manager that
// then owns nothing, leaves none): the writer is unknown, the zero
// WriterInfo, rather than a manager whose entry predates the change.
func WriterSince(prev, cur *unstructured.Unstructured, changed []FieldChange) WriterInfo {
	if cur == nil {
		return WriterInfo{}
	}
	if prev == nil {
		return Writer(cur, changed)
	}
	before := map[string]*metav1.Time{}
	for _, e := range prev.GetManagedFields() {
		before[writerKey(e)] = e.Time
	}
	var moved []metav1.ManagedFieldsEntry
	for _, e := range cur.GetManagedFields() {
		t, ok := before[writerKey(e)]
		if !ok || e.Time != nil && (t == nil || e.Time.After(t.Time)) {
			moved = append(moved, e)
		}
	}
	if len(moved) > 0 {
		// Who owns a changed field now wrote it last: an update takes
		// the fields it changes from their owners. Without one (a field
		// removed is owned by no one), the latest entry that moved.
		if w := latestWriter(moved, changed, 2); w.Manager != "" {
			return w
		}
		return latestWriter(moved, changed, 0)
	}
	return latestWriter(cur.GetManagedFields(), changed, 2)
}

// writerKey is what names a managedFields entry: the API server keeps one
// per manager, operation, subresource and (for an update) apiVersion.
func writerKey(e metav1.ManagedFieldsEntry) string {
	return e.Manager + "\x00" + string(e.Operation) + "\x00" + e.Subresource + "\x00" + e.APIVersion
}

// latestWriter is the entry of mfs with the latest time, preferring among
// entries of that time one that owns a changed field; only entries whose
// ownership of changed scores at least minOwns count. Two managers of the
// latest second that nothing tells apart leave the writer unknown (the
// zero WriterInfo): naming either could name the wrong one.
func latestWriter(mfs []metav1.ManagedFieldsEntry, changed []FieldChange, minOwns int) WriterInfo {
	var best *metav1.ManagedFieldsEntry
	var bestTime time.Time
	bestOwns, tied := 0, false
	for i := range mfs {
		e := &mfs[i]
		o := ownership(e, changed)
		if o < minOwns {
			continue
		}
		var t time.Time
		if e.Time != nil {
			t = e.Time.Time
		}
		switch {
		case best == nil || t.After(bestTime):
			best, bestTime, bestOwns, tied = e, t, o, false
		case t.Equal(bestTime) && o > bestOwns:
			// Times are to the second: prefer who owns the changed field
			// itself over who owns only the map holding it.
			best, bestOwns, tied = e, o, false
		case t.Equal(bestTime) && o == bestOwns && e.Manager != best.Manager:
			tied = true
		}
	}
	if best == nil || tied {
		return WriterInfo{}
	}
	return WriterInfo{Manager: best.Manager, Operation: string(best.Operation), Subresource: best.Subresource, Time: bestTime}
}

// ownership scores how closely the managedFields entry owns the changed
// fields: 2 when it owns one of them or a field inside one (a map added
// whole is owned key by key), 1 when it owns only the map or list item
// holding one (a removed field is owned by no one, but its parent still
// is), 0 otherwise.
func ownership(e *metav1.ManagedFieldsEntry, changed []FieldChange) int {
	if len(changed) == 0 {
		return 0
	}
	owned, ok := OwnedFields(e)
	if !ok {
		return 0
	}
	score := 0
	owned.Iterate(func(p fieldpath.Path) {
		if score == 2 || len(p) == 0 {
			return
		}
		ps := p.String()
		for _, c := range changed {
			switch {
			case within(ps, c.Path):
				score = 2
				return
			case within(c.Path, ps):
				score = max(score, 1)
			}
		}
	})
	return score
}

// within reports whether path a is path b or a field inside it.
func within(a, b string) bool {
	if !strings.HasPrefix(a, b) {
		return false
	}
	return len(a) == len(b) || a[len(b)] == '.' || a[len(b)] == '['
}

// Changes returns the fields that differ from prev to cur, in field order,
// ignoring what the server maintains on every write (resourceVersion,
// managedFields, generation, uid ...). The spec and metadata are compared
// with diff's structured comparison, so keyed lists are compared item by
// item; status, which diff leaves to the server, is compared key by key
// with lists as a whole.
func Changes(prev, cur *unstructured.Unstructured, opts ...diff.Option) ([]FieldChange, error) {
	pcs, err := PathChanges(prev, cur, opts...)
	if err != nil || pcs == nil {
		return nil, err
	}
	out := make([]FieldChange, len(pcs))
	for i, c := range pcs {
		out[i] = FieldChange{Path: c.Path.String(), Kind: c.Kind}
	}
	return out, nil
}

// PathChange is a FieldChange whose path is structured, so that the
// field's value can be looked up in either version (diff.ValueAt).
type PathChange struct {
	Path fieldpath.Path
	Kind diff.ChangeKind
}

// PathChanges is Changes with structured paths.
func PathChanges(prev, cur *unstructured.Unstructured, opts ...diff.Option) ([]PathChange, error) {
	if prev == nil || cur == nil {
		return nil, nil
	}
	// Merging cur into prev with no change of our own leaves exactly the
	// changes from prev to cur as "theirs".
	m, err := diff.MergeObjects(prev, prev, cur, opts...)
	if err != nil {
		return nil, err
	}
	out := make([]PathChange, 0, len(m.Changes))
	for _, c := range m.Changes {
		out = append(out, PathChange{Path: c.Path, Kind: c.Kind})
	}
	st, err := statusChanges(prev.Object["status"], cur.Object["status"])
	if err != nil {
		return nil, err
	}
	return append(out, st...), nil
}

// statusChanges compares two status values with a schema deduced from
// them: maps key by key, lists as one value.
func statusChanges(prev, cur any) ([]PathChange, error) {
	wrap := func(v any) map[string]any {
		if v == nil {
			return map[string]any{}
		}
		return map[string]any{"status": v}
	}
	a, err := typed.DeducedParseableType.FromUnstructured(wrap(prev))
	if err != nil {
		return nil, err
	}
	b, err := typed.DeducedParseableType.FromUnstructured(wrap(cur))
	if err != nil {
		return nil, err
	}
	cmp, err := a.Compare(b)
	if err != nil {
		return nil, err
	}
	var out []PathChange
	add := func(s *fieldpath.Set, k diff.ChangeKind) {
		s.Leaves().Iterate(func(p fieldpath.Path) {
			out = append(out, PathChange{Path: p.Copy(), Kind: k})
		})
	}
	add(cmp.Added, diff.Added)
	add(cmp.Modified, diff.Modified)
	add(cmp.Removed, diff.Removed)
	sort.Slice(out, func(i, j int) bool { return out[i].Path.String() < out[j].Path.String() })
	return out, nil
}
