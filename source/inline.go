package source

import (
	"slices"

	"sigs.k8s.io/kustomize/api/types"
	kyaml "sigs.k8s.io/kustomize/kyaml/yaml"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"

	"github.com/kedit/kedit/diff"
)

// patchSource is one patch of a kustomization: a file, or a patch written
// inline in the kustomization's patches: (item, -1 for a file).
type patchSource struct {
	k    *kustomization
	rel  string // the patch file, or the kustomization's
	item int
	name string // as a refusal names it
	// target selects the objects the patch applies to; nil: the object
	// its document names.
	target *types.Selector
}

// applies says whether the patch applies to the object: its target
// selects it, or with none, its document doc names it.
func (ps patchSource) applies(p *planner, doc *kyaml.RNode) bool {
	if ps.target != nil {
		return p.selects(ps.target)
	}
	return doc == nil || p.targets(doc)
}

// patchesOf are k's patches, the last first: its patches: entries, files
// and inline, and the files of the older fields kustomize folds into
// them (patchesJson6902:, patchesStrategicMerge:), which it applies
// after them.
func (p *planner) patchesOf(k *kustomization) []patchSource {
	var out []patchSource
	seen := map[string]bool{}
	if kf, err := p.yaml(k.file); err == nil && len(kf.nodes) > 0 {
		if seq := at(kf.nodes[0].YNode(), fieldpath.MakePathOrDie("patches")); seq != nil && seq.Kind == kyaml.SequenceNode {
			for i, item := range seq.Content {
				if pn := at(item, fieldpath.MakePathOrDie("path")); pn != nil {
					rel := k.rel(pn.Value)
					seen[rel] = true
					out = append(out, patchSource{k: k, rel: rel, item: -1, name: rel, target: targetOf(item)})
				} else if at(item, fieldpath.MakePathOrDie("patch")) != nil {
					out = append(out, patchSource{k: k, rel: k.file, item: i, name: "the inline patch in " + k.file, target: targetOf(item)})
				}
			}
		}
	}
	for _, pt := range p.t.allPatches(k) {
		if rel := k.rel(pt.Path); pt.Path != "" && !seen[rel] {
			seen[rel] = true
			out = append(out, patchSource{k: k, rel: rel, item: -1, name: rel, target: pt.Target})
		}
	}
	slices.Reverse(out)
	return out
}

// inlineNode is the node of an inline patch's text as the plan has it.
func (ps patchSource) inlineNode(p *planner) *kyaml.Node {
	kf, err := p.yaml(ps.k.file)
	if err != nil || len(kf.nodes) == 0 {
		return nil
	}
	return at(kf.nodes[0].YNode(), fieldpath.MakePathOrDie("patches", ps.item, "patch"))
}

// onlyThis says whether the patch applies to no other object of root's
// build than the object: one without a target names its object, one
// with a target may select several (a component's patch of every
// Deployment), and a field added there would change them all.
func (ps patchSource) onlyThis(p *planner, root *kustomization) bool {
	if ps.target == nil {
		return true
	}
	objs, err := p.t.build(root.dir, nil)
	if err != nil {
		return false
	}
	n := 0
	for _, b := range objs {
		if p.selectsObject(ps.target, b.obj, "", "") {
			n++
		}
	}
	return n <= 1
}

// read returns the patch's documents: the file's, or the inline text's.
func (ps patchSource) read(p *planner) (*yamlFile, error) {
	if ps.item < 0 {
		return p.yaml(ps.rel)
	}
	n := ps.inlineNode(p)
	if n == nil || n.Kind != kyaml.ScalarNode {
		return nil, &PlaceError{Field: "", Why: ps.name + " is not a patch's text"}
	}
	return readYAMLFile(ps.name, []byte(n.Value))
}

// written records the placement of field in the patch; an inline patch's
// edited text goes back into its kustomization, spliced as any value.
func (ps patchSource) written(p *planner, f *yamlFile, field, how string) error {
	if ps.item >= 0 {
		text, err := f.bytes()
		if err != nil {
			return &PlaceError{Field: field, Why: err.Error()}
		}
		kf, err := p.yaml(ps.k.file)
		if err != nil {
			return &PlaceError{Field: field, Why: err.Error()}
		}
		if err := setAt(kf.nodes[0].YNode(), fieldpath.MakePathOrDie("patches", ps.item, "patch"), diff.FieldValue{Present: true, Value: string(text)}); err != nil {
			return &PlaceError{Field: field, Why: ps.name + ": " + err.Error()}
		}
		how = "inline " + how
	}
	p.placed = append(p.placed, Placement{Field: field, File: ps.rel, How: how})
	return nil
}

// dropped removes the patch's entry from its kustomization's patches:,
// the last op of a JSON 6902 patch removed (a patch of no op does not
// build), and records the placement. A file stays as it is, named by no
// kustomization.
func (ps patchSource) dropped(p *planner, field string) error {
	kf, err := p.yaml(ps.k.file)
	if err != nil {
		return &PlaceError{Field: field, Why: err.Error()}
	}
	seq := at(kf.nodes[0].YNode(), fieldpath.MakePathOrDie("patches"))
	if seq == nil || seq.Kind != kyaml.SequenceNode {
		return &PlaceError{Field: field, Why: ps.name + " is named by no entry of patches: in " + ps.k.file}
	}
	i := ps.item
	if i < 0 {
		for j, item := range seq.Content {
			if pn := at(item, fieldpath.MakePathOrDie("path")); pn != nil && ps.k.rel(pn.Value) == ps.rel {
				i = j
			}
		}
	}
	if i < 0 || i >= len(seq.Content) {
		return &PlaceError{Field: field, Why: ps.name + " is named by no entry of patches: in " + ps.k.file}
	}
	seq.Content = slices.Delete(seq.Content, i, i+1)
	p.placed = append(p.placed, Placement{Field: field, File: ps.k.file, How: "json6902 patch removed, its last op gone"})
	return nil
}
