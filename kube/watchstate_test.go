package kube

import (
	"errors"
	"runtime"
	"strconv"
	"sync"
	"testing"

	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/dynamic"
)

// TestWatchStateAndItsEventArePublishedTogether flips a Watch's
// connection state from many goroutines at once, as the reflector's list,
// watch and error handler and the connection monitor do. The events are
// published in the order of the changes they report: connected is never
// published twice in a row (each connected follows a lost connection),
// and the last state event is the state the Watch ends in, so the header
// can never say connected through an outage.
func TestWatchStateAndItsEventArePublishedTogether(t *testing.T) {
	dc, err := dynamic.NewForConfig(unreachableConfig(t))
	if err != nil {
		t.Fatal(err)
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(8))
	for round := range 1000 {
		w := NewWatch(dc, configMapTarget("", "default", "x"))
		var wg sync.WaitGroup
		for g := range 8 {
			wg.Go(func() {
				for i := range 25 {
					if (g+i)%2 == 0 {
						w.setUp()
					} else {
						w.setConnection(Reconnecting, errors.New("refused "+strconv.Itoa(g*100+i)))
					}
				}
			})
		}
		wg.Wait()
		w.mu.Lock()
		final, events := w.conn.conn.State, append([]WatchEvent(nil), w.pending...)
		w.mu.Unlock()
		var last WatchEvent
		for i, ev := range events {
			if ev.Connection.State == Connected && last.Connection.State == Connected {
				t.Fatalf("round %d: connected published twice in a row (events %d and before): a lost connection between them was published out of order", round, i)
			}
			last = ev
		}
		if last.Connection.State != final {
			t.Fatalf("round %d: the watch ends %s, but the last event published says %s", round, final, last.Connection.State)
		}
	}
}

// TestEmptyWatchIsNotConnected: client-go answers a watch request whose
// connection broke with an empty watch and no error; the Watch does not
// take it for a connection.
func TestEmptyWatchIsNotConnected(t *testing.T) {
	if !isEmptyWatch(watch.NewEmptyWatch()) {
		t.Error("client-go's empty watch is not recognised")
	}
	if isEmptyWatch(watch.NewFake()) {
		t.Error("a watch with a stream taken for an empty one")
	}
}
