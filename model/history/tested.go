package history

import (
	"reflect"
	"slices"
	"strconv"
	"strings"

	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

// pointers splits JSON pointers ("/data/a~1b") into their unescaped
// segments. "" is the whole document: no segment, which holds every
// field. A string that is no pointer is left out.
func pointers(ps []string) [][]string {
	var out [][]string
	for _, p := range ps {
		if p == "" {
			out = append(out, []string{})
			continue
		}
		if !strings.HasPrefix(p, "/") {
			continue
		}
		segs := strings.Split(p[1:], "/")
		for i, s := range segs {
			segs[i] = strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
		}
		out = append(out, segs)
	}
	return out
}

// tested reports whether version i's JSON Patch tested the field at p or
// a field holding it. The test held (the write was stored), so its writer
// had read that value at the moment of the write: for that field the
// write's base is the version just before it.
func tested(vs []Version, i int, p fieldpath.Path) bool {
	if len(vs[i].tests) == 0 {
		return false
	}
	ptr, ok := pointerOf(before(vs, i), p)
	if !ok {
		return false
	}
	for _, t := range vs[i].tests {
		if len(t) <= len(ptr) && slices.Equal(t, ptr[:len(t)]) {
			return true
		}
	}
	return false
}

// pointerOf is the JSON pointer's segments of the field at p in obj: a
// list item by its index in obj. false when obj does not say where an
// item is.
func pointerOf(obj map[string]any, p fieldpath.Path) ([]string, bool) {
	var cur any = obj
	out := make([]string, 0, len(p))
	for _, pe := range p {
		if pe.FieldName != nil {
			out = append(out, *pe.FieldName)
			m, _ := cur.(map[string]any)
			cur = m[*pe.FieldName]
			continue
		}
		items, _ := cur.([]any)
		idx := -1
		for k, it := range items {
			if itemIs(it, pe) {
				idx = k
				break
			}
		}
		if pe.Index != nil && *pe.Index >= 0 && *pe.Index < len(items) {
			idx = *pe.Index
		}
		if idx < 0 {
			return nil, false
		}
		out = append(out, strconv.Itoa(idx))
		cur = items[idx]
	}
	return out, true
}

// itemIs reports whether list item it is the one pe names by its key or
// value.
func itemIs(it any, pe fieldpath.PathElement) bool {
	switch {
	case pe.Key != nil:
		m, ok := it.(map[string]any)
		if !ok {
			return false
		}
		for _, f := range *pe.Key {
			if !reflect.DeepEqual(m[f.Name], f.Value.Unstructured()) {
				return false
			}
		}
		return true
	case pe.Value != nil:
		return reflect.DeepEqual(it, (*pe.Value).Unstructured())
	}
	return false
}
