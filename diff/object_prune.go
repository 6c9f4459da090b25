package diff

import (
	"sigs.k8s.io/structured-merge-diff/v6/schema"
)

// prune drops from base, mine and theirs the parts that are equal in all
// three, which no comparison can report as changed, so that
// structured-merge-diff's Compare (the largest cost of a merge) walks only
// what differs. Fields and list items are dropped only where the schema
// merges them one by one (granular maps, associative lists), so an atomic
// value is never cut, and a keyed item keeps its key fields so that it is
// still named as before. The maps and lists returned are new where
// something was dropped; the inputs are not changed.
func (w *walker) prune(tr schema.TypeRef, b, m, t any) (pb, pm, pt any) {
	return w.pruneKeep(tr, b, m, t, nil)
}

func (w *walker) pruneKeep(tr schema.TypeRef, b, m, t any, keep []string) (any, any, any) {
	atom, ok := w.schema.Resolve(tr)
	if !ok {
		return b, m, t
	}
	switch bv := b.(type) {
	case map[string]any:
		mv, ok1 := m.(map[string]any)
		tv, ok2 := t.(map[string]any)
		if !ok1 || !ok2 || atom.Map == nil || atom.Map.ElementRelationship == schema.Atomic {
			return b, m, t
		}
		return w.pruneMap(atom.Map, bv, mv, tv, keep)
	case []any:
		mv, ok1 := m.([]any)
		tv, ok2 := t.([]any)
		if !ok1 || !ok2 || atom.List == nil || atom.List.ElementRelationship != schema.Associative {
			return b, m, t
		}
		return w.pruneList(atom.List, bv, mv, tv)
	}
	return b, m, t
}

func (w *walker) pruneMap(t *schema.Map, b, m, th map[string]any, keep []string) (any, any, any) {
	pb := make(map[string]any, len(b))
	pm := make(map[string]any, len(m))
	pt := make(map[string]any, len(th))
	for k, bv := range b {
		mv, inM := m[k]
		tv, inT := th[k]
		if !inM || !inT {
			pb[k] = bv
			continue
		}
		if equalJSON(bv, mv) && equalJSON(bv, tv) && !contains(keep, k) {
			continue
		}
		ft := t.ElementType
		if sf, ok := t.FindField(k); ok {
			ft = sf.Type
		}
		pb[k], pm[k], pt[k] = w.pruneKeep(ft, bv, mv, tv, nil)
	}
	// Keys base lacks, or that one side lacks, stay whole.
	for k, mv := range m {
		if _, inB := b[k]; !inB {
			pm[k] = mv
		} else if _, inT := th[k]; !inT {
			pm[k] = mv
		}
	}
	for k, tv := range th {
		if _, inB := b[k]; !inB {
			pt[k] = tv
		} else if _, inM := m[k]; !inM {
			pt[k] = tv
		}
	}
	return pb, pm, pt
}

func (w *walker) pruneList(t *schema.List, b, m, th []any) (any, any, any) {
	bi, ok1 := w.indexList(t, b)
	mi, ok2 := w.indexList(t, m)
	ti, ok3 := w.indexList(t, th)
	if !ok1 || !ok2 || !ok3 {
		return b, m, th
	}
	var keep []string
	if len(t.Keys) > 0 {
		keep = t.Keys
	}
	type trio struct {
		b, m, t any
		drop    bool
	}
	pruned := make(map[string]trio, len(bi.order))
	for _, k := range bi.order {
		bv := bi.items[k]
		mv, inM := mi.items[k]
		tv, inT := ti.items[k]
		if !inM || !inT {
			continue
		}
		if equalJSON(bv, mv) && equalJSON(bv, tv) {
			pruned[k] = trio{drop: true}
			continue
		}
		pb, pm, pt := w.pruneKeep(t.ElementType, bv, mv, tv, keep)
		pruned[k] = trio{b: pb, m: pm, t: pt}
	}
	build := func(ix listIndex, pick func(trio) any) []any {
		out := make([]any, 0, len(ix.order))
		for _, k := range ix.order {
			p, ok := pruned[k]
			switch {
			case !ok:
				out = append(out, ix.items[k])
			case !p.drop:
				out = append(out, pick(p))
			}
		}
		return out
	}
	return build(bi, func(p trio) any { return p.b }),
		build(mi, func(p trio) any { return p.m }),
		build(ti, func(p trio) any { return p.t })
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}
