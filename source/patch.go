package source

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"sigs.k8s.io/kustomize/api/types"
	kyaml "sigs.k8s.io/kustomize/kyaml/yaml"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"

	"github.com/kedit/kedit/diff"
)

// placeInResource sets the field in the object's document.
func (p *planner) placeInResource(c diff.Change) error {
	f, err := p.yaml(p.src.File)
	if err != nil {
		return &PlaceError{Field: c.Path.String(), Why: err.Error()}
	}
	doc := f.doc(p.src.Ref)
	if doc == nil {
		return &PlaceError{Field: c.Path.String(), Why: p.src.File + " holds no document of the object"}
	}
	path, v := p.secretField(doc.YNode(), c)
	if err := setAt(doc.YNode(), path, v); err != nil {
		return &PlaceError{Field: c.Path.String(), Why: err.Error()}
	}
	p.placed = append(p.placed, Placement{Field: c.Path.String(), File: p.src.File, How: "resource"})
	return nil
}

// secretField is where a document sets c and its value there: a Secret's
// data key that the document's stringData sets is changed there, plain,
// since stringData is what the server keeps of a key in both.
func (p *planner) secretField(doc *kyaml.Node, c diff.Change) (fieldpath.Path, diff.FieldValue) {
	if p.secret && isDataPath(c.Path) && *c.Path[0].FieldName == "data" {
		sd := fieldpath.MakePathOrDie("stringData", *c.Path[1].FieldName)
		if at(doc, sd) != nil {
			return sd, c.Value
		}
	}
	return c.Path, p.buildValue(c)
}

// allPatches are k's patches in the order the build applies them: its
// patches:, then those of the older fields, patchesJson6902: and
// patchesStrategicMerge:, as kustomize folds them into patches:
// (types.Kustomization.FixKustomizationPreMarshalling): an entry of
// patchesStrategicMerge: is a file where the tree has one of that name,
// else the text of a patch.
func (t *tree) allPatches(k *kustomization) []types.Patch {
	//lint:ignore SA1019 layouts in use still list patches under the deprecated fields, which kustomize still applies
	out := slices.Concat(k.k.Patches, k.k.PatchesJson6902)
	//lint:ignore SA1019 as above
	for _, sm := range k.k.PatchesStrategicMerge {
		if _, ok := t.files[k.rel(string(sm))]; ok {
			out = append(out, types.Patch{Path: string(sm)})
		} else {
			out = append(out, types.Patch{Patch: string(sm)})
		}
	}
	return out
}

// targets says whether a patch document (kind and name) is for the
// object: the same kind, and a name the build may have prefixed.
func (p *planner) targets(doc *kyaml.RNode) bool {
	m, err := doc.Map()
	if err != nil {
		return false
	}
	return sameGenerated(m, p.src.Ref)
}

// setsField says whether a transformer or a patch of k sets c's field.
func (p *planner) setsField(k *kustomization, c diff.Change) bool {
	if _, ok := p.imageEntry(k, c); ok {
		return true
	}
	if _, ok := p.replicasEntry(k, c); ok {
		return true
	}
	done, _ := p.placeInPatch(k, c, true)
	return done
}

// placeInPatch changes the patch of k that sets the field, if one does:
// a file, or a patch written inline in the kustomization. With dry it
// only says whether one does. A patch that cannot be read is passed by:
// the build reads every patch, so the contract's check has the last word.
func (p *planner) placeInPatch(k *kustomization, c diff.Change, dry bool) (bool, error) {
	field := c.Path.String()
	for _, ps := range p.patchesOf(k) {
		f, err := ps.read(p)
		if err != nil {
			continue
		}
		if len(f.nodes) == 1 && f.nodes[0].YNode().Kind == kyaml.SequenceNode {
			if !ps.applies(p, nil) {
				continue
			}
			i, in, ok := p.json6902Op(f.nodes[0], c)
			if !ok {
				continue
			}
			if dry {
				return true, nil
			}
			if err := p.changeOp(ps.name, f.nodes[0], i, in, c); err != nil {
				return false, err
			}
			if len(f.nodes[0].YNode().Content) == 0 {
				// A patch of no op does not build: its entry goes.
				return true, ps.dropped(p, field)
			}
			return true, ps.written(p, f, field, "json6902 patch")
		}
		for _, doc := range slices.Backward(f.nodes) {
			if !ps.applies(p, doc) || at(doc.YNode(), c.Path) == nil {
				continue
			}
			if dry {
				return true, nil
			}
			if err := setAt(doc.YNode(), c.Path, p.patchValue(c)); err != nil {
				return false, &PlaceError{Field: field, Why: ps.name + ": " + err.Error()}
			}
			p.keepOrder(doc.YNode(), c.Path)
			return true, ps.written(p, f, field, "patch")
		}
	}
	return false, nil
}

// patchValue is the value a strategic-merge patch writes for c: null
// removes a field.
func (p *planner) patchValue(c diff.Change) diff.FieldValue {
	return p.buildValue(c)
}

// json6902Op is the index of the last op of a JSON 6902 patch that adds
// or replaces the field or a value holding it, and the field's path
// inside the op's value (empty for the value itself). An op that appends
// to a list (a path ending in /-) holds the item of that list whose keys
// its value has.
func (p *planner) json6902Op(ops *kyaml.RNode, c diff.Change) (int, fieldpath.Path, bool) {
	prefixes, ok := pointers(p.obj, c.Path)
	if !ok {
		return 0, nil, false
	}
	for i, op := range slices.Backward(ops.YNode().Content) {
		opName, path := at(op, fieldpath.MakePathOrDie("op")), at(op, fieldpath.MakePathOrDie("path"))
		if opName == nil || path == nil || opName.Value != "add" && opName.Value != "replace" {
			continue
		}
		for n, ptr := range prefixes {
			if n > 0 && (path.Value == ptr.at || ptr.appended != "" && path.Value == ptr.appended && opValueIs(op, c.Path[n-1])) {
				return i, c.Path[n:], true
			}
		}
	}
	return 0, nil, false
}

// opValueIs says whether an op's value is the list item pe names.
func opValueIs(op *kyaml.Node, pe fieldpath.PathElement) bool {
	v := at(op, fieldpath.MakePathOrDie("value"))
	if v == nil {
		return false
	}
	var item any
	if err := v.Decode(&item); err != nil {
		return false
	}
	return matchItem(item, pe)
}

// opPointer is the JSON pointer of a prefix of a field's path: at, and
// for a list item, appended: its list's with /- (the pointer of an add op
// that appends it).
type opPointer struct{ at, appended string }

// pointers are the JSON pointers of p's prefixes in obj (list items by
// index), by their length: the first is the object's, the last p's.
func pointers(obj map[string]any, p fieldpath.Path) ([]opPointer, bool) {
	out := []opPointer{{}}
	for n := range p {
		ptr, ok := pointer(obj, p[:n+1])
		if !ok {
			return nil, false
		}
		o := opPointer{at: ptr}
		if p[n].FieldName == nil {
			o.appended = out[n].at + "/-"
		}
		out = append(out, o)
	}
	return out, true
}

// changeOp writes c into the op i of a JSON 6902 patch, at the path in
// inside its value: the value, or for a removal of the whole value the op
// dropped (an add) or a refusal (a replace, which would bring back the
// value under it).
func (p *planner) changeOp(name string, ops *kyaml.RNode, i int, in fieldpath.Path, c diff.Change) error {
	field := c.Path.String()
	op := ops.YNode().Content[i]
	if len(in) > 0 {
		if err := setAt(op, append(fieldpath.MakePathOrDie("value"), in...), p.buildValue(c)); err != nil {
			return &PlaceError{Field: field, Why: name + ": " + err.Error()}
		}
		return nil
	}
	if !c.Value.Present {
		if at(op, fieldpath.MakePathOrDie("op")).Value == "replace" {
			return &PlaceError{Field: field, Why: name + " replaces it, and removing that op would bring back the value under it"}
		}
		ops.YNode().Content = slices.Delete(ops.YNode().Content, i, i+1)
		return nil
	}
	if err := setAt(op, fieldpath.MakePathOrDie("value"), p.buildValue(c)); err != nil {
		return &PlaceError{Field: field, Why: name + ": " + err.Error()}
	}
	return nil
}

// pointer is the JSON pointer of p in obj (list items by index).
func pointer(obj map[string]any, p fieldpath.Path) (string, bool) {
	var b strings.Builder
	var cur any = obj
	for _, pe := range p {
		switch {
		case pe.FieldName != nil:
			m, _ := cur.(map[string]any)
			b.WriteString("/" + strings.ReplaceAll(strings.ReplaceAll(*pe.FieldName, "~", "~0"), "/", "~1"))
			cur = m[*pe.FieldName]
		default:
			l, _ := cur.([]any)
			idx := -1
			for i, item := range l {
				if matchItem(item, pe) {
					idx = i
					break
				}
			}
			if idx < 0 {
				return "", false
			}
			fmt.Fprintf(&b, "/%d", idx)
			cur = l[idx]
		}
	}
	return b.String(), true
}

func matchItem(item any, pe fieldpath.PathElement) bool {
	switch {
	case pe.Index != nil:
		return false
	case pe.Value != nil:
		return reflect.DeepEqual(normal(item), normal((*pe.Value).Unstructured()))
	case pe.Key != nil:
		m, _ := item.(map[string]any)
		for _, f := range *pe.Key {
			if !reflect.DeepEqual(normal(m[f.Name]), normal(f.Value.Unstructured())) {
				return false
			}
		}
		return true
	}
	return false
}

// placeInNewPatch adds the field to the root kustomization's patch for
// the object (a file or inline, one that applies to it alone), making
// that patch when there is none: the base, which other kustomizations
// share, stays as it is.
func (p *planner) placeInNewPatch(root *kustomization, c diff.Change, why string) error {
	if p.appendsByOp(c) {
		return p.placeAsOp(root, c, why)
	}
	field := c.Path.String()
	v := p.patchValue(c)
	path, how := c.Path, "patch"
	if !v.Present {
		switch last := c.Path[len(c.Path)-1]; {
		case last.Key != nil:
			// A list item by key: the strategic merge deletes it with
			// the item's keys and $patch: delete. A list the build does
			// not merge by that key keeps it, which the contract's build
			// check refuses.
			path = append(append(fieldpath.Path{}, c.Path...), fieldpath.PathElement{FieldName: &patchDirective})
			v, how = diff.FieldValue{Present: true, Value: "delete"}, "patch, $patch: delete"
		case last.FieldName == nil:
			return &PlaceError{Field: field, Why: "removing an item of a list of values that a shared base sets needs a strategic merge directive kedit does not write"}
		default:
			v = diff.FieldValue{Present: true, Value: nil} // null removes it in a strategic merge
		}
	}
	for _, ps := range p.patchesOf(root) {
		f, err := ps.read(p)
		if err != nil || len(f.nodes) == 1 && f.nodes[0].YNode().Kind == kyaml.SequenceNode || !ps.onlyThis(p, root) {
			continue
		}
		for _, doc := range f.nodes {
			if ps.applies(p, doc) {
				if err := setAt(doc.YNode(), path, v); err != nil {
					return &PlaceError{Field: field, Why: ps.name + ": " + err.Error()}
				}
				p.keepOrder(doc.YNode(), path)
				if err := ps.written(p, f, field, how); err != nil {
					return err
				}
				p.placed[len(p.placed)-1].Why = why
				return nil
			}
		}
	}
	// A patch names the object as its resource file does: the root's
	// namespace and name prefixes come after the patches.
	u := unstructuredOf(p.obj)
	objName, ns := p.orgName()
	name := strings.ToLower(p.src.Ref.Kind) + "-" + objName + "-patch.yaml"
	rel := root.rel(name)
	if _, exists := p.read(rel); exists {
		return &PlaceError{Field: field, Why: rel + " exists and is not a patch of the kustomization"}
	}
	head := fmt.Sprintf("apiVersion: %s\nkind: %s\nmetadata:\n  name: %s\n", u.GetAPIVersion(), u.GetKind(), kyamlQuote(objName))
	if ns != "" {
		head += "  namespace: " + kyamlQuote(ns) + "\n"
	}
	p.over[rel] = []byte(head)
	f, err := p.yaml(rel)
	if err != nil {
		return err
	}
	if err := setAt(f.nodes[0].YNode(), path, v); err != nil {
		return &PlaceError{Field: field, Why: err.Error()}
	}
	p.keepOrder(f.nodes[0].YNode(), path)
	kf, err := p.yaml(root.file)
	if err != nil {
		return &PlaceError{Field: field, Why: err.Error()}
	}
	patches, err := kf.nodes[0].Pipe(kyaml.LookupCreate(kyaml.SequenceNode, "patches"))
	if err != nil {
		return &PlaceError{Field: field, Why: root.file + ": " + err.Error()}
	}
	entry := kyaml.NewMapRNode(&map[string]string{"path": name})
	if err := patches.PipeE(kyaml.Append(entry.YNode())); err != nil {
		return err
	}
	root.k.Patches = append(root.k.Patches, types.Patch{Path: name})
	p.placed = append(p.placed, Placement{Field: field, File: rel, How: "new " + how, Why: why})
	return nil
}

// patchDirective is the strategic merge's directive key.
var patchDirective = "$patch"

func kyamlQuote(s string) string {
	var n kyaml.Node
	if err := n.Encode(s); err != nil {
		return s
	}
	b, err := kyaml.Marshal(&n)
	if err != nil {
		return s
	}
	return strings.TrimSpace(string(b))
}
