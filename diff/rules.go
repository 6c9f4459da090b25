package diff

import (
	"maps"
	"reflect"
	"slices"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// The rules about objects that model, kube and the merge share have their
// one home here, in the lowest of kedit's packages: which fields the server
// owns (serverOwnedMeta, in object.go), when two versions are the same
// object, and what is a Secret.

// IsSecretKind reports whether gk is a Secret (core group, kind Secret):
// kedit's one rule for it. A Secret's values are never shown unasked,
// logged, or written to a draft file without --allow-secret-drafts, and
// its data merges decoded. Objects (IsSecret), the session's object
// (model.ObjectRef.IsSecret) and the command line's (kube.Target, through
// its Ref) all ask it.
func IsSecretKind(gk schema.GroupKind) bool { return gk.Group == "" && gk.Kind == "Secret" }

// ServerOwnedMeta returns the metadata fields the API server sets and a
// client never decides: resourceVersion, managedFields, uid, generation,
// creationTimestamp, selfLink, deletionTimestamp and
// deletionGracePeriodSeconds.
func ServerOwnedMeta() []string { return slices.Clone(serverOwnedMeta) }

// StripServerOwned removes from obj, in place, everything the API server
// owns: status (but with WithStatusEdited among opts) and the
// ServerOwnedMeta fields.
func StripServerOwned(obj *unstructured.Unstructured, opts ...Option) {
	if !configOf(opts).statusEdited {
		unstructured.RemoveNestedField(obj.Object, "status")
	}
	for _, f := range serverOwnedMeta {
		unstructured.RemoveNestedField(obj.Object, "metadata", f)
	}
}

// TakeServerOwnedMeta gives obj, in place, from's server-owned metadata
// (the ServerOwnedMeta fields): each as from has it, none where from has
// none. An older version of the object made the draft again this way
// carries base's resourceVersion and uid, not those it was stored with.
func TakeServerOwnedMeta(obj, from *unstructured.Unstructured) {
	for _, f := range serverOwnedMeta {
		if v, found, _ := unstructured.NestedFieldNoCopy(from.Object, "metadata", f); found {
			_ = unstructured.SetNestedField(obj.Object, v, "metadata", f) // a copy
		} else {
			unstructured.RemoveNestedField(obj.Object, "metadata", f)
		}
	}
}

// DropManagedFields removes obj's metadata.managedFields, in place: the
// server's record of which manager owns which field. A draft's text never
// shows it (kubectl edit hides it too) and a save never sends it: without
// it the server keeps its own record, and a stale one typed back in would
// rewrite ownership.
func DropManagedFields(obj *unstructured.Unstructured) {
	unstructured.RemoveNestedField(obj.Object, "metadata", "managedFields")
}

// WithoutManagedFields is m as a draft's text shows it: the same merge,
// whose text (YAML, JSON) leaves out metadata.managedFields, as
// DropManagedFields leaves them out of a draft's. m is not changed.
// Server-owned fields come from theirs, so no conflict is inside them.
func (m *ObjectMerge) WithoutManagedFields() *ObjectMerge {
	meta, ok := m.tree["metadata"].(map[string]any)
	if !ok {
		return m
	}
	if _, ok := meta["managedFields"]; !ok {
		return m
	}
	c := *m
	c.tree = maps.Clone(m.tree)
	meta = maps.Clone(meta)
	delete(meta, "managedFields")
	c.tree["metadata"] = meta
	return &c
}

// ServerOwnedOnly reports whether a and b differ at most in what the API
// server owns (StripServerOwned with opts): status and the server-owned
// metadata. A version that moved on only so is no change anyone made to
// what a user edits: a Node's heartbeat, a controller's status write.
func ServerOwnedOnly(a, b *unstructured.Unstructured, opts ...Option) bool {
	if a == nil || b == nil {
		return a == b
	}
	x, y := a.DeepCopy(), b.DeepCopy()
	StripServerOwned(x, opts...)
	StripServerOwned(y, opts...)
	return reflect.DeepEqual(x.Object, y.Object)
}

// IdentityField is one of the fields that name an object: two versions
// that differ in one of them are not the same object.
type IdentityField struct {
	// Name is the field's path as kubectl spells it, e.g. "metadata.name".
	Name string
	// Path is the field's path as keys, e.g. {"metadata", "name"}.
	Path []string
	// Get reads the field.
	Get func(*unstructured.Unstructured) string
}

// identityFields is kedit's one rule for "the same object". The uid is not
// among them: an object deleted and created again under its name is the
// same object here (its versions merge), and another object to the
// session, which tells them apart by uid (model.MadeOnEarlierObject).
var identityFields = []IdentityField{
	{"apiVersion", []string{"apiVersion"}, (*unstructured.Unstructured).GetAPIVersion},
	{"kind", []string{"kind"}, (*unstructured.Unstructured).GetKind},
	{"metadata.namespace", []string{"metadata", "namespace"}, (*unstructured.Unstructured).GetNamespace},
	{"metadata.name", []string{"metadata", "name"}, (*unstructured.Unstructured).GetName},
}

// IdentityFields returns the fields that name an object: apiVersion, kind,
// metadata.namespace and metadata.name, in that order.
func IdentityFields() []IdentityField { return slices.Clone(identityFields) }

// SameObject returns an *IdentityError naming the first identity field in
// which other, the version called side ("mine", "theirs"), differs from
// base; nil when both are the same object.
func SameObject(base, other *unstructured.Unstructured, side string) error {
	return sameObject(base, version{side, other})
}

// version is one of the versions compared with base, and its side.
type version struct {
	side string
	obj  *unstructured.Unstructured
}

// sameObject is the one comparison of identity: field by field, in
// identityFields' order, each version against base.
func sameObject(base *unstructured.Unstructured, versions ...version) error {
	for _, f := range identityFields {
		want := f.Get(base)
		for _, v := range versions {
			if got := f.Get(v.obj); got != want {
				return &IdentityError{Side: v.side, Field: f.Name, Base: want, Got: got}
			}
		}
	}
	return nil
}
