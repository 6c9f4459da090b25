package ui

import (
	"time"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kedit/kedit/kube"
)

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

// DraftItem is one draft in the :drafts list.
type DraftItem struct {
	Key DraftKey
	// Subresource is the part of the object the draft edits; "" for the
	// object itself.
	Subresource kube.Subresource
	Place       DraftPlace
	// Saved is when the draft was last written; zero when unknown.
	Saved time.Time
}

// The browser's intents (intent.go has those views share: help and
// quitting). The browser does no I/O: switching the list, reading
// namespaces or drafts, opening an object and quitting are the app's.
type (
	// OpenObjectMsg asks to open the selected object in the object view.
	OpenObjectMsg struct {
		Target *kube.Target
		// UID is the object's uid as listed, to tell it from an object of
		// the same name created since.
		UID types.UID
	}
	// SwitchTypeMsg asks to list another type (`:TYPE`), as the user
	// typed it; resolving it (and saying why it cannot be listed) is
	// kube.Cluster.Collection's.
	SwitchTypeMsg struct{ Type string }
	// SwitchNamespaceMsg asks to list the type in another namespace (`:ns
	// NAME`, or a pick from `:ns`), or in every namespace.
	SwitchNamespaceMsg struct {
		Namespace     string
		AllNamespaces bool
	}
	// NamespacesWantedMsg asks for the namespaces (`:ns` shows them to
	// pick from): the app answers with SetNamespaces.
	NamespacesWantedMsg struct{}
	// DraftsWantedMsg asks for the stored drafts of the current context
	// (`:drafts`): the app answers with ShowDrafts.
	DraftsWantedMsg struct{}
	// OpenDraftMsg asks to open the object of a draft picked in :drafts.
	OpenDraftMsg struct{ Draft DraftItem }
)
