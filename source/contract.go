package source

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/kedit/kedit/diff"
)

// The contract, checked on a build after the edit: the object holds the
// edited value on every changed path and nothing else changed, and no
// other object of the build changed.

// check holds the contract on a build after the edit.
func (p *planner) check(cs []diff.Change, before, after []built) error {
	before, after = unhashed(before), unhashed(after)
	var want map[string]any
	for _, b := range before {
		if sameRef(b, p.src.Ref) {
			want = b.obj
		}
	}
	for _, c := range cs {
		v := p.buildValue(c)
		w, ok := diff.WithValueAt(want, c.Path, v)
		if !ok {
			return &PlaceError{Field: c.Path.String(), Why: "the built object has no such place"}
		}
		want = w
	}
	var got map[string]any
	others := map[Ref]map[string]any{}
	for _, b := range after {
		if sameRef(b, p.src.Ref) {
			got = b.obj
			continue
		}
		others[b.ref] = b.obj
	}
	if got == nil {
		return &PlaceError{Field: fieldsOf(cs), Why: "the edited build no longer holds the object"}
	}
	for _, c := range cs {
		g, w := diff.ValueAt(got, c.Path), diff.ValueAt(want, c.Path)
		if g.Present != w.Present || !reflect.DeepEqual(normal(g.Value), normal(w.Value)) {
			why := "after the edit the build still gives it another value (a later patch or generator may set it)"
			if by := p.labelledBy(c); by != "" {
				why = "after the edit the build still gives it another value: " + by + " sets it, a transformer kedit does not write; change it there"
			}
			return &PlaceError{Field: c.Path.String(), Why: why}
		}
	}
	if !sameObject(want, got) {
		return &PlaceError{Field: fieldsOf(cs), Why: "the edit would change " + otherField(want, got) + " too"}
	}
	for _, b := range before {
		if sameRef(b, p.src.Ref) {
			continue
		}
		o, ok := others[b.ref]
		if !ok {
			return &PlaceError{Field: fieldsOf(cs), Why: "the edit would remove " + b.ref.String() + " from the build"}
		}
		if !sameObject(b.obj, o) {
			return &PlaceError{Field: fieldsOf(cs), Why: "the edit would change " + b.ref.String() + " too"}
		}
		delete(others, b.ref)
	}
	for r := range others {
		return &PlaceError{Field: fieldsOf(cs), Why: "the edit would add " + r.String() + " to the build"}
	}
	return nil
}

// fieldsOf names the changed fields, for a failure of the edit as a
// whole: each field was placed, and together they break the contract.
func fieldsOf(cs []diff.Change) string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Path.String())
	}
	return strings.Join(out, ", ")
}

// sameObject says whether two versions of an object hold the same fields,
// a list of named items compared by name (an item a strategic-merge patch
// adds may come first in the build where the edit put it last) but for
// the lists whose order the object keeps and acts on (orderKept).
func sameObject(a, b map[string]any) bool {
	return reflect.DeepEqual(byName(normal(a), ""), byName(normal(b), ""))
}

// orderKept are the lists of named items whose order is part of what the
// object says: a container's env (a value may refer to the variables
// before it, and another order is another pod template, which rolls the
// pods) and the init containers, which run in their order.
var orderKept = map[string]bool{"env": true, "initContainers": true}

// inOrder says whether the contract compares the items of the list
// field in their order: all but a list whose items all have a name,
// which is not of orderKept.
func inOrder(field string, items []any) bool {
	if len(items) == 0 || orderKept[field] {
		return true
	}
	for _, e := range items {
		if m, ok := e.(map[string]any); !ok || m["name"] == nil {
			return true
		}
	}
	return false
}

// byName returns v with each list whose items are all maps with a name
// (containers, ports, volumes ...) sorted by name, but for the lists of
// orderKept; field is the name of v's field.
func byName(v any, field string) any {
	switch x := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = byName(e, k)
		}
		return m
	case []any:
		l := make([]any, len(x))
		for i, e := range x {
			l[i] = byName(e, "")
		}
		if !inOrder(field, x) {
			slices.SortStableFunc(l, func(a, b any) int {
				return strings.Compare(fmt.Sprint(a.(map[string]any)["name"]), fmt.Sprint(b.(map[string]any)["name"]))
			})
		}
		return l
	}
	return v
}

// otherField names where two versions of an object differ, as the
// contract compares them: the first field by name, or the order of a
// list of orderKept.
func otherField(a, b map[string]any) string {
	if f := firstDifference(byName(normal(a), ""), byName(normal(b), ""), ""); f != "" {
		return f
	}
	return "other fields of the object"
}

func firstDifference(a, b any, at string) string {
	if reflect.DeepEqual(a, b) {
		return ""
	}
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok {
			return at
		}
		keys := slices.Sorted(maps.Keys(x))
		for k := range y {
			if _, had := x[k]; !had {
				keys = append(keys, k)
			}
		}
		for _, k := range keys {
			if f := firstDifference(x[k], y[k], at+"."+k); f != "" {
				return f
			}
		}
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return at
		}
		for i := range x {
			if f := firstDifference(x[i], y[i], fmt.Sprintf("%s[%s]", at, itemName(x[i], i))); f != "" {
				if sameItems(x, y) {
					return "the order of " + at + "'s items"
				}
				return f
			}
		}
	}
	return at
}

// itemName is a list item as a path names it: name="..." or its index.
func itemName(v any, i int) string {
	if m, ok := v.(map[string]any); ok && m["name"] != nil {
		return fmt.Sprintf("name=%q", fmt.Sprint(m["name"]))
	}
	return fmt.Sprint(i)
}

// sameItems: two lists of the same items in another order.
func sameItems(a, b []any) bool {
	key := func(l []any) []string {
		var out []string
		for _, v := range l {
			out = append(out, fmt.Sprint(v))
		}
		slices.Sort(out)
		return out
	}
	return slices.Equal(key(a), key(b))
}

// unreproduced checks that the changes cs give the draft's lists of
// items: base with cs holds the same items, by their keys, in each list
// a change names an item of as mine does. A list whose items are keyed
// by a field the server defaults (a port's protocol) can make a changed
// key read as two removals; written, that would build neither item.
func unreproduced(base, mine map[string]any, cs []diff.Change) error {
	want := base
	for _, c := range cs {
		if w, ok := diff.WithValueAt(want, c.Path, c.Value); ok {
			want = w
		}
	}
	for _, c := range cs {
		n := len(c.Path)
		if n < 2 || c.Path[n-1].Key == nil {
			continue
		}
		var fields []string
		for _, f := range *c.Path[n-1].Key {
			fields = append(fields, f.Name)
		}
		list := c.Path[:n-1]
		w, _ := diff.ValueAt(want, list).Value.([]any)
		m, _ := diff.ValueAt(mine, list).Value.([]any)
		if !slices.Equal(itemKeys(w, fields), itemKeys(m, fields)) {
			return &PlaceError{Field: c.Path.String(), Why: fmt.Sprintf("kedit's diff of the draft does not give %s's items as the draft has them (they are keyed by a field the server defaults, as a port's protocol): edit the files by hand", list)}
		}
	}
	return nil
}

// itemKeys are a list's items by their key fields, sorted.
func itemKeys(l []any, fields []string) []string {
	var out []string
	for _, e := range l {
		m, _ := e.(map[string]any)
		out = append(out, keyOf(m, fields))
	}
	slices.Sort(out)
	return out
}

// labelledBy names the labels:, commonLabels: or commonAnnotations: of
// the object's kustomizations that set c's label or annotation, or "".
func (p *planner) labelledBy(c diff.Change) string {
	n := len(c.Path)
	if n < 2 || c.Path[n-1].FieldName == nil || c.Path[n-2].FieldName == nil {
		return ""
	}
	key, what := *c.Path[n-1].FieldName, *c.Path[n-2].FieldName
	for _, w := range p.t.lastWord(p.chain) {
		k := w.k.k
		switch what {
		case "labels", "matchLabels", "selector":
			for _, l := range k.Labels {
				if _, ok := l.Pairs[key]; ok {
					return "the labels: of " + w.k.file
				}
			}
			//lint:ignore SA1019 layouts in use still set commonLabels:, which kustomize still applies
			if _, ok := k.CommonLabels[key]; ok {
				return "the commonLabels: of " + w.k.file
			}
		case "annotations":
			if _, ok := k.CommonAnnotations[key]; ok {
				return "the commonAnnotations: of " + w.k.file
			}
		}
	}
	return ""
}
