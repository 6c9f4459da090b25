package source

import (
	"fmt"
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
			return &PlaceError{Field: c.Path.String(), Why: "after the edit the build still gives it another value (a later patch or generator may set it)"}
		}
	}
	if !sameObject(want, got) {
		return &PlaceError{Field: fieldsOf(cs), Why: "the edit would change other fields of the object too"}
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
// a list of named items compared by name: an item a strategic-merge patch
// adds may come first in the build where the edit put it last.
func sameObject(a, b map[string]any) bool {
	return reflect.DeepEqual(byName(normal(a)), byName(normal(b)))
}

// byName returns v with each list whose items are all maps with a name
// (containers, env, ports, volumes ...) sorted by name.
func byName(v any) any {
	switch x := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = byName(e)
		}
		return m
	case []any:
		l := make([]any, len(x))
		named := len(x) > 0
		for i, e := range x {
			l[i] = byName(e)
			if m, ok := e.(map[string]any); !ok || m["name"] == nil {
				named = false
			}
		}
		if named {
			slices.SortStableFunc(l, func(a, b any) int {
				return strings.Compare(fmt.Sprint(a.(map[string]any)["name"]), fmt.Sprint(b.(map[string]any)["name"]))
			})
		}
		return l
	}
	return v
}
