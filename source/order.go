package source

import (
	"fmt"
	"strings"

	kyaml "sigs.k8s.io/kustomize/kyaml/yaml"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"

	"github.com/kedit/kedit/diff"
)

// A strategic-merge patch puts the items of a list it names first, in
// its order, and the list's other items after them. Where the order of a
// list is part of the object (orderKept), a patch that names an item
// names every item before it too, by its keys alone, in the order the
// draft has: the build then holds the list in that order.

// wanted is the object as the edit must build it: as the build made it,
// with every change.
func (p *planner) wanted() map[string]any {
	if p.want == nil {
		p.want = p.obj
		for _, c := range p.cs {
			if w, ok := diff.WithValueAt(p.want, c.Path, p.buildValue(c)); ok {
				p.want = w
			}
		}
	}
	return p.want
}

// keepOrder makes each list of orderKept on the way to path in the patch
// doc name the items before the one it names, in the draft's order.
func (p *planner) keepOrder(doc *kyaml.Node, path fieldpath.Path) {
	for k := 1; k < len(path); k++ {
		pe, list := path[k], path[k-1]
		if pe.Key == nil || list.FieldName == nil || !orderKept[*list.FieldName] {
			continue
		}
		seq := at(doc, path[:k])
		want, _ := diff.ValueAt(p.wanted(), path[:k]).Value.([]any)
		if seq == nil || seq.Kind != kyaml.SequenceNode || len(want) == 0 {
			continue
		}
		var fields []string
		for _, f := range *pe.Key {
			fields = append(fields, f.Name)
		}
		orderAsWanted(seq, want, fields, p.appended(fields))
	}
}

// appended are the list items, by their key fields, that a JSON 6902 op
// of the object's kustomizations appends (add at a path ending in /-):
// a patch that named one before the op runs would make it twice.
func (p *planner) appended(fields []string) map[string]bool {
	out := map[string]bool{}
	for _, w := range p.t.lastWord(p.chain) {
		for _, ps := range p.patchesOf(w.k) {
			f, err := ps.read(p)
			if err != nil || len(f.nodes) != 1 || f.nodes[0].YNode().Kind != kyaml.SequenceNode {
				continue
			}
			for _, op := range f.nodes[0].YNode().Content {
				path, v := at(op, fieldpath.MakePathOrDie("path")), at(op, fieldpath.MakePathOrDie("value"))
				var m map[string]any
				if path == nil || v == nil || !strings.HasSuffix(path.Value, "/-") || v.Decode(&m) != nil {
					continue
				}
				out[keyOf(m, fields)] = true
			}
		}
	}
	return out
}

// orderAsWanted reorders the items of a patch's list seq as the list
// want has them, up to the last the patch names, adding each item before
// it that the patch does not name by its key fields alone, but for those
// a JSON 6902 op appends (skip). An item of the patch want lacks (a
// $patch: delete) stays, after them.
func orderAsWanted(seq *kyaml.Node, want []any, fields []string, skip map[string]bool) {
	inPatch := map[string]*kyaml.Node{}
	for _, item := range seq.Content {
		var m map[string]any
		if err := item.Decode(&m); err != nil {
			return
		}
		inPatch[keyOf(m, fields)] = item
	}
	last := -1
	for i, w := range want {
		m, _ := w.(map[string]any)
		if inPatch[keyOf(m, fields)] != nil {
			last = i
		}
	}
	var out []*kyaml.Node
	used := map[*kyaml.Node]bool{}
	for _, w := range want[:last+1] {
		m, _ := w.(map[string]any)
		if n := inPatch[keyOf(m, fields)]; n != nil {
			out, used[n] = append(out, n), true
			continue
		}
		if skip[keyOf(m, fields)] {
			continue
		}
		n := &kyaml.Node{Kind: kyaml.MappingNode, Tag: "!!map"}
		for _, f := range fields {
			if err := setAt(n, fieldpath.MakePathOrDie(f), diff.FieldValue{Present: true, Value: m[f]}); err != nil {
				return
			}
		}
		out = append(out, n)
	}
	for _, n := range seq.Content {
		if !used[n] {
			out = append(out, n)
		}
	}
	seq.Content = out
}

// keyOf is a list item's identity by its key fields.
func keyOf(m map[string]any, fields []string) string {
	var b strings.Builder
	for _, f := range fields {
		fmt.Fprintf(&b, "%s=%v;", f, normal(m[f]))
	}
	return b.String()
}
