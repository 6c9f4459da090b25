package model

import (
	"fmt"
	"sort"
	"strings"
	"time"

	yamlv3 "go.yaml.in/yaml/v3"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v6/value"
)

// FieldOwner is a field manager that owns a field, from managedFields.
type FieldOwner struct {
	// Manager is the field manager's name, e.g. "kubectl-client-side-apply".
	Manager string
	// Operation is "Update" or "Apply".
	Operation string
	// Subresource is set for writes through one, e.g. "status".
	Subresource string
	// Time is the manager's last operation, to the second.
	Time time.Time
}

// BlameLine attributes one line of an object's YAML to the managers that
// own its field, like a line of `git blame`.
type BlameLine struct {
	// Path is the field the line belongs to, in server-side apply's syntax
	// (`.spec.template.spec.containers[name="app"].image`); every line of
	// a multi-line value belongs to its field.
	Path string
	// Field names the same field by its keys from the object's root, list
	// items left out: what `kubectl explain` and the field docs take
	// (spec, template, spec, containers, image).
	Field []string
	// Owners are the managers that own the field, the latest operation
	// first (server-side apply lets several managers share a field);
	// empty when no manager owns it or anything around it (the server's
	// own fields, such as uid or resourceVersion).
	Owners []FieldOwner
	// Inherited is true when Owners own an enclosing list item, map or
	// atomic value rather than the field itself: a field the server
	// defaulted inside a container is shown as the container's.
	Inherited bool
}

// Blame attributes each line of text, a rendering of obj as YAML (the
// draft's RenderYAML, or the object view's rendering with or without
// managedFields and status), to the field managers that own the line's
// field according to obj's managedFields. It returns one BlameLine per
// line of text.
//
// Items of associative lists are told apart by their keys, as server-side
// apply tracks them: each container, port or env entry is attributed to
// its own manager. The keys are the ones managedFields itself uses (the
// `k:{...}` elements of FieldsV1), which the server derived from the
// type's schema, so built-in and custom types need no schema here: a
// Service's ports by port and protocol, a Deployment's containers by name.
// Lists managedFields enters by value or not at all are matched by value
// or position.
func Blame(obj *unstructured.Unstructured, text string) ([]BlameLine, error) {
	lines := strings.Count(text, "\n")
	if text != "" && !strings.HasSuffix(text, "\n") {
		lines++
	}
	out := make([]BlameLine, lines)
	if obj == nil || text == "" {
		return out, nil
	}
	var doc yamlv3.Node
	if err := yamlv3.Unmarshal([]byte(text), &doc); err != nil {
		return out, fmt.Errorf("blame: the text is not YAML: %w", err)
	}
	b := newBlamer(obj.GetManagedFields())
	// starts[line] is the field starting on that line (1-based); a line
	// with no field of its own (inside a block scalar) belongs to the
	// last field started before it.
	starts := map[int]fieldpath.Path{}
	for _, n := range doc.Content {
		b.walk(n, obj.Object, nil, starts)
	}
	var cur fieldpath.Path
	started := false
	for i := range out {
		if p, ok := starts[i+1]; ok {
			cur, started = p, true
		}
		if !started {
			continue
		}
		out[i] = b.line(cur)
	}
	return out, nil
}

// ownedSet is one managedFields entry: its manager and the fields it owns.
type ownedSet struct {
	owner FieldOwner
	set   *fieldpath.Set
}

// listKind says how managedFields names the items of one list.
type listKind struct {
	keys  []string // the key fields of an associative list
	value bool     // a set: items named by their value
}

type blamer struct {
	sets  []ownedSet
	lists map[string]listKind // by the list's path, as fieldpath prints it
	cache map[string]BlameLine
}

func newBlamer(mfs []metav1.ManagedFieldsEntry) *blamer {
	b := &blamer{lists: map[string]listKind{}, cache: map[string]BlameLine{}}
	for _, e := range mfs {
		s, ok := OwnedFields(&e)
		if !ok {
			continue
		}
		o := FieldOwner{Manager: e.Manager, Operation: string(e.Operation), Subresource: e.Subresource}
		if e.Time != nil {
			o.Time = e.Time.Time
		}
		b.sets = append(b.sets, ownedSet{owner: o, set: s})
		s.Iterate(func(p fieldpath.Path) {
			for j, pe := range p {
				switch {
				case pe.Key != nil:
					names := make([]string, len(*pe.Key))
					for k, f := range *pe.Key {
						names[k] = f.Name
					}
					b.lists[p[:j].String()] = listKind{keys: names}
				case pe.Value != nil:
					b.lists[p[:j].String()] = listKind{value: true}
				}
			}
		})
	}
	// Newest first, so a line's first owner is the latest to write it.
	sort.SliceStable(b.sets, func(i, j int) bool { return b.sets[i].owner.Time.After(b.sets[j].owner.Time) })
	return b
}

// walk records the field each node of n starts, n rendering v at path.
func (b *blamer) walk(n *yamlv3.Node, v any, path fieldpath.Path, starts map[int]fieldpath.Path) {
	switch n.Kind {
	case yamlv3.MappingNode:
		m, _ := v.(map[string]any)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, val := n.Content[i], n.Content[i+1]
			p := appendPath(path, fieldpath.PathElement{FieldName: &k.Value})
			starts[k.Line] = p
			b.walk(val, m[k.Value], p, starts)
		}
	case yamlv3.SequenceNode:
		l, _ := v.([]any)
		kind := b.lists[path.String()]
		for i, item := range n.Content {
			var iv any
			if i < len(l) {
				iv = l[i]
			}
			p := appendPath(path, itemElement(kind, i, iv))
			starts[item.Line] = p
			b.walk(item, iv, p, starts)
		}
	}
}

// appendPath returns path with pe added, never sharing path's array.
func appendPath(path fieldpath.Path, pe fieldpath.PathElement) fieldpath.Path {
	out := make(fieldpath.Path, len(path), len(path)+1)
	copy(out, path)
	return append(out, pe)
}

// itemElement names list item i (whose value is item) as managedFields
// names the items of its list: by its key fields, by its value, or by its
// position.
func itemElement(kind listKind, i int, item any) fieldpath.PathElement {
	switch {
	case len(kind.keys) > 0:
		m, ok := item.(map[string]any)
		if !ok {
			break
		}
		keys := make(value.FieldList, 0, len(kind.keys))
		for _, name := range kind.keys {
			if v, ok := m[name]; ok {
				keys = append(keys, value.Field{Name: name, Value: value.NewValueInterface(v)})
			}
		}
		if len(keys) == len(kind.keys) {
			keys.Sort()
			return fieldpath.PathElement{Key: &keys}
		}
	case kind.value:
		switch item.(type) {
		case map[string]any, []any:
		default:
			v := value.NewValueInterface(item)
			return fieldpath.PathElement{Value: &v}
		}
	}
	return fieldpath.PathElement{Index: &i}
}

// line attributes the field at path: to the managers owning it, else to
// those owning the nearest enclosing field that anyone owns.
func (b *blamer) line(path fieldpath.Path) BlameLine {
	key := path.String()
	if l, ok := b.cache[key]; ok {
		return l
	}
	l := BlameLine{Path: key}
	for _, pe := range path {
		if pe.FieldName != nil {
			l.Field = append(l.Field, *pe.FieldName)
		}
	}
	for n := len(path); n > 0 && len(l.Owners) == 0; n-- {
		for _, s := range b.sets {
			if s.set.Has(path[:n]) {
				l.Owners = append(l.Owners, s.owner)
			}
		}
		l.Inherited = n < len(path)
	}
	if len(l.Owners) == 0 {
		l.Inherited = false
	}
	b.cache[key] = l
	return l
}
