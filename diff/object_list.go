package diff

import (
	"sort"
	"strconv"
	"strings"

	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v6/schema"
	"sigs.k8s.io/structured-merge-diff/v6/value"
)

// listIndex is an associative list's items by path element.
type listIndex struct {
	order []string
	pes   map[string]fieldpath.PathElement
	items map[string]any
}

// indexList keys the items of an associative list the way
// structured-merge-diff does, so that the keys match its change sets. It
// fails on an item without keys or a duplicate key: such a list can only be
// merged whole.
func (w *walker) indexList(t *schema.List, items []any) (listIndex, bool) {
	ix := listIndex{
		order: make([]string, 0, len(items)),
		pes:   make(map[string]fieldpath.PathElement, len(items)),
		items: make(map[string]any, len(items)),
	}
	for _, it := range items {
		pe, ok := w.itemElement(t, it)
		if !ok {
			return ix, false
		}
		s := keyString(pe)
		if _, dup := ix.items[s]; dup {
			return ix, false
		}
		ix.order = append(ix.order, s)
		ix.pes[s] = pe
		ix.items[s] = it
	}
	return ix, true
}

// keyString is a map key for a list item's path element, cheaper than
// PathElement.String (which formats values through JSON).
func keyString(pe fieldpath.PathElement) string {
	var b strings.Builder
	switch {
	case pe.Key != nil:
		for i, f := range *pe.Key {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(f.Name)
			b.WriteByte('=')
			if !writeScalar(&b, f.Value) {
				return pe.String()
			}
		}
	case pe.Value != nil:
		b.WriteByte('=')
		if !writeScalar(&b, *pe.Value) {
			return pe.String()
		}
	default:
		return pe.String()
	}
	return b.String()
}

func writeScalar(b *strings.Builder, v value.Value) bool {
	switch {
	case v.IsString():
		b.WriteString(strconv.Quote(v.AsString()))
	case v.IsInt():
		b.WriteString(strconv.FormatInt(v.AsInt(), 10))
	case v.IsFloat():
		b.WriteString(strconv.FormatFloat(v.AsFloat(), 'g', -1, 64))
	case v.IsBool():
		b.WriteString(strconv.FormatBool(v.AsBool()))
	default:
		return false
	}
	return true
}

// itemElement builds an item's path element as structured-merge-diff's
// listItemToPathElement does, defaults of key fields included.
func (w *walker) itemElement(t *schema.List, item any) (fieldpath.PathElement, bool) {
	if len(t.Keys) == 0 {
		switch item.(type) {
		case map[string]any, []any, nil:
			return fieldpath.PathElement{}, false
		}
		v := value.NewValueInterface(item)
		return fieldpath.PathElement{Value: &v}, true
	}
	m, ok := item.(map[string]any)
	if !ok {
		return fieldpath.PathElement{}, false
	}
	var elemMap *schema.Map
	if atom, ok := w.schema.Resolve(t.ElementType); ok {
		elemMap = atom.Map
	}
	keys := make(value.FieldList, 0, len(t.Keys))
	for _, name := range t.Keys {
		if v, ok := m[name]; ok {
			keys = append(keys, value.Field{Name: name, Value: value.NewValueInterface(v)})
			continue
		}
		if elemMap == nil {
			continue
		}
		if f, ok := elemMap.FindField(name); ok && f.Default != nil {
			keys = append(keys, value.Field{Name: name, Value: value.NewValueInterface(f.Default)})
		}
	}
	if len(keys) == 0 {
		return fieldpath.PathElement{}, false
	}
	keys.Sort()
	return fieldpath.PathElement{Key: &keys}, true
}

// mergeList merges an associative list item by item. Items keep theirs'
// order, or mine's when only mine reordered them; when both reordered,
// theirs' order wins, as order alone is not worth a conflict. Items one
// side added go after the item they follow on that side.
func (w *walker) mergeList(path fieldpath.Path, t *schema.List, b, m, th []any, mc, tc changeState) ([]any, bool) {
	bi, ok1 := w.indexList(t, b)
	mi, ok2 := w.indexList(t, m)
	ti, ok3 := w.indexList(t, th)
	if !ok1 || !ok2 || !ok3 {
		return nil, false
	}

	merged := make(map[string]any, len(ti.order)+len(mi.order))
	present := make(map[string]bool, len(ti.order)+len(mi.order))
	keys := unionOrder(bi.order, mi.order, ti.order)
	sort.Strings(keys)
	for _, k := range keys {
		pe, ok := ti.pes[k]
		if !ok {
			if pe, ok = mi.pes[k]; !ok {
				pe = bi.pes[k]
			}
		}
		bv, bok := bi.items[k]
		mv, mok := mi.items[k]
		tv, tok := ti.items[k]
		v, ok := w.merge(append(path, pe), t.ElementType, node{bv, bok}, node{mv, mok}, node{tv, tok}, mc.child(pe), tc.child(pe))
		if ok {
			merged[k] = v
			present[k] = true
		}
	}

	skeleton, other := ti.order, mi.order
	if sameRelativeOrder(bi.order, ti.order) && !sameRelativeOrder(bi.order, mi.order) {
		skeleton, other = mi.order, ti.order
	}
	order := weave(skeleton, other, present)
	out := make([]any, 0, len(order))
	for _, k := range order {
		out = append(out, merged[k])
	}
	return out, true
}

func unionOrder(lists ...[]string) []string {
	seen := map[string]bool{}
	var out []string
	for _, l := range lists {
		for _, k := range l {
			if !seen[k] {
				seen[k] = true
				out = append(out, k)
			}
		}
	}
	return out
}

// sameRelativeOrder says whether the keys both lists hold come in the same
// order in each.
func sameRelativeOrder(a, b []string) bool {
	pos := make(map[string]int, len(a))
	for i, k := range a {
		pos[k] = i
	}
	last := -1
	for _, k := range b {
		p, ok := pos[k]
		if !ok {
			continue
		}
		if p < last {
			return false
		}
		last = p
	}
	return true
}

// weave orders the present keys: skeleton's, with each key only other has
// after the key it follows in other, else before the key it precedes, else
// at the end (where an item appended on one side belongs).
func weave(skeleton, other []string, present map[string]bool) []string {
	out := make([]string, 0, len(skeleton)+len(other))
	in := make(map[string]bool, len(skeleton)+len(other))
	for _, k := range skeleton {
		if present[k] {
			out = append(out, k)
			in[k] = true
		}
	}
	var kept []string
	for _, k := range other {
		if present[k] {
			kept = append(kept, k)
		}
	}
	for j, k := range kept {
		if in[k] {
			continue
		}
		at := len(out)
		if j > 0 {
			at = indexOf(out, kept[j-1]) + 1
		} else {
			for _, next := range kept[1:] {
				if in[next] {
					at = indexOf(out, next)
					break
				}
			}
		}
		out = append(out, "")
		copy(out[at+1:], out[at:])
		out[at] = k
		in[k] = true
	}
	return out
}

func indexOf(l []string, k string) int {
	for i, x := range l {
		if x == k {
			return i
		}
	}
	return len(l) - 1
}

// addReorders adds to set the associative lists whose items side holds in
// another order than base. Structured-merge-diff's comparison sees items,
// not their order, and a reorder (containers, env entries that refer to
// each other) must not be lost when the other side changed nothing there.
func (w *walker) addReorders(set *fieldpath.Set, path fieldpath.Path, tr schema.TypeRef, base, side any) {
	atom, ok := w.schema.Resolve(tr)
	if !ok {
		return
	}
	switch b := base.(type) {
	case map[string]any:
		s, ok := side.(map[string]any)
		if !ok || atom.Map == nil || atom.Map.ElementRelationship == schema.Atomic {
			return
		}
		for k, bv := range b {
			sv, ok := s[k]
			if !ok || equalJSON(bv, sv) {
				continue
			}
			ft := atom.Map.ElementType
			if sf, ok := atom.Map.FindField(k); ok {
				ft = sf.Type
			}
			w.addReorders(set, append(path, fieldpath.PathElement{FieldName: &k}), ft, bv, sv)
		}
	case []any:
		s, ok := side.([]any)
		if !ok || atom.List == nil || atom.List.ElementRelationship != schema.Associative || equalJSON(b, s) {
			return
		}
		bi, ok1 := w.indexList(atom.List, b)
		si, ok2 := w.indexList(atom.List, s)
		if !ok1 || !ok2 {
			return
		}
		if !sameRelativeOrder(bi.order, si.order) {
			set.Insert(path.Copy())
		}
		if len(atom.List.Keys) == 0 {
			return
		}
		for _, k := range bi.order {
			if sv, ok := si.items[k]; ok && !equalJSON(bi.items[k], sv) {
				w.addReorders(set, append(path, bi.pes[k]), atom.List.ElementType, bi.items[k], sv)
			}
		}
	}
}
