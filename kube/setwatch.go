package kube

import (
	"context"
	"errors"
	"fmt"
	"sync"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"

	"github.com/kedit/kedit/model"
)

// SetEvent is one message of a SetWatch: an event of member Member's
// object, or, with Member -1, the state of the set's link to the API
// server (Event.Type ConnectionChanged).
type SetEvent struct {
	Member int
	Event  WatchEvent
}

// SetWatch watches every object of a set, on one client whose HTTP/2
// connection carries every stream. The objects a selector listed are
// followed as they were listed: one list and watch of the selector per
// collection (setGroup), which the watch's stream and its buffers are the
// size of the objects, not of as many streams. Every other object, and an
// object that leaves its selector (relabelled), is followed by a Watch of
// its own (the single-object informer, with its polling when the user may
// not watch). A group whose watch is refused hands its objects to Watches
// of their own, which poll. Their events come on one channel, read by a
// command the UI returns after each message as it does a Watch's; their
// connection states are one state, the worst of them, and one look at the
// client's connections serves them all (monitorConns). With a subresource
// a group reports each object's status view; an object whose Scale is
// edited is followed by a Watch of its own, which reads the Scale of each
// version as a single object's watch does.
type SetWatch struct {
	dc      dynamic.Interface
	targets []*Target
	groups  []*setGroup
	conns   *connTracker
	out     chan SetEvent
	wake    chan struct{}

	mu           sync.Mutex
	pending      []SetEvent
	pendingBytes int
	// follow is what follows each object: a *setGroup or a *Watch.
	follow []any
	// states are the connection states of the groups and Watches.
	states map[any]Connection
	conn   connState
	runs
}

// setWatchQPS and setWatchBurst are the set's watch client's rate: an
// object followed on its own is listed once and then watched, so a set of
// 200 named objects sends 400 requests as it starts. client-go's default
// (5 a second) would take over a minute to watch them all; these take
// seconds, as the server's priority and fairness expects of a client.
const (
	setWatchQPS   = 50
	setWatchBurst = 100
)

// NewSetWatch prepares the watch of a set's objects as ReadSet read them,
// on one client for cfg. Nothing is sent to the server until Start.
func NewSetWatch(cfg *rest.Config, objs []SetObject) (*SetWatch, error) {
	c := rest.CopyConfig(cfg)
	c.QPS, c.Burst = setWatchQPS, setWatchBurst
	dc, conns, err := watchClient(c)
	if err != nil {
		return nil, fmt.Errorf("watching the set: %w", err)
	}
	s := &SetWatch{dc: dc, conns: conns, out: make(chan SetEvent), wake: make(chan struct{}, 1),
		follow: make([]any, len(objs)), states: map[any]Connection{}}
	groups := map[string]*setGroup{}
	for i, o := range objs {
		s.targets = append(s.targets, o.Target)
		if o.Selector == "" || o.Target.Subresource == SubresourceScale {
			w := NewWatch(dc, o.Target)
			s.follow[i], s.states[w] = w, Connection{}
			continue
		}
		k := o.Target.Mapping.Resource.String() + "\x00" + o.listNamespace + "\x00" + o.Selector
		g := groups[k]
		if g == nil {
			g = newSetGroup(s, o)
			groups[k] = g
			s.groups = append(s.groups, g)
			s.states[g] = Connection{}
		}
		g.members[setMemberKey(o.Target.Namespace, o.Target.Name)] = i
		s.follow[i] = g
	}
	return s, nil
}

// setMemberKey is an object's key in an informer's store.
func setMemberKey(namespace, name string) string {
	if namespace == "" {
		return name
	}
	return namespace + "/" + name
}

// Events returns the channel of events. It is closed once the watch has
// stopped.
func (s *SetWatch) Events() <-chan SetEvent { return s.out }

// Latest returns member i's object as its watch last saw it (as
// Watch.Latest does).
func (s *SetWatch) Latest(i int) (*unstructured.Unstructured, bool) {
	s.mu.Lock()
	f := s.follow[i]
	s.mu.Unlock()
	switch f := f.(type) {
	case *Watch:
		return f.Latest()
	case *setGroup:
		return f.latest(s.targets[i])
	}
	return nil, false
}

// Start runs every group and Watch until ctx ends or Stop is called.
func (s *SetWatch) Start(ctx context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.started {
		return errors.New("the set's watch already started")
	}
	fns := []func(context.Context){s.pump}
	for _, g := range s.groups {
		fns = append(fns, g.run)
	}
	for i, f := range s.follow {
		if w, ok := f.(*Watch); ok {
			fns = append(fns, func(ctx context.Context) { s.forward(ctx, i, w) })
		}
	}
	if s.conns != nil && len(s.targets) > 0 {
		fns = append(fns, s.monitor)
	}
	s.begin(ctx, fns...)
	return nil
}

// Stop ends every watch and returns once their goroutines have ended.
func (s *SetWatch) Stop() { s.end(&s.mu, func() { close(s.out) }) }

// followAlone follows member i with a Watch of its own from now on. It is
// called from the set's goroutines only, which the wait group counts, so
// that adding one more is safe.
func (s *SetWatch) followAlone(i int) {
	w := NewWatch(s.dc, s.targets[i])
	s.mu.Lock()
	ctx := s.ctx
	if ctx == nil || ctx.Err() != nil {
		s.mu.Unlock()
		return
	}
	s.follow[i], s.states[w] = w, Connection{}
	s.wg.Go(func() { s.forward(ctx, i, w) })
	s.mu.Unlock()
}

// follows reports whether f follows member i now.
func (s *SetWatch) follows(i int, f any) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.follow[i] == f
}

// forward runs member i's Watch and moves its events to the set's queue.
func (s *SetWatch) forward(ctx context.Context, i int, w *Watch) {
	if err := w.Start(ctx); err != nil {
		s.state(w, Connection{State: Refused, Err: err})
		return
	}
	defer w.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case ev, ok := <-w.Events():
			if !ok {
				return
			}
			if ev.Type == ConnectionChanged {
				s.state(w, ev.Connection)
				continue
			}
			s.push(SetEvent{Member: i, Event: ev})
		}
	}
}

// lost takes a member's deletion as its group saw it: the object may be
// gone, or may only no longer match the selector (relabelled). A GET
// tells: gone is a deletion; still there, it is followed on its own.
func (s *SetWatch) lost(ctx context.Context, i int, last *unstructured.Unstructured) {
	_, err := s.targets[i].Resource(s.dc).Get(ctx, s.targets[i].Name, metav1.GetOptions{})
	switch {
	case ctx.Err() != nil:
	case apierrors.IsNotFound(err):
		s.push(SetEvent{Member: i, Event: WatchEvent{Type: ObjectDeleted, Object: last, ResourceVersion: last.GetResourceVersion()}})
		s.followAlone(i) // it may be created again
	default:
		// There, or unknown: its own Watch says which.
		s.followAlone(i)
	}
}

// monitor is monitorConns for the set's one client: a probe reads the
// first object, and a lost server makes every group and Watch reconnect.
func (s *SetWatch) monitor(ctx context.Context) {
	first := s.targets[0]
	monitorConns(ctx, s.conns, func() bool {
		s.mu.Lock()
		defer s.mu.Unlock()
		return s.conn.conn.State == Connected
	}, func(ctx context.Context) error {
		_, err := first.Resource(s.dc).Get(ctx, first.Name, metav1.GetOptions{})
		return err
	}, func(err error) {
		s.mu.Lock()
		var watches []*Watch
		for src := range s.states {
			switch src := src.(type) {
			case *Watch:
				watches = append(watches, src)
			case *setGroup:
				s.stateLocked(src, Connection{State: Reconnecting, Err: err})
			}
		}
		s.mu.Unlock()
		for _, w := range watches {
			w.setConnection(Reconnecting, err)
		}
	})
}

// state takes the connection state of src (a group or a Watch).
func (s *SetWatch) state(src any, c Connection) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stateLocked(src, c)
}

// stateLocked publishes the set's state when it changes: refused when any
// is refused, else reconnecting when any reconnects, else connecting until
// every one has connected, else polling when any polls, else connected.
func (s *SetWatch) stateLocked(src any, c Connection) {
	if _, ok := s.states[src]; !ok {
		return // a group whose objects are followed on their own now
	}
	s.states[src] = c
	rank := map[ConnectionState]int{Connected: 0, Polling: 1, Connecting: 2, Reconnecting: 3, Refused: 4}
	worst := Connection{State: Connected}
	for _, st := range s.states {
		if rank[st.State] > rank[worst.State] {
			worst = st
		}
	}
	if s.ctx != nil && s.ctx.Err() != nil || !s.conn.change(worst.State, worst.Err) {
		return
	}
	s.pushLocked(SetEvent{Member: -1, Event: WatchEvent{Type: ConnectionChanged, Connection: s.conn.conn}})
}

// push queues ev without ever blocking. Beyond maxPendingEvents more
// events than there are objects, or maxPendingBytes of objects, it keeps
// the latest event of each object and the latest state: at most one
// version of each object, which bounds the queue by the objects' size.
func (s *SetWatch) push(ev SetEvent) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pushLocked(ev)
}

func (s *SetWatch) pushLocked(ev SetEvent) {
	queueEvent(&s.pending, &s.pendingBytes, ev, setEventSize, maxPendingEvents+len(s.targets), maxPendingBytes, coalesceSet, s.wake)
}

func setEventSize(ev SetEvent) int { return model.ObjectSize(ev.Event.Object) }

// coalesceSet keeps, in order, the latest event of each object and the
// latest state.
func coalesceSet(evs []SetEvent) []SetEvent {
	last := map[int]int{}
	for i, ev := range evs {
		last[ev.Member] = i
	}
	out := make([]SetEvent, 0, len(last))
	for i, ev := range evs {
		if last[ev.Member] == i {
			out = append(out, ev)
		}
	}
	return out
}

// pump moves queued events to the unbuffered out channel, one at a time.
func (s *SetWatch) pump(ctx context.Context) {
	defer close(s.out)
	pumpQueue(ctx, &s.mu, &s.pending, s.wake, s.out, func(ev SetEvent) { s.pendingBytes -= setEventSize(ev) })
}
