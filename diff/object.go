package diff

import (
	"encoding/base64"
	"errors"
	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kedit/kedit/internal/words"
)

// IdentityError reports a version that is not the same object as base
// (SameObject): there is nothing to merge, and nothing kedit may save.
type IdentityError struct {
	// Side is the version that differs from base: "mine" (the draft) or
	// "theirs".
	Side string
	// Field is "apiVersion", "kind", "metadata.namespace" or "metadata.name".
	Field string
	// Base and Got are the field in base and in Side.
	Base, Got string
}

// Error names the version, the field and both values.
func (e *IdentityError) Error() string {
	who := e.Side
	if who == "mine" {
		who = "the draft"
	}
	return fmt.Sprintf("%s changes %s from %q to %q: kedit saves the object it opened, not another one", who, e.Field, e.Base, e.Got)
}

// OpenConflictsError is returned by ObjectMerge.Final while conflicts are
// still open.
type OpenConflictsError struct {
	Open int
}

// Error says how many conflicts are open.
func (e *OpenConflictsError) Error() string {
	return words.Count(e.Open, "conflict") + " still open"
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
	// keepStatus: status was merged as the user's (WithStatusEdited).
	keepStatus bool
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
	// A merge of two different objects would be meaningless.
	if err := sameObject(base, version{"mine", mine}, version{"theirs", theirs}); err != nil {
		return nil, err
	}

	b, err := stripped(base, cfg.statusEdited)
	if err != nil {
		return nil, &InputError{Side: "base", Err: err}
	}
	m, err := stripped(mine, cfg.statusEdited)
	if err != nil {
		return nil, &InputError{Side: "mine", Err: err}
	}
	t, err := stripped(theirs, cfg.statusEdited)
	if err != nil {
		return nil, &InputError{Side: "theirs", Err: err}
	}
	var secretKeys map[string]bool
	if IsSecret(theirs) {
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
	copyServerOwned(tree, theirs.Object, cfg.statusEdited)

	res := &ObjectMerge{
		Changes:     w.changes,
		Conflicts:   w.conflicts,
		Resolutions: make([]Resolution, len(w.conflicts)),
		Schema:      source,
		tree:        tree,
		units:       w.units,
		secretKeys:  secretKeys,
		keepStatus:  cfg.statusEdited,
	}
	// Open conflicts keep theirs' value (see resolvedValue).
	res.Merged = &unstructured.Unstructured{Object: res.materialize(res.pickResolved, nil)}
	return res, nil
}

// stripped returns obj without the fields the server owns (status but
// when keepStatus, the status subresource's edit), so that they are not
// compared at all. It copies only the maps it changes (the top and
// metadata): the merge never writes into the objects' other maps, and a
// deep copy of three objects was the largest cost of a merge. Objects
// holding Go numbers other than int64 and float64 are deep-copied into that
// form, and values that are not JSON are an error.
func stripped(obj *unstructured.Unstructured, keepStatus bool) (*unstructured.Unstructured, error) {
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
	if !keepStatus {
		delete(o, "status")
	}
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

// copyServerOwned puts theirs' server-owned fields into the merged tree
// (status too, but when it was merged: keepStatus).
func copyServerOwned(tree, theirs map[string]any, keepStatus bool) {
	// Copied into unstructured's number types; theirs has passed
	// stripped, so they are JSON.
	if st, ok := theirs["status"]; ok && !keepStatus {
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
