package ui

import (
	"context"
	"io"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kedit/kedit/internal/drafts"
	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/kube"
	"github.com/kedit/kedit/model"
	"github.com/kedit/kedit/ui/common"
	"github.com/kedit/kedit/ui/internal/effect"
	"github.com/kedit/kedit/ui/timeline"
)

// What the app is started with and what it calls (the commands that call
// it are ui/internal/effect's).

// Performer carries out a session's effects (effect.Performer).
type Performer = effect.Performer

// Drafts is this kedit's share of the draft store for the object
// (effect.Drafts, *drafts.Object).
type Drafts = effect.Drafts

// Config is what the app is started with: the object, the list or the
// set to show first, and the options of every object.
type Config struct {
	// AutoRebase resubmits clean rebases after a conflict without asking.
	AutoRebase bool
	// Context bounds every API call; nil means context.Background.
	Context context.Context
	// YesGitOps saves an object a GitOps tool reconciles without asking
	// first (--yes-gitops).
	YesGitOps bool
	// SourceDir is the checkout of the manifests g writes a GitOps
	// object's draft to (--source); "" for the git work tree of the
	// current directory.
	SourceDir string
	// Clipboard is the terminal, where a copy or a cut in the in-app
	// editor is written as an OSC 52 sequence (the terminal's clipboard,
	// where it allows); nil for none.
	Clipboard io.Writer
	// Keys and common.Styles default to DefaultKeyMap and common.NewStyles.
	Keys   *KeyMap
	Styles *common.Styles

	// Cluster lists objects for the browser and opens those picked in it;
	// nil for an app on one object alone, where esc has no list to go
	// back to.
	Cluster Cluster
	// Object is the object to show first (kedit TYPE/NAME), opened by
	// Cluster.Open; with a Cluster, esc goes back to its type's list.
	Object *Object
	// List is the browser's list to show first (kedit, kedit TYPE),
	// started already; First is its latest snapshot, read before the UI
	// started to say a refusal on the terminal.
	List  List
	First *kube.BrowseSnapshot
	// Set is the set to show first (kedit cm/a cm/b, -l, -f), its objects
	// opened already; esc from one of them goes back to it.
	Set *Set
	// ExitAfterFirstFrame quits once the first frame showing the list (or
	// the object's YAML, or the set) is drawn: start-up made measurable.
	ExitAfterFirstFrame bool
	// Subresource is the part of each object this kedit edits
	// (--subresource); "" for the objects themselves. The browser marks
	// the drafts of what it edits; :drafts lists every draft, naming the
	// subresource of each.
	Subresource kube.Subresource
	// HelpNote is said under the keys on the help page (?), one line
	// each: kedit demo's how a second terminal joins its cluster.
	HelpNote []string
	// Requests is the log of every request kedit sent and every watch
	// event it read, which the request pane (L) shows; nil for none.
	Requests *kube.RequestLog
	// Tour draws kedit demo --tour's line over every view: what to do
	// next, and what the last step did on the wire (requestpane.go).
	Tour bool
}

// What the app needs of the cluster beyond the object shown.

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
	// ServerCheck asks the server's own dry run of a draft the schema
	// passed (servercheck.go); nil asks nothing.
	ServerCheck ServerCheck
	// Schema returns the server's schema of the object's kind, for the
	// field docs and completion (docs.go); nil has none.
	Schema FieldSchema
	// Close lets go of the object (its draft locks and what else Open
	// took) when the app leaves it without a draft. Objects left with a
	// draft stay open until kedit ends, which stores their drafts.
	Close func()
}

// keyOf names t's object as the draft marks do.
func keyOf(t *kube.Target) DraftKey {
	return DraftKey{Resource: t.Mapping.Resource.GroupResource(), Namespace: t.Namespace, Name: t.Name}
}

// objectName names the object of key for messages: configmaps/testmap.
func objectName(k DraftKey) escape.Text {
	return escape.Safe(kube.ResourceName(k.Resource)) + "/" + escape.Safe(k.Name)
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
