package history

import (
	"reflect"
	"time"

	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"

	"github.com/kedit/kedit/diff"
)

// History is an object's history as an audit log tells it.
type History struct {
	// Versions are the object's versions, oldest first.
	Versions []Version
	// LostUpdates are the changes that later writes replaced unseen.
	LostUpdates []Loss
	// BlindWrites are the values that writes with no base replaced.
	BlindWrites []Loss
	// Reverted are the values writes set back to what they were before
	// another client's change, when that change is not counted lost: the
	// writer read the object after it (or tested nothing of it, and its
	// read is not in the log).
	Reverted []Loss
	// Fights are the fields two clients kept taking from each other.
	Fights []Fight
	// ToolChanges are the writes whose field manager differs from the one
	// of their client's write before: one user and user agent with two
	// tools, which the detector takes for one client.
	ToolChanges []ToolChange
	// Secret is set when the object is a Secret: its values are never to
	// be shown.
	Secret bool
	// Coverage says what of the history could not be judged.
	Coverage Coverage
}

// Loss is one field whose value a write replaced: a lost update, or the
// value a blind write replaced.
type Loss struct {
	// Path is the field.
	Path fieldpath.Path
	// Value is the field's value just before the overwrite (the change
	// that was lost); absent when the lost change removed the field.
	Value diff.FieldValue
	// LostAt is the index in Versions of the write whose change was lost,
	// OverwrittenBy the index of the write that replaced it.
	LostAt, OverwrittenBy int
	// Base is the index in Versions of the overwriting write's base: -1
	// when its writer read the object before the log's first version, and
	// for a blind write.
	Base int
	// BaseRead is when the overwriting write's client last read the
	// object; zero when its request carried a resourceVersion, and for a
	// blind write.
	BaseRead time.Time
	// Evidence says, in words, why the change counts as lost.
	Evidence string
}

// Analyze rebuilds the object's history from its events (in any order)
// and finds its lost updates, blind writes and fights. opts are diff's
// options for comparing versions (the schemas of custom resources).
func Analyze(events []Event, opts ...diff.Option) *History {
	sorted := sortEvents(events)
	vs, noops := versions(sorted, opts)
	h := &History{Versions: vs}
	for _, v := range vs {
		if diff.IsSecret(v.Object) {
			h.Secret = true
		}
	}
	cr := readsByClient(sorted, noops)
	bases := make([]base, len(vs))
	for i := range vs {
		if !overwriter(vs, i) {
			continue
		}
		b := baseOf(vs, i, cr)
		bases[i] = b
		if b.blind {
			// What its writer saw is unknown: every value of another
			// client's it replaced, set back or not, is replaced blind.
			for _, l := range overwrites(vs, i, -1) {
				if tested(vs, i, l.Path) {
					if reverts(vs, l) {
						l.Base = i - 1
						l.Evidence = revertEvidence(vs, l, b)
						h.Reverted = append(h.Reverted, l)
					}
					continue
				}
				l.Evidence = blindEvidence(vs, l, b)
				h.BlindWrites = append(h.BlindWrites, l)
			}
			continue
		}
		judged := map[string]bool{}
		for _, l := range overwrites(vs, i, b.index) {
			if tested(vs, i, l.Path) {
				continue
			}
			judged[l.Path.String()] = true
			l.BaseRead = b.at
			l.Evidence = lostEvidence(vs, l, b)
			h.LostUpdates = append(h.LostUpdates, l)
		}
		// A tested field was read at the moment of the write: set back,
		// it is reverted knowingly.
		for _, l := range overwrites(vs, i, -1) {
			if judged[l.Path.String()] || !reverts(vs, l) {
				continue
			}
			l.Base, l.BaseRead = b.index, b.at
			if tested(vs, i, l.Path) {
				l.Base, l.BaseRead = i-1, time.Time{}
			}
			l.Evidence = revertEvidence(vs, l, b)
			h.Reverted = append(h.Reverted, l)
		}
	}
	h.foldLastApplied()
	h.Fights = fights(vs)
	h.Coverage = coverageOf(vs, bases, cr, sorted)
	h.ToolChanges = toolChanges(vs)
	h.setVerdicts(bases, cr.logged)
	return h
}

// reverts reports whether l's write set its field back to the value it
// held before the change l names: a change by another client (LostAt)
// that the write undid, whatever its writer had read.
func reverts(vs []Version, l Loss) bool {
	s, w := &vs[l.LostAt], &vs[l.OverwrittenBy]
	if s.creation || s.Object == nil || w.Object == nil {
		return false
	}
	was := diff.ValueAt(before(vs, l.LostAt), l.Path)
	return !reflect.DeepEqual(was, diff.ValueAt(s.Object.Object, l.Path)) && reflect.DeepEqual(was, diff.ValueAt(w.Object.Object, l.Path))
}

// ToolChange is a write whose field manager differs from the manager of
// the write before it by the same client (user and user agent): two tools
// of one user, such as kubectl edit and kubectl patch from one
// kubeconfig. Reads carry no field manager, so the detector cannot tell
// the tools apart: a change one lost to the other is not seen.
type ToolChange struct {
	// Write and Previous index the two writes in History.Versions.
	Write, Previous int
}

// toolChanges lists the writes whose manager differs from their client's
// previous write's. A creation is left out: it overwrites nothing, and
// nothing before it can be lost. Only managers the requests named count: one that
// managedFields credit with a write may be another writer's, and would
// make a change of tool that never was.
func toolChanges(vs []Version) []ToolChange {
	last := map[Client]int{}
	var out []ToolChange
	for i := range vs {
		v := &vs[i]
		if v.Deleted || v.creation || !v.managerNamed {
			continue
		}
		if j, ok := last[v.Client]; ok && vs[j].Manager != v.Manager {
			out = append(out, ToolChange{Write: i, Previous: j})
		}
		last[v.Client] = i
	}
	return out
}

// overwriter reports whether version i is a write that can replace
// another client's change and be judged for it: an update or patch whose
// stored object and changes are known.
func overwriter(vs []Version, i int) bool {
	v := &vs[i]
	return v.Recorded && !v.Deleted && !v.creation && !v.AfterGap && v.Err == nil && len(v.Changed) > 0
}

// overwrites lists the fields write i replaced that a client other than
// its own had set after base: for each field the write changed, the
// fields inside it that others last changed since base, else the field
// itself when its last setter is another client since base.
func overwrites(vs []Version, i, base int) []Loss {
	w := &vs[i]
	var out []Loss
	seen := map[string]bool{}
	add := func(p fieldpath.Path, setter int) bool {
		key := p.String()
		if setter <= base || vs[setter].Client == w.Client {
			return false
		}
		if !seen[key] {
			seen[key] = true
			out = append(out, Loss{Path: p, Value: diff.ValueAt(before(vs, i), p), LostAt: setter, OverwrittenBy: i, Base: base})
		}
		return true
	}
	for _, q := range w.Changed {
		deeper := false
		for k := i - 1; k > base && k >= 0 && !vs[k].creation; k-- {
			for _, c := range vs[k].Changed {
				if len(c.Path) > len(q.Path) && within(c.Path, q.Path) {
					if s, ok := setter(vs, i, c.Path); ok && s == k && add(c.Path, s) {
						deeper = true
					}
				}
			}
		}
		if deeper {
			continue
		}
		if s, ok := setter(vs, i, q.Path); ok {
			add(q.Path, s)
		}
	}
	return out
}

// setter finds the version that last set the field at p before version
// i: the latest one whose changes touch p (p itself, a field holding it,
// or a field inside it), or the creation of the object. ok is false when
// the log does not say: the object was created before the log began, or
// a write the log holds no object of came between.
func setter(vs []Version, i int, p fieldpath.Path) (int, bool) {
	for k := i - 1; k >= 0; k-- {
		v := &vs[k]
		if !v.Recorded || v.Err != nil {
			return 0, false
		}
		if v.creation {
			return k, true
		}
		for _, c := range v.Changed {
			if within(c.Path, p) || within(p, c.Path) {
				if v.AfterGap {
					return 0, false
				}
				return k, true
			}
		}
	}
	return 0, false
}

// before is the object just before version i.
func before(vs []Version, i int) map[string]any {
	for k := i - 1; k >= 0; k-- {
		if vs[k].Object != nil {
			return vs[k].Object.Object
		}
	}
	return nil
}

// within reports whether p is q or a field inside it.
func within(p, q fieldpath.Path) bool {
	if len(p) < len(q) {
		return false
	}
	return p[:len(q)].Equals(q)
}

// stamp writes a time as the audit log does, to the microsecond.
func stamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000000Z") }
