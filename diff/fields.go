package diff

import (
	"errors"
	"fmt"
	"sort"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v6/typed"
)

// This file holds what kedit needs of field paths around server-side apply
// and after a save: which fields a draft removes, the conflicts of an apply
// that other field managers refused, and which fields a save changed that
// the server stored otherwise.

// fieldSets returns the set of fields of each object, typed with the first
// schema that takes them all (as MergeObjects picks one), and that schema's
// source.
func fieldSets(cfg mergeConfig, objs ...*unstructured.Unstructured) ([]*fieldpath.Set, SchemaSource, error) {
	type candidate struct {
		src SchemaSource
		to  func(*unstructured.Unstructured) (*typed.TypedValue, error)
	}
	var cands []candidate
	if cfg.schemas != nil {
		cands = append(cands, candidate{SchemaGiven, func(o *unstructured.Unstructured) (*typed.TypedValue, error) {
			return cfg.schemas.ObjectToTyped(o, typed.AllowDuplicates)
		}})
	}
	cands = append(cands,
		candidate{SchemaBuiltin, func(o *unstructured.Unstructured) (*typed.TypedValue, error) {
			return builtinSchemas().ObjectToTyped(o, typed.AllowDuplicates)
		}},
		candidate{SchemaDeduced, func(o *unstructured.Unstructured) (*typed.TypedValue, error) {
			return typed.DeducedParseableType.FromUnstructured(o.Object, typed.AllowDuplicates)
		}})
	var errs []error
	for _, c := range cands {
		sets, err := func() (sets []*fieldpath.Set, err error) {
			defer func() {
				if r := recover(); r != nil {
					err = fmt.Errorf("panic while typing: %v", r)
				}
			}()
			for _, o := range objs {
				tv, err := c.to(o)
				if err != nil {
					return nil, err
				}
				s, err := tv.ToFieldSet()
				if err != nil {
					return nil, err
				}
				sets = append(sets, s)
			}
			return sets, nil
		}()
		if err == nil {
			return sets, c.src, nil
		}
		errs = append(errs, fmt.Errorf("%s schema: %w", c.src, err))
	}
	return nil, "", fmt.Errorf("diff: cannot type the objects: %w", errors.Join(errs...))
}

// RemovedFields returns every field base has and mine does not, the
// fields inside a removed map or list item included, named as server-side
// apply names them (so that they can be compared with managedFields).
// Fields the server owns are left out.
func RemovedFields(base, mine *unstructured.Unstructured, opts ...Option) (*fieldpath.Set, error) {
	var cfg mergeConfig
	for _, o := range opts {
		o(&cfg)
	}
	if base == nil || mine == nil {
		return nil, ErrNoObject
	}
	b, err := stripped(base, cfg.statusEdited)
	if err != nil {
		return nil, &InputError{Side: "base", Err: err}
	}
	m, err := stripped(mine, cfg.statusEdited)
	if err != nil {
		return nil, &InputError{Side: "mine", Err: err}
	}
	sets, _, err := fieldSets(cfg, b, m)
	if err != nil {
		return nil, err
	}
	return sets[0].Difference(sets[1]), nil
}

// OwnershipConflicts is the rebase of a server-side apply of mine that the
// server refused because other field managers own some of its fields:
// owners maps each such field, in server-side apply's syntax (`.data.foo`),
// to its manager. Theirs is the object on the server, whose content is
// base's (the apply was refused for ownership alone).
//
// Each owned field mine sets is a Conflict with Owner set; mine's other
// changes are Changes. Resolving a conflict to mine takes the field (the
// apply must then force it), to theirs leaves it to its owner: Final gives
// it theirs' value, and FinalWithout can leave it out of the applied
// object. Fields of owners that match no field of mine are ignored.
func OwnershipConflicts(base, mine, theirs *unstructured.Unstructured, owners map[string]string, opts ...Option) (*ObjectMerge, error) {
	m, err := MergeObjects(base, mine, theirs, opts...)
	if err != nil {
		return nil, err
	}
	if len(m.Conflicts) > 0 {
		return nil, fmt.Errorf("diff: theirs is not base's content (%s changed on both sides), so the apply was not refused for ownership alone", m.Conflicts[0].Where())
	}
	var cfg mergeConfig
	for _, o := range opts {
		o(&cfg)
	}
	sm, err := stripped(mine, cfg.statusEdited)
	if err != nil {
		return nil, &InputError{Side: "mine", Err: err}
	}
	sets, _, err := fieldSets(cfg, sm)
	if err != nil {
		return nil, err
	}
	var paths []fieldpath.Path
	sets[0].Iterate(func(p fieldpath.Path) {
		if _, ok := owners[p.String()]; ok {
			paths = append(paths, p.Copy())
		}
	})
	sort.Slice(paths, func(i, j int) bool { return paths[i].Compare(paths[j]) < 0 })
	// The merged tree is mine's object (theirs changed nothing): its
	// values are the conflicts' mine values, decoded for a Secret.
	out := &ObjectMerge{Merged: m.Merged, Schema: m.Schema, tree: m.tree, secretKeys: m.secretKeys}
	for _, p := range paths {
		if n := len(out.Conflicts); n > 0 && within(p, out.Conflicts[n-1].Path) {
			continue
		}
		mv, ok := at(m.tree, p)
		if !ok {
			continue
		}
		tree, ok := withSlot(out.tree, p, slot{u: len(out.units)})
		if !ok {
			continue
		}
		out.tree = tree.(map[string]any)
		bv, bok := at(m.stripTree(base), p)
		out.Conflicts = append(out.Conflicts, Conflict{
			Path:   p,
			Base:   node{bv, bok}.field(),
			Mine:   node{mv, true}.field(),
			Theirs: node{bv, bok}.field(),
			Owner:  owners[p.String()],
		})
		out.units = append(out.units, unit{first: len(out.Conflicts) - 1, n: 1})
	}
	for _, c := range m.Changes {
		covered := false
		for _, cf := range out.Conflicts {
			covered = covered || within(c.Path, cf.Path)
		}
		if !covered {
			out.Changes = append(out.Changes, c)
		}
	}
	out.Resolutions = make([]Resolution, len(out.Conflicts))
	return out, nil
}

// within says whether p is q or a field inside it.
func within(p, q fieldpath.Path) bool {
	if len(p) < len(q) {
		return false
	}
	return p[:len(q)].Equals(q)
}

// at is v's value at path.
func at(v any, path fieldpath.Path) (any, bool) {
	for _, pe := range path {
		c, ok := childValue(v, pe)
		if !ok {
			return nil, false
		}
		v = c
	}
	return v, true
}

// stripTree is obj as the merge m compared it: without what the server
// owns, a Secret's data decoded for m's keys.
func (m *ObjectMerge) stripTree(obj *unstructured.Unstructured) map[string]any {
	secretKeys := m.secretKeys
	s, err := stripped(obj, m.keepStatus)
	if err != nil {
		return nil
	}
	if len(secretKeys) == 0 {
		return s.Object
	}
	decodeSecretData(s)
	return s.Object
}

// withSlot returns v with the value at path replaced by s, copying the maps
// and lists on the way so that nothing shared with the inputs changes.
func withSlot(v any, path fieldpath.Path, s slot) (any, bool) {
	if len(path) == 0 {
		return s, true
	}
	pe := path[0]
	switch x := v.(type) {
	case map[string]any:
		if pe.FieldName == nil {
			return v, false
		}
		c, ok := x[*pe.FieldName]
		if !ok {
			return v, false
		}
		nc, ok := withSlot(c, path[1:], s)
		if !ok {
			return v, false
		}
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = e
		}
		out[*pe.FieldName] = nc
		return out, true
	case []any:
		c, ok := childValue(x, pe)
		if !ok {
			return v, false
		}
		for i, e := range x {
			if !equalJSON(e, c) {
				continue
			}
			nc, ok := withSlot(e, path[1:], s)
			if !ok {
				return v, false
			}
			out := append([]any(nil), x...)
			out[i] = nc
			return out, true
		}
	}
	return v, false
}

// FinalWithout is Final with the fields of the conflicts drop names left
// out of the object: a server-side apply that stops claiming them. It
// leaves out whole fields only; a conflict that is one region of a
// multi-line string is never dropped.
func (m *ObjectMerge) FinalWithout(drop func(i int) bool) (*unstructured.Unstructured, error) {
	if n := m.Open(); n > 0 {
		return nil, &OpenConflictsError{Open: n}
	}
	return &unstructured.Unstructured{Object: m.materialize(func(u int) FieldValue {
		if un := &m.units[u]; un.text == nil && drop(un.first) {
			return FieldValue{}
		}
		return m.pickResolved(u)
	}, nil)}, nil
}

// Mismatch is a field a save changed from base that the server stored
// otherwise.
type Mismatch struct {
	// Path is the field in server-side apply's syntax.
	Path fieldpath.Path
	// Sent is the field as the save had it (absent: the save removed it),
	// Stored as the server's answer has it. A Secret's data is decoded.
	Sent, Stored FieldValue
}

// NotStored compares what a save sent, made from base, with what the
// server stored, and returns each field the save set or removed that the
// server has otherwise. Changes the server made on its own to fields the
// save did not touch (defaults, server-owned fields, status) are not
// mismatches.
func NotStored(base, sent, stored *unstructured.Unstructured, opts ...Option) ([]Mismatch, error) {
	// Sent as mine and stored as theirs: a change of sent's that stored
	// lacks is mine's alone, and one stored has otherwise collides.
	m, err := MergeObjects(base, sent, stored, opts...)
	if err != nil {
		return nil, err
	}
	var out []Mismatch
	seen := map[string]bool{}
	storedTree := m.stripTree(stored)
	add := func(p fieldpath.Path, sent FieldValue) {
		if k := p.String(); !seen[k] {
			seen[k] = true
			v, ok := at(storedTree, p)
			out = append(out, Mismatch{Path: p, Sent: sent, Stored: node{v, ok}.field()})
		}
	}
	for _, c := range m.Changes {
		if c.Side == SideMine {
			add(c.Path, c.Value)
		}
	}
	for _, c := range m.Conflicts {
		add(c.Path, c.Mine)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Path.Compare(out[j].Path) < 0 })
	return out, nil
}
