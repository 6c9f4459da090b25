package effect

import (
	"context"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/kedit/kedit/internal/drafts"
	"github.com/kedit/kedit/kube"
	"github.com/kedit/kedit/ui/common"
)

// The browser's questions to the cluster (ui.Cluster's methods, each
// passed as the function that asks it).

type (
	// Opened is the outcome of opening the object Key: O is what the
	// app opens an object as (*ui.Object).
	Opened[O any] struct {
		Key common.DraftKey
		Obj O
		Err error
	}
	// CollectionResolved is the outcome of :TYPE.
	CollectionResolved struct {
		Collection *kube.Collection
		Err        error
	}
	// TypesListed are the types :TYPE completes.
	TypesListed struct {
		Types []kube.ResourceType
		Err   error
	}
	// NamespacesListed are the namespaces :ns offers.
	NamespacesListed struct {
		Names []string
		Err   error
	}
	// NamespaceChecked is what the server said of the namespace Name
	// that :ns NAME typed.
	NamespaceChecked struct {
		Name string
		Err  error
	}
	// DraftsListed is the store's drafts on this cluster; Show says
	// that :drafts asked for them.
	DraftsListed struct {
		Entries []drafts.Entry
		Err     error
		Show    bool
	}
)

// Open names the object key's target, then opens it.
func Open[O any](ctx context.Context, open func(context.Context, *kube.Target) (O, error), key common.DraftKey, target func() (*kube.Target, error)) tea.Cmd {
	return func() tea.Msg {
		t, err := target()
		if err != nil {
			return Opened[O]{Key: key, Err: err}
		}
		obj, err := open(ctx, t)
		return Opened[O]{Key: key, Obj: obj, Err: err}
	}
}

// ResolveCollection resolves typ as the user typed it (:TYPE), in every
// namespace with all.
func ResolveCollection(resolve func(string, bool) (*kube.Collection, error), typ string, all bool) tea.Cmd {
	return func() tea.Msg {
		coll, err := resolve(typ, all)
		return CollectionResolved{Collection: coll, Err: err}
	}
}

// ListTypes lists the types :TYPE completes.
func ListTypes(types func() ([]kube.ResourceType, error)) tea.Cmd {
	return func() tea.Msg {
		ts, err := types()
		return TypesListed{Types: ts, Err: err}
	}
}

// ListNamespaces lists the namespaces :ns offers.
func ListNamespaces(ctx context.Context, namespaces func(context.Context) ([]string, error)) tea.Cmd {
	return func() tea.Msg {
		names, err := namespaces(ctx)
		return NamespacesListed{Names: names, Err: err}
	}
}

// CheckNamespace asks whether the namespace name exists.
func CheckNamespace(ctx context.Context, check func(context.Context, string) error, name string) tea.Cmd {
	return func() tea.Msg {
		return NamespaceChecked{Name: name, Err: check(ctx, name)}
	}
}

// ListDrafts lists the store's drafts on this cluster; show: for :drafts.
func ListDrafts(list func() ([]drafts.Entry, error), show bool) tea.Cmd {
	return func() tea.Msg {
		entries, err := list()
		return DraftsListed{Entries: entries, Err: err, Show: show}
	}
}
