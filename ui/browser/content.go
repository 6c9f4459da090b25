package browser

import (
	"time"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kedit/kedit/internal/escape"
)

// What the browser draws, as values the app makes from what kube lists.

// Listing is what the browser lists: the objects of one type, in one
// namespace or in all of them.
type Listing struct {
	// Resource names the type as kubectl accepts it (configmaps,
	// deployments.apps); GroupResource is the type as the draft marks
	// name it.
	Resource      string
	GroupResource schema.GroupResource
	// Context is the kubeconfig context in use, for the header.
	Context string
	// Namespace is the namespace listed; it is ignored for cluster-scoped
	// types (Namespaced false) and with AllNamespaces.
	Namespace                 string
	Namespaced, AllNamespaces bool
	// Where says which objects are listed, for messages: `in namespace
	// "team-a"`, `in all namespaces`, or "" for a cluster-scoped type.
	Where string
}

// Row is one object of the list, from its metadata only. Its fields are
// those of kube.ObjectRow, which converts to it.
type Row struct {
	// Namespace is empty for cluster-scoped kinds.
	Namespace       string
	Name            string
	UID             types.UID
	ResourceVersion string
	Created         time.Time
	// Changed is when the newest managedFields entry was written, and
	// ChangedBy its field manager: who touched the object last, and when.
	// Both are zero for an object without managedFields.
	Changed   time.Time
	ChangedBy string
}

// Snapshot is the list's whole state at one moment: the browser needs
// only the latest one.
type Snapshot struct {
	// Rows is every object, ordered by namespace and name. It may be
	// shared with later snapshots, so the browser never modifies it.
	Rows []Row
	// Generation grows with every change of Rows: a snapshot of the
	// generation shown has nothing new but its connection.
	Generation uint64
	// Synced is set once the first complete list has arrived; before that
	// Rows is empty and says nothing about the server.
	Synced bool
	// Connection is the state of the link to the API server.
	Connection Connection
}

// Connection is the state of the list's link to the API server, in the
// app's words.
type Connection struct {
	// Text says how the link stands, for the header.
	Text escape.Text
	// Refused is the server's refusal to list, while it refuses; Lost is
	// the latest failure, while the link is lost and the list retries.
	Refused, Lost error
}

// Type is one type of object the server serves, for the : prompt to
// complete.
type Type struct {
	// Resource is the plural, as in the URL (configmaps); Name the
	// type's unambiguous name (deployments.apps); Names every form
	// kubectl accepts (the singular, the kind, the short names ...).
	Resource, Name string
	Names          []string
}
