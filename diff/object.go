package diff

import (
	"encoding/base64"
	"errors"
	"fmt"
	"sync"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v6/typed"
	"sigs.k8s.io/structured-merge-diff/v6/value"

	"github.com/kedit/kedit/diff/internal/builtinschema"
)

// Schemas turns an object into a structured-merge-diff typed value, which
// tells MergeObjects which maps merge key by key, which lists merge item by
// item (and by which keys) and which values are atomic.
//
// kube/ hands in the schemas the API server publishes, which is how custom
// resources get merged by their own schema. Any
// k8s.io/apimachinery/pkg/util/managedfields.TypeConverter satisfies it, for
// instance one built with managedfields.NewTypeConverter from the server's
// OpenAPI v3 documents. An error (such as an unknown kind) makes MergeObjects
// fall back to the built-in schemas, then to a schema deduced from the
// objects themselves.
type Schemas interface {
	ObjectToTyped(obj runtime.Object, opts ...typed.ValidationOptions) (*typed.TypedValue, error)
}

// Option tunes MergeObjects.
type Option func(*mergeConfig)

type mergeConfig struct {
	schemas Schemas
}

// WithSchemas makes MergeObjects try s before the built-in schemas; kube/
// passes the server's published schemas here so that custom resources merge
// by their own list keys.
func WithSchemas(s Schemas) Option {
	return func(c *mergeConfig) { c.schemas = s }
}

// SchemaSource says where the schema used for a merge came from.
type SchemaSource string

// The schema sources, in the order MergeObjects tries them.
const (
	// SchemaGiven is the schema handed in with WithSchemas.
	SchemaGiven SchemaSource = "given"
	// SchemaBuiltin is client-go's schema for the built-in kinds.
	SchemaBuiltin SchemaSource = "builtin"
	// SchemaDeduced is deduced from the objects: maps merge key by key,
	// every list is atomic.
	SchemaDeduced SchemaSource = "deduced"
)

// builtinSchemas is the type converter for the kinds in client-go's
// scheme: client-go's schema of them (builtinschema holds it as Go data:
// client-go's own converter parses its YAML at the first merge, about
// 150 ms), looked up by the scheme's OpenAPI names. It is shared, so that
// what its parser resolves is resolved once.
var builtinSchemas = sync.OnceValue(func() Schemas {
	return managedfields.NewSchemeTypeConverter(scheme.Scheme, builtinschema.Parser())
})

// LoadBuiltinSchemas makes the first MergeObjects of a built-in kind as
// fast as the next ones by resolving a first object ahead of time (well
// under a millisecond since the schema is Go data; it was 150 ms when
// client-go's YAML was parsed here). It is safe to call from any
// goroutine, any number of times.
func LoadBuiltinSchemas() {
	_, _ = builtinSchemas().ObjectToTyped(&unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "warm-up"},
	}})
}

// FieldValue is one side's value of a field. Present is false when that side
// has no such field, which is not the same as a field set to null (Present
// true, Value nil).
type FieldValue struct {
	Present bool
	// Value is the field's value in unstructured form (string, int64,
	// float64, bool, nil, map[string]any, []any). Values of a Secret's data
	// are decoded from base64.
	Value any
}

// Side says which version a change came from.
type Side int

// The sides a change can come from.
const (
	// SideMine is the user's draft.
	SideMine Side = iota + 1
	// SideTheirs is the server's version.
	SideTheirs
	// SideBoth means mine and theirs made the same change, or changes that
	// merged line by line into one value.
	SideBoth
)

// String returns "mine", "theirs" or "both".
func (s Side) String() string {
	switch s {
	case SideMine:
		return "mine"
	case SideTheirs:
		return "theirs"
	case SideBoth:
		return "both"
	}
	return fmt.Sprintf("Side(%d)", int(s))
}

// ChangeKind says how a field changed from base.
type ChangeKind int

// The kinds of change, as structured-merge-diff's comparison names them.
const (
	// Added means the field is new.
	Added ChangeKind = iota + 1
	// Modified means the field changed its value.
	Modified
	// Removed means the field is gone.
	Removed
)

// String returns "added", "modified" or "removed".
func (k ChangeKind) String() string {
	switch k {
	case Added:
		return "added"
	case Modified:
		return "modified"
	case Removed:
		return "removed"
	}
	return fmt.Sprintf("ChangeKind(%d)", int(k))
}

// Change is a change from base that went into the merged object without a
// conflict.
type Change struct {
	// Path is the field in server-side apply's syntax, e.g. `.data.foo`.
	Path fieldpath.Path
	Side Side
	Kind ChangeKind
	// Base is the field's value in base, Value its value on Side (mine's
	// for SideBoth); Value is absent for a removal. For a Secret's data
	// they are decoded.
	Base, Value FieldValue
	// Hunk is set when the change is one region of a line merge of a
	// multi-line string both sides changed: the lines Side changed there
	// (Base and Value are then the whole texts). A line merge lists one
	// change per region, so that each side's lines are named.
	Hunk *Hunk
}

// Where names the change's field, and for a region of a line merge its
// lines in base: `.data.app.conf line 5`.
func (c Change) Where() string { return where(c.Path, c.Hunk) }

// Conflict is a field that mine and theirs changed in different ways, or
// one region of a multi-line string where their lines collide.
type Conflict struct {
	// Path is the field in server-side apply's syntax:
	// `.data.foo`, `.spec.template.spec.containers[name="app"].image`.
	Path fieldpath.Path
	// Base, Mine and Theirs are the field's value in each version.
	Base, Mine, Theirs FieldValue
	// Hunks is set when the field is a multi-line string both sides
	// changed: the line merge of the three texts. Each region where their
	// lines collide is a conflict of its own, which Hunk points at; the
	// clean regions are in ObjectMerge.Changes. It is nil for other
	// conflicts.
	Hunks []Hunk
	// Hunk is the colliding region of Hunks this conflict is about, nil
	// when the conflict is the whole field. Resolving it chooses that
	// region's lines only: the field's other regions keep their own
	// resolutions and the clean changes of both sides.
	Hunk *Hunk
	// Owner is set for a conflict of server-side apply
	// (OwnershipConflicts): the field manager that owns the field on the
	// server.
	Owner string
}

// Where names the conflict's field, and for a colliding region of a
// multi-line string its lines in base: `.data.app.conf lines 10–12`.
func (c Conflict) Where() string { return where(c.Path, c.Hunk) }

// where names a field, with the lines of h in base when h is set. A region
// that inserts lines without replacing any is named by the line it follows.
func where(p fieldpath.Path, h *Hunk) string {
	s := p.String()
	if h == nil {
		return s
	}
	r := h.Base
	switch {
	case r.Len == 0 && r.Start == 0:
		return s + " before line 1"
	case r.Len == 0:
		return fmt.Sprintf("%s after line %d", s, r.Start)
	case r.Len == 1:
		return fmt.Sprintf("%s line %d", s, r.Start+1)
	}
	return fmt.Sprintf("%s lines %d–%d", s, r.Start+1, r.Start+r.Len)
}

// Choice is how a conflict is resolved.
type Choice int

// The ways to resolve a conflict.
const (
	// Unresolved leaves (or puts back) the conflict open.
	Unresolved Choice = iota
	// TakeMine takes mine's value of the field (or its absence).
	TakeMine
	// TakeTheirs takes theirs' value of the field (or its absence).
	TakeTheirs
	// TakeBase takes base's value, undoing both changes.
	TakeBase
	// TakeCustom takes Resolution.Value.
	TakeCustom
)

// Resolution resolves one conflict.
type Resolution struct {
	Choice Choice
	// Value is the field's value for TakeCustom; Present false removes the
	// field. For a Secret's data it is the decoded value. For a conflict
	// that is one region of a multi-line string (Conflict.Hunk) it is the
	// region's lines, a string, and the field stays.
	Value FieldValue
}

// IdentityError reports that the three versions are not the same object, so
// there is nothing to merge.
type IdentityError struct {
	// Side is the version that differs from base: "mine" or "theirs".
	Side string
	// Field is "apiVersion", "kind", "metadata.namespace" or "metadata.name".
	Field string
	// Base and Got are the field in base and in Side.
	Base, Got string
}

// Error names the side and the field that differ.
func (e *IdentityError) Error() string {
	return fmt.Sprintf("%s is not the same object as base: %s is %q, base has %q", e.Side, e.Field, e.Got, e.Base)
}

// OpenConflictsError is returned by ObjectMerge.Final while conflicts are
// still open.
type OpenConflictsError struct {
	Open int
}

// Error says how many conflicts are open.
func (e *OpenConflictsError) Error() string {
	return fmt.Sprintf("%d conflict(s) still open", e.Open)
}

// InputError reports a version MergeObjects cannot read, such as an
// object holding values that are not JSON.
type InputError struct {
	// Side is "base", "mine" or "theirs".
	Side string
	Err  error
}

// Error names the side, then the cause.
func (e *InputError) Error() string { return e.Side + ": " + e.Err.Error() }

// Unwrap returns the cause.
func (e *InputError) Unwrap() error { return e.Err }

// ErrNoObject is returned when MergeObjects gets a nil object.
var ErrNoObject = errors.New("diff: nil object")

// serverOwnedMeta are the metadata fields the API server sets. They never
// conflict and never travel from mine: the merged object takes theirs'
// values, so that a resubmit carries theirs' resourceVersion.
var serverOwnedMeta = []string{
	"resourceVersion", "managedFields", "uid", "generation",
	"creationTimestamp", "selfLink", "deletionTimestamp", "deletionGracePeriodSeconds",
}

// ObjectMerge is the result of MergeObjects: the merged object, the changes
// taken from each side, the conflicts and their resolutions.
//
// Resolve changes its resolutions in place; Clone gives a copy to change
// when a caller keeps states apart.
type ObjectMerge struct {
	// Merged is the merged object. While a conflict is open its field holds
	// theirs' value, so that Merged never undoes theirs' change without the
	// user's say.
	Merged *unstructured.Unstructured
	// Changes are the changes from base taken without conflict, in field
	// order.
	Changes []Change
	// Conflicts are the fields mine and theirs changed differently, in
	// field order. No conflict's path is inside another's.
	Conflicts []Conflict
	// Resolutions holds one entry per conflict, Unresolved until Resolve.
	Resolutions []Resolution
	// Schema says which schema the merge used.
	Schema SchemaSource

	// tree is the merged object with a slot at each conflicting field.
	tree map[string]any
	// units are the slots' fields: a whole field in conflict, or a
	// multi-line string with one conflict per colliding region.
	units []unit
	// secretKeys are the keys of a Secret's data that were decoded from
	// base64 for the merge and must be encoded again.
	secretKeys map[string]bool
}

// slot stands in the merged tree for units[u], the field of one or more
// conflicts, until they are resolved.
type slot struct{ u int }

// unit is the field behind a slot: conflicts [first, first+n), and for a
// multi-line string their line merge.
type unit struct {
	first, n int
	// text is nil for a whole field in conflict (n is then 1).
	text *textField
}

// MergeObjects merges mine and theirs, two versions of one object both made
// from base, field by field.
//
// Fields only one side changed take that side; the same change on both
// sides is taken once; maps merge key by key and keyed lists (containers,
// env, ports, volumes ...) item by item, as the schema says. Multi-line
// strings both sides changed merge line by line (Merge3Text), so only
// colliding lines conflict. Any other field both sides changed differently
// (including a delete on one side and a change on the other) is a Conflict.
// A Secret's data is compared decoded. Server-owned fields (status,
// metadata.resourceVersion, uid, managedFields ...) come from theirs.
//
// The inputs are not modified. It returns an *IdentityError when the three
// are not the same object.
func MergeObjects(base, mine, theirs *unstructured.Unstructured, opts ...Option) (*ObjectMerge, error) {
	var cfg mergeConfig
	for _, o := range opts {
		o(&cfg)
	}
	if base == nil || mine == nil || theirs == nil {
		return nil, ErrNoObject
	}
	if err := sameObject(base, mine, theirs); err != nil {
		return nil, err
	}

	b, err := stripped(base)
	if err != nil {
		return nil, &InputError{Side: "base", Err: err}
	}
	m, err := stripped(mine)
	if err != nil {
		return nil, &InputError{Side: "mine", Err: err}
	}
	t, err := stripped(theirs)
	if err != nil {
		return nil, &InputError{Side: "theirs", Err: err}
	}
	var secretKeys map[string]bool
	if isSecret(theirs) {
		secretKeys = decodeSecretData(b, m, t)
	}

	tb, _, _, cmpMine, cmpTheirs, source, err := compareAll(cfg, b, m, t)
	if err != nil {
		return nil, err
	}

	w := &walker{schema: tb.Schema(), cmpMine: cmpMine, cmpTheirs: cmpTheirs}
	mineSet := changeSet(cmpMine)
	theirsSet := changeSet(cmpTheirs)
	w.addReorders(mineSet, nil, tb.TypeRef(), b.Object, m.Object)
	w.addReorders(theirsSet, nil, tb.TypeRef(), b.Object, t.Object)
	root, _ := w.merge(nil, tb.TypeRef(),
		node{b.Object, true}, node{m.Object, true}, node{t.Object, true},
		changeState{sub: mineSet}, changeState{sub: theirsSet})
	tree, ok := root.(map[string]any)
	if !ok {
		// Only a conflict at the root could put something else here, and
		// apiVersion and kind are checked equal above.
		return nil, fmt.Errorf("diff: merged object is a %T", root)
	}
	copyServerOwned(tree, theirs.Object)

	res := &ObjectMerge{
		Changes:     w.changes,
		Conflicts:   w.conflicts,
		Resolutions: make([]Resolution, len(w.conflicts)),
		Schema:      source,
		tree:        tree,
		units:       w.units,
		secretKeys:  secretKeys,
	}
	// Open conflicts keep theirs' value (see resolvedValue).
	res.Merged = &unstructured.Unstructured{Object: res.materialize(res.pickResolved, nil)}
	return res, nil
}

// sameObject checks that mine and theirs are base's object: a merge of two
// different objects would be meaningless.
func sameObject(base, mine, theirs *unstructured.Unstructured) error {
	for _, f := range identityFields {
		want := f.Get(base)
		for _, s := range []struct {
			name string
			obj  *unstructured.Unstructured
		}{{"mine", mine}, {"theirs", theirs}} {
			if got := f.Get(s.obj); got != want {
				return &IdentityError{Side: s.name, Field: f.Name, Base: want, Got: got}
			}
		}
	}
	return nil
}

// stripped returns obj without the fields the server owns, so that they
// are not compared at all. It copies only the maps it changes (the top and
// metadata): the merge never writes into the objects' other maps, and a
// deep copy of three objects was the largest cost of a merge. Objects
// holding Go numbers other than int64 and float64 are deep-copied into that
// form, and values that are not JSON are an error.
func stripped(obj *unstructured.Unstructured) (*unstructured.Unstructured, error) {
	var src map[string]any
	canonical, err := isCanonicalJSON(obj.Object)
	switch {
	case err != nil:
		return nil, err
	case canonical:
		src = obj.Object
	default:
		v, err := copyJSON(obj.Object)
		if err != nil {
			return nil, err
		}
		src, _ = v.(map[string]any)
	}
	o := make(map[string]any, len(src))
	for k, v := range src {
		o[k] = v
	}
	delete(o, "status")
	if md, ok := o["metadata"].(map[string]any); ok {
		c := make(map[string]any, len(md))
		for k, v := range md {
			c[k] = v
		}
		for _, f := range serverOwnedMeta {
			delete(c, f)
		}
		o["metadata"] = c
	}
	return &unstructured.Unstructured{Object: o}, nil
}

// isCanonicalJSON reports whether v holds only the types unstructured
// objects use, and fails on a value that is no JSON at all.
func isCanonicalJSON(v any) (bool, error) {
	switch x := v.(type) {
	case nil, string, bool, int64, float64:
		return true, nil
	case map[string]any:
		ok := true
		for _, e := range x {
			c, err := isCanonicalJSON(e)
			if err != nil {
				return false, err
			}
			ok = ok && c
		}
		return ok, nil
	case []any:
		ok := true
		for _, e := range x {
			c, err := isCanonicalJSON(e)
			if err != nil {
				return false, err
			}
			ok = ok && c
		}
		return ok, nil
	}
	if _, err := copyJSON(v); err != nil {
		return false, err
	}
	return false, nil
}

// copyServerOwned puts theirs' server-owned fields into the merged tree.
func copyServerOwned(tree, theirs map[string]any) {
	// Copied into unstructured's number types; theirs has passed
	// stripped, so they are JSON.
	if st, ok := theirs["status"]; ok {
		tree["status"], _ = copyJSON(st)
	}
	tmd, ok := theirs["metadata"].(map[string]any)
	if !ok {
		return
	}
	md, ok := tree["metadata"].(map[string]any)
	if !ok {
		md = map[string]any{}
		tree["metadata"] = md
	}
	for _, f := range serverOwnedMeta {
		if v, ok := tmd[f]; ok {
			md[f], _ = copyJSON(v)
		}
	}
}

func isSecret(obj *unstructured.Unstructured) bool {
	return obj.GetAPIVersion() == "v1" && obj.GetKind() == "Secret"
}

// decodeSecretData decodes the base64 values of a Secret's data in place so
// that a change inside a value merges like any text. A key is decoded only
// where it is valid base64 in every version that has it: a mix of decoded
// and raw values would compare wrongly.
func decodeSecretData(objs ...*unstructured.Unstructured) map[string]bool {
	datas := make([]map[string]any, len(objs))
	for i, o := range objs {
		d, ok := o.Object["data"].(map[string]any)
		if !ok {
			continue
		}
		// The data maps are the caller's; decode into copies.
		c := make(map[string]any, len(d))
		for k, v := range d {
			c[k] = v
		}
		o.Object["data"] = c
		datas[i] = c
	}
	keys := map[string]bool{}
	for _, d := range datas {
		for k, v := range d {
			if _, seen := keys[k]; seen && !keys[k] {
				continue
			}
			s, ok := v.(string)
			if !ok {
				keys[k] = false
				continue
			}
			if _, err := base64.StdEncoding.DecodeString(s); err != nil {
				keys[k] = false
				continue
			}
			keys[k] = true
		}
	}
	decoded := map[string]bool{}
	for k, ok := range keys {
		if !ok {
			continue
		}
		decoded[k] = true
		for _, d := range datas {
			if s, ok := d[k].(string); ok {
				raw, _ := base64.StdEncoding.DecodeString(s)
				d[k] = string(raw)
			}
		}
	}
	return decoded
}

// compareAll types the three versions with the first schema that accepts
// all of them, and compares mine and theirs with base.
func compareAll(cfg mergeConfig, b, m, t *unstructured.Unstructured) (tb, tm, tt *typed.TypedValue, cmpMine, cmpTheirs *typed.Comparison, src SchemaSource, err error) {
	type candidate struct {
		src SchemaSource
		s   Schemas
	}
	var cands []candidate
	if cfg.schemas != nil {
		cands = append(cands, candidate{SchemaGiven, cfg.schemas})
	}
	cands = append(cands, candidate{SchemaBuiltin, builtinSchemas()})
	var errs []error
	for _, c := range cands {
		tb, tm, tt, cmpMine, cmpTheirs, err = compareWith(c.s.ObjectToTyped, b, m, t)
		if err == nil {
			return tb, tm, tt, cmpMine, cmpTheirs, c.src, nil
		}
		errs = append(errs, fmt.Errorf("%s schema: %w", c.src, err))
	}
	deduced := func(obj runtime.Object, opts ...typed.ValidationOptions) (*typed.TypedValue, error) {
		return typed.DeducedParseableType.FromUnstructured(obj.(*unstructured.Unstructured).Object, opts...)
	}
	tb, tm, tt, cmpMine, cmpTheirs, err = compareWith(deduced, b, m, t)
	if err != nil {
		errs = append(errs, fmt.Errorf("deduced schema: %w", err))
		return nil, nil, nil, nil, nil, "", fmt.Errorf("diff: cannot compare the objects: %w", errors.Join(errs...))
	}
	return tb, tm, tt, cmpMine, cmpTheirs, SchemaDeduced, nil
}

func compareWith(toTyped func(runtime.Object, ...typed.ValidationOptions) (*typed.TypedValue, error), b, m, t *unstructured.Unstructured) (tb, tm, tt *typed.TypedValue, cmpMine, cmpTheirs *typed.Comparison, err error) {
	defer func() {
		// A schema library that panics on odd input must not take kedit
		// down with it; the next schema gets a try.
		if r := recover(); r != nil {
			err = fmt.Errorf("panic while typing: %v", r)
		}
	}()
	if tb, err = toTyped(b, typed.AllowDuplicates); err != nil {
		return
	}
	// Base alone is validated: validation is a large part of a merge's
	// time, and Compare fails by itself on what matters (a field the
	// schema does not know), which sends the merge to the next schema; a
	// value of the wrong type in mine or theirs is just a changed leaf.
	// Compare then runs on the three pruned of what they share, which
	// gives the same change sets for a fraction of the work.
	pw := &walker{schema: tb.Schema()}
	pb, pm, pt := pw.prune(tb.TypeRef(), b.Object, m.Object, t.Object)
	asTyped := func(v any) *typed.TypedValue {
		//nolint:staticcheck // deprecated for callers that skip validation by accident; see above.
		return typed.AsTypedUnvalidated(value.NewValueInterface(v), tb.Schema(), tb.TypeRef())
	}
	cb := asTyped(pb)
	tm, tt = asTyped(pm), asTyped(pt)
	if cmpMine, err = cb.Compare(tm); err != nil {
		return
	}
	cmpTheirs, err = cb.Compare(tt)
	return
}

// changeSet is every field a comparison mentions.
func changeSet(c *typed.Comparison) *fieldpath.Set {
	return c.Added.Union(c.Modified).Union(c.Removed)
}
