package browser

import (
	"time"

	"k8s.io/apimachinery/pkg/types"

	"github.com/kedit/kedit/ui/common"
)

// DraftItem is one draft in the :drafts list.
type DraftItem struct {
	Key common.DraftKey
	// Resource names Key's type as kubectl accepts it (configmaps,
	// deployments.apps), for the list.
	Resource string
	// Subresource is the part of the object the draft edits; "" for the
	// object itself.
	Subresource string
	Place       common.DraftPlace
	// Saved is when the draft was last written; zero when unknown.
	Saved time.Time
}

// The browser's intents (common has those views share: help and
// quitting). The browser does no I/O: switching the list, reading
// namespaces or drafts, opening an object and quitting are the app's.
type (
	// OpenObjectMsg asks to open the selected object (enter) in the
	// object view: the object of the listed type in Namespace of Name.
	OpenObjectMsg struct {
		Namespace, Name string
		// UID is the object's uid as listed, to tell it from an object of
		// the same name created since.
		UID types.UID
	}
	// SwitchTypeMsg asks to list another type (`:TYPE`), as the user
	// typed it; resolving it (and saying why it cannot be listed) is
	// the app's.
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
	// OpenDraftMsg asks to open the object of a draft picked in :drafts
	// (enter in its list).
	OpenDraftMsg struct{ Draft DraftItem }
)
