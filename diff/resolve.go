package diff

import (
	"encoding/base64"
	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// Resolve records how conflict i is resolved (Unresolved opens it again)
// and returns how many conflicts are still open.
func (m *ObjectMerge) Resolve(i int, r Resolution) (open int, err error) {
	if i < 0 || i >= len(m.Conflicts) {
		return m.Open(), fmt.Errorf("diff: no conflict %d (there are %d)", i, len(m.Conflicts))
	}
	if r.Choice < Unresolved || r.Choice > TakeCustom {
		return m.Open(), fmt.Errorf("diff: unknown choice %d", r.Choice)
	}
	if r.Choice == TakeCustom {
		v, err := copyJSON(r.Value.Value)
		if err != nil {
			return m.Open(), fmt.Errorf("diff: custom value for %s: %w", m.Conflicts[i].Path, err)
		}
		if _, isText := v.(string); m.Conflicts[i].Hunk != nil && (!isText || !r.Value.Present) {
			return m.Open(), fmt.Errorf("diff: the custom value for %s must be its lines, a string", m.Conflicts[i].Where())
		}
		r.Value.Value = v
	} else {
		r.Value = FieldValue{}
	}
	m.Resolutions[i] = r
	return m.Open(), nil
}

// Open returns how many conflicts are not resolved yet.
func (m *ObjectMerge) Open() int {
	n := 0
	for _, r := range m.Resolutions {
		if r.Choice == Unresolved {
			n++
		}
	}
	return n
}

// Clone returns a copy whose resolutions change apart from m's; the merged
// values are shared, as nothing changes them.
func (m *ObjectMerge) Clone() *ObjectMerge {
	c := *m
	c.Resolutions = append([]Resolution(nil), m.Resolutions...)
	return &c
}

// Final returns the merged object with every conflict resolved, ready to
// save with theirs' resourceVersion. While conflicts are open it returns an
// *OpenConflictsError.
func (m *ObjectMerge) Final() (*unstructured.Unstructured, error) {
	if n := m.Open(); n > 0 {
		return nil, &OpenConflictsError{Open: n}
	}
	return &unstructured.Unstructured{Object: m.materialize(m.pickResolved, nil)}, nil
}

// resolvedValue is the value a resolution gives a whole field in conflict.
func resolvedValue(c *Conflict, r Resolution) FieldValue {
	switch r.Choice {
	case TakeMine:
		return c.Mine
	case TakeBase:
		return c.Base
	case TakeCustom:
		return r.Value
	}
	// Open conflicts keep theirs' value: never undo the server's state
	// without the user's say.
	return c.Theirs
}

// materialize builds the merged object from the tree, giving unit u's
// field the value pick(u) chooses (absent removes the field), and encodes a
// Secret's data again, except for the units raw says to leave alone.
func (m *ObjectMerge) materialize(pick func(u int) FieldValue, raw func(u int) bool) map[string]any {
	fill := func(s slot) (any, bool) {
		fv := pick(s.u)
		v, _ := fillSlots(fv.Value, nil)
		return v, fv.Present
	}
	out, _ := fillSlots(m.tree, fill)
	obj, _ := out.(map[string]any)
	if obj == nil {
		obj = map[string]any{}
	}
	if len(m.secretKeys) == 0 {
		return obj
	}
	data, ok := obj["data"].(map[string]any)
	if !ok {
		return obj
	}
	treeData, _ := m.tree["data"].(map[string]any)
	for k := range m.secretKeys {
		if sl, ok := treeData[k].(slot); ok && raw != nil && raw(sl.u) {
			continue
		}
		if s, ok := data[k].(string); ok {
			data[k] = base64.StdEncoding.EncodeToString([]byte(s))
		}
	}
	return obj
}

// pickResolved is the value the resolutions of unit u's conflicts give its
// field.
func (m *ObjectMerge) pickResolved(u int) FieldValue {
	un := &m.units[u]
	if un.text == nil {
		return resolvedValue(&m.Conflicts[un.first], m.Resolutions[un.first])
	}
	return FieldValue{Present: true, Value: un.text.resolved(func(j int) Resolution { return m.Resolutions[un.first+j] })}
}

// unitOpen says whether any conflict of unit u is open.
func (m *ObjectMerge) unitOpen(u int) bool {
	un := &m.units[u]
	for _, r := range m.Resolutions[un.first : un.first+un.n] {
		if r.Choice == Unresolved {
			return true
		}
	}
	return false
}

// fillSlots copies v, replacing each slot by fill's value and dropping the
// fields and list items fill says are absent.
func fillSlots(v any, fill func(slot) (any, bool)) (any, bool) {
	switch x := v.(type) {
	case slot:
		return fill(x)
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			if c, ok := fillSlots(e, fill); ok {
				out[k] = c
			}
		}
		return out, true
	case []any:
		out := make([]any, 0, len(x))
		for _, e := range x {
			if c, ok := fillSlots(e, fill); ok {
				out = append(out, c)
			}
		}
		return out, true
	}
	// Scalars are immutable; strings share their bytes.
	return v, true
}

// copyJSON deep-copies an unstructured value, turning the Go numbers a
// caller may use (int, int32, float32 ...) into the int64 and float64 that
// unstructured objects hold. Other types are an error, where
// runtime.DeepCopyJSONValue would panic.
func copyJSON(v any) (any, error) {
	switch x := v.(type) {
	case nil, string, bool, int64, float64:
		return v, nil
	case int:
		return int64(x), nil
	case int8:
		return int64(x), nil
	case int16:
		return int64(x), nil
	case int32:
		return int64(x), nil
	case uint8:
		return int64(x), nil
	case uint16:
		return int64(x), nil
	case uint32:
		return int64(x), nil
	case float32:
		return float64(x), nil
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			c, err := copyJSON(e)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", k, err)
			}
			out[k] = c
		}
		return out, nil
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			c, err := copyJSON(e)
			if err != nil {
				return nil, fmt.Errorf("[%d]: %w", i, err)
			}
			out[i] = c
		}
		return out, nil
	}
	return nil, fmt.Errorf("%T is not a JSON value", v)
}
