package kube

import (
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/metadata"
	"k8s.io/client-go/rest"

	"github.com/kedit/kedit/internal/drafts"
	"github.com/kedit/kedit/kube/kubetest"
	"github.com/kedit/kedit/model"
)

// Faults, through the engine the UI runs: a server killed in
// the middle of an edit, a watch that expired, a network that delays,
// drops and answers 5xx. Each asserts what the user is told, that the
// draft is kept, and that the save lands exactly once.

// reconnectWithin is how soon after the server goes away the watch must
// say so, on loopback.
const reconnectWithin = 2 * time.Second

// awaitConn feeds the watch's events to the session until a connection
// event of state, and returns it; it fails the test after timeout.
func (e *engine) awaitConn(state ConnectionState, timeout time.Duration) WatchEvent {
	e.t.Helper()
	deadline := time.After(timeout)
	for {
		select {
		case ev, ok := <-e.watch.Events():
			if !ok {
				e.t.Fatalf("the watch stopped while waiting for %s", state)
			}
			if ev.Type.IsObject() {
				lt := map[WatchEventType]model.LiveType{ObjectAdded: model.LiveAdded, ObjectModified: model.LiveModified, ObjectDeleted: model.LiveDeleted}[ev.Type]
				e.handle(model.LiveChanged{Type: lt, Object: ev.Object, At: time.Now()})
				continue
			}
			if ev.Connection.State == state {
				return ev
			}
		case <-deadline:
			e.t.Fatalf("no %s within %s", state, timeout)
		}
	}
}

// writeLog counts the writes (PUT, PATCH, POST) a client's requests made
// that the server took, as seen on the wire.
type writeLog struct {
	mu   sync.Mutex
	next http.RoundTripper
	took int
}

func (l *writeLog) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := l.next.RoundTrip(r)
	if err == nil && r.Method != http.MethodGet && resp.StatusCode < 300 {
		l.mu.Lock()
		l.took++
		l.mu.Unlock()
	}
	return resp, err
}

func (l *writeLog) count() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.took
}

// countingConfig is cfg with its writes counted by the returned log.
func countingConfig(cfg *rest.Config) (*rest.Config, *writeLog) {
	c := rest.CopyConfig(cfg)
	log := &writeLog{}
	c.Wrap(func(rt http.RoundTripper) http.RoundTripper { log.next = rt; return log })
	return c, log
}

// TestFaultServerKilledMidEdit kills the API server (and its etcd) with
// SIGKILL while a draft is open: the watch says reconnecting within 2
// seconds, a save meanwhile fails as unavailable with the draft intact in
// the session and on disk; the server started again on the same directory
// brings the watch back (through a relist: etcd moved on past the watch's
// resourceVersion), the waiting save goes as soon as the watch is
// connected again, and lands exactly once.
func TestFaultServerKilledMidEdit(t *testing.T) {
	t.Parallel()
	c := kubetest.NewCluster(t)
	c.MustKubectl(t, "create", "configmap", "testmap", "--from-literal=foo=1", "--from-literal=bar=1")
	cl := ownCluster(t, c)
	client, writes := countingConfig(cl.cfg)
	e := newEngineAt(t, cl, "default", "configmap", "testmap", engineOptions{client: client, draftDir: draftDirOf(t)})
	e.editDraft(`foo: "1"`, `foo: mine`)
	draft := e.session.Draft().Text
	for i := range 3 {
		c.MustKubectl(t, "create", "configmap", "unrelated-"+strconv.Itoa(i))
	}

	killed := time.Now()
	c.Kill(t)
	rec := e.awaitConn(Reconnecting, reconnectWithin+time.Second)
	if took := time.Since(killed); took > reconnectWithin {
		t.Errorf("reconnecting %s after the kill, want within %s", took.Round(time.Millisecond), reconnectWithin)
	}
	t.Logf("reconnecting after %s: %v", time.Since(killed).Round(time.Millisecond), rec.Connection.Err)

	e.handle(model.SaveRequested{})
	f := e.session.Failure()
	if f == nil || f.Kind != model.ErrorUnavailable {
		t.Fatalf("save with the server dead: failure %+v, want unavailable", f)
	}
	if e.session.Draft().Text != draft {
		t.Fatal("the failed save changed the draft")
	}
	stored, err := drafts.Read(e.runner.Drafts.Path())
	if err != nil || string(stored.Text) != draft {
		t.Fatalf("the draft on disk = %v, %v; want the draft", stored, err)
	}

	if !e.session.RetryWaiting() {
		t.Fatalf("state %s, failure %+v: no save waits for the server", e.session.State(), e.session.Failure())
	}
	c.Start(t)
	e.awaitConn(Connected, watchTimeout)
	// The server is back: the waiting save goes now, as the UI sends it
	// on this event, not when its back-off ends.
	start := time.Now()
	e.handle(model.Reconnected{})
	t.Logf("saved %s after the watch connected again", time.Since(start).Round(time.Millisecond))
	if took := time.Since(start); took > time.Second {
		t.Errorf("the waiting save took %s once the server was back, want within 1 s", took.Round(time.Millisecond))
	}
	if st := e.session.State(); st != model.StateSaved {
		t.Fatalf("state %s after the restart, want saved (failure %+v)", st, e.session.Failure())
	}
	// The watch delivers the saved version: it resumed.
	e.awaitLive(liveData("foo", "mine"))
	if n := writes.count(); n != 1 {
		t.Errorf("%d writes reached the server, want exactly 1", n)
	}
	if got := dataOfAt(t, cl, e.runner.Target); got["foo"] != "mine" || got["bar"] != "1" {
		t.Errorf("data %v on the server", got)
	}
}

// dataOfAt reads the target's data from c.
func dataOfAt(t *testing.T, c testCluster, target *Target) map[string]string {
	t.Helper()
	obj, err := Get(t.Context(), c.dynamic(t), target)
	if err != nil {
		t.Fatal(err)
	}
	m, _, _ := unstructured.NestedStringMap(obj.Object, "data")
	return m
}

// TestFaultWatchSaysReconnectingWithin2s: an API server that shuts down
// cleanly refuses new connections at once but keeps its watch streams
// open until it exits (localcluster takes up to 8 s, kube-apiserver
// longer): the header said connected for 10-20 s. The watch kedit runs says
// reconnecting within 2 s of the server going away, whether it stops
// cleanly or is killed, and connected once it is back.
func TestFaultWatchSaysReconnectingWithin2s(t *testing.T) {
	t.Parallel()
	c := kubetest.NewCluster(t)
	c.MustKubectl(t, "create", "configmap", "x", "--from-literal=a=1")
	w, err := NewWatchForConfig(c.RESTConfig(t), configMapTarget("", "default", "x"))
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stopWithin(t, w, 10*time.Second) })
	r := &watchRecorder{t: t, w: w, name: "x"}
	r.next("Added", isType(ObjectAdded))
	r.await(0, "Connected", isConn(Connected))

	for _, way := range []struct {
		name string
		stop func(testing.TB)
	}{{"SIGTERM (a clean shutdown)", c.Stop}, {"SIGKILL", c.Kill}} {
		mark := len(r.seen)
		gone := time.Now()
		stopped := make(chan struct{})
		go func() { way.stop(t); close(stopped) }()
		r.next("Reconnecting after "+way.name, isConn(Reconnecting))
		if took := time.Since(gone); took > reconnectWithin {
			t.Errorf("%s: reconnecting after %s, want within %s", way.name, took.Round(time.Millisecond), reconnectWithin)
		} else {
			t.Logf("%s: reconnecting after %s", way.name, took.Round(time.Millisecond))
		}
		<-stopped
		c.Start(t)
		r.await(mark, "Connected again", func(ev WatchEvent) bool { return isConn(Connected)(ev) && ev.Connection.Since.After(gone) })
	}
}

// TestFaultExpiredWatchRelistsQuietly: a watch answered 410 Gone (its
// resourceVersion expired) is followed by a relist, never by a
// reconnecting state the user would see, and the watch goes on.
func TestFaultExpiredWatchRelistsQuietly(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "expiring", "--from-literal=foo=1")
	cfg := kubetest.RESTConfig(t)
	var mu sync.Mutex
	watches := 0
	p := newFaultProxy(t, cfg, func(r *http.Request) faultAction {
		if r.URL.Query().Get("watch") != "true" {
			return pass
		}
		mu.Lock()
		defer mu.Unlock()
		if watches++; watches <= 2 {
			return expireWatch
		}
		return pass
	})
	w, err := NewWatchForConfig(p.clientConfig(cfg, 0), configMapTarget("", ns, "expiring"))
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stopWithin(t, w, 10*time.Second) })
	r := &watchRecorder{t: t, w: w, name: "expiring"}
	r.next("Added", isType(ObjectAdded))
	kubetest.MustKubectl(t, "-n", ns, "patch", "configmap", "expiring", "--type=merge", "-p", `{"data":{"foo":"after"}}`)
	r.next("Modified after the expired watches", hasData(ObjectModified, "foo", "after"))
	for _, ev := range r.seen {
		if isConn(Reconnecting)(ev) {
			t.Errorf("the user was told %s: %v, for an expired watch", ev.Connection.State, ev.Connection.Err)
		}
	}
	if !strings.Contains(p.describe(), "410 Gone") {
		t.Fatalf("no watch was answered 410:\n%s", p.describe())
	}
	t.Logf("requests:\n%s", p.describe())
}

// TestFaultLostAnswersAreNeverRepeated puts a proxy in front of the API
// server that breaks the first save in each of the ways a network and a
// load balancer do, none of them an answer of the API server's: a cut
// connection, a timeout, a gateway's 502, 503 or HTML 500 (behind which
// the server may or may not have done the work). Each time the user gets a clear error, the draft is
// kept, and the save follows the lost-answer rule: when the server did the
// work, kedit reports `saved rv N` from the object read back and writes
// nothing again; when it did not, it sends the save once more. Either way
// exactly one write reaches the server, and the conflict view never opens
// against kedit's own write.
func TestFaultLostAnswersAreNeverRepeated(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		fault    faultAction
		landed   bool
		message  string
		timeout  time.Duration
		wantKind model.ErrorKind
	}{
		{dropAfter, true, "the API server is unavailable", 0, model.ErrorUnavailable},
		{status502After, true, "502 Bad Gateway from a proxy or load balancer, not the API server", 0, model.ErrorUnavailable},
		{delayAfter, true, "the API server did not answer in time", time.Second, model.ErrorTimeout},
		{dropBefore, false, "the API server is unavailable", 0, model.ErrorUnavailable},
		{status503Before, false, "503 Service Unavailable from a proxy or load balancer, not the API server", 0, model.ErrorUnavailable},
		{status500Before, false, "500 Internal Server Error from a proxy or load balancer, not the API server: an HTML page", 0, model.ErrorUnavailable},
	} {
		t.Run(tc.fault.String(), func(t *testing.T) {
			t.Parallel()
			ns := kubetest.Namespace(t)
			kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=1")
			cfg := kubetest.RESTConfig(t)
			var mu sync.Mutex
			faulted := false
			p := newFaultProxy(t, cfg, func(r *http.Request) faultAction {
				mu.Lock()
				defer mu.Unlock()
				if r.Method == http.MethodPut && !faulted {
					faulted = true
					return tc.fault
				}
				return pass
			})
			p.delay = 3 * time.Second
			e := newEngineAt(t, sharedCluster(t), ns, "configmap", "testmap", engineOptions{client: p.clientConfig(cfg, tc.timeout)})
			states := e.recordStates()
			e.editDraft(`foo: "1"`, `foo: mine`)
			draft := e.session.Draft().Text

			e.handle(model.SaveRequested{})
			f := e.session.Failure()
			if f == nil || f.Kind != tc.wantKind {
				t.Fatalf("failure %+v, want %s\nproxy:\n%s", f, tc.wantKind, p.describe())
			}
			// The UI says "the save did not get an answer (...)" around it.
			if text := f.Err.Error(); !strings.Contains(text, tc.message) || len(text) > 600 || strings.Contains(text, "<p>nginx</p><p>") {
				t.Errorf("the user reads %q; want a short message with %q", text, tc.message)
			}
			if e.session.Draft().Text != draft || !e.session.SaveUncertain() {
				t.Fatalf("after the fault: draft kept %v, uncertain %v", e.session.Draft().Text == draft, e.session.SaveUncertain())
			}

			e.saveSettled(watchTimeout)
			if st := e.session.State(); st != model.StateSaved {
				t.Fatalf("state %s, want saved\nproxy:\n%s", st, p.describe())
			}
			r := e.session.LastSave()
			if r.Verified != tc.landed {
				t.Errorf("report %+v: verified %v, want %v (the first save landed: %v)", r, r.Verified, tc.landed, tc.landed)
			}
			if n := p.reached(http.MethodPut); n != 1 {
				t.Errorf("%d saves reached the server, want exactly 1\nproxy:\n%s", n, p.describe())
			}
			obj := readBase(t, e.runner.Target)
			if v, _, _ := unstructured.NestedString(obj.Object, "data", "foo"); v != "mine" || obj.GetResourceVersion() != r.ResourceVersion {
				t.Errorf("server: foo=%q rv %s; kedit reported saved rv %s", v, obj.GetResourceVersion(), r.ResourceVersion)
			}
			for _, st := range *states {
				if st == model.StateRebasing || st == model.StateResolving || st == model.StateWaitingTheirs {
					t.Fatalf("states %v: a rebase against kedit's own write", *states)
				}
			}
		})
	}
}

// TestFaultOutageNeverSaysConnected: a network that accepts connections
// and closes them at once (every request cut) is an outage from end to
// end: the watch says reconnecting and never connected until the network
// is back, although client-go answers a cut watch request with an empty
// watch and no error.
func TestFaultOutageNeverSaysConnected(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=1")
	cfg := kubetest.RESTConfig(t)
	var down atomic.Bool
	p := newFaultProxy(t, cfg, func(*http.Request) faultAction {
		if down.Load() {
			return dropBefore
		}
		return pass
	})
	w, err := NewWatchForConfig(p.clientConfig(cfg, 0), configMapTarget("", ns, "testmap"))
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stopWithin(t, w, 10*time.Second) })
	r := &watchRecorder{t: t, w: w, name: "testmap"}
	r.await(0, "Connected", isConn(Connected))

	down.Store(true)
	// A change makes the open watch's stream end, as a cut one would.
	kubetest.MustKubectl(t, "-n", ns, "patch", "configmap", "testmap", "--type=merge", "-p", `{"data":{"foo":"2"}}`)
	p.closeClients()
	mark := len(r.seen)
	r.next("Reconnecting", isConn(Reconnecting))
	deadline := time.Now().Add(8 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case ev := <-w.Events():
			r.seen = append(r.seen, ev)
			if isConn(Connected)(ev) {
				t.Fatalf("connected during the outage; seen %s\nproxy:\n%s", r.describe(), p.describe())
			}
		case <-time.After(100 * time.Millisecond):
		}
	}
	if n := strings.Count(p.describe(), "-> drop before"); n < 2 {
		t.Fatalf("the watch tried %d requests during the outage; the test proves nothing", n)
	}
	down.Store(false)
	r.await(mark, "Connected after the outage", isConn(Connected))
	r.await(mark, "the change", hasData(ObjectModified, "foo", "2"))
}

// TestFaultOutageNeverSaysConnectedInTheBrowser: the same outage under the
// browser's live list: reconnecting, never connected, until it ends.
func TestFaultOutageNeverSaysConnectedInTheBrowser(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=1")
	cfg := kubetest.RESTConfig(t)
	var down atomic.Bool
	p := newFaultProxy(t, cfg, func(*http.Request) faultAction {
		if down.Load() {
			return dropBefore
		}
		return pass
	})
	col, err := connectForTest(t, kubetest.Kubeconfig(t), ns).Collection("cm", false)
	if err != nil {
		t.Fatal(err)
	}
	mc, err := metadata.NewForConfig(p.clientConfig(cfg, 0))
	if err != nil {
		t.Fatal(err)
	}
	r := startBrowse(t, mc, col)
	r.waitFor("connected", liveDeadline, func(s BrowseSnapshot) bool { return s.Synced && s.Connection.State == Connected })

	down.Store(true)
	p.closeClients()
	r.waitFor("reconnecting", watchTimeout, func(s BrowseSnapshot) bool { return s.Connection.State == Reconnecting })
	deadline := time.Now().Add(8 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case snap := <-r.b.Snapshots():
			r.last = snap
			if snap.Connection.State == Connected {
				t.Fatalf("connected during the outage\nproxy:\n%s", p.describe())
			}
		case <-time.After(100 * time.Millisecond):
		}
	}
	down.Store(false)
	r.waitFor("connected after the outage", watchTimeout, func(s BrowseSnapshot) bool { return s.Connection.State == Connected })
}
