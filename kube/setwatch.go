package kube

import (
	"context"
	"errors"
	"fmt"
	"sync"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
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

// SetWatch watches every object of a set: one Watch per object (the
// single-object informer, with its field selector, its relist, its polling
// when the user may not watch), all on one client whose HTTP/2 connections
// carry every watch's stream, and one look at those connections for the
// whole set (monitorConns). Their events arrive on one channel, read by a
// command the UI returns after each message as it does a Watch's, and the
// connection states of the objects are one state: the worst of them.
type SetWatch struct {
	watches []*Watch
	conns   *connTracker
	out     chan SetEvent
	wake    chan struct{}

	mu           sync.Mutex
	pending      []SetEvent
	pendingBytes int
	states       []Connection
	conn         connState
	runs
}

// setWatchQPS and setWatchBurst are the set's watch client's rate: each
// object's watch lists it once and then watches it, so a set of 200 sends
// 400 requests as it starts. client-go's default (5 a second) would take
// over a minute to watch them all; these take seconds, as the server's
// priority and fairness expects of a client.
const (
	setWatchQPS   = 50
	setWatchBurst = 100
)

// NewSetWatch prepares a watch of each target, on one client for cfg.
// Nothing is sent to the server until Start.
func NewSetWatch(cfg *rest.Config, targets []*Target) (*SetWatch, error) {
	c := rest.CopyConfig(cfg)
	c.QPS, c.Burst = setWatchQPS, setWatchBurst
	dc, conns, err := watchClient(c)
	if err != nil {
		return nil, fmt.Errorf("watching the set: %w", err)
	}
	s := &SetWatch{conns: conns, out: make(chan SetEvent), wake: make(chan struct{}, 1), states: make([]Connection, len(targets))}
	for _, t := range targets {
		s.watches = append(s.watches, NewWatch(dc, t))
	}
	return s, nil
}

// Events returns the channel of events. It is closed once the watch has
// stopped.
func (s *SetWatch) Events() <-chan SetEvent { return s.out }

// Latest returns member i's object as its watch last saw it (Watch.Latest).
func (s *SetWatch) Latest(i int) (*unstructured.Unstructured, bool) { return s.watches[i].Latest() }

// Start runs every object's watch until ctx ends or Stop is called.
func (s *SetWatch) Start(ctx context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.started {
		return errors.New("the set's watch already started")
	}
	fns := []func(context.Context){s.pump}
	for i, w := range s.watches {
		fns = append(fns, func(ctx context.Context) { s.forward(ctx, i, w) })
	}
	if s.conns != nil && len(s.watches) > 0 {
		fns = append(fns, s.monitor)
	}
	s.begin(ctx, fns...)
	return nil
}

// Stop ends every watch and returns once their goroutines have ended.
func (s *SetWatch) Stop() { s.end(&s.mu, func() { close(s.out) }) }

// forward runs member i's watch and moves its events to the set's queue.
func (s *SetWatch) forward(ctx context.Context, i int, w *Watch) {
	if err := w.Start(ctx); err != nil {
		s.state(i, Connection{State: Refused, Err: err})
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
				s.state(i, ev.Connection)
				continue
			}
			s.push(SetEvent{Member: i, Event: ev})
		}
	}
}

// monitor is monitorConns for the set's one client: a probe reads the
// first object, and a lost server makes every watch reconnect.
func (s *SetWatch) monitor(ctx context.Context) {
	first := s.watches[0]
	monitorConns(ctx, s.conns, func() bool {
		s.mu.Lock()
		defer s.mu.Unlock()
		return s.conn.conn.State == Connected
	}, func(ctx context.Context) error {
		_, err := first.resource.Get(ctx, first.target.Name, metav1.GetOptions{})
		return err
	}, func(err error) {
		for _, w := range s.watches {
			w.setConnection(Reconnecting, err)
		}
	})
}

// state takes member i's connection state and publishes the set's when it
// changes: refused when any object is refused, else reconnecting when any
// reconnects, else connecting until every one has connected, else polling
// when any polls, else connected.
func (s *SetWatch) state(i int, c Connection) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.states[i] = c
	var worst Connection
	rank := map[ConnectionState]int{Connected: 0, Polling: 1, Connecting: 2, Reconnecting: 3, Refused: 4}
	for j, st := range s.states {
		if j == 0 || rank[st.State] > rank[worst.State] {
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
	s.pending = append(s.pending, ev)
	s.pendingBytes += model.ObjectSize(ev.Event.Object)
	if len(s.pending) > maxPendingEvents+len(s.watches) || s.pendingBytes > maxPendingBytes {
		s.pending = coalesceSet(s.pending)
		s.pendingBytes = 0
		for _, e := range s.pending {
			s.pendingBytes += model.ObjectSize(e.Event.Object)
		}
	}
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

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
	pumpQueue(ctx, &s.mu, &s.pending, s.wake, s.out, func(ev SetEvent) {
		s.pendingBytes -= model.ObjectSize(ev.Event.Object)
	})
}
