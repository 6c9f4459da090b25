package model

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

// OwnedFields is the set of fields a managedFields entry owns, decoded from
// its FieldsV1 as server-side apply writes it. ok is false for an entry
// with no fields or fields that do not decode: such an entry owns nothing
// that kedit can name, and every caller skips it.
func OwnedFields(e *metav1.ManagedFieldsEntry) (owned *fieldpath.Set, ok bool) {
	if e.FieldsV1 == nil {
		return nil, false
	}
	owned = &fieldpath.Set{}
	if owned.FromJSON(e.FieldsV1.GetRawReader()) != nil {
		return nil, false
	}
	return owned, true
}
