package kube

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/metadata"
	"k8s.io/client-go/tools/cache"
)

// BrowseSnapshot is a Browse's whole state at one moment. A browser needs
// only the latest one, so snapshots replace each other rather than being
// applied as changes.
type BrowseSnapshot struct {
	// Rows is every object, ordered by namespace and name. It is shared
	// with later snapshots while the list does not change, so a receiver
	// must not modify it.
	Rows []ObjectRow
	// Generation grows with every change of Rows: a receiver whose rows
	// are of this generation already has nothing to redo.
	Generation uint64
	// Synced is set once the first complete list has arrived; before that
	// Rows is empty and says nothing about the server.
	Synced bool
	// Connection is the state of the link to the API server.
	Connection Connection
}

// minSnapshotInterval spaces snapshots out while objects change quickly
// (a rollout, a mass relabel): each one costs the receiver a sort of every
// row, and a screen needs no more than a few a second to look live.
const minSnapshotInterval = 100 * time.Millisecond

// Browse is a live list of one Collection: a metadata-only informer
// (PartialObjectMetadata through the metadata client), so a namespace of
// large ConfigMaps or Secrets costs only their metadata, and a Secret's
// values are never downloaded. Like Watch, it relists after an expired
// watch, reconnects with backoff, never resyncs (an idle Browse sends
// nothing but its long-running watch) and stores only what a row shows.
//
// Snapshots arrive on Snapshots, which the UI reads with a command it
// returns again after each message. The informer's handlers never block:
// they mark the list changed, and one goroutine sends the latest snapshot
// when the receiver is ready, so a receiver that falls behind skips
// intermediate states instead of queueing them.
type Browse struct {
	coll     *Collection
	informer cache.SharedIndexInformer
	synced   cache.DoneChecker
	out      chan BrowseSnapshot
	wake     chan struct{}

	mu         sync.Mutex
	rowsDirty  bool // the store changed since rows was built
	stateDirty bool // the connection changed since the last snapshot
	rows       []ObjectRow
	gen        uint64
	conn       connState
	runs
	handlerErr error
}

// NewBrowse prepares a live list of c through the metadata client mc.
// Nothing is sent to the server until Start.
func NewBrowse(mc metadata.Interface, c *Collection) *Browse {
	b := &Browse{
		coll: c,
		out:  make(chan BrowseSnapshot),
		wake: make(chan struct{}, 1),
		conn: connState{conn: Connection{State: Connecting, Since: time.Now()}},
	}
	ri := mc.Resource(c.Mapping.Resource).Namespace(c.ListNamespace())
	lw := &cache.ListWatch{
		ListWithContextFunc: func(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
			list, err := ri.List(ctx, opts)
			b.observe(ctx, "list", err)
			if err != nil {
				return nil, err // not a typed nil in an interface
			}
			return list, nil
		},
		WatchFuncWithContext: func(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
			wi, err := ri.Watch(ctx, opts)
			if apierrors.IsForbidden(err) {
				return b.pollInstead(ctx, ri, opts, err)
			}
			if err == nil && isEmptyWatch(wi) {
				// A cut connection, which client-go answers with an empty
				// watch and no error: not connected (as for Watch).
				b.observe(ctx, "watch", errWatchCut)
				return wi, nil
			}
			b.observe(ctx, "watch", err)
			return wi, err
		},
	}
	b.informer = cache.NewSharedIndexInformerWithOptions(lw, &metav1.PartialObjectMetadata{}, cache.SharedIndexInformerOptions{
		ResyncPeriod:      0, // no resync: the watch (or, when it is refused, the poll) keeps the list current
		ObjectDescription: c.Resource() + " " + c.Where(),
	})
	// Keep only what a row shows: an object's annotations alone (say a
	// 1 MiB kubectl last-applied-configuration) can dwarf the rest.
	_ = b.informer.SetTransform(trimForRow)
	// The default handler logs through klog to stderr, which belongs to the
	// renderer; the connection state says what the user needs to know.
	_ = b.informer.SetWatchErrorHandlerWithContext(b.watchError)
	changed := func(any) { b.markChanged() }
	reg, err := b.informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    changed,
		UpdateFunc: func(_, obj any) { changed(obj) },
		DeleteFunc: changed,
	})
	b.handlerErr = err
	if reg != nil {
		b.synced = reg.HasSyncedChecker()
	}
	return b
}

// Collection returns what the Browse lists.
func (b *Browse) Collection() *Collection { return b.coll }

// Snapshots returns the channel of snapshots. The first one comes once the
// first complete list has arrived, or earlier when the connection changes
// (a refused list, a server that cannot be reached). It is closed once the
// Browse has stopped, by Stop or by the end of Start's context.
func (b *Browse) Snapshots() <-chan BrowseSnapshot { return b.out }

// Start runs the informer until ctx ends or Stop is called. It returns at
// once; snapshots follow on Snapshots. A Browse starts only once.
func (b *Browse) Start(ctx context.Context) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.started {
		return errors.New("browse of " + b.coll.Resource() + " already started")
	}
	if b.handlerErr != nil {
		return fmt.Errorf("listing %s: %w", b.coll.Resource(), b.handlerErr)
	}
	b.begin(ctx, b.informer.RunWithContext, b.pump)
	return nil
}

// Stop ends the Browse and returns once its goroutines have ended. It is
// safe to call more than once, and before Start.
func (b *Browse) Stop() { b.end(&b.mu, func() { close(b.out) }) }

// markChanged is every event handler: the rows are built from the
// informer's store when a snapshot is due, so a burst of events costs one
// build.
func (b *Browse) markChanged() {
	b.mu.Lock()
	b.rowsDirty = true
	b.mu.Unlock()
	b.poke()
}

func (b *Browse) poke() {
	select {
	case b.wake <- struct{}{}:
	default: // the pump is already awake
	}
}

// pump sends a snapshot whenever something changed and the receiver is
// ready, at most one per minSnapshotInterval.
func (b *Browse) pump(ctx context.Context) {
	defer close(b.out)
	synced := b.synced.Done()
	var last time.Time
	for {
		select {
		case <-ctx.Done():
			return
		case <-b.wake:
		case <-synced:
			synced = nil // closed for good: stop selecting it
		}
		if wait := minSnapshotInterval - time.Since(last); !last.IsZero() && wait > 0 {
			t := time.NewTimer(wait)
			select {
			case <-ctx.Done():
				t.Stop()
				return
			case <-t.C:
			}
		}
		snap, ok := b.snapshot()
		if !ok {
			continue
		}
		select {
		case b.out <- snap:
			last = time.Now()
		case <-ctx.Done():
			return
		}
	}
}

// snapshot builds the snapshot to send, if there is news: a change of the
// connection, or of the rows once the first list is complete (before that,
// the rows are a partial list that would flash on the screen).
func (b *Browse) snapshot() (BrowseSnapshot, bool) {
	synced := cache.IsDone(b.synced)
	b.mu.Lock()
	defer b.mu.Unlock()
	rowsNews := synced && (b.rowsDirty || b.gen == 0)
	if !rowsNews && !b.stateDirty {
		return BrowseSnapshot{}, false
	}
	if rowsNews {
		// Listing the store under b.mu keeps handlers waiting for a few
		// milliseconds at most; they only set a flag.
		b.rows = rowsOf(b.informer.GetStore().List())
		b.rowsDirty = false
		b.gen++
	}
	b.stateDirty = false
	return BrowseSnapshot{Rows: b.rows, Generation: b.gen, Synced: synced, Connection: b.conn.conn}, true
}

// observe turns the outcome of every list and watch request into the
// connection state, as Watch.observe does; a refusal is not an outage and
// says which verb was refused.
func (b *Browse) observe(ctx context.Context, verb string, err error) {
	if state, cause, ok := requestState(ctx, err, func(err error) error { return classifyList(b.coll, verb, err) }); ok {
		b.setConnection(state, cause)
	}
}

// watchError is the reflector's WatchErrorHandler: ListAndWatch ended with
// err and will be retried after a backoff.
func (b *Browse) watchError(ctx context.Context, _ *cache.Reflector, err error) {
	if watchEndLost(ctx, err) {
		b.setConnection(Reconnecting, err)
	}
}

func (b *Browse) setConnection(state ConnectionState, err error) {
	b.mu.Lock()
	if (b.ctx != nil && b.ctx.Err() != nil) || !b.conn.change(state, err) {
		b.mu.Unlock()
		return
	}
	b.stateDirty = true
	b.mu.Unlock()
	b.poke()
}
