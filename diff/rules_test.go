package diff

import (
	"errors"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

func TestSameObject(t *testing.T) {
	obj := func(apiVersion, kind, ns, name string) *unstructured.Unstructured {
		return &unstructured.Unstructured{Object: map[string]any{
			"apiVersion": apiVersion, "kind": kind,
			"metadata": map[string]any{"namespace": ns, "name": name},
		}}
	}
	base := obj("v1", "ConfigMap", "ns", "a")
	if err := SameObject(base, obj("v1", "ConfigMap", "ns", "a"), "mine"); err != nil {
		t.Errorf("the same object: %v", err)
	}
	for _, tc := range []struct {
		other *unstructured.Unstructured
		field string
	}{
		{obj("v2", "ConfigMap", "ns", "a"), "apiVersion"},
		{obj("v1", "Secret", "ns", "a"), "kind"},
		{obj("v1", "ConfigMap", "other", "a"), "metadata.namespace"},
		{obj("v1", "ConfigMap", "ns", "b"), "metadata.name"},
	} {
		var ie *IdentityError
		if err := SameObject(base, tc.other, "theirs"); !errors.As(err, &ie) || ie.Field != tc.field || ie.Side != "theirs" {
			t.Errorf("%s differs: %v", tc.field, err)
		}
	}
}

func TestStripServerOwned(t *testing.T) {
	o := &unstructured.Unstructured{Object: map[string]any{
		"metadata": map[string]any{"name": "a", "labels": map[string]any{"x": "y"}},
		"status":   map[string]any{"phase": "x"},
		"data":     map[string]any{"k": "v"},
	}}
	md := o.Object["metadata"].(map[string]any)
	for _, f := range ServerOwnedMeta() {
		md[f] = "set"
	}
	StripServerOwned(o)
	want := map[string]any{
		"metadata": map[string]any{"name": "a", "labels": map[string]any{"x": "y"}},
		"data":     map[string]any{"k": "v"},
	}
	if !equalJSON(o.Object, want) {
		t.Errorf("stripped: %v", o.Object)
	}
	if len(ServerOwnedMeta()) != 8 {
		t.Errorf("ServerOwnedMeta = %v", ServerOwnedMeta())
	}
}

// TestIsSecretIsOneRule: a Secret is the core group's kind Secret, whether
// kedit holds the object or only its group and kind; a kind of that name
// in another group is not one.
func TestIsSecretIsOneRule(t *testing.T) {
	for _, tc := range []struct {
		apiVersion, kind string
		want             bool
	}{
		{"v1", "Secret", true},
		{"v1", "ConfigMap", false},
		{"example.com/v1", "Secret", false},
		{"v1", "secret", false},
	} {
		obj := &unstructured.Unstructured{Object: map[string]any{"apiVersion": tc.apiVersion, "kind": tc.kind}}
		if got := IsSecret(obj); got != tc.want {
			t.Errorf("IsSecret(%s %s) = %v", tc.apiVersion, tc.kind, got)
		}
		if got := IsSecretKind(obj.GroupVersionKind().GroupKind()); got != tc.want {
			t.Errorf("IsSecretKind(%s %s) = %v", tc.apiVersion, tc.kind, got)
		}
	}
	if IsSecret(nil) {
		t.Error("nil is a Secret")
	}
}

// TestIdentityIsOneComparison: the merge asks the same rule as a save, in
// identityFields' order across both sides: the first field that differs
// is named, whichever side it is on.
func TestIdentityIsOneComparison(t *testing.T) {
	obj := func(kind, name string) *unstructured.Unstructured {
		return &unstructured.Unstructured{Object: map[string]any{
			"apiVersion": "v1", "kind": kind, "metadata": map[string]any{"namespace": "ns", "name": name},
		}}
	}
	base := obj("ConfigMap", "a")
	_, err := MergeObjects(base, obj("ConfigMap", "renamed"), obj("Secret", "a"))
	var ie *IdentityError
	if !errors.As(err, &ie) || ie.Side != "theirs" || ie.Field != "kind" {
		t.Fatalf("MergeObjects = %v, want theirs' kind named first", err)
	}
	if want := `theirs changes kind from "ConfigMap" to "Secret": kedit saves the object it opened, not another one`; ie.Error() != want {
		t.Errorf("Error() = %q, want %q", ie.Error(), want)
	}
	err = SameObject(base, obj("ConfigMap", "renamed"), "mine")
	if want := `the draft changes metadata.name from "a" to "renamed": kedit saves the object it opened, not another one`; err == nil || err.Error() != want {
		t.Errorf("SameObject = %v, want %q", err, want)
	}
}

// TestTakeServerOwnedMeta: every server-owned metadata field comes from
// the other version, or goes where it has none; the rest stays.
func TestTakeServerOwnedMeta(t *testing.T) {
	older := &unstructured.Unstructured{Object: map[string]any{
		"metadata": map[string]any{"name": "a", "resourceVersion": "3", "uid": "old", "deletionTimestamp": "2026-01-01T00:00:00Z",
			"managedFields": []any{map[string]any{"manager": "x"}}, "labels": map[string]any{"k": "v"}},
		"data": map[string]any{"foo": "old"},
	}}
	base := &unstructured.Unstructured{Object: map[string]any{
		"metadata": map[string]any{"name": "a", "resourceVersion": "9", "uid": "new", "generation": int64(2), "labels": map[string]any{"k": "base"}},
	}}
	TakeServerOwnedMeta(older, base)
	want := map[string]any{
		"metadata": map[string]any{"name": "a", "resourceVersion": "9", "uid": "new", "generation": int64(2), "labels": map[string]any{"k": "v"}},
		"data":     map[string]any{"foo": "old"},
	}
	if !equalJSON(older.Object, want) {
		t.Errorf("took %v, want %v", older.Object, want)
	}
	base.Object["metadata"].(map[string]any)["uid"] = "changed"
	if older.GetUID() != "new" {
		t.Error("the field taken is shared with the other version")
	}

	DropManagedFields(base)
	withFields := &unstructured.Unstructured{Object: map[string]any{"metadata": map[string]any{"name": "a", "managedFields": []any{}}}}
	DropManagedFields(withFields)
	if _, found, _ := unstructured.NestedFieldNoCopy(withFields.Object, "metadata", "managedFields"); found || withFields.GetName() != "a" {
		t.Errorf("DropManagedFields left %v", withFields.Object)
	}
}
