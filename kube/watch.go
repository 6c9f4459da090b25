package kube

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

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
	// WatchConnected reports that a list or watch request succeeded after
	// the watch started or after it was reconnecting.
	WatchConnected
	// WatchReconnecting reports that the connection is lost and the
	// informer is retrying with backoff; Since is when it was lost and Err
	// the latest failure.
	WatchReconnecting
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
	case WatchConnected:
		return "Connected"
	case WatchReconnecting:
		return "Reconnecting"
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
	// Since is, for WatchReconnecting, when the connection was lost (the
	// same in every event of one outage, so the UI can say "reconnecting
	// since 12:01:03"); for WatchConnected, when it was established.
	Since time.Time
	// Err is, for WatchReconnecting, the latest error.
	Err error
}

// Watch is a single-object informer: a list and watch on the dynamic
// client with the field selector metadata.name=NAME, in the target's
// namespace for namespaced kinds. The informer relists after an expired
// watch (410 Gone) and reconnects with backoff when the API server goes
// away. It never resyncs, so an idle Watch sends no request but its
// long-running watch, renewed when the server times it out.
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

	mu           sync.Mutex
	pending      []WatchEvent
	pendingBytes int            // model.ObjectSize of pending's objects
	state        WatchEventType // 0 until the first request ends
	lostSince    time.Time
	lastErr      string
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
			w.observe(ctx, err)
			if err != nil {
				return nil, err // not a typed nil in an interface
			}
			return list, nil
		},
		WatchFuncWithContext: func(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
			opts.FieldSelector = selector
			wi, err := ri.Watch(ctx, opts)
			w.observe(ctx, err)
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
	tick := time.NewTicker(monitorEvery)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		if !w.conns.closing() {
			continue
		}
		w.mu.Lock()
		connected := w.state == WatchConnected
		w.mu.Unlock()
		if !connected {
			continue // the reflector's own requests say how it goes
		}
		probe, cancel := context.WithTimeout(ctx, 5*time.Second)
		_, err := w.resource.Get(probe, w.target.Name, metav1.GetOptions{})
		cancel()
		if lostConnection(ctx, err) {
			w.setReconnecting(err)
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
	w.push(WatchEvent{Type: typ, Object: u, ResourceVersion: u.GetResourceVersion()})
}

// observe turns the outcome of every list and watch request into the
// connection state. The reflector retries a refused connection inside its
// watch loop without calling the watch error handler, so this is where an
// API server that went away is first seen.
func (w *Watch) observe(ctx context.Context, err error) {
	if err == nil {
		w.setConnected()
		return
	}
	if notLost(ctx, err) {
		// Stopping, or an expired resourceVersion the reflector answers
		// with a relist: neither is a lost connection.
		return
	}
	w.setReconnecting(err)
}

// watchError is the reflector's WatchErrorHandler: ListAndWatch ended with
// err and will be retried after a backoff.
func (w *Watch) watchError(ctx context.Context, _ *cache.Reflector, err error) {
	if watchEndNotLost(ctx, err) {
		return // a watch closed normally, or a relist is due
	}
	w.setReconnecting(err)
}

func (w *Watch) setConnected() {
	w.mu.Lock()
	if w.state == WatchConnected {
		w.mu.Unlock()
		return
	}
	w.state, w.lastErr = WatchConnected, ""
	now := time.Now()
	w.mu.Unlock()
	w.push(WatchEvent{Type: WatchConnected, Since: now})
}

func (w *Watch) setReconnecting(err error) {
	w.mu.Lock()
	if w.ctx != nil && w.ctx.Err() != nil {
		w.mu.Unlock()
		return
	}
	if w.state != WatchReconnecting {
		w.state, w.lostSince = WatchReconnecting, time.Now()
	} else if err.Error() == w.lastErr {
		// Same outage, same cause: the UI already shows it.
		w.mu.Unlock()
		return
	}
	w.lastErr = err.Error()
	since := w.lostSince
	w.mu.Unlock()
	w.push(WatchEvent{Type: WatchReconnecting, Since: since, Err: err})
}
