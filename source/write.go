package source

import (
	"encoding/base64"
	"errors"
	"fmt"
	"path"
	"reflect"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/kustomize/api/types"
	kyaml "sigs.k8s.io/kustomize/kyaml/yaml"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"

	"github.com/kedit/kedit/diff"
)

// Edit is the change a plan makes to the files of a source, checked
// against the contract and not yet written.
type Edit struct {
	// Dir is the source's directory (absolute).
	Dir string
	// Files are the files changed, sorted by path.
	Files []FileEdit
	// Placed says, for each changed field, the file that now sets it.
	Placed []Placement
}

// FileEdit is one file's text before and after; Old is nil for a new file.
type FileEdit struct {
	Path     string // relative to Dir
	Old, New []byte
}

// Placement is where a changed field went.
type Placement struct {
	Field string `json:"field"`
	File  string `json:"file"`
	// How: "resource", "patch", "json6902 patch", "generator literal",
	// "env file", "generator file", "new patch".
	How string `json:"how"`
}

// PlaceError names the field kedit could not write into the source, and
// why.
type PlaceError struct {
	Field, Why string
}

func (e *PlaceError) Error() string {
	return fmt.Sprintf("cannot write %s into the source: %s", e.Field, e.Why)
}

// ErrNoChange: mine changes nothing of base.
var ErrNoChange = errors.New("the draft changes nothing")

// changes returns mine's changes from base.
func changes(base, mine *unstructured.Unstructured) ([]diff.Change, error) {
	m, err := diff.MergeObjects(base, mine, base)
	if err != nil {
		return nil, err
	}
	var out []diff.Change
	for _, c := range m.Changes {
		if strings.HasPrefix(c.Path.String(), ".metadata.annotations[") || c.Path.String() == ".metadata.annotations" {
			if c.Path.String() == `.metadata.annotations.`+OriginAnnotation {
				continue
			}
		}
		out = append(out, c)
	}
	if len(out) == 0 {
		return nil, ErrNoChange
	}
	return out, nil
}

// planner holds a plan's state: the tree and the files it changed so far.
type planner struct {
	t     *tree
	src   *Source
	over  map[string][]byte // edited texts by path
	files map[string]*yamlFile
	// secret: the object is a Secret, whose data the build and the
	// resource files hold base64-encoded and a generator plain.
	secret bool
	// obj is the object as the build made it before the edit.
	obj    map[string]any
	placed []Placement
	// chain is the kustomizations from the root down to the object's,
	// read once: the plan's changes to them are made on these.
	chain []*kustomization
}

// Plan turns mine's change from base into edits of src's files, and
// checks the contract on them: building again yields the object with
// mine's value on every changed path, and no other object changes.
func Plan(src *Source, base, mine *unstructured.Unstructured) (*Edit, error) {
	cs, err := changes(base, mine)
	if err != nil {
		return nil, err
	}
	t, err := readTree(src.Dir)
	if err != nil {
		return nil, err
	}
	p := &planner{t: t, src: src, over: map[string][]byte{}, files: map[string]*yamlFile{}, secret: diff.IsSecret(base)}
	if src.Kustomization == "" && src.File != "" {
		return p.plain(cs)
	}
	before, err := t.build(src.Kustomization, nil)
	if err != nil {
		return nil, err
	}
	for _, b := range before {
		if sameRef(b, src.Ref) {
			p.obj = b.obj
		}
	}
	if p.obj == nil {
		return nil, &NotFoundError{Ref: src.Ref, Dir: t.dir, Why: displayDir(src.Kustomization) + " builds no object of that identity"}
	}
	for _, c := range cs {
		if err := p.place(c); err != nil {
			return nil, err
		}
	}
	if err := p.flush(); err != nil {
		return nil, err
	}
	after, err := t.build(src.Kustomization, p.over)
	if err != nil {
		return nil, &PlaceError{Field: fieldsOf(cs), Why: "the edited files do not build: " + err.Error()}
	}
	if err := p.check(cs, before, after); err != nil {
		return nil, err
	}
	return p.edit(), nil
}

// check holds the contract on a build after the edit.
func (p *planner) check(cs []diff.Change, before, after []built) error {
	before, after = unhashed(before), unhashed(after)
	var want map[string]any
	for _, b := range before {
		if sameRef(b, p.src.Ref) {
			want = b.obj
		}
	}
	for _, c := range cs {
		v := p.buildValue(c)
		w, ok := diff.WithValueAt(want, c.Path, v)
		if !ok {
			return &PlaceError{Field: c.Path.String(), Why: "the built object has no such place"}
		}
		want = w
	}
	var got map[string]any
	others := map[Ref]map[string]any{}
	for _, b := range after {
		if sameRef(b, p.src.Ref) {
			got = b.obj
			continue
		}
		others[b.ref] = b.obj
	}
	if got == nil {
		return &PlaceError{Field: fieldsOf(cs), Why: "the edited build no longer holds the object"}
	}
	for _, c := range cs {
		g, w := diff.ValueAt(got, c.Path), diff.ValueAt(want, c.Path)
		if g.Present != w.Present || !reflect.DeepEqual(normal(g.Value), normal(w.Value)) {
			return &PlaceError{Field: c.Path.String(), Why: "after the edit the build still gives it another value (a later patch or generator may set it)"}
		}
	}
	if !sameObject(want, got) {
		return &PlaceError{Field: fieldsOf(cs), Why: "the edit would change other fields of the object too"}
	}
	for _, b := range before {
		if sameRef(b, p.src.Ref) {
			continue
		}
		o, ok := others[b.ref]
		if !ok {
			return &PlaceError{Field: fieldsOf(cs), Why: "the edit would remove " + b.ref.String() + " from the build"}
		}
		if !sameObject(b.obj, o) {
			return &PlaceError{Field: fieldsOf(cs), Why: "the edit would change " + b.ref.String() + " too"}
		}
		delete(others, b.ref)
	}
	for r := range others {
		return &PlaceError{Field: fieldsOf(cs), Why: "the edit would add " + r.String() + " to the build"}
	}
	return nil
}

// fieldsOf names the changed fields, for a failure of the edit as a
// whole: each field was placed, and together they break the contract.
func fieldsOf(cs []diff.Change) string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Path.String())
	}
	return strings.Join(out, ", ")
}

// sameObject says whether two versions of an object hold the same fields,
// a list of named items compared by name: an item a strategic-merge patch
// adds may come first in the build where the edit put it last.
func sameObject(a, b map[string]any) bool {
	return reflect.DeepEqual(byName(normal(a)), byName(normal(b)))
}

// byName returns v with each list whose items are all maps with a name
// (containers, env, ports, volumes ...) sorted by name.
func byName(v any) any {
	switch x := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = byName(e)
		}
		return m
	case []any:
		l := make([]any, len(x))
		named := len(x) > 0
		for i, e := range x {
			l[i] = byName(e)
			if m, ok := e.(map[string]any); !ok || m["name"] == nil {
				named = false
			}
		}
		if named {
			slices.SortStableFunc(l, func(a, b any) int {
				return strings.Compare(fmt.Sprint(a.(map[string]any)["name"]), fmt.Sprint(b.(map[string]any)["name"]))
			})
		}
		return l
	}
	return v
}

// buildValue is c's value as the build holds it: a Secret's data encoded.
func (p *planner) buildValue(c diff.Change) diff.FieldValue {
	v := c.Value
	if p.secret && v.Present && isDataPath(c.Path) {
		if s, ok := v.Value.(string); ok {
			v.Value = base64.StdEncoding.EncodeToString([]byte(s))
		}
	}
	return v
}

// isDataPath: .data.KEY or .binaryData.KEY.
func isDataPath(p fieldpath.Path) bool {
	return len(p) == 2 && p[0].FieldName != nil && (*p[0].FieldName == "data" || *p[0].FieldName == "binaryData") && p[1].FieldName != nil
}

// read returns a file's text as the plan has it.
func (p *planner) read(rel string) ([]byte, bool) {
	if b, ok := p.over[rel]; ok {
		return b, b != nil
	}
	b, ok := p.t.files[rel]
	return b, ok
}

// yaml returns the plan's kyaml copy of a file, read once.
func (p *planner) yaml(rel string) (*yamlFile, error) {
	if f, ok := p.files[rel]; ok {
		return f, nil
	}
	b, ok := p.read(rel)
	if !ok {
		return nil, fmt.Errorf("%s: no such file", rel)
	}
	f, err := readYAMLFile(rel, b)
	if err != nil {
		return nil, err
	}
	p.files[rel] = f
	return f, nil
}

// flush writes the kyaml copies into over.
func (p *planner) flush() error {
	for rel, f := range p.files {
		b, err := f.bytes()
		if err != nil {
			return err
		}
		p.over[rel] = b
	}
	return nil
}

func (p *planner) edit() *Edit {
	e := &Edit{Dir: p.t.dir, Placed: p.placed}
	for rel, b := range p.over {
		old, had := p.t.files[rel]
		if had && string(old) == string(b) {
			continue
		}
		if !had {
			old = nil
		}
		e.Files = append(e.Files, FileEdit{Path: rel, Old: old, New: b})
	}
	slices.SortFunc(e.Files, func(a, b FileEdit) int { return strings.Compare(a.Path, b.Path) })
	return e
}

// plain edits an object that a plain YAML file holds, applied as it is.
func (p *planner) plain(cs []diff.Change) (*Edit, error) {
	f, err := p.yaml(p.src.File)
	if err != nil {
		return nil, err
	}
	doc := f.doc(p.src.Ref)
	if doc == nil {
		return nil, &NotFoundError{Ref: p.src.Ref, Dir: p.t.dir, Why: p.src.File + " holds no document of that identity"}
	}
	beforeDocs := docMaps(f)
	var want map[string]any
	for _, d := range beforeDocs {
		if d != nil && sameRef(built{ref: RefOf(unstructuredOf(d))}, p.src.Ref) {
			want = d
		}
	}
	for _, c := range cs {
		path, v := p.secretField(doc.YNode(), c)
		if err := setAt(doc.YNode(), path, v); err != nil {
			return nil, &PlaceError{Field: c.Path.String(), Why: err.Error()}
		}
		want, _ = diff.WithValueAt(want, path, v)
		p.placed = append(p.placed, Placement{Field: c.Path.String(), File: p.src.File, How: "resource"})
	}
	if err := p.flush(); err != nil {
		return nil, err
	}
	again, err := readYAMLFile(p.src.File, p.over[p.src.File])
	if err != nil {
		return nil, err
	}
	afterDocs := docMaps(again)
	for i := range beforeDocs {
		if beforeDocs[i] == nil {
			continue
		}
		if sameRef(built{ref: RefOf(unstructuredOf(beforeDocs[i]))}, p.src.Ref) {
			beforeDocs[i] = want
		}
		if i >= len(afterDocs) || !reflect.DeepEqual(normal(afterDocs[i]), normal(beforeDocs[i])) {
			return nil, &PlaceError{Field: fieldsOf(cs), Why: "the edited file does not hold the edited object and the others as they were"}
		}
	}
	return p.edit(), nil
}

func docMaps(f *yamlFile) []map[string]any {
	var out []map[string]any
	for _, n := range f.nodes {
		m, _ := n.Map()
		if md, ok := m["metadata"].(map[string]any); ok {
			if a, ok := md["annotations"].(map[string]any); ok {
				for k := range a {
					if strings.HasPrefix(k, "config.kubernetes.io/") || strings.HasPrefix(k, "internal.config.kubernetes.io/") {
						delete(a, k)
					}
				}
				if len(a) == 0 {
					delete(md, "annotations")
				}
			}
		}
		out = append(out, m)
	}
	return out
}

func unstructuredOf(m map[string]any) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: m}
}

// place puts one change into the document that produces its field.
func (p *planner) place(c diff.Change) error {
	field := c.Path.String()
	leafDir := ""
	switch {
	case p.src.File != "":
		leafDir, _ = splitRel(p.src.File)
	case p.src.GeneratorIn != "":
		leafDir, _ = splitRel(p.src.GeneratorIn)
	}
	if p.chain == nil {
		p.chain = p.t.chain(p.src.Kustomization, leafDir, nil)
	}
	chain := p.chain
	if chain == nil {
		return &PlaceError{Field: field, Why: fmt.Sprintf("%s does not reach %s", displayDir(p.src.Kustomization), displayDir(leafDir))}
	}
	// A patch sets the field: the last one of the topmost kustomization
	// that does is the one whose value the build keeps.
	for _, k := range chain {
		done, err := p.placeInPatch(k, c)
		if err != nil || done {
			return err
		}
	}
	shared := p.t.usedBy(leafDir, chain)
	if p.src.Generator != "" && isDataPath(c.Path) {
		return p.placeInGenerator(chain, c)
	}
	if p.src.File != "" && len(shared) == 0 {
		return p.placeInResource(c)
	}
	return p.placeInNewPatch(chain[0], c)
}

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

// patchFiles are a kustomization's patches that are files, last first,
// with whether each is a JSON 6902 patch.
func patchFiles(k *kustomization) []types.Patch {
	var out []types.Patch
	for _, pt := range k.k.Patches {
		if pt.Path != "" {
			out = append(out, pt)
		}
	}
	slices.Reverse(out)
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

// placeInPatch changes the patch of k that sets the field, if one does.
func (p *planner) placeInPatch(k *kustomization, c diff.Change) (bool, error) {
	field := c.Path.String()
	for _, pt := range patchFiles(k) {
		rel := k.rel(pt.Path)
		f, err := p.yaml(rel)
		if err != nil {
			return false, &PlaceError{Field: field, Why: err.Error()}
		}
		if len(f.nodes) == 1 && f.nodes[0].YNode().Kind == kyaml.SequenceNode {
			done, err := p.placeInJSON6902(rel, f.nodes[0], pt, c)
			if done || err != nil {
				return done, err
			}
			continue
		}
		for _, doc := range slices.Backward(f.nodes) {
			if !p.targets(doc) || at(doc.YNode(), c.Path) == nil {
				continue
			}
			if err := setAt(doc.YNode(), c.Path, p.patchValue(c)); err != nil {
				return false, &PlaceError{Field: field, Why: rel + ": " + err.Error()}
			}
			p.placed = append(p.placed, Placement{Field: field, File: rel, How: "patch"})
			return true, nil
		}
	}
	return false, nil
}

// patchValue is the value a strategic-merge patch writes for c: null
// removes a field.
func (p *planner) patchValue(c diff.Change) diff.FieldValue {
	return p.buildValue(c)
}

// placeInJSON6902 changes the op of a JSON 6902 patch whose path is the
// field, if one is.
func (p *planner) placeInJSON6902(rel string, ops *kyaml.RNode, pt types.Patch, c diff.Change) (bool, error) {
	ptr, ok := pointer(p.obj, c.Path)
	if !ok {
		return false, nil
	}
	field := c.Path.String()
	for i, op := range slices.Backward(ops.YNode().Content) {
		opName, path := at(op, fieldpath.MakePathOrDie("op")), at(op, fieldpath.MakePathOrDie("path"))
		if opName == nil || path == nil || path.Value != ptr || (opName.Value != "add" && opName.Value != "replace") {
			continue
		}
		if !c.Value.Present {
			if opName.Value == "replace" {
				return false, &PlaceError{Field: field, Why: rel + " replaces it, and removing that op would bring back the value under it"}
			}
			ops.YNode().Content = slices.Delete(ops.YNode().Content, i, i+1)
		} else if err := setAt(op, fieldpath.MakePathOrDie("value"), p.buildValue(c)); err != nil {
			return false, &PlaceError{Field: field, Why: rel + ": " + err.Error()}
		}
		p.placed = append(p.placed, Placement{Field: field, File: rel, How: "json6902 patch"})
		return true, nil
	}
	return false, nil
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
// the object, making that patch when there is none: the base, which
// other kustomizations share, stays as it is.
func (p *planner) placeInNewPatch(root *kustomization, c diff.Change) error {
	field := c.Path.String()
	v := p.patchValue(c)
	if !v.Present {
		if len(c.Path) > 0 && c.Path[len(c.Path)-1].FieldName == nil {
			return &PlaceError{Field: field, Why: "removing a list item that a shared base sets needs a $patch: delete, which kedit does not write"}
		}
		v = diff.FieldValue{Present: true, Value: nil} // null removes it in a strategic merge
	}
	for _, pt := range patchFiles(root) {
		rel := root.rel(pt.Path)
		f, err := p.yaml(rel)
		if err != nil || len(f.nodes) == 1 && f.nodes[0].YNode().Kind == kyaml.SequenceNode {
			continue
		}
		for _, doc := range f.nodes {
			if p.targets(doc) {
				if err := setAt(doc.YNode(), c.Path, v); err != nil {
					return &PlaceError{Field: field, Why: rel + ": " + err.Error()}
				}
				p.placed = append(p.placed, Placement{Field: field, File: rel, How: "patch"})
				return nil
			}
		}
	}
	name := strings.ToLower(p.src.Ref.Kind) + "-" + hashSuffix.ReplaceAllString(p.src.Ref.Name, "") + "-patch.yaml"
	rel := root.rel(name)
	if _, exists := p.read(rel); exists {
		return &PlaceError{Field: field, Why: rel + " exists and is not a patch of the kustomization"}
	}
	// A patch names the object as its resource file does: the root's
	// namespace and name prefixes come after the patches.
	u := unstructuredOf(p.obj)
	objName, ns := u.GetName(), ""
	if b, ok := p.t.files[p.src.File]; ok {
		if f, err := readYAMLFile(p.src.File, b); err == nil {
			if d := f.doc(p.src.Ref); d != nil {
				m, _ := d.Map()
				objName, ns = unstructuredOf(m).GetName(), unstructuredOf(m).GetNamespace()
			}
		}
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
	if err := setAt(f.nodes[0].YNode(), c.Path, v); err != nil {
		return &PlaceError{Field: field, Why: err.Error()}
	}
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
	p.placed = append(p.placed, Placement{Field: field, File: rel, How: "new patch"})
	return nil
}

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

// placeInGenerator sets a data key of a generated ConfigMap or Secret in
// its generator: the literal, the env file line or the file that holds
// the key, else a new literal.
func (p *planner) placeInGenerator(chain []*kustomization, c diff.Change) error {
	field := c.Path.String()
	key := *c.Path[1].FieldName
	if *c.Path[0].FieldName == "binaryData" {
		return &PlaceError{Field: field, Why: "binaryData comes from a generator's file, which kedit does not write as binary"}
	}
	val := ""
	if c.Value.Present {
		s, ok := c.Value.Value.(string)
		if !ok {
			return &PlaceError{Field: field, Why: "a generator's value is a string"}
		}
		val = s
	}
	// Topmost first: an overlay's generator that merges into the base's
	// has the last word on its keys.
	for _, k := range chain {
		gens, kindKey := p.generators(k)
		if len(p.t.usedBy(k.dir, chain)) > 0 {
			break // a base other kustomizations share: the root merges into it
		}
		for gi, g := range gens {
			if g.Name == "" || !strings.Contains(p.src.Ref.Name, g.Name) {
				continue
			}
			done, err := p.placeInGeneratorArgs(k, kindKey, gi, g, key, val, c)
			if done || err != nil {
				return err
			}
		}
	}
	// No generator kedit may change has the key: a new literal in the
	// generator the object's origin names, or where that one is in a
	// shared base, in a generator of the root that merges into it.
	for _, k := range chain {
		if k.file != p.src.GeneratorIn {
			continue
		}
		if len(p.t.usedBy(k.dir, chain)) > 0 {
			return p.placeInMergeGenerator(chain[0], c, key, val)
		}
		gens, kindKey := p.generators(k)
		for gi, g := range gens {
			if g.Name == "" || !strings.Contains(p.src.Ref.Name, g.Name) || !c.Value.Present {
				continue
			}
			kf, err := p.yaml(k.file)
			if err != nil {
				return &PlaceError{Field: field, Why: err.Error()}
			}
			gn := at(kf.nodes[0].YNode(), fieldpath.MakePathOrDie(kindKey, gi))
			if gn == nil {
				break
			}
			lits := at(gn, fieldpath.MakePathOrDie("literals"))
			if lits == nil {
				gn.Content = append(gn.Content, &kyaml.Node{Kind: kyaml.ScalarNode, Tag: "!!str", Value: "literals"}, &kyaml.Node{Kind: kyaml.SequenceNode, Tag: "!!seq"})
				lits = gn.Content[len(gn.Content)-1]
			}
			ln, err := valueNode(nil, key+"="+val)
			if err != nil {
				return err
			}
			lits.Content = append(lits.Content, ln)
			p.placed = append(p.placed, Placement{Field: field, File: k.file, How: "generator literal"})
			return nil
		}
	}
	if !c.Value.Present {
		return &PlaceError{Field: field, Why: "no literal, env file or file of its generator sets it"}
	}
	return &PlaceError{Field: field, Why: "its generator was not found in " + p.src.GeneratorIn}
}

// placeInMergeGenerator adds the key as a literal of a generator of root
// with behavior merge, made when root has none, so that the shared base's
// generator stays as it is.
func (p *planner) placeInMergeGenerator(root *kustomization, c diff.Change, key, val string) error {
	field := c.Path.String()
	if !c.Value.Present {
		return &PlaceError{Field: field, Why: "its generator is in a base other kustomizations share, and a merging generator cannot remove a key"}
	}
	base, err := p.t.readKustomization(splitDir(p.src.GeneratorIn), p.over)
	if err != nil || base == nil {
		return &PlaceError{Field: field, Why: "cannot read " + p.src.GeneratorIn}
	}
	name := ""
	baseGens, kindKey := p.generators(base)
	for _, g := range baseGens {
		if g.Name != "" && strings.Contains(p.src.Ref.Name, g.Name) && len(g.Name) > len(name) {
			name = g.Name
		}
	}
	if name == "" {
		return &PlaceError{Field: field, Why: "its generator was not found in " + p.src.GeneratorIn}
	}
	kf, err := p.yaml(root.file)
	if err != nil {
		return &PlaceError{Field: field, Why: err.Error()}
	}
	ln, err := valueNode(nil, key+"="+val)
	if err != nil {
		return err
	}
	gens, _ := p.generators(root)
	for gi, g := range gens {
		if g.Name != name || g.Behavior != "merge" {
			continue
		}
		gn := at(kf.nodes[0].YNode(), fieldpath.MakePathOrDie(kindKey, gi))
		lits := at(gn, fieldpath.MakePathOrDie("literals"))
		if lits == nil {
			gn.Content = append(gn.Content, &kyaml.Node{Kind: kyaml.ScalarNode, Tag: "!!str", Value: "literals"}, &kyaml.Node{Kind: kyaml.SequenceNode, Tag: "!!seq"})
			lits = gn.Content[len(gn.Content)-1]
		}
		lits.Content = append(lits.Content, ln)
		p.placed = append(p.placed, Placement{Field: field, File: root.file, How: "merging generator literal"})
		return nil
	}
	seq, err := kf.nodes[0].Pipe(kyaml.LookupCreate(kyaml.SequenceNode, kindKey))
	if err != nil {
		return &PlaceError{Field: field, Why: root.file + ": " + err.Error()}
	}
	str := func(s string) *kyaml.Node { return &kyaml.Node{Kind: kyaml.ScalarNode, Tag: "!!str", Value: s} }
	entry := kyaml.NewRNode(&kyaml.Node{Kind: kyaml.MappingNode, Tag: "!!map", Content: []*kyaml.Node{
		str("name"), str(name), str("behavior"), str("merge"),
		str("literals"), {Kind: kyaml.SequenceNode, Tag: "!!seq", Content: []*kyaml.Node{ln}},
	}})
	if err := seq.PipeE(kyaml.Append(entry.YNode())); err != nil {
		return err
	}
	if kindKey == "secretGenerator" {
		root.k.SecretGenerator = append(root.k.SecretGenerator, types.SecretArgs{GeneratorArgs: types.GeneratorArgs{Name: name, Behavior: "merge", KvPairSources: types.KvPairSources{LiteralSources: []string{key + "=" + val}}}})
	} else {
		root.k.ConfigMapGenerator = append(root.k.ConfigMapGenerator, types.ConfigMapArgs{GeneratorArgs: types.GeneratorArgs{Name: name, Behavior: "merge", KvPairSources: types.KvPairSources{LiteralSources: []string{key + "=" + val}}}})
	}
	p.placed = append(p.placed, Placement{Field: field, File: root.file, How: "merging generator literal"})
	return nil
}

func splitDir(p string) string { d, _ := splitRel(p); return d }

// generators are k's generators of the object's kind, and their key in
// the kustomization.
func (p *planner) generators(k *kustomization) ([]types.GeneratorArgs, string) {
	var out []types.GeneratorArgs
	if p.src.Ref.Kind == "Secret" {
		for _, g := range k.k.SecretGenerator {
			out = append(out, g.GeneratorArgs)
		}
		return out, "secretGenerator"
	}
	for _, g := range k.k.ConfigMapGenerator {
		out = append(out, g.GeneratorArgs)
	}
	return out, "configMapGenerator"
}

// placeInGeneratorArgs changes the key in one generator: a literal, an
// env file's line or a file.
func (p *planner) placeInGeneratorArgs(k *kustomization, kindKey string, gi int, g types.GeneratorArgs, key, val string, c diff.Change) (bool, error) {
	field := c.Path.String()
	for _, lit := range g.LiteralSources {
		if name, _, _ := strings.Cut(lit, "="); name != key {
			continue
		}
		kf, err := p.yaml(k.file)
		if err != nil {
			return false, &PlaceError{Field: field, Why: err.Error()}
		}
		// The literal's node as the plan has it now: an earlier change
		// of the plan may have removed another one before it.
		lits := at(kf.nodes[0].YNode(), fieldpath.MakePathOrDie(kindKey, gi, "literals"))
		li := -1
		for i, n := range lits.Content {
			if name, _, _ := strings.Cut(n.Value, "="); lits != nil && name == key {
				li = i
			}
		}
		if li < 0 {
			return false, &PlaceError{Field: field, Why: k.file + ": its literal is not where it was read"}
		}
		if !c.Value.Present {
			lits.Content = slices.Delete(lits.Content, li, li+1)
		} else {
			nv, err := valueNode(lits.Content[li], key+"="+val)
			if err != nil {
				return false, err
			}
			lits.Content[li] = nv
		}
		p.placed = append(p.placed, Placement{Field: field, File: k.file, How: "generator literal"})
		return true, nil
	}
	for _, env := range g.EnvSources {
		rel := k.rel(env)
		text, ok := p.read(rel)
		if !ok {
			continue
		}
		lines := strings.SplitAfter(string(text), "\n")
		for i, l := range lines {
			name, _, found := strings.Cut(strings.TrimSpace(l), "=")
			if !found || strings.HasPrefix(strings.TrimSpace(l), "#") || strings.TrimSpace(name) != key {
				continue
			}
			if strings.Contains(val, "\n") {
				return false, &PlaceError{Field: field, Why: rel + " is an env file, which holds no value of more than one line"}
			}
			nl := ""
			if strings.HasSuffix(l, "\n") {
				nl = "\n"
			}
			if c.Value.Present {
				lines[i] = key + "=" + val + nl
			} else {
				lines = slices.Delete(lines, i, i+1)
			}
			p.over[rel] = []byte(strings.Join(lines, ""))
			p.placed = append(p.placed, Placement{Field: field, File: rel, How: "env file"})
			return true, nil
		}
	}
	for _, fs := range g.FileSources {
		name, file, ok := strings.Cut(fs, "=")
		if !ok {
			file, name = fs, path.Base(fs)
		}
		if name != key {
			continue
		}
		if !c.Value.Present {
			return false, &PlaceError{Field: field, Why: "it comes from the file " + k.rel(file) + ", and kedit does not remove a generator's file"}
		}
		rel := k.rel(file)
		p.over[rel] = []byte(val)
		p.placed = append(p.placed, Placement{Field: field, File: rel, How: "generator file"})
		return true, nil
	}
	return false, nil
}
