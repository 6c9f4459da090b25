package source

import (
	"strings"

	kyaml "sigs.k8s.io/kustomize/kyaml/yaml"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"

	"github.com/kedit/kedit/diff"
)

// A strategic-merge patch puts the items it names first in their list,
// and for a list of items keyed by fields other than a name (a Service's
// ports) no patch of that kind can put a new item last. A JSON 6902 op
// that appends it (add at LIST/-) can: a new item of such a list is
// written as that op, in an inline patch of the kustomization with a
// target naming the object.

// appendsByOp says whether c adds an item kedit writes as a JSON 6902 op
// that appends it: an item by key not in the object yet, of a list the
// contract compares in order that a strategic-merge patch cannot order
// (orderKept lists are ordered by naming the items before it).
func (p *planner) appendsByOp(c diff.Change) bool {
	n := len(c.Path)
	if !c.Value.Present || n < 2 || c.Path[n-1].Key == nil || c.Path[n-2].FieldName == nil || orderKept[*c.Path[n-2].FieldName] {
		return false
	}
	if diff.ValueAt(p.obj, c.Path).Present {
		return false
	}
	list, _ := diff.ValueAt(p.obj, c.Path[:n-1]).Value.([]any)
	return len(list) > 0 && inOrder(*c.Path[n-2].FieldName, list)
}

// placeAsOp writes c as an op appending the item in a new inline patch
// of root.
func (p *planner) placeAsOp(root *kustomization, c diff.Change, why string) error {
	field := c.Path.String()
	ptrs, ok := pointers(p.obj, c.Path[:len(c.Path)-1])
	if !ok {
		return &PlaceError{Field: field, Why: "the built object has no such list"}
	}
	op := &kyaml.Node{Kind: kyaml.MappingNode, Tag: "!!map"}
	for _, kv := range []struct {
		k string
		v any
	}{{"op", "add"}, {"path", ptrs[len(ptrs)-1].at + "/-"}, {"value", p.buildValue(c).Value}} {
		if err := setAt(op, fieldpath.MakePathOrDie(kv.k), diff.FieldValue{Present: true, Value: kv.v}); err != nil {
			return &PlaceError{Field: field, Why: err.Error()}
		}
	}
	text, err := kyaml.String(&kyaml.Node{Kind: kyaml.SequenceNode, Tag: "!!seq", Content: []*kyaml.Node{op}})
	if err != nil {
		return &PlaceError{Field: field, Why: err.Error()}
	}
	name, _ := p.orgName()
	entry := &kyaml.Node{Kind: kyaml.MappingNode, Tag: "!!map"}
	for _, kv := range []struct {
		k string
		v any
	}{{"target", map[string]any{"kind": p.src.Ref.Kind, "name": name}}, {"patch", strings.TrimSuffix(text, "\n")}} {
		if err := setAt(entry, fieldpath.MakePathOrDie(kv.k), diff.FieldValue{Present: true, Value: kv.v}); err != nil {
			return &PlaceError{Field: field, Why: err.Error()}
		}
	}
	kf, err := p.yaml(root.file)
	if err != nil {
		return &PlaceError{Field: field, Why: err.Error()}
	}
	patches, err := kf.nodes[0].Pipe(kyaml.LookupCreate(kyaml.SequenceNode, "patches"))
	if err != nil {
		return &PlaceError{Field: field, Why: root.file + ": " + err.Error()}
	}
	if err := patches.PipeE(kyaml.Append(entry)); err != nil {
		return err
	}
	p.placed = append(p.placed, Placement{Field: field, File: root.file, How: "new inline json6902 patch", Why: why + "; a JSON 6902 op appends it, as a strategic-merge patch would put it first"})
	return nil
}
