package source

import (
	"encoding/base64"
	"errors"
	"fmt"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
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
	// Notes are what the edit says beside: the fields it left out, the
	// build's warnings.
	Notes []string
	// root is the kustomization whose build the contract was checked
	// on; "" for a plain file.
	root string
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
	// How: "resource", "patch", "json6902 patch", "inline patch",
	// "images transformer", "replicas transformer", "generator literal",
	// "env file", "generator file", "new patch".
	How string `json:"how"`
	// Why says why there when another file sets the field too: a file
	// other builds share is left as it is.
	Why string `json:"why,omitempty"`
}

// PlaceError names the field kedit could not write into the source, and
// why.
type PlaceError struct {
	Field, Why string
}

// String is the placement as kedit says it: the field, the file, how,
// and why there when it says.
func (p Placement) String() string {
	s := p.Field + " -> " + p.File + " (" + p.How + ")"
	if p.Why != "" {
		s += ": " + p.Why
	}
	return s
}

func (e *PlaceError) Error() string {
	return fmt.Sprintf("cannot write %s into the source: %s", e.Field, e.Why)
}

// ErrNoChange: mine changes nothing of base.
var ErrNoChange = errors.New("the draft changes nothing")

// ErrAlreadyHeld: the files already hold what mine changes (the live
// object is behind its source), so there is nothing to write.
var ErrAlreadyHeld = errors.New("the source already holds it")

// changes returns mine's changes from base.
func changes(base, mine *unstructured.Unstructured) ([]diff.Change, error) {
	cs, _, err := changesLeft(base, mine)
	return cs, err
}

// changesLeft returns mine's changes from base but those of fields the
// cluster sets (leaveOut), which left names.
func changesLeft(base, mine *unstructured.Unstructured) ([]diff.Change, []string, error) {
	m, err := diff.MergeObjects(base, mine, base)
	if err != nil {
		return nil, nil, err
	}
	var out []diff.Change
	for _, c := range m.Changes {
		if c.Path.String() == `.metadata.annotations.`+OriginAnnotation {
			continue
		}
		out = append(out, c)
	}
	out, left := leaveOut(base.GetKind(), out)
	if len(out) == 0 && len(left) > 0 {
		return nil, left, fmt.Errorf("%w of the source: %s", ErrNoChange, leftOutNote(left))
	}
	if len(out) == 0 {
		return nil, nil, ErrNoChange
	}
	return out, left, nil
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
	// cs are the changes planned, and want the object as the edit must
	// build it (wanted).
	cs   []diff.Change
	want map[string]any
	// chain is the kustomizations from the root down to the object's,
	// read once: the plan's changes to them are made on these.
	chain []*kustomization
}

// Plan turns mine's change from base into edits of src's files, and
// checks the contract on them: building again yields the object with
// mine's value on every changed path, and no other object changes.
func Plan(src *Source, base, mine *unstructured.Unstructured) (*Edit, error) {
	return PlanOn(nil, src, base, mine)
}

// planOn plans the changes cs of base on the tree t.
func planOn(t *tree, src *Source, cs []diff.Change, base *unstructured.Unstructured) (*Edit, error) {
	p := &planner{t: t, src: src, over: map[string][]byte{}, files: map[string]*yamlFile{}, secret: diff.IsSecret(base), cs: cs}
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
	e := p.edit()
	e.root = src.Kustomization
	return e, nil
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

// place puts one change into the document that produces its field: of
// the kustomizations whose build makes the object, the one with the last
// word on it (the root first; in each, its transformers, which run after
// its patches, then its patches, then its components'), where no other
// build shares that file; else a new entry in the nearest kustomization
// above whose build holds only this variant of the object.
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
		p.chain = p.t.objectChain(p.src.Kustomization, leafDir, p.src.Ref)
	}
	chain := p.chain
	if chain == nil {
		return &PlaceError{Field: field, Why: fmt.Sprintf("%s does not reach %s", displayDir(p.src.Kustomization), displayDir(leafDir))}
	}
	for _, w := range p.t.lastWord(chain) {
		k := w.k
		shared := p.t.usedBy(k.dir, chain)
		above := p.nearest(chain, w.above)
		done, err := p.placeInTransformer(k, c, shared, above)
		if done && err == nil && w.component && len(shared) == 0 {
			p.placed[len(p.placed)-1].Why = "the component sets it, and no other build uses it: every build that uses it changes"
		}
		if err != nil || done {
			return err
		}
		if len(shared) > 0 {
			if p.setsField(k, c) {
				return p.placeInNewPatch(above, c, fmt.Sprintf("%s sets it, and %s also builds on it", k.file, strings.Join(shared, ", ")))
			}
			continue
		}
		done, err = p.placeInPatch(k, c, false)
		if done && err == nil && w.component {
			p.placed[len(p.placed)-1].Why = "the component sets it, and no other build uses it: every build that uses it changes"
		}
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
	why := "no file of this build alone sets it"
	switch {
	case len(shared) > 0 && p.resourceSets(c):
		why = fmt.Sprintf("%s sets it, and %s is shared with %s", p.src.File, displayDir(leafDir), strings.Join(shared, ", "))
	case len(shared) > 0:
		why = fmt.Sprintf("no resource file, patch, images: or replicas: entry of this build sets it (kedit reads no other transformer), and %s is shared with %s", displayDir(leafDir), strings.Join(shared, ", "))
	}
	return p.placeInNewPatch(p.nearest(chain, len(chain)-2), c, why)
}

// resourceSets says whether the object's resource file sets c's field.
func (p *planner) resourceSets(c diff.Change) bool {
	b, ok := p.read(p.src.File)
	if !ok {
		return false
	}
	f, err := readYAMLFile(p.src.File, b)
	if err != nil {
		return false
	}
	doc := f.doc(p.src.Ref)
	return doc != nil && at(doc.YNode(), c.Path) != nil
}

// nearest is the kustomization of chain nearest the object, at most at
// index below, that no other build shares: its build holds only this
// variant of the object, and a patch there changes no other.
func (p *planner) nearest(chain []*kustomization, below int) *kustomization {
	for i := min(below, len(chain)-2); i > 0; i-- {
		if len(p.t.usedBy(chain[i].dir, chain)) == 0 {
			return chain[i]
		}
	}
	return chain[0]
}
