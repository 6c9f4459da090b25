package kube

import (
	"context"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/kedit/kedit/internal/testwait"
	"github.com/kedit/kedit/kube/kubetest"
)

// setRecorder reads a SetWatch's events and keeps them.
type setRecorder struct {
	mu   sync.Mutex
	evs  []SetEvent
	done chan struct{}
}

func recordSet(t testing.TB, w *SetWatch) *setRecorder {
	t.Helper()
	r := &setRecorder{done: make(chan struct{})}
	go func() {
		defer close(r.done)
		for ev := range w.Events() {
			r.mu.Lock()
			r.evs = append(r.evs, ev)
			r.mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		w.Stop()
		<-r.done
	})
	return r
}

// has reports whether an event of member m of type typ at rv (any rv when
// empty) came.
func (r *setRecorder) has(m int, typ WatchEventType, rv string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, ev := range r.evs {
		if ev.Member == m && ev.Event.Type == typ && (rv == "" || ev.Event.ResourceVersion == rv) {
			return true
		}
	}
	return false
}

func (r *setRecorder) state() ConnectionState {
	r.mu.Lock()
	defer r.mu.Unlock()
	st := Connecting
	for _, ev := range r.evs {
		if ev.Member < 0 {
			st = ev.Event.Connection.State
		}
	}
	return st
}

// TestSetWatchDeliversEachObject: one watch of a set's objects, named
// one by one (a Watch each) or listed by a selector (one watch of the
// selector), says when it is connected (all of them), delivers each
// object's changes and deletion tagged with the object, and keeps each
// one's latest version for a conflict's theirs. An object that leaves the
// selector (relabelled) is still followed, not said deleted; an object
// that comes to match it is none of the set's.
func TestSetWatchDeliversEachObject(t *testing.T) {
	t.Parallel()
	for _, selector := range []string{"", "app=web"} {
		t.Run("selector "+selector, func(t *testing.T) {
			t.Parallel()
			ns := kubetest.Namespace(t)
			c := connectForTest(t, kubetest.Kubeconfig(t), ns)
			for _, n := range []string{"a", "b", "c"} {
				kubetest.MustKubectl(t, "-n", ns, "create", "configmap", n, "--from-literal=foo=1")
			}
			kubetest.MustKubectl(t, "-n", ns, "label", "configmap", "a", "b", "c", "app=web")
			src := SetSource{Args: []string{"cm/a", "cm/b", "cm/c"}}
			if selector != "" {
				src = SetSource{Args: []string{"cm"}, Selector: selector}
			}
			objs, err := c.ReadSet(context.Background(), src)
			if err != nil {
				t.Fatal(err)
			}
			w, err := NewSetWatch(kubetest.RESTConfig(t), objs)
			if err != nil {
				t.Fatal(err)
			}
			if want := map[string]int{"": 0, "app=web": 1}[selector]; len(w.groups) != want {
				t.Fatalf("%d groups, want %d", len(w.groups), want)
			}
			if err := w.Start(context.Background()); err != nil {
				t.Fatal(err)
			}
			r := recordSet(t, w)
			testwait.Eventually(t, 30*time.Second, "connected", func() bool { return r.state() == Connected })
			for i := range objs {
				testwait.Eventually(t, 30*time.Second, fmt.Sprintf("object %d added", i), func() bool { return r.has(i, ObjectAdded, "") })
			}
			kubetest.MustKubectl(t, "-n", ns, "patch", "configmap", "b", "-p", `{"data":{"foo":"2"}}`)
			testwait.Eventually(t, 30*time.Second, "b modified", func() bool { return r.has(1, ObjectModified, "") })
			testwait.Eventually(t, 30*time.Second, "b's latest", func() bool {
				got, ok := w.Latest(1)
				return ok && got.Object["data"].(map[string]any)["foo"] == "2"
			})
			// Relabelled out of the selector, then changed: still followed.
			kubetest.MustKubectl(t, "-n", ns, "label", "configmap", "a", "app-")
			kubetest.MustKubectl(t, "-n", ns, "patch", "configmap", "a", "-p", `{"data":{"foo":"3"}}`)
			testwait.Eventually(t, 30*time.Second, "a's change after the relabel", func() bool {
				got, ok := w.Latest(0)
				return ok && got.Object["data"].(map[string]any)["foo"] == "3"
			})
			kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "newcomer", "--from-literal=foo=1")
			kubetest.MustKubectl(t, "-n", ns, "label", "configmap", "newcomer", "app=web")
			kubetest.MustKubectl(t, "-n", ns, "delete", "configmap", "c")
			testwait.Eventually(t, 30*time.Second, "c deleted", func() bool { return r.has(2, ObjectDeleted, "") })
			if r.has(0, ObjectDeleted, "") {
				t.Error("a, relabelled, was said deleted")
			}
			r.mu.Lock()
			for _, ev := range r.evs {
				if ev.Member >= len(objs) || ev.Event.Object != nil && ev.Event.Object.GetName() != objs[ev.Member].Target.Name {
					t.Errorf("an event of %s as member %d", ev.Event.Object.GetName(), ev.Member)
				}
			}
			r.mu.Unlock()
		})
	}
}

// TestCoalesceSetKeepsEachObjectsLatest: a queue that fell behind keeps,
// in order, the latest event of each object and the latest state.
func TestCoalesceSetKeepsEachObjectsLatest(t *testing.T) {
	ev := func(m int, rv string) SetEvent {
		return SetEvent{Member: m, Event: WatchEvent{Type: ObjectModified, ResourceVersion: rv}}
	}
	state := func(s ConnectionState) SetEvent {
		return SetEvent{Member: -1, Event: WatchEvent{Type: ConnectionChanged, Connection: Connection{State: s}}}
	}
	in := []SetEvent{ev(0, "1"), state(Reconnecting), ev(1, "2"), ev(0, "3"), state(Connected), ev(1, "4"), ev(2, "5")}
	want := []SetEvent{ev(0, "3"), state(Connected), ev(1, "4"), ev(2, "5")}
	if got := coalesceSet(in); !reflect.DeepEqual(got, want) {
		t.Errorf("got %v\nwant %v", got, want)
	}
}
