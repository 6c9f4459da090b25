package cluster

import (
	"context"

	"github.com/kedit/kedit/internal/drafts"
	"github.com/kedit/kedit/kube"
	"github.com/kedit/kedit/ui"
)

// The browser's side of the opener: the lists it shows and the drafts it
// marks.

// Browse starts a live list of c for the browser.
func (o *Opener) Browse(ctx context.Context, c *kube.Collection) (ui.List, error) {
	b := kube.NewBrowse(o.Metadata, c)
	if err := b.Start(ctx); err != nil {
		return nil, err
	}
	return b, nil
}

// Drafts are the stored drafts of this context on this cluster, of every
// subresource: the app marks those of the part it edits, and :drafts
// names each one's.
func (o *Opener) Drafts() ([]drafts.Entry, error) {
	return o.store.ClusterDrafts(o.Context, o.Server)
}

// StartList resolves typ and starts its live list, and waits for the
// first complete list, so that a refused one is said on the terminal
// before the UI starts, and the first screen has the rows. A server that
// cannot be reached is the UI's to show (reconnecting).
func (o *Opener) StartList(ctx context.Context, typ string, all bool) (ui.List, *kube.BrowseSnapshot, error) {
	coll, err := o.Collection(typ, all)
	if err != nil {
		return nil, nil, err
	}
	// Said now, not when an object is picked: the type has no such
	// subresource.
	if err := kube.HasSubresource(o.flags, coll.Mapping.Resource, o.subresource); err != nil {
		return nil, nil, err
	}
	list, err := o.Browse(ctx, coll)
	if err != nil {
		return nil, nil, err
	}
	for snap := range list.Snapshots() {
		switch {
		case snap.Connection.State == kube.Refused:
			list.Stop()
			return nil, nil, snap.Connection.Err
		case snap.Synced || snap.Connection.State == kube.Reconnecting:
			return list, &snap, nil
		}
	}
	// Closed: the context ended.
	return nil, nil, ctx.Err()
}
