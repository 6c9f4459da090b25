package diff

import (
	"reflect"
	"sort"

	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v6/value"
)

// Narrow splits each mismatch whose two sides are maps, or lists whose
// items pair up, into the fields inside it that differ, so that a field the
// server dropped from one container is named as itself
// (`.spec.template.spec.containers[name="nginx"].imagePullPolicyy`), not
// as the whole list. List items pair by their name when every item of
// both sides is a map with a distinct name, else by index when both sides
// have as many; lists that do not pair stay whole.
func Narrow(ms []Mismatch) []Mismatch {
	var out []Mismatch
	for _, m := range ms {
		out = append(out, narrow(m)...)
	}
	return out
}

func narrow(m Mismatch) []Mismatch {
	if !m.Sent.Present || !m.Stored.Present {
		return []Mismatch{m}
	}
	var out []Mismatch
	child := func(pe fieldpath.PathElement, sent, stored FieldValue) {
		if sent.Present == stored.Present && reflect.DeepEqual(sent.Value, stored.Value) {
			return
		}
		p := append(m.Path.Copy(), pe)
		out = append(out, narrow(Mismatch{Path: p, Sent: sent, Stored: stored})...)
	}
	switch sent := m.Sent.Value.(type) {
	case map[string]any:
		stored, ok := m.Stored.Value.(map[string]any)
		if !ok {
			return []Mismatch{m}
		}
		keys := make([]string, 0, len(sent)+len(stored))
		for k := range sent {
			keys = append(keys, k)
		}
		for k := range stored {
			if _, ok := sent[k]; !ok {
				keys = append(keys, k)
			}
		}
		sort.Strings(keys)
		for _, k := range keys {
			s, sok := sent[k]
			t, tok := stored[k]
			name := k
			child(fieldpath.PathElement{FieldName: &name}, FieldValue{Present: sok, Value: s}, FieldValue{Present: tok, Value: t})
		}
	case []any:
		stored, ok := m.Stored.Value.([]any)
		if !ok {
			return []Mismatch{m}
		}
		sentNames, sok := itemNames(sent)
		storedNames, tok := itemNames(stored)
		switch {
		case sok && tok:
			for _, n := range unionNames(sentNames, storedNames) {
				s, sin := sentNames.at(sent, n)
				t, tin := storedNames.at(stored, n)
				key := value.FieldList{{Name: "name", Value: value.NewValueInterface(n)}}
				child(fieldpath.PathElement{Key: &key}, FieldValue{Present: sin, Value: s}, FieldValue{Present: tin, Value: t})
			}
		case len(sent) == len(stored):
			for i := range sent {
				i := i
				child(fieldpath.PathElement{Index: &i}, FieldValue{Present: true, Value: sent[i]}, FieldValue{Present: true, Value: stored[i]})
			}
		default:
			return []Mismatch{m}
		}
	default:
		return []Mismatch{m}
	}
	if len(out) == 0 {
		return []Mismatch{m}
	}
	return out
}

// names are a list's items by their name, in order.
type names struct {
	order []string
	index map[string]int
}

func (n names) at(items []any, name string) (any, bool) {
	i, ok := n.index[name]
	if !ok {
		return nil, false
	}
	return items[i], true
}

// itemNames reads the name of every item, false when an item is not a map
// with a string name or two share one.
func itemNames(items []any) (names, bool) {
	n := names{index: map[string]int{}}
	for i, it := range items {
		m, ok := it.(map[string]any)
		if !ok {
			return n, false
		}
		name, ok := m["name"].(string)
		if !ok {
			return n, false
		}
		if _, dup := n.index[name]; dup {
			return n, false
		}
		n.index[name] = i
		n.order = append(n.order, name)
	}
	return n, true
}

func unionNames(a, b names) []string {
	out := append([]string(nil), a.order...)
	for _, n := range b.order {
		if _, ok := a.index[n]; !ok {
			out = append(out, n)
		}
	}
	return out
}
