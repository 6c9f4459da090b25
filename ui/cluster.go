package ui

import (
	"context"

	tea "github.com/charmbracelet/bubbletea"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kedit/kedit/internal/drafts"
	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/kube"
	"github.com/kedit/kedit/model"
	"github.com/kedit/kedit/ui/common"
	"github.com/kedit/kedit/ui/timeline"
)

// What the app needs of the cluster beyond the object shown, and the
// commands that ask it.

// Cluster is what the app needs of the API server beyond the object shown:
// the browser's lists, types, namespaces and drafts, and opening an object
// picked at runtime. kedit's is internal/cluster's Opener (a
// *kube.Cluster with the draft store); tests give a fake.
type Cluster interface {
	// Collection resolves a type as the user typed it (:TYPE); see
	// kube.Cluster.Collection for its errors.
	Collection(typ string, allNamespaces bool) (*kube.Collection, error)
	// Target names an object by its resource, as a draft records it.
	Target(resource schema.GroupResource, namespace, name string) (*kube.Target, error)
	// Types are the types :TYPE completes.
	Types() ([]kube.ResourceType, error)
	// Namespaces are the namespaces :ns offers.
	Namespaces(ctx context.Context) ([]string, error)
	// CheckNamespace says whether a namespace typed in :ns NAME exists:
	// nil, a *kube.NamespaceNotFoundError, or why it cannot tell
	// (kube.Cluster.CheckNamespace).
	CheckNamespace(ctx context.Context, name string) error
	// Browse starts a live list of c.
	Browse(ctx context.Context, c *kube.Collection) (List, error)
	// Drafts are the stored drafts of this context on this cluster, of
	// the objects and of their subresources (drafts.Store.ClusterDrafts).
	Drafts() ([]drafts.Entry, error)
	// Open reads the object and opens its session, its share of the draft
	// store and what else kedit keeps per object. It is called inside a
	// command.
	Open(ctx context.Context, t *kube.Target) (*Object, error)
}

// List is a live list of one collection (a started *kube.Browse).
type List interface {
	Collection() *kube.Collection
	Snapshots() <-chan kube.BrowseSnapshot
	Stop()
}

// Watcher is a started watch of one object (*kube.Watch).
type Watcher interface {
	Events() <-chan kube.WatchEvent
	Stop()
}

// Object is one object opened for the object view.
type Object struct {
	Target  *kube.Target
	Session *model.Session
	Runner  Performer
	Drafts  Drafts
	// Notice is said in the status bar when the object is shown.
	Notice string
	// Demo is kedit demo's second writer on the object; nil outside the
	// demo.
	Demo DemoWriter
	// Watch starts a watch of the object. The app watches it while it is
	// shown, and stops the watch when it goes back to the browser.
	Watch func(ctx context.Context) (Watcher, error)
	// Read reads the object from the server: when the app takes up an
	// object again, it may have changed or gone while nothing watched it.
	Read func(ctx context.Context) (*unstructured.Unstructured, error)
	// MaySave asks the server whether the user may save the object
	// (kube.MaySave); nil asks nothing.
	MaySave func(ctx context.Context) error
	// GitOpsPath reads from the cluster the path the object's GitOps
	// owner builds (kube.GitOpsPath), where g looks for its source; nil
	// reads nothing.
	GitOpsPath func(ctx context.Context, owner model.GitOpsOwner) (path, from string, err error)
	// History reads the object's history from the audit logs kedit was
	// given (--audit-log), each time the timeline opens; nil for none.
	History timeline.HistoryReader
	// Check checks a draft against the server's schema of the object's
	// kind (diagnostics.go); nil checks nothing.
	Check SchemaCheck
	// Schema returns the server's schema of the object's kind, for the
	// field docs and completion (docs.go); nil has none.
	Schema FieldSchema
	// Close lets go of the object (its draft locks and what else Open
	// took) when the app leaves it without a draft. Objects left with a
	// draft stay open until kedit ends, which stores their drafts.
	Close func()
}

// Results of the browser's commands, named in the past tense.
type (
	// objectOpenedMsg is the outcome of opening the object key.
	objectOpenedMsg struct {
		key DraftKey
		obj *Object
		err error
	}
	// objectReadMsg is the object of as read when the app took it up
	// again.
	objectReadMsg struct {
		of  objectID
		obj *unstructured.Unstructured
		err error
	}
	// collectionResolvedMsg is the outcome of :TYPE.
	collectionResolvedMsg struct {
		coll *kube.Collection
		err  error
	}
	typesListedMsg struct {
		types []kube.ResourceType
		err   error
	}
	namespacesListedMsg struct {
		names []string
		err   error
	}
	// draftsListedMsg is the store's drafts on this cluster; show says
	// that :drafts asked for them.
	draftsListedMsg struct {
		entries []drafts.Entry
		err     error
		show    bool
	}
)

// keyOf names t's object as the draft marks do.
func keyOf(t *kube.Target) DraftKey {
	return DraftKey{Resource: t.Mapping.Resource.GroupResource(), Namespace: t.Namespace, Name: t.Name}
}

// objectName names the object of key for messages: configmaps/testmap.
func objectName(k DraftKey) escape.Text {
	return escape.Safe(kube.ResourceName(k.Resource)) + "/" + escape.Safe(k.Name)
}

func openCmd(ctx context.Context, c Cluster, key DraftKey, target func() (*kube.Target, error)) tea.Cmd {
	return func() tea.Msg {
		t, err := target()
		if err != nil {
			return objectOpenedMsg{key: key, err: err}
		}
		obj, err := c.Open(ctx, t)
		return objectOpenedMsg{key: key, obj: obj, err: err}
	}
}

func readCmd(ctx context.Context, id objectID, read func(context.Context) (*unstructured.Unstructured, error)) tea.Cmd {
	return func() tea.Msg {
		obj, err := read(ctx)
		return objectReadMsg{of: id, obj: obj, err: err}
	}
}

func collectionCmd(c Cluster, typ string, all bool) tea.Cmd {
	return func() tea.Msg {
		coll, err := c.Collection(typ, all)
		return collectionResolvedMsg{coll: coll, err: err}
	}
}

func typesCmd(c Cluster) tea.Cmd {
	return func() tea.Msg {
		types, err := c.Types()
		return typesListedMsg{types: types, err: err}
	}
}

func namespacesCmd(ctx context.Context, c Cluster) tea.Cmd {
	return func() tea.Msg {
		names, err := c.Namespaces(ctx)
		return namespacesListedMsg{names: names, err: err}
	}
}

func draftsCmd(c Cluster, show bool) tea.Cmd {
	return func() tea.Msg {
		entries, err := c.Drafts()
		return draftsListedMsg{entries: entries, err: err, show: show}
	}
}

// stopCmd stops a list or a watch, which waits for its goroutines, off the
// UI's goroutine. It reports nothing.
func stopCmd(stop func()) tea.Cmd {
	return func() tea.Msg {
		stop()
		return nil
	}
}

// The app's names for the draft marks the views share (common.DraftKey,
// common.DraftPlace): the shelf, the set and the opening of objects file
// drafts by them.
type (
	// DraftKey names an object that has a draft (common.DraftKey).
	DraftKey = common.DraftKey
	// DraftPlace says where a draft is kept (common.DraftPlace).
	DraftPlace = common.DraftPlace
)

// Where a draft is kept (common.DraftStored, common.DraftInMemory).
const (
	DraftStored   = common.DraftStored
	DraftInMemory = common.DraftInMemory
)
