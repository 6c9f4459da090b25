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
