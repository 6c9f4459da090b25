package model

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

// TestOwnedFields: an entry's fields decode to the set server-side apply
// wrote; an entry without fields, or with fields that do not decode, owns
// nothing kedit can name.
func TestOwnedFields(t *testing.T) {
	var fields metav1.FieldsV1
	fields.SetRawBytes([]byte(`{"f:data":{"f:foo":{}},"f:spec":{"f:containers":{"k:{\"name\":\"nginx\"}":{"f:image":{}}}}}`))
	s, ok := OwnedFields(&metav1.ManagedFieldsEntry{Manager: "kubectl-edit", FieldsV1: &fields})
	if !ok {
		t.Fatal("fields that decode are not owned")
	}
	for _, p := range []string{".data.foo", `.spec.containers[name="nginx"].image`} {
		found := false
		s.Iterate(func(q fieldpath.Path) { found = found || q.String() == p })
		if !found {
			t.Errorf("%s is not in the set %s", p, s)
		}
	}
	var broken metav1.FieldsV1
	broken.SetRawBytes([]byte(`{"f:data":`))
	for name, e := range map[string]metav1.ManagedFieldsEntry{"no fields": {Manager: "m"}, "fields that do not decode": {Manager: "m", FieldsV1: &broken}} {
		if s, ok := OwnedFields(&e); ok || s != nil {
			t.Errorf("%s: owns %v", name, s)
		}
	}
}
