package kube

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"
)

// WatchEventType says what a WatchEvent reports: a change of the object,
// or a change of the connection to the API server.
type WatchEventType int

const (
	// ObjectAdded reports the object as it is when the watch first sees
	// it (at start, or once it is created), or when it is created again
	// after a deletion.
	ObjectAdded WatchEventType = iota + 1
	// ObjectModified reports a new version of the object.
	ObjectModified
	// ObjectDeleted reports that the object is gone; Object is its last
	// known state.
	ObjectDeleted
	// ConnectionChanged reports a new state of the connection to the API
	// server, in Connection.
	ConnectionChanged
)

// String names the event type for logs and tests.
func (t WatchEventType) String() string {
	switch t {
	case ObjectAdded:
		return "Added"
	case ObjectModified:
		return "Modified"
	case ObjectDeleted:
		return "Deleted"
	case ConnectionChanged:
		return "ConnectionChanged"
	}
	return fmt.Sprintf("WatchEventType(%d)", int(t))
}

// IsObject reports whether t carries an object (Added, Modified, Deleted)
// rather than a connection state.
func (t WatchEventType) IsObject() bool {
	return t == ObjectAdded || t == ObjectModified || t == ObjectDeleted
}

// WatchEvent is one message from a Watch.
type WatchEvent struct {
	Type WatchEventType
	// Object is the full object for Added, Modified and Deleted: a deep
	// copy the receiver owns and may change.
	Object *unstructured.Unstructured
	// ResourceVersion is Object's resourceVersion.
	ResourceVersion string
	// Connection is, for ConnectionChanged, the state the connection is
	// in now: Connected once a list or watch request succeeds, Reconnecting
	// while the server cannot be reached, Polling while the user may not
	// watch the object, Refused while the server refuses even to read it.
	Connection Connection
}

// Watch is a single-object informer: a list and watch on the dynamic
// client with the field selector metadata.name=NAME, in the target's
// namespace for namespaced kinds. The informer relists after an expired
// watch (410 Gone) and reconnects with backoff when the API server goes
// away. It never resyncs, so an idle Watch sends no request but its
// long-running watch, renewed when the server times it out. A user who
// may read the object but not watch it gets a GET every PollInterval
// instead (poll.go).
//
// Events arrive on Events, which the UI reads with a command it returns
// again after each message. The informer's handlers never block on that
// channel: they append to a bounded queue (see maxPendingEvents) that one
// goroutine feeds into the unbuffered channel, so a UI busy running an
// editor cannot stall the informer.
type Watch struct {
	target   *Target
	resource dynamic.ResourceInterface
	// conns are the watch's HTTP/2 connections, looked at by monitor; nil
	// when they are not tracked (NewWatch).
	conns    *connTracker
	informer cache.SharedIndexInformer
	out      chan WatchEvent
	wake     chan struct{}

	// lastView is the last Scale read for an event (a scale
	// subresource's watch), which Latest and a deletion's event give.
	lastView *unstructured.Unstructured

	mu           sync.Mutex
	pending      []WatchEvent
	pendingBytes int // model.ObjectSize of pending's objects
	conn         connState
	// pollReason is the refused watch while the Watch polls (see poll.go),
	// nil while it may watch.
	pollReason error
	runs
	handlerError error
}

// NewWatchForConfig prepares a watch on t's object with a client of its
// own for cfg, whose connections it keeps an eye on: an API server that
// shuts down is reported as reconnecting within a second, although it
// keeps the watch's stream open until it exits (see goaway.go). This is
// the watch kedit runs; NewWatch takes any client, without that.
func NewWatchForConfig(cfg *rest.Config, t *Target) (*Watch, error) {
	dc, conns, err := watchClient(cfg)
	if err != nil {
		return nil, fmt.Errorf("watching %s: %w", t, err)
	}
	w := NewWatch(dc, t)
	w.conns = conns
	return w, nil
}

// NewWatch prepares a watch on t's object through dc. Nothing is sent to
// the server until Start.
func NewWatch(dc dynamic.Interface, t *Target) *Watch {
	ri := t.Resource(dc)
	w := &Watch{
		target:   t,
		resource: ri,
		out:      make(chan WatchEvent),
		wake:     make(chan struct{}, 1),
	}
	selector := fields.OneTermEqualSelector("metadata.name", t.Name).String()
	lw := &cache.ListWatch{
		ListWithContextFunc: func(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
			opts.FieldSelector = selector
			list, err := ri.List(ctx, opts)
			if apierrors.IsForbidden(err) {
				// A user who may read the object but not list it: the
				// object alone, read with a GET.
				if got, gerr := w.listByGet(ctx, err); gerr == nil {
					w.observe(ctx, "get", nil)
					return got, nil
				}
			}
			w.observe(ctx, "list", err)
			if err != nil {
				return nil, err // not a typed nil in an interface
			}
			return list, nil
		},
		WatchFuncWithContext: func(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
			opts.FieldSelector = selector
			wi, err := ri.Watch(ctx, opts)
			if apierrors.IsForbidden(err) {
				return w.pollInstead(ctx, opts, err)
			}
			if err == nil && isEmptyWatch(wi) {
				// client-go answers a watch request whose connection broke
				// (EOF, a timeout) with an empty watch and no error: not
				// connected.
				w.observe(ctx, "watch", errWatchCut)
				return wi, nil
			}
			if err == nil {
				w.mayWatch()
			}
			w.observe(ctx, "watch", err)
			return wi, err
		},
	}
	example := &unstructured.Unstructured{}
	example.SetGroupVersionKind(t.Mapping.GroupVersionKind)
	w.informer = cache.NewSharedIndexInformerWithOptions(lw, example, cache.SharedIndexInformerOptions{
		ResyncPeriod:      0, // no polling: the watch alone keeps the cache current
		ObjectDescription: t.String(),
	})
	// The default handler logs through klog to stderr, which belongs to the
	// renderer; the state events say what the user needs to know.
	_ = w.informer.SetWatchErrorHandlerWithContext(w.watchError)
	_, w.handlerError = w.informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj any) { w.pushObject(ObjectAdded, obj) },
		UpdateFunc: func(_, obj any) {
			w.pushObject(ObjectModified, obj)
		},
		DeleteFunc: func(obj any) { w.pushObject(ObjectDeleted, obj) },
	})
	return w
}

// Events returns the channel of events. It is closed once the watch has
// stopped, by Stop or by the end of Start's context.
func (w *Watch) Events() <-chan WatchEvent { return w.out }

// Start runs the informer until ctx ends or Stop is called. It returns at
// once; events follow on Events. A Watch starts only once.
func (w *Watch) Start(ctx context.Context) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.started {
		return errors.New("watch of " + w.target.String() + " already started")
	}
	if w.handlerError != nil {
		return fmt.Errorf("watching %s: %w", w.target, w.handlerError)
	}
	fns := []func(context.Context){w.informer.RunWithContext, w.pump}
	if w.conns != nil {
		fns = append(fns, w.monitor)
	}
	w.begin(ctx, fns...)
	return nil
}

// monitorEvery is how often monitor looks at the connections' state, which
// costs no request: a lost server is said within about this, plus one
// refused connection.
const monitorEvery = 200 * time.Millisecond

// monitor looks at the watch's connections and, when one starts closing
// (the server sent GOAWAY, or the connection broke), asks the server for
// the object on a new connection: a server that is going away refuses it
// at once, and the watch says reconnecting instead of waiting for the old
// stream to end with the server.
func (w *Watch) monitor(ctx context.Context) {
	monitorConns(ctx, w.conns, func() bool {
		w.mu.Lock()
		defer w.mu.Unlock()
		return w.conn.conn.State == Connected
	}, func(ctx context.Context) error {
		_, err := w.resource.Get(ctx, w.target.Name, metav1.GetOptions{})
		return err
	}, func(err error) { w.setConnection(Reconnecting, err) })
}

// monitorConns is a watch's look at its connections, every monitorEvery
// until ctx ends: when one starts closing while connected says the watch
// is connected, it probes the server with a request on a new connection,
// and calls lost when the server cannot be reached. The reflector's own
// requests say how it goes while it is not connected.
func monitorConns(ctx context.Context, conns *connTracker, connected func() bool, probe func(context.Context) error, lost func(error)) {
	tick := time.NewTicker(monitorEvery)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		if !conns.closing() || !connected() {
			continue
		}
		pctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		err := probe(pctx)
		cancel()
		if lostConnection(ctx, err) {
			lost(err)
		}
	}
}

// Stop ends the watch and returns once its goroutines have ended. It is
// safe to call more than once, and before Start.
func (w *Watch) Stop() { w.end(&w.mu, func() { close(w.out) }) }

// HasSynced reports whether the first list has completed, after which
// Latest's false means the object does not exist.
func (w *Watch) HasSynced() bool { return w.informer.HasSynced() }

// Latest returns a deep copy of the object as the watch last saw it, to
// take theirs after a 409 without a GET when it is newer than base. ok is
// false when the object does not exist or the watch has not seen it.
//
// For a subresource it is what the target edits: the status view, or the
// last Scale read when it is of the object's latest version (else false:
// theirs is then read from the server).
func (w *Watch) Latest() (obj *unstructured.Unstructured, ok bool) {
	key := w.target.Name
	if w.target.Namespaced() {
		key = w.target.Namespace + "/" + w.target.Name
	}
	item, exists, err := w.informer.GetStore().GetByKey(key)
	if err != nil || !exists {
		return nil, false
	}
	u, isU := item.(*unstructured.Unstructured)
	if !isU {
		return nil, false
	}
	if w.target.Subresource != "" {
		return w.latestView(u)
	}
	return u.DeepCopy(), true
}

func (w *Watch) pushObject(typ WatchEventType, obj any) {
	if tomb, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		// The deletion happened while the watch was down; the relist
		// found the object gone and this is its last known state.
		obj = tomb.Obj
	}
	u, ok := obj.(*unstructured.Unstructured)
	if !ok {
		return // the dynamic client decodes nothing else; nothing to show
	}
	u = u.DeepCopy() // the informer's cache shares the original
	if w.target.Subresource != "" {
		var ok bool
		if u, ok = w.viewOf(typ, u); !ok {
			return
		}
	}
	w.push(WatchEvent{Type: typ, Object: u, ResourceVersion: u.GetResourceVersion()})
}

// observe turns the outcome of every list, watch and poll request (verb)
// into the connection state. The reflector retries a refused connection
// inside its watch loop without calling the watch error handler, so this
// is where an API server that went away is first seen.
func (w *Watch) observe(ctx context.Context, verb string, err error) {
	switch state, cause, ok := requestState(ctx, err, func(err error) error { return classify(w.target, verb, err) }); {
	case !ok:
	case state == Connected:
		w.setUp()
	default:
		w.setConnection(state, cause)
	}
}

// watchError is the reflector's WatchErrorHandler: ListAndWatch ended with
// err and will be retried after a backoff.
func (w *Watch) watchError(ctx context.Context, _ *cache.Reflector, err error) {
	if watchEndLost(ctx, err) {
		w.setConnection(Reconnecting, err)
	}
}

// setUp says that a request succeeded: connected, or polling while the
// user may not watch.
func (w *Watch) setUp() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.pollReason != nil {
		w.setConnectionLocked(Polling, w.pollReason)
		return
	}
	w.setConnectionLocked(Connected, nil)
}

func (w *Watch) setConnection(state ConnectionState, err error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.setConnectionLocked(state, err)
}

// setConnectionLocked takes the new state and queues its event under the
// one lock held by the caller: two goroutines changing the state publish
// their events in the order they changed it, so the last event is always
// the state the Watch is in.
func (w *Watch) setConnectionLocked(state ConnectionState, err error) {
	if w.ctx != nil && w.ctx.Err() != nil {
		return
	}
	if !w.conn.change(state, err) {
		return
	}
	w.pushLocked(WatchEvent{Type: ConnectionChanged, Connection: w.conn.conn})
}
