package diff

import (
	"math"
	"sort"
	"strings"
	"unicode/utf8"

	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v6/schema"
	"sigs.k8s.io/structured-merge-diff/v6/typed"
)

// node is one version's value at a field; ok is false when the field is
// absent there.
type node struct {
	v  any
	ok bool
}

// field is the node as a conflict reports it: a copy, so that the
// conflict does not share maps with the caller's objects.
func (n node) field() FieldValue {
	v, _ := copyJSON(n.v)
	return FieldValue{Present: n.ok, Value: v}
}

// child is the node's value at one path element: a map's field, a list's
// item by its keys, value or index.
func (n node) child(pe fieldpath.PathElement) node {
	if !n.ok {
		return node{}
	}
	v, ok := childValue(n.v, pe)
	return node{v, ok}
}

// changeState is what one side's comparison with base says about a field:
// has is true when the field itself was added, modified or removed, and sub
// holds the changed fields below it.
type changeState struct {
	has bool
	sub *fieldpath.Set
}

var emptySet = fieldpath.NewSet()

func (c changeState) changed() bool { return c.has || !c.sub.Empty() }

func (c changeState) child(pe fieldpath.PathElement) changeState {
	sub, ok := c.sub.Children.Get(pe)
	if !ok {
		sub = emptySet
	}
	return changeState{has: c.sub.Members.Has(pe), sub: sub}
}

// walker merges the three versions top down, guided by the change sets of
// structured-merge-diff's comparisons: a field only one side changed is
// taken from that side without looking inside, so the cost follows the size
// of the changes, not of the object.
type walker struct {
	schema             *schema.Schema
	cmpMine, cmpTheirs *typed.Comparison
	changes            []Change
	conflicts          []Conflict
	units              []unit
}

// merge returns the merged value of the field at path and whether it is
// present.
func (w *walker) merge(path fieldpath.Path, tr schema.TypeRef, b, m, t node, mc, tc changeState) (any, bool) {
	mChanged, tChanged := mc.changed(), tc.changed()
	switch {
	case !mChanged && !tChanged:
		return t.v, t.ok
	case !mChanged:
		w.record(path, tc, SideTheirs, b, t)
		return t.v, t.ok
	case !tChanged:
		w.record(path, mc, SideMine, b, m)
		return m.v, m.ok
	}
	if m.ok == t.ok && (!m.ok || equalJSON(m.v, t.v)) {
		w.record(path, mc, SideBoth, b, m)
		return m.v, m.ok
	}

	atom, _ := w.schema.Resolve(tr)
	// A null base is no more a container than an absent one (the conflict
	// still reports it as null).
	noBase := !b.ok || b.v == nil
	if m.ok && t.ok {
		switch mv := m.v.(type) {
		case map[string]any:
			tv, tIsMap := t.v.(map[string]any)
			bv, bIsMap := b.v.(map[string]any)
			if tIsMap && (bIsMap || noBase) && atom.Map != nil && atom.Map.ElementRelationship != schema.Atomic {
				return w.mergeMap(path, atom.Map, bv, mv, tv, mc, tc), true
			}
		case []any:
			tv, tIsList := t.v.([]any)
			bv, bIsList := b.v.([]any)
			if tIsList && (bIsList || noBase) && atom.List != nil && atom.List.ElementRelationship == schema.Associative {
				if v, ok := w.mergeList(path, atom.List, bv, mv, tv, mc, tc); ok {
					return v, true
				}
			}
		}
	}
	return w.mergeLeaf(path, b, m, t)
}

// mergeLeaf merges a field both sides changed differently that has no
// parts to merge separately: a scalar, an atomic map or list, or a field one
// side removed. A multi-line string merges line by line: each region only
// one side changed is a change of its own, and each region where their
// lines collide a conflict of its own.
func (w *walker) mergeLeaf(path fieldpath.Path, b, m, t node) (any, bool) {
	if bs, ok := b.v.(string); ok && b.ok && m.ok && t.ok {
		ms, mok := m.v.(string)
		ts, tok := t.v.(string)
		if mok && tok && isMultiline(bs, ms, ts) {
			tm := Merge3Text(ms, bs, ts, TextOptions{})
			w.recordHunks(path, b, m, t, tm.Hunks)
			if tm.Conflicts == 0 {
				return tm.Merged, true
			}
			return w.textConflicts(path, b, m, t, bs, tm.Hunks), true
		}
	}
	return w.conflict(path, b, m, t), true
}

// isMultiline says whether a string field is a text worth merging line by
// line (a config file, a script), rather than a value taken whole.
func isMultiline(b, m, t string) bool {
	if !utf8.ValidString(b) || !utf8.ValidString(m) || !utf8.ValidString(t) {
		return false
	}
	return strings.Contains(b, "\n") || strings.Contains(m, "\n") || strings.Contains(t, "\n")
}

// conflict makes the whole field a conflict.
func (w *walker) conflict(path fieldpath.Path, b, m, t node) slot {
	w.conflicts = append(w.conflicts, Conflict{
		Path:   path.Copy(),
		Base:   b.field(),
		Mine:   m.field(),
		Theirs: t.field(),
	})
	w.units = append(w.units, unit{first: len(w.conflicts) - 1, n: 1})
	return slot{u: len(w.units) - 1}
}

// textConflicts makes each colliding region of a multi-line string's line
// merge a conflict, all behind one slot: the field's value is put together
// from base's lines, both sides' clean regions and each conflict's choice.
func (w *walker) textConflicts(path fieldpath.Path, b, m, t node, base string, hunks []Hunk) slot {
	p := path.Copy()
	bf, mf, tf := b.field(), m.field(), t.field()
	u := unit{first: len(w.conflicts), text: newTextField(base, hunks)}
	for k := range hunks {
		if !hunks[k].Conflict {
			continue
		}
		w.conflicts = append(w.conflicts, Conflict{
			Path: p, Base: bf, Mine: mf, Theirs: tf,
			Hunks: hunks, Hunk: &hunks[k],
		})
		u.n++
	}
	w.units = append(w.units, u)
	return slot{u: len(w.units) - 1}
}

// recordHunks records each clean region of a line merge as a change of
// its side.
func (w *walker) recordHunks(path fieldpath.Path, b, m, t node, hunks []Hunk) {
	p := path.Copy()
	// Strings: the copies share their bytes.
	bf, mf, tf := b.field(), m.field(), t.field()
	for k := range hunks {
		h := &hunks[k]
		if h.Conflict {
			continue
		}
		c := Change{Path: p, Side: h.Side, Kind: Modified, Hunk: h}
		c.Base, c.Value = bf, mf
		if h.Side == SideTheirs {
			c.Value = tf
		}
		w.changes = append(w.changes, c)
	}
}

func (w *walker) mergeMap(path fieldpath.Path, t *schema.Map, b, m, th map[string]any, mc, tc changeState) map[string]any {
	out := make(map[string]any, len(th)+len(m)/4)
	keys := make([]string, 0, len(th)+len(m))
	for k := range b {
		keys = append(keys, k)
	}
	for k := range m {
		if _, ok := b[k]; !ok {
			keys = append(keys, k)
		}
	}
	for k := range th {
		_, inB := b[k]
		_, inM := m[k]
		if !inB && !inM {
			keys = append(keys, k)
		}
	}
	// Sorted so that changes and conflicts come out in a stable order,
	// the order kubectl prints the fields in.
	sort.Strings(keys)
	for _, k := range keys {
		pe := fieldpath.PathElement{FieldName: &k}
		ft := t.ElementType
		if sf, ok := t.FindField(k); ok {
			ft = sf.Type
		}
		bv, bok := b[k]
		mv, mok := m[k]
		tv, tok := th[k]
		v, ok := w.merge(append(path, pe), ft, node{bv, bok}, node{mv, mok}, node{tv, tok}, mc.child(pe), tc.child(pe))
		if ok {
			out[k] = v
		}
	}
	return out
}

// record notes the changes one side made at or below path as taken; b and
// s are base's and that side's values at path.
func (w *walker) record(path fieldpath.Path, c changeState, side Side, b, s node) {
	if c.has {
		w.changes = append(w.changes, Change{Path: path.Copy(), Side: side, Kind: w.kind(path, side), Base: b.field(), Value: s.field()})
		return
	}
	w.recordSet(path, c.sub, side, b, s)
}

// recordSet records the outermost paths of set: a map added whole is one
// change, not one per key.
func (w *walker) recordSet(prefix fieldpath.Path, set *fieldpath.Set, side Side, b, s node) {
	set.Members.Iterate(func(pe fieldpath.PathElement) {
		p := append(prefix[:len(prefix):len(prefix)], pe)
		w.changes = append(w.changes, Change{Path: p, Side: side, Kind: w.kind(p, side),
			Base: b.child(pe).field(), Value: s.child(pe).field()})
	})
	set.Children.Iterate(func(pe fieldpath.PathElement) {
		if set.Members.Has(pe) {
			return
		}
		sub, _ := set.Children.Get(pe)
		w.recordSet(append(prefix[:len(prefix):len(prefix)], pe), sub, side, b.child(pe), s.child(pe))
	})
}

func (w *walker) kind(p fieldpath.Path, side Side) ChangeKind {
	c := w.cmpMine
	if side == SideTheirs {
		c = w.cmpTheirs
	}
	switch {
	case c.Added.Has(p):
		return Added
	case c.Removed.Has(p):
		return Removed
	}
	return Modified
}

// equalJSON compares two unstructured values. Numbers compare by value
// whether decoded as int64 or float64, as JSON does not tell them apart.
func equalJSON(a, b any) bool {
	switch av := a.(type) {
	case string:
		bv, ok := b.(string)
		return ok && av == bv
	case bool:
		bv, ok := b.(bool)
		return ok && av == bv
	case nil:
		return b == nil
	case int64:
		switch bv := b.(type) {
		case int64:
			return av == bv
		case float64:
			return float64(av) == bv && bv == math.Trunc(bv)
		}
		return false
	case float64:
		switch bv := b.(type) {
		case float64:
			return av == bv
		case int64:
			return equalJSON(bv, av)
		}
		return false
	case map[string]any:
		bv, ok := b.(map[string]any)
		if !ok || len(av) != len(bv) {
			return false
		}
		for k, x := range av {
			y, ok := bv[k]
			if !ok || !equalJSON(x, y) {
				return false
			}
		}
		return true
	case []any:
		bv, ok := b.([]any)
		if !ok || len(av) != len(bv) {
			return false
		}
		for i := range av {
			if !equalJSON(av[i], bv[i]) {
				return false
			}
		}
		return true
	case int:
		return equalJSON(int64(av), b)
	case int32:
		return equalJSON(int64(av), b)
	case float32:
		return equalJSON(float64(av), b)
	}
	return false
}
