package kube

import (
	"context"
	"sync"

	"github.com/kedit/kedit/model"
)

// maxPendingEvents and maxPendingBytes bound the events waiting for the
// receiver, by count and by the size of their objects (256 versions of a
// mebibyte would otherwise be a quarter of a gibibyte). Below both every
// event is delivered, so the timeline sees every version the watch saw;
// above either (the UI stopped reading for a long while) the queue is
// coalesced to the latest object event and the latest connection state,
// which is all the UI needs to show the present, since every object event
// carries the whole object. The bytes are the timeline's bound, so a
// queue at its limit holds what the timeline would keep.
const (
	maxPendingEvents = 256
	maxPendingBytes  = 32 << 20
)

// pump moves queued events to the unbuffered out channel, one at a time,
// so the informer's goroutines only ever touch the queue.
func (w *Watch) pump(ctx context.Context) {
	defer close(w.out)
	pumpQueue(ctx, &w.mu, &w.pending, w.wake, w.out, func(ev WatchEvent) {
		w.pendingBytes -= model.ObjectSize(ev.Object)
	})
}

// pumpQueue is the loop of a pump: woken by wake, it sends the events
// queued in pending (guarded by mu) to out, oldest first, one at a time,
// calling taken under mu for each one it takes, until ctx ends.
func pumpQueue[T any](ctx context.Context, mu *sync.Mutex, pending *[]T, wake <-chan struct{}, out chan<- T, taken func(T)) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-wake:
		}
		for {
			mu.Lock()
			if len(*pending) == 0 {
				mu.Unlock()
				break
			}
			q := *pending
			ev := q[0]
			var zero T
			q[0] = zero // let the object be collected
			*pending = q[1:]
			taken(ev)
			mu.Unlock()
			select {
			case out <- ev:
			case <-ctx.Done():
				return
			}
		}
	}
}

// push queues ev for the receiver without ever blocking.
func (w *Watch) push(ev WatchEvent) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.pushLocked(ev)
}

// pushLocked is push for a caller that holds w.mu.
func (w *Watch) pushLocked(ev WatchEvent) {
	queueEvent(&w.pending, &w.pendingBytes, ev, func(ev WatchEvent) int { return model.ObjectSize(ev.Object) },
		maxPendingEvents, maxPendingBytes, coalesce, w.wake)
}

// queueEvent adds ev to a pump's queue (pending, and bytes, the size of
// its objects by size) under its owner's lock, coalesces the queue when it
// holds more than maxEvents events or maxBytes, and wakes the pump. It
// never blocks.
func queueEvent[T any](pending *[]T, bytes *int, ev T, size func(T) int, maxEvents, maxBytes int, coalesce func([]T) []T, wake chan<- struct{}) {
	*pending = append(*pending, ev)
	*bytes += size(ev)
	if len(*pending) > maxEvents || *bytes > maxBytes {
		*pending = coalesce(*pending)
		*bytes = 0
		for _, e := range *pending {
			*bytes += size(e)
		}
	}
	select {
	case wake <- struct{}{}:
	default: // the pump is already awake
	}
}

// coalesce keeps the latest object event and the latest state event, in
// their order: the receiver fell far behind, and only the present matters.
func coalesce(evs []WatchEvent) []WatchEvent {
	lastObj, lastState := -1, -1
	for i, ev := range evs {
		if ev.Type.IsObject() {
			lastObj = i
		} else {
			lastState = i
		}
	}
	out := make([]WatchEvent, 0, 2)
	for i, ev := range evs {
		if i == lastObj || i == lastState {
			out = append(out, ev)
		}
	}
	return out
}
