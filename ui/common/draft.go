package common

import "k8s.io/apimachinery/pkg/runtime/schema"

// DraftKey names an object that has a draft: by resource, namespace and
// name rather than uid, so that the mark stays on an object deleted and
// created again, whose draft is still offered when it is opened.
type DraftKey struct {
	Resource  schema.GroupResource
	Namespace string
	Name      string
}

// DraftPlace says where a draft is kept, which the DRAFT column shows: a
// draft only in memory is lost when kedit ends.
type DraftPlace int

const (
	// DraftStored is a draft in the draft store, on disk.
	DraftStored DraftPlace = iota + 1
	// DraftInMemory is a draft held by this process only (a Secret's
	// without --allow-secret-drafts, or one the disk refused).
	DraftInMemory
)

// String is the DRAFT column's mark.
func (p DraftPlace) String() string {
	switch p {
	case DraftStored:
		return "stored"
	case DraftInMemory:
		return "memory"
	}
	return ""
}
