package kube

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-logr/logr"
	"github.com/go-logr/logr/funcr"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"

	"github.com/kedit/kedit/internal/testwait"
	"github.com/kedit/kedit/kube/kubetest"
	"github.com/kedit/kedit/model"
)

// watchTimeout bounds every wait on a watch, so a broken watch fails the
// test instead of hanging it. A restarted API server is ready in about 10
// seconds and the reflector's backoff can add up to 30 more.
const watchTimeout = 60 * time.Second

// watchRecorder reads a Watch's events and keeps them for failure messages.
type watchRecorder struct {
	t    *testing.T
	w    *Watch
	name string // the only object name allowed in object events
	seen []WatchEvent
}

// next returns the first event for which match is true, failing the test
// on timeout, on a closed channel, or on an event about another object.
func (r *watchRecorder) next(what string, match func(WatchEvent) bool) WatchEvent {
	r.t.Helper()
	timeout := time.After(watchTimeout)
	for {
		select {
		case ev, ok := <-r.w.Events():
			if !ok {
				r.t.Fatalf("waiting for %s: events channel closed; seen %s", what, r.describe())
			}
			r.seen = append(r.seen, ev)
			if ev.Type.IsObject() {
				if ev.Object == nil {
					r.t.Fatalf("%s event without an object", ev.Type)
				}
				if got := ev.Object.GetName(); got != r.name {
					r.t.Fatalf("%s event for %q, watching only %q", ev.Type, got, r.name)
				}
				if ev.ResourceVersion == "" || ev.ResourceVersion != ev.Object.GetResourceVersion() {
					r.t.Fatalf("%s event resourceVersion %q, object's %q", ev.Type, ev.ResourceVersion, ev.Object.GetResourceVersion())
				}
			}
			if match(ev) {
				return ev
			}
		case <-timeout:
			r.t.Fatalf("no %s within %s; seen %s", what, watchTimeout, r.describe())
		}
	}
}

// await is next, but an event already recorded at index from or later
// also counts: the order of object and state events is not fixed.
func (r *watchRecorder) await(from int, what string, match func(WatchEvent) bool) WatchEvent {
	r.t.Helper()
	for _, ev := range r.seen[from:] {
		if match(ev) {
			return ev
		}
	}
	return r.next(what, match)
}

// since returns the events recorded from index i on.
func (r *watchRecorder) since(i int) []WatchEvent { return r.seen[i:] }

func (r *watchRecorder) describe() string {
	var parts []string
	for _, ev := range r.seen {
		s := ev.Type.String()
		if ev.Object != nil {
			s += " rv=" + ev.ResourceVersion + " data=" + dataString(ev.Object)
		}
		if ev.Type == ConnectionChanged {
			s += " " + ev.Connection.State.String()
		}
		if ev.Connection.Err != nil {
			s += " err=" + ev.Connection.Err.Error()
		}
		parts = append(parts, s)
	}
	return "[" + strings.Join(parts, "; ") + "]"
}

func dataString(u *unstructured.Unstructured) string {
	data, _, _ := unstructured.NestedStringMap(u.Object, "data")
	var parts []string
	for k, v := range data {
		parts = append(parts, k+"="+v)
	}
	return strings.Join(parts, ",")
}

func hasData(typ WatchEventType, key, value string) func(WatchEvent) bool {
	return func(ev WatchEvent) bool {
		if ev.Type != typ {
			return false
		}
		v, _, _ := unstructured.NestedString(ev.Object.Object, "data", key)
		return v == value
	}
}

func isType(typ WatchEventType) func(WatchEvent) bool {
	return func(ev WatchEvent) bool { return ev.Type == typ }
}

// isConn matches a connection event of state.
func isConn(state ConnectionState) func(WatchEvent) bool {
	return func(ev WatchEvent) bool { return ev.Type == ConnectionChanged && ev.Connection.State == state }
}

// startWatch starts a watch on t and stops it when the test ends, failing
// the test when Stop does not return: a leaked goroutine would hang there.
func startWatch(t *testing.T, dc dynamic.Interface, tgt *Target) *watchRecorder {
	t.Helper()
	w := NewWatch(dc, tgt)
	if err := w.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stopWithin(t, w, 10*time.Second) })
	return &watchRecorder{t: t, w: w, name: tgt.Name}
}

func stopWithin(t *testing.T, w *Watch, d time.Duration) {
	t.Helper()
	done := make(chan struct{})
	go func() { w.Stop(); close(done) }()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("Stop did not return within %s", d)
	}
	// Events is closed once everything has stopped; drain what was queued.
	for range w.Events() {
	}
}

func TestWatchReportsOnlyItsObject(t *testing.T) {
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "watched", "--from-literal=foo=1")
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "other", "--from-literal=foo=1")
	tgt := configMapTarget("", ns, "watched")
	r := startWatch(t, kubetest.Dynamic(t), tgt)

	added := r.next("Added on start", hasData(ObjectAdded, "foo", "1"))
	r.await(0, "Connected", isConn(Connected))

	kubetest.MustKubectl(t, "-n", ns, "patch", "configmap", "other", "--type=merge", "-p", `{"data":{"foo":"other"}}`)
	kubetest.MustKubectl(t, "-n", ns, "patch", "configmap", "watched", "--type=merge", "-p", `{"data":{"foo":"2"}}`)
	mod := r.next("Modified after kubectl patch", hasData(ObjectModified, "foo", "2"))
	if mod.ResourceVersion == added.ResourceVersion {
		t.Errorf("Modified has the Added resourceVersion %s", mod.ResourceVersion)
	}
	latest, ok := r.w.Latest()
	if !ok || latest.GetResourceVersion() != mod.ResourceVersion {
		t.Errorf("Latest = %v, %v; want resourceVersion %s", latest, ok, mod.ResourceVersion)
	}
	// Latest is a copy: changing it does not change the cache.
	latest.SetResourceVersion("1")
	if again, _ := r.w.Latest(); again.GetResourceVersion() != mod.ResourceVersion {
		t.Error("Latest returned the informer's own object")
	}

	kubetest.MustKubectl(t, "-n", ns, "delete", "configmap", "watched")
	del := r.next("Deleted after kubectl delete", isType(ObjectDeleted))
	if v, _, _ := unstructured.NestedString(del.Object.Object, "data", "foo"); v != "2" {
		t.Errorf("Deleted carries data foo=%q, want the last state foo=2", v)
	}
	if _, ok := r.w.Latest(); ok {
		t.Error("Latest still has the deleted object")
	}

	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "watched", "--from-literal=foo=3")
	r.next("Added after re-creation", hasData(ObjectAdded, "foo", "3"))

	// "other" changed again meanwhile; next() fails on any event about it.
	kubetest.MustKubectl(t, "-n", ns, "delete", "configmap", "other")
	kubetest.MustKubectl(t, "-n", ns, "patch", "configmap", "watched", "--type=merge", "-p", `{"data":{"foo":"4"}}`)
	r.next("Modified after the other object's deletion", hasData(ObjectModified, "foo", "4"))

	// A connected watch leaves nothing running once stopped.
	stopWithin(t, r.w, 10*time.Second)
	assertNoGoroutines(t, "kedit/kube.(*Watch)")
}

func TestWatchClusterScoped(t *testing.T) {
	ns := kubetest.Namespace(t)
	// The test's own namespace is a cluster-scoped object to watch.
	tgt := draftTarget("", "", "", "v1", "namespaces", "Namespace", ns)
	r := startWatch(t, kubetest.Dynamic(t), tgt)
	r.next("Added on start", isType(ObjectAdded))
	kubetest.MustKubectl(t, "label", "namespace", ns, "kedit-test=watched")
	r.next("Modified after kubectl label", func(ev WatchEvent) bool {
		return ev.Type == ObjectModified && ev.Object.GetLabels()["kedit-test"] == "watched"
	})
}

func TestWatchMissingObjectThenCreated(t *testing.T) {
	ns := kubetest.Namespace(t)
	r := startWatch(t, kubetest.Dynamic(t), configMapTarget("", ns, "later"))
	r.await(0, "Connected", isConn(Connected))
	testwait.Until(watchTimeout, r.w.HasSynced)
	if _, ok := r.w.Latest(); ok || !r.w.HasSynced() {
		t.Fatalf("synced=%v, Latest ok=%v for a missing object", r.w.HasSynced(), ok)
	}
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "later", "--from-literal=foo=1")
	r.next("Added once created", hasData(ObjectAdded, "foo", "1"))
}

// TestWatchSurvivesAPIServerRestart stops the API server under a running
// watch: the watch reports reconnecting, and once the server is back it
// reports connected, survives the 410 Gone its resumed watch gets (by a
// relist), and delivers a change made by kubectl.
//
// It restarts a cluster of its own, so that the tests sharing the binary's
// cluster run on meanwhile.
func TestWatchSurvivesAPIServerRestart(t *testing.T) {
	t.Parallel()
	c := kubetest.NewCluster(t)
	ns := "default"
	c.MustKubectl(t, "-n", ns, "create", "configmap", "survivor", "--from-literal=foo=1")
	dc := c.Dynamic(t)
	// The reflector's own log, through the context, shows which way it
	// recovered.
	var logMu sync.Mutex
	var logged []string
	logger := funcr.New(func(prefix, args string) {
		logMu.Lock()
		logged = append(logged, prefix+" "+args)
		logMu.Unlock()
	}, funcr.Options{Verbosity: 4})
	w := NewWatch(dc, configMapTarget("", ns, "survivor"))
	if err := w.Start(logr.NewContext(context.Background(), logger)); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stopWithin(t, w, 10*time.Second) })
	r := &watchRecorder{t: t, w: w, name: "survivor"}
	r.next("Added on start", hasData(ObjectAdded, "foo", "1"))
	r.await(0, "Connected", isConn(Connected))

	// Move etcd's revision on past the watch's resourceVersion with objects
	// the watch does not see: the restarted server's watch cache starts at
	// the newer revision, so resuming the watch is answered with 410 Gone
	// (too old resource version) and the informer has to relist.
	for i := range 3 {
		c.MustKubectl(t, "-n", ns, "create", "configmap", "unrelated-"+strconv.Itoa(i))
	}

	stoppedAt := time.Now()
	c.Stop(t)
	rec := r.next("Reconnecting while the API server is down", isConn(Reconnecting))
	if rec.Connection.Err == nil {
		t.Error("Reconnecting without the error")
	}
	if rec.Connection.Since.Before(stoppedAt.Add(-time.Second)) || rec.Connection.Since.After(time.Now()) {
		t.Errorf("Reconnecting since %v; the server stopped at %v", rec.Connection.Since, stoppedAt)
	}
	t.Logf("reconnecting since %s: %v", rec.Connection.Since.Format("15:04:05"), rec.Connection.Err)
	if _, ok := r.w.Latest(); !ok {
		t.Error("Latest lost the object while the server is down")
	}

	mark := len(r.seen)
	c.Start(t)
	c.MustKubectl(t, "-n", ns, "patch", "configmap", "survivor", "--type=merge", "-p", `{"data":{"foo":"after-restart"}}`)
	r.next("Modified after the restart", hasData(ObjectModified, "foo", "after-restart"))
	var connected bool
	for _, ev := range r.since(mark) {
		if isConn(Connected)(ev) {
			connected = true
		}
		if isConn(Reconnecting)(ev) && !ev.Connection.Since.Equal(rec.Connection.Since) {
			t.Errorf("one outage reported with two start times: %v and %v", rec.Connection.Since, ev.Connection.Since)
		}
	}
	if !connected {
		t.Errorf("no Connected after the restart; seen %s", r.describe())
	}
	logMu.Lock()
	defer logMu.Unlock()
	var relisted bool
	for _, l := range logged {
		relisted = relisted || strings.Contains(l, "too old resource version")
	}
	if !relisted {
		t.Errorf("the resumed watch was not answered with 410 Gone, so the relist went untested; reflector log:\n%s", strings.Join(logged, "\n"))
	}
}

// unreachableConfig is a client configuration for an address that refuses
// connections, as an API server that went away does.
func unreachableConfig(t *testing.T) *rest.Config {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return &rest.Config{Host: "http://" + addr, Timeout: 5 * time.Second}
}

// TestWatchReportsReconnectingWithoutServer needs no cluster: a watch of an
// address that refuses connections reports reconnecting, keeps its start
// time across retries, and stops promptly.
func TestWatchReportsReconnectingWithoutServer(t *testing.T) {
	dc, err := dynamic.NewForConfig(unreachableConfig(t))
	if err != nil {
		t.Fatal(err)
	}
	before := time.Now()
	r := startWatch(t, dc, configMapTarget("", "default", "nothing"))
	ev := r.next("Reconnecting", isConn(Reconnecting))
	if ev.Connection.Err == nil || ev.Connection.Since.Before(before) {
		t.Errorf("Reconnecting since %v, err %v", ev.Connection.Since, ev.Connection.Err)
	}
	if _, ok := r.w.Latest(); ok || r.w.HasSynced() {
		t.Error("a watch that never connected has an object")
	}
}

func TestWatchStopEndsEvents(t *testing.T) {
	dc, err := dynamic.NewForConfig(unreachableConfig(t))
	if err != nil {
		t.Fatal(err)
	}

	// Stopped by Stop.
	w := NewWatch(dc, configMapTarget("", "default", "x"))
	if err := w.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := w.Start(context.Background()); err == nil {
		t.Error("a second Start succeeded")
	}
	stopWithin(t, w, 5*time.Second)
	stopWithin(t, w, time.Second) // again: a no-op

	// Stopped by its context.
	w = NewWatch(dc, configMapTarget("", "default", "x"))
	ctx, cancel := context.WithCancel(context.Background())
	if err := w.Start(ctx); err != nil {
		t.Fatal(err)
	}
	cancel()
	select {
	case <-drained(w):
	case <-time.After(5 * time.Second):
		t.Fatal("Events not closed after the context ended")
	}
	stopWithin(t, w, 5*time.Second)

	// Stopped before it started: Events is closed, Start refuses.
	w = NewWatch(dc, configMapTarget("", "default", "x"))
	stopWithin(t, w, time.Second)
	if err := w.Start(context.Background()); err == nil {
		t.Error("Start after Stop succeeded")
	}
	assertNoGoroutines(t, "kedit/kube.(*Watch)")
}

// drained closes its channel once w's Events channel is closed.
func drained(w *Watch) <-chan struct{} {
	done := make(chan struct{})
	go func() {
		for range w.Events() {
		}
		close(done)
	}()
	return done
}

func TestWatchCoalescesWhenTheReaderFallsBehind(t *testing.T) {
	dc, err := dynamic.NewForConfig(unreachableConfig(t))
	if err != nil {
		t.Fatal(err)
	}
	// Not started: events pile up in the queue as they would behind a UI
	// that stopped reading.
	w := NewWatch(dc, configMapTarget("", "default", "x"))
	obj := func(rv string) *unstructured.Unstructured {
		u := &unstructured.Unstructured{}
		u.SetName("x")
		u.SetResourceVersion(rv)
		return u
	}
	w.pushObject(ObjectAdded, obj("1"))
	w.setConnection(Reconnecting, context.DeadlineExceeded)
	for i := range maxPendingEvents {
		w.pushObject(ObjectModified, obj(strconv.Itoa(i+2)))
	}
	w.pushObject(ObjectModified, obj("last"))
	w.mu.Lock()
	got := append([]WatchEvent(nil), w.pending...)
	w.mu.Unlock()
	if len(got) > maxPendingEvents {
		t.Fatalf("%d events pending, bound is %d", len(got), maxPendingEvents)
	}
	// The latest object and the latest state survive.
	lastObj, lastState := got[len(got)-1], WatchEvent{}
	for _, ev := range got {
		if !ev.Type.IsObject() {
			lastState = ev
		}
	}
	if lastObj.ResourceVersion != "last" || lastState.Connection.State != Reconnecting {
		t.Errorf("after coalescing: %d events, last object rv %q, last state %s", len(got), lastObj.ResourceVersion, lastState.Connection.State)
	}
	stopWithin(t, w, time.Second)
}

// TestWatchQueueIsBoundedByBytes: versions of a large object coalesce
// long before the count bound, and the latest one survives.
func TestWatchQueueIsBoundedByBytes(t *testing.T) {
	dc, err := dynamic.NewForConfig(unreachableConfig(t))
	if err != nil {
		t.Fatal(err)
	}
	w := NewWatch(dc, configMapTarget("", "default", "x"))
	big := strings.Repeat("x", 1<<20)
	obj := func(rv string) *unstructured.Unstructured {
		u := &unstructured.Unstructured{Object: map[string]any{"data": map[string]any{"big": big + rv}}}
		u.SetName("x")
		u.SetResourceVersion(rv)
		return u
	}
	for i := range 100 {
		w.pushObject(ObjectModified, obj(strconv.Itoa(i+1)))
		w.mu.Lock()
		n, size, last := len(w.pending), w.pendingBytes, w.pending[len(w.pending)-1].ResourceVersion
		var sum int
		for _, ev := range w.pending {
			sum += model.ObjectSize(ev.Object)
		}
		w.mu.Unlock()
		if size != sum {
			t.Fatalf("after %d events the queue counts %d bytes, its events hold %d", i+1, size, sum)
		}
		if size > maxPendingBytes || n > maxPendingBytes>>20 {
			t.Fatalf("after %d events of 1 MiB: %d pending, %d bytes (bound %d)", i+1, n, size, maxPendingBytes)
		}
		if last != strconv.Itoa(i+1) {
			t.Fatalf("after %d events the latest pending is rv %s", i+1, last)
		}
	}
	stopWithin(t, w, time.Second)
}

func TestCoalesce(t *testing.T) {
	ev := func(typ WatchEventType, rv string) WatchEvent { return WatchEvent{Type: typ, ResourceVersion: rv} }
	conn := func(state ConnectionState) WatchEvent {
		return WatchEvent{Type: ConnectionChanged, Connection: Connection{State: state}}
	}
	cases := []struct {
		name string
		in   []WatchEvent
		want []WatchEvent
	}{
		{"objects only", []WatchEvent{ev(ObjectAdded, "1"), ev(ObjectModified, "2"), ev(ObjectDeleted, "3")}, []WatchEvent{ev(ObjectDeleted, "3")}},
		{"state then objects", []WatchEvent{conn(Reconnecting), conn(Connected), ev(ObjectModified, "2"), ev(ObjectModified, "3")}, []WatchEvent{conn(Connected), ev(ObjectModified, "3")}},
		{"objects then state", []WatchEvent{ev(ObjectModified, "2"), conn(Connected), conn(Reconnecting)}, []WatchEvent{ev(ObjectModified, "2"), conn(Reconnecting)}},
		{"deleted then re-created", []WatchEvent{ev(ObjectDeleted, "5"), ev(ObjectAdded, "6")}, []WatchEvent{ev(ObjectAdded, "6")}},
	}
	for _, c := range cases {
		got := coalesce(c.in)
		if len(got) != len(c.want) {
			t.Errorf("%s: got %v, want %v", c.name, got, c.want)
			continue
		}
		for i := range got {
			if got[i].Type != c.want[i].Type || got[i].ResourceVersion != c.want[i].ResourceVersion || got[i].Connection.State != c.want[i].Connection.State {
				t.Errorf("%s: got %v, want %v", c.name, got, c.want)
				break
			}
		}
	}
}

// requestLog records the requests a client sends.
type requestLog struct {
	mu   sync.Mutex
	reqs []string
	next http.RoundTripper
}

func (l *requestLog) RoundTrip(req *http.Request) (*http.Response, error) {
	l.mu.Lock()
	l.reqs = append(l.reqs, req.Method+" "+req.URL.Path+"?"+req.URL.RawQuery)
	l.mu.Unlock()
	return l.next.RoundTrip(req)
}

// isWatchRequest reports whether a logged request, "METHOD path?query",
// is a watch.
func isWatchRequest(req string) bool {
	_, query, _ := strings.Cut(req, "?")
	q, _ := url.ParseQuery(query)
	return q.Get("watch") == "true"
}

func (l *requestLog) snapshot() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.reqs...)
}

// TestWatchIdleSendsOnlyItsWatch checks that an idle watch does not poll:
// after the first list and watch, nothing is sent while nothing changes,
// and every request asks for the one object by name.
func TestWatchIdleSendsOnlyItsWatch(t *testing.T) {
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "idle", "--from-literal=foo=1")
	cfg := kubetest.RESTConfig(t)
	log := &requestLog{}
	cfg.Wrap(func(rt http.RoundTripper) http.RoundTripper { log.next = rt; return log })
	dc, err := dynamic.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	r := startWatch(t, dc, configMapTarget("", ns, "idle"))
	r.next("Added on start", isType(ObjectAdded))
	r.await(0, "Connected", isConn(Connected))

	// Start-up is over once the watch request is in the log (after a
	// list, or a watch-list at once); then 3 s idle, which the first
	// request sent ends.
	testwait.Eventually(t, watchTimeout, "the watch request", func() bool {
		reqs := log.snapshot()
		return len(reqs) > 0 && isWatchRequest(reqs[len(reqs)-1])
	})
	startup := log.snapshot()
	testwait.Until(3*time.Second, func() bool { return len(log.snapshot()) > len(startup) })
	idle := log.snapshot()
	t.Logf("start-up requests: %q", startup)
	if len(idle) != len(startup) {
		t.Errorf("requests while idle: %q", idle[len(startup):])
	}
	if len(startup) == 0 || len(startup) > 2 {
		t.Errorf("start-up requests: %q; want a list and a watch, or one watch-list", startup)
	}
	for _, req := range startup {
		if !strings.HasPrefix(req, "GET /api/v1/namespaces/"+ns+"/configmaps?") || !strings.Contains(req, "fieldSelector=metadata.name%3Didle") {
			t.Errorf("request not for the one object: %s", req)
		}
	}
}

// TestWatchExpiredIsNotReconnecting: a 410 Gone is answered by a relist,
// the connection is fine, and the UI must not flash "reconnecting".
func TestWatchExpiredIsNotReconnecting(t *testing.T) {
	dc, err := dynamic.NewForConfig(unreachableConfig(t))
	if err != nil {
		t.Fatal(err)
	}
	w := NewWatch(dc, configMapTarget("", "default", "x"))
	ctx := context.Background()
	w.observe(ctx, "list", nil)
	w.observe(ctx, "watch", apierrors.NewResourceExpired("too old resource version: 5 (812)"))
	//lint:ignore SA1019 a server may still answer 410 Gone, which is no lost connection either
	w.observe(ctx, "watch", apierrors.NewGone("gone"))
	w.watchError(ctx, nil, io.EOF)
	w.observe(ctx, "list", errors.New("connection refused"))
	w.observe(ctx, "list", errors.New("connection refused")) // same outage, same cause: no repeat
	w.observe(ctx, "list", errors.New("EOF while reading"))  // same outage, new cause: reported, same Since
	w.observe(ctx, "list", nil)
	w.mu.Lock()
	got := append([]WatchEvent(nil), w.pending...)
	w.mu.Unlock()
	var types []string
	for _, ev := range got {
		types = append(types, ev.Connection.State.String())
	}
	if want := "connected reconnecting reconnecting connected"; strings.Join(types, " ") != want {
		t.Fatalf("events %s, want %s", strings.Join(types, " "), want)
	}
	if !got[1].Connection.Since.Equal(got[2].Connection.Since) || got[2].Connection.Err.Error() != "EOF while reading" {
		t.Errorf("second Reconnecting: since %v (first %v), err %v", got[2].Connection.Since, got[1].Connection.Since, got[2].Connection.Err)
	}
	stopWithin(t, w, time.Second)
}
