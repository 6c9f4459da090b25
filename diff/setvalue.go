package diff

import (
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

// WithValueAt returns obj with its field at path set to v (removed when v
// is absent), copying the maps and lists on the way so that obj itself is
// unchanged. A keyed list item or set value that is missing is appended
// (holding its keys); a missing map on the way is made. ok is false when
// the path cannot be followed (an index out of range, a list where a map
// should be). A Secret's data is set as given: encode it first.
func WithValueAt(obj map[string]any, path fieldpath.Path, v FieldValue) (map[string]any, bool) {
	out, ok := withValue(obj, path, v)
	if !ok {
		return obj, false
	}
	m, _ := out.(map[string]any)
	return m, m != nil || obj == nil
}

func withValue(cur any, path fieldpath.Path, v FieldValue) (any, bool) {
	if len(path) == 0 {
		if !v.Present {
			return nil, true
		}
		c, err := copyJSON(v.Value)
		return c, err == nil
	}
	pe := path[0]
	switch {
	case pe.FieldName != nil:
		m, _ := cur.(map[string]any)
		if cur != nil && m == nil {
			return cur, false
		}
		child, had := m[*pe.FieldName]
		if !had && !v.Present {
			return cur, true // nothing to remove
		}
		nc, ok := withValue(child, path[1:], v)
		if !ok {
			return cur, false
		}
		out := make(map[string]any, len(m)+1)
		for k, e := range m {
			out[k] = e
		}
		if len(path) == 1 && !v.Present {
			delete(out, *pe.FieldName)
		} else {
			out[*pe.FieldName] = nc
		}
		return out, true
	case pe.Key != nil || pe.Value != nil || pe.Index != nil:
		items, _ := cur.([]any)
		if cur != nil && items == nil {
			return cur, false
		}
		at := -1
		if want, ok := childValue(items, pe); ok {
			for i, it := range items {
				if equalJSON(it, want) {
					at = i
					break
				}
			}
		}
		out := append([]any(nil), items...)
		switch {
		case at < 0 && pe.Index != nil:
			return cur, false
		case at < 0 && !v.Present:
			return cur, true // nothing to remove
		case at < 0:
			var seed any
			if pe.Key != nil {
				keys := map[string]any{}
				for _, f := range *pe.Key {
					keys[f.Name] = f.Value.Unstructured()
				}
				seed = keys
			}
			nc, ok := withValue(seed, path[1:], v)
			if !ok {
				return cur, false
			}
			return append(out, nc), true
		case len(path) == 1 && !v.Present:
			return append(out[:at], out[at+1:]...), true
		}
		nc, ok := withValue(items[at], path[1:], v)
		if !ok {
			return cur, false
		}
		out[at] = nc
		return out, true
	}
	return cur, false
}
