package kube

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/metadata"

	"github.com/kedit/kedit/internal/testwait"
	"github.com/kedit/kedit/kube/kubetest"
)

// liveDeadline bounds how long a change may take to reach a Browse's
// snapshots. The browser promises a second; the test allows for a loaded
// machine, and logs what it measured.
const liveDeadline = 5 * time.Second

// connectForTest connects as kedit's flags would, with kubeconfig and
// namespace ns, and a discovery cache of the test's own (no t.Setenv:
// the tests run in parallel).
func connectForTest(t testing.TB, kubeconfig, ns string) *Cluster {
	t.Helper()
	cacheDir := t.TempDir()
	flags := &ConnFlags{KubeConfig: kubeconfig, Namespace: ns, CacheDir: cacheDir}
	c, err := Connect(flags)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// browseRecorder reads a Browse's snapshots and keeps the latest.
type browseRecorder struct {
	t    testing.TB
	b    *Browse
	last BrowseSnapshot
	n    int
}

// startBrowse starts a Browse of c through mc and stops it when the test
// ends, failing the test when Stop does not return.
func startBrowse(t testing.TB, mc metadata.Interface, c *Collection) *browseRecorder {
	t.Helper()
	b := NewBrowse(mc, c)
	if err := b.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stopBrowseWithin(t, b, 10*time.Second) })
	return &browseRecorder{t: t, b: b}
}

func stopBrowseWithin(t testing.TB, b *Browse, d time.Duration) {
	t.Helper()
	done := make(chan struct{})
	go func() { b.Stop(); close(done) }()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("Stop did not return within %s", d)
	}
	for range b.Snapshots() {
	}
}

// waitFor returns the first snapshot (the latest seen included) for which
// match is true, failing the test after d.
func (r *browseRecorder) waitFor(what string, d time.Duration, match func(BrowseSnapshot) bool) BrowseSnapshot {
	r.t.Helper()
	if r.n > 0 && match(r.last) {
		return r.last
	}
	deadline := time.Now().Add(d)
	for {
		left := time.Until(deadline)
		if left <= 0 {
			r.t.Fatalf("no %s within %s; last %s", what, d, describeSnapshot(r.last))
		}
		if snap := r.next(left); match(snap) {
			return snap
		}
	}
}

// next reads the next snapshot, failing the test after d.
func (r *browseRecorder) next(d time.Duration) BrowseSnapshot {
	r.t.Helper()
	select {
	case snap, ok := <-r.b.Snapshots():
		if !ok {
			r.t.Fatalf("snapshots closed; last %s", describeSnapshot(r.last))
		}
		r.check(snap)
		r.last, r.n = snap, r.n+1
		return snap
	case <-time.After(d):
		r.t.Fatalf("no snapshot within %s; last %s", d, describeSnapshot(r.last))
	}
	return BrowseSnapshot{}
}

// check holds every snapshot to the promises of BrowseSnapshot.
func (r *browseRecorder) check(s BrowseSnapshot) {
	r.t.Helper()
	if !s.Synced && len(s.Rows) > 0 {
		r.t.Errorf("a snapshot before the first complete list has %d rows", len(s.Rows))
	}
	if s.Generation < r.last.Generation {
		r.t.Errorf("generation went back from %d to %d", r.last.Generation, s.Generation)
	}
	for i := 1; i < len(s.Rows); i++ {
		a, b := s.Rows[i-1], s.Rows[i]
		if a.Namespace > b.Namespace || (a.Namespace == b.Namespace && a.Name >= b.Name) {
			r.t.Errorf("rows out of order: %s/%s before %s/%s", a.Namespace, a.Name, b.Namespace, b.Name)
		}
	}
}

func describeSnapshot(s BrowseSnapshot) string {
	var names []string
	for _, r := range s.Rows {
		names = append(names, r.Namespace+"/"+r.Name+"@"+r.ResourceVersion)
	}
	return fmt.Sprintf("{gen %d synced %v %s err %v rows %v}", s.Generation, s.Synced, s.Connection.State, s.Connection.Err, names)
}

// rowsIn returns the rows of namespace ns by name.
func rowsIn(s BrowseSnapshot, ns string) map[string]ObjectRow {
	out := map[string]ObjectRow{}
	for _, r := range s.Rows {
		if r.Namespace == ns {
			out[r.Name] = r
		}
	}
	return out
}

func TestBrowseIsLive(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	for _, n := range []string{"alpha", "bravo", "charlie"} {
		kubetest.MustKubectl(t, "-n", ns, "create", "configmap", n, "--from-literal=foo=1")
	}
	cl := connectForTest(t, kubetest.Kubeconfig(t), ns)
	col, err := cl.Collection("cm", false)
	if err != nil {
		t.Fatal(err)
	}
	if col.Resource() != "configmaps" || col.ListNamespace() != ns || col.Where() != fmt.Sprintf("in namespace %q", ns) {
		t.Fatalf("collection %s %s", col.Resource(), col.Where())
	}
	r := startBrowse(t, cl.Metadata, col)
	first := r.waitFor("the first list", liveDeadline, func(s BrowseSnapshot) bool { return s.Synced })
	rows := rowsIn(first, ns)
	if len(rows) != 3 || len(first.Rows) != 3 {
		t.Fatalf("first snapshot %s, want alpha, bravo, charlie", describeSnapshot(first))
	}
	for name, row := range rows {
		if row.UID == "" || row.ResourceVersion == "" || row.Created.IsZero() {
			t.Errorf("%s: uid %q rv %q created %v", name, row.UID, row.ResourceVersion, row.Created)
		}
		// The server stamps managedFields and creationTimestamp apart,
		// each to the second: the two may straddle a second's boundary.
		if row.ChangedBy != "kubectl-create" || row.Changed.Add(time.Second).Before(row.Created) {
			t.Errorf("%s: changed %v by %q, created %v", name, row.Changed, row.ChangedBy, row.Created)
		}
	}
	r.waitFor("connected", liveDeadline, func(s BrowseSnapshot) bool { return s.Connection.State == Connected })

	// Each change reaches the list with no request from the test.
	measure := func(what string, act func(), match func(map[string]ObjectRow) bool) {
		t.Helper()
		start := time.Now()
		act()
		acted := time.Since(start)
		r.waitFor(what, liveDeadline, func(s BrowseSnapshot) bool { return match(rowsIn(s, ns)) })
		t.Logf("%s: in the list %s after kubectl started (kubectl took %s)", what, time.Since(start).Round(time.Millisecond), acted.Round(time.Millisecond))
	}
	measure("a created object", func() {
		kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "delta", "--from-literal=foo=1")
	}, func(rows map[string]ObjectRow) bool { _, ok := rows["delta"]; return ok })

	before := rows["bravo"]
	measure("a patched object", func() {
		// A later second on the clock: managedFields' times have whole
		// seconds, and the patch's entry must be newer than the
		// creation's.
		testwait.NextSecond(time.Now())
		kubetest.MustKubectl(t, "-n", ns, "patch", "configmap", "bravo", "--type=merge", "-p", `{"data":{"foo":"2"}}`)
	}, func(rows map[string]ObjectRow) bool { return rows["bravo"].ResourceVersion != before.ResourceVersion })
	after := rowsIn(r.last, ns)["bravo"]
	if after.ChangedBy != "kubectl-patch" || !after.Changed.After(before.Changed) || after.UID != before.UID {
		t.Errorf("after kubectl patch: changed %v by %q (before %v by %q), uid %s (before %s)",
			after.Changed, after.ChangedBy, before.Changed, before.ChangedBy, after.UID, before.UID)
	}

	measure("a deleted object", func() {
		kubetest.MustKubectl(t, "-n", ns, "delete", "configmap", "alpha")
	}, func(rows map[string]ObjectRow) bool { _, ok := rows["alpha"]; return !ok })
	if got := len(rowsIn(r.last, ns)); got != 3 {
		t.Errorf("%d rows after one create and one delete, want 3: %s", got, describeSnapshot(r.last))
	}
}

func TestBrowseAllNamespacesAndClusterScoped(t *testing.T) {
	t.Parallel()
	ns1, ns2 := kubetest.Namespace(t), kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns1, "create", "configmap", "one")
	kubetest.MustKubectl(t, "-n", ns2, "create", "configmap", "two")
	cl := connectForTest(t, kubetest.Kubeconfig(t), ns1)
	col, err := cl.Collection("configmaps", true)
	if err != nil {
		t.Fatal(err)
	}
	if col.ListNamespace() != "" || col.Where() != "in all namespaces" {
		t.Fatalf("-A collection lists %q, %s", col.ListNamespace(), col.Where())
	}
	r := startBrowse(t, cl.Metadata, col)
	r.waitFor("both namespaces", liveDeadline, func(s BrowseSnapshot) bool {
		_, one := rowsIn(s, ns1)["one"]
		_, two := rowsIn(s, ns2)["two"]
		return one && two
	})
	tgt := col.Target(ns2, "two")
	if tgt.Namespace != ns2 || tgt.Name != "two" || tgt.String() != "configmaps/two" || tgt.Context != cl.Context {
		t.Errorf("target %+v", tgt)
	}
	// Back from the object: its type in its own namespace.
	if back := tgt.Collection(); back.AllNamespaces || back.ListNamespace() != ns2 || back.Resource() != "configmaps" || back.Context != cl.Context {
		t.Errorf("the collection of %s: %+v", tgt, back)
	}

	// A cluster-scoped kind: the test's namespaces are objects of it.
	nsCol, err := cl.Collection("ns", false)
	if err != nil {
		t.Fatal(err)
	}
	if nsCol.Namespaced() || nsCol.ListNamespace() != "" || nsCol.Where() != "" {
		t.Fatalf("namespaces: namespaced %v, lists %q", nsCol.Namespaced(), nsCol.ListNamespace())
	}
	if tgt := nsCol.Target("ignored", ns1); tgt.Namespace != "" {
		t.Errorf("a cluster-scoped target has namespace %q", tgt.Namespace)
	}
	rn := startBrowse(t, cl.Metadata, nsCol)
	rn.waitFor("the test's namespaces", liveDeadline, func(s BrowseSnapshot) bool {
		rows := rowsIn(s, "")
		_, a := rows[ns1]
		_, b := rows[ns2]
		return a && b
	})
}

// TestBrowseForbidden uses the viewer kubeconfig (a user with no RBAC
// rights): the refusal names the verb, the resource and the namespace.
func TestBrowseForbidden(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	viewer := connectForTest(t, kubetest.ViewerKubeconfig(t), ns)
	col, err := viewer.Collection("cm", false)
	if err != nil {
		t.Fatalf("discovery is allowed to every user: %v", err)
	}
	r := startBrowse(t, viewer.Metadata, col)
	snap := r.waitFor("a refusal", liveDeadline, func(s BrowseSnapshot) bool { return s.Connection.State == Refused })
	var forbidden *ForbiddenListError
	if !errors.As(snap.Connection.Err, &forbidden) {
		t.Fatalf("refused with %T %v, want *ForbiddenListError", snap.Connection.Err, snap.Connection.Err)
	}
	msg := snap.Connection.Err.Error()
	want := fmt.Sprintf("not allowed to %s configmaps in namespace %q", forbidden.Verb, ns)
	if (forbidden.Verb != "list" && forbidden.Verb != "watch") || !strings.HasPrefix(msg, want) || !strings.Contains(msg, `User "kedit-viewer"`) {
		t.Errorf("message %q, want it to start %q and name the user", msg, want)
	}
	if snap.Synced || len(snap.Rows) != 0 {
		t.Errorf("a refused list has rows: %s", describeSnapshot(snap))
	}

	_, err = viewer.Namespaces(context.Background())
	if !errors.As(err, &forbidden) || !strings.HasPrefix(err.Error(), "not allowed to list namespaces") {
		t.Errorf("namespaces as the viewer: %v, want a forbidden list naming namespaces", err)
	}
}

// responseLog records, for each request a client sends, what it asked for
// and how many bytes of response it read.
type responseLog struct {
	mu    sync.Mutex
	reqs  []*loggedRequest
	next  http.RoundTripper
	keep  bool // keep the bodies too, to search them
	total int64
}

type loggedRequest struct {
	method, path, query, accept, contentType string
	bytes                                    int64
	body                                     []byte
}

func (l *responseLog) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := l.next.RoundTrip(req)
	lr := &loggedRequest{method: req.Method, path: req.URL.Path, query: req.URL.RawQuery, accept: req.Header.Get("Accept")}
	l.mu.Lock()
	l.reqs = append(l.reqs, lr)
	l.mu.Unlock()
	if err != nil {
		return nil, err
	}
	lr.contentType = resp.Header.Get("Content-Type")
	resp.Body = &countingBody{ReadCloser: resp.Body, log: l, req: lr}
	return resp, nil
}

func (l *responseLog) requests() []loggedRequest {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]loggedRequest, len(l.reqs))
	for i, r := range l.reqs {
		out[i] = *r
	}
	return out
}

func (l *responseLog) bytes() int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.total
}

type countingBody struct {
	io.ReadCloser
	log *responseLog
	req *loggedRequest
}

func (b *countingBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.log.mu.Lock()
	b.req.bytes += int64(n)
	b.log.total += int64(n)
	if b.log.keep {
		b.req.body = append(b.req.body, p[:n]...)
	}
	b.log.mu.Unlock()
	return n, err
}

// loggedMetadataClient is a metadata client whose responses are counted.
func loggedMetadataClient(t testing.TB, keep bool) (metadata.Interface, *responseLog) {
	t.Helper()
	cfg := kubetest.RESTConfig(t)
	log := &responseLog{keep: keep}
	cfg.Wrap(func(rt http.RoundTripper) http.RoundTripper { log.next = rt; return log })
	mc, err := metadata.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return mc, log
}

// maxConfigMapData is the most data a ConfigMap may hold (1 MiB).
const maxConfigMapData = 1 << 20

// metadataRowBytes bounds what one object's metadata may cost on the wire;
// a ConfigMap created by a client has a few hundred bytes of it.
const metadataRowBytes = 2048

// TestBrowseDownloadsMetadataOnly counts what a Browse of large ConfigMaps
// downloads: metadata only, through the metadata API's
// PartialObjectMetadata, never the data. BenchmarkBrowseMetadataOnly runs
// the full size of the issue (200 ConfigMaps of 1 MiB); this test keeps to
// 20, which shows the same.
func TestBrowseDownloadsMetadataOnly(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	const n = 20
	kubetest.CreateConfigMaps(t, ns, n, maxConfigMapData-1024)
	mc, log := loggedMetadataClient(t, false)
	col := connectForTest(t, kubetest.Kubeconfig(t), ns)
	c, err := col.Collection("configmaps", false)
	if err != nil {
		t.Fatal(err)
	}
	r := startBrowse(t, mc, c)
	snap := r.waitFor("the first list", liveDeadline, func(s BrowseSnapshot) bool { return s.Synced })
	if len(snap.Rows) != n {
		t.Fatalf("%d rows, want %d", len(snap.Rows), n)
	}
	got := log.bytes()
	t.Logf("%d ConfigMaps of 1 MiB: %d bytes downloaded in %d requests", n, got, len(log.requests()))
	if got > n*metadataRowBytes {
		t.Errorf("downloaded %d bytes for %d objects: more than metadata", got, n)
	}
	checkMetadataRequests(t, log.requests(), "/api/v1/namespaces/"+ns+"/configmaps")
}

// checkMetadataRequests checks that every request went to path, asked for
// PartialObjectMetadata and got it.
func checkMetadataRequests(t testing.TB, reqs []loggedRequest, path string) {
	t.Helper()
	if len(reqs) == 0 {
		t.Fatal("no requests")
	}
	for _, r := range reqs {
		if r.method != "GET" || r.path != path {
			t.Errorf("request %s %s?%s, want only GET %s", r.method, r.path, r.query, path)
		}
		if !strings.Contains(r.accept, "as=PartialObjectMetadata") {
			t.Errorf("request %s?%s accepts %q", r.path, r.query, r.accept)
		}
		// A watch's Content-Type names the stream's framing; each event
		// is then a PartialObjectMetadata (the byte count shows it).
		if !strings.Contains(r.contentType, "as=PartialObjectMetadata") && !strings.Contains(r.query, "watch=true") {
			t.Errorf("response to %s?%s is %q, not metadata", r.path, r.query, r.contentType)
		}
	}
}

// TestBrowseSecretsNamesOnly: a Browse of Secrets never receives a value,
// in any encoding.
func TestBrowseSecretsNamesOnly(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	const value = "hunter2-do-not-download-me"
	kubetest.MustKubectl(t, "-n", ns, "create", "secret", "generic", "db-password", "--from-literal=password="+value)
	mc, log := loggedMetadataClient(t, true)
	cl := connectForTest(t, kubetest.Kubeconfig(t), ns)
	col, err := cl.Collection("secret", false)
	if err != nil {
		t.Fatal(err)
	}
	r := startBrowse(t, mc, col)
	snap := r.waitFor("the secret", liveDeadline, func(s BrowseSnapshot) bool { return len(s.Rows) == 1 })
	if snap.Rows[0].Name != "db-password" {
		t.Fatalf("rows %s", describeSnapshot(snap))
	}
	// A change of the value streams through the watch too.
	kubetest.MustKubectl(t, "-n", ns, "patch", "secret", "db-password", "--type=merge", "-p", `{"stringData":{"password":"`+value+`-2"}}`)
	before := snap.Rows[0].ResourceVersion
	r.waitFor("the patched secret", liveDeadline, func(s BrowseSnapshot) bool {
		return len(s.Rows) == 1 && s.Rows[0].ResourceVersion != before
	})
	for _, req := range log.requests() {
		for _, secret := range []string{value, base64.StdEncoding.EncodeToString([]byte(value)), base64.StdEncoding.EncodeToString([]byte(value + "-2"))} {
			if strings.Contains(string(req.body), secret) {
				t.Errorf("the response to %s?%s holds the secret's value", req.path, req.query)
			}
		}
	}
	checkMetadataRequests(t, log.requests(), "/api/v1/namespaces/"+ns+"/secrets")
}

// TestBrowseIdleSendsOnlyItsWatch checks that an idle Browse does not
// poll: after the first list and watch, nothing is sent while nothing
// changes.
func TestBrowseIdleSendsOnlyItsWatch(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "idle")
	mc, log := loggedMetadataClient(t, false)
	cl := connectForTest(t, kubetest.Kubeconfig(t), ns)
	col, err := cl.Collection("cm", false)
	if err != nil {
		t.Fatal(err)
	}
	r := startBrowse(t, mc, col)
	r.waitFor("the first list", liveDeadline, func(s BrowseSnapshot) bool { return s.Synced && s.Connection.State == Connected })
	// Start-up is over once the watch request is in the log (after a
	// list, or a watch-list at once); then 3 s idle, which the first
	// request sent ends.
	testwait.Eventually(t, liveDeadline, "the watch request", func() bool {
		reqs := log.requests()
		return len(reqs) > 0 && isWatchRequest("?"+reqs[len(reqs)-1].query)
	})
	startup := log.requests()
	testwait.Until(3*time.Second, func() bool { return len(log.requests()) > len(startup) })
	idle := log.requests()
	var describe []string
	for _, r := range startup {
		describe = append(describe, r.method+" "+r.path+"?"+r.query)
	}
	t.Logf("start-up requests: %q", describe)
	if len(idle) != len(startup) {
		t.Errorf("%d requests while idle", len(idle)-len(startup))
	}
	if len(startup) == 0 || len(startup) > 2 {
		t.Errorf("start-up requests: %q; want a list and a watch, or one watch-list", describe)
	}
	checkMetadataRequests(t, startup, "/api/v1/namespaces/"+ns+"/configmaps")
}

func TestClusterTypesAndNamespaces(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	cl := connectForTest(t, kubetest.Kubeconfig(t), ns)
	types, err := cl.Types()
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]ResourceType{}
	for _, typ := range types {
		byName[typ.Name()] = typ
		if !Editable(typ.Verbs) {
			t.Errorf("%s offered with verbs %v", typ.Name(), typ.Verbs)
		}
	}
	cm, ok := byName["configmaps"]
	if !ok || !cm.Namespaced || cm.Kind != "ConfigMap" {
		t.Fatalf("configmaps: %+v (offered: %d types)", cm, len(types))
	}
	if got := strings.Join(cm.Names(), " "); got != "configmaps configmap cm" {
		t.Errorf("configmaps' names: %s", got)
	}
	deploy := byName["deployments.apps"]
	if got := strings.Join(deploy.Names(), " "); got != "deployments deployment deploy deployments.apps" {
		t.Errorf("deployments' names: %s", got)
	}
	if _, ok := byName["namespaces"]; !ok {
		t.Error("namespaces not offered")
	}
	for _, notEditable := range []string{"bindings", "tokenreviews.authentication.k8s.io", "selfsubjectaccessreviews.authorization.k8s.io"} {
		if _, ok := byName[notEditable]; ok {
			t.Errorf("%s offered, but cannot be edited", notEditable)
		}
	}

	_, err = cl.Collection("tokenreviews", false)
	var notEditable *NotEditableError
	if !errors.As(err, &notEditable) || err.Error() != "tokenreviews.authentication.k8s.io cannot be edited: the server allows only create on it; editing needs get, list, watch, and update or patch" {
		t.Errorf("tokenreviews: %v, want a NotEditableError", err)
	}
	_, err = cl.Collection("configmapz", false)
	var unknown *UnknownTypeError
	if !errors.As(err, &unknown) || len(unknown.Suggestions) == 0 || unknown.Suggestions[0] != "configmaps" {
		t.Errorf("configmapz: %v, want an unknown type suggesting configmaps", err)
	}
	for _, form := range []string{"deploy", "deployment", "Deployment", "deployments.apps"} {
		col, err := cl.Collection(form, false)
		if err != nil || col.Resource() != "deployments.apps" || col.Namespace != ns {
			t.Errorf("%s: %v, %v", form, col, err)
		}
	}

	names, err := cl.Namespaces(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, n := range names {
		found = found || n == ns
	}
	if !found || names[0] > names[len(names)-1] {
		t.Errorf("namespaces %v: not sorted, or without %s", names, ns)
	}

	// A draft names its object by resource: it opens without the flags.
	tgt, err := cl.Target(deploy.GroupResource(), ns, "web")
	if err != nil || tgt.String() != "deployments.apps/web" || tgt.Namespace != ns || tgt.Mapping.GroupVersionKind.Kind != "Deployment" {
		t.Errorf("target: %v, %v", tgt, err)
	}
	if _, err := cl.Target(ResourceType{Resource: "nothings"}.GroupResource(), ns, "x"); !errors.As(err, &unknown) {
		t.Errorf("target of an unknown resource: %v", err)
	}
}

// TestBrowseStopLeavesNothingRunning is not parallel: it counts every
// informer goroutine in the process.
func TestBrowseStopLeavesNothingRunning(t *testing.T) {
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "one")
	cl := connectForTest(t, kubetest.Kubeconfig(t), ns)
	col, err := cl.Collection("cm", false)
	if err != nil {
		t.Fatal(err)
	}
	r := startBrowse(t, cl.Metadata, col)
	r.waitFor("connected", liveDeadline, func(s BrowseSnapshot) bool { return s.Synced && s.Connection.State == Connected })
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "two")
	r.waitFor("the second object", liveDeadline, func(s BrowseSnapshot) bool { return len(s.Rows) == 2 })
	stopBrowseWithin(t, r.b, 10*time.Second)
	stopBrowseWithin(t, r.b, time.Second) // again: a no-op
	assertNoGoroutines(t, "kedit/kube.(*Browse)")

	// Stopped by its context, and stopped before it started.
	b := NewBrowse(cl.Metadata, col)
	ctx, cancel := context.WithCancel(context.Background())
	if err := b.Start(ctx); err != nil {
		t.Fatal(err)
	}
	if err := b.Start(ctx); err == nil {
		t.Error("a second Start succeeded")
	}
	cancel()
	for range b.Snapshots() {
	}
	stopBrowseWithin(t, b, 5*time.Second)
	b = NewBrowse(cl.Metadata, col)
	stopBrowseWithin(t, b, time.Second)
	if err := b.Start(context.Background()); err == nil {
		t.Error("Start after Stop succeeded")
	}
	assertNoGoroutines(t, "kedit/kube.(*Browse)")
}

// TestBrowseReconnectingWithoutServer needs no cluster: a Browse of an
// address that refuses connections reports reconnecting, before any rows.
func TestBrowseReconnectingWithoutServer(t *testing.T) {
	cfg := unreachableConfig(t)
	mc, err := metadata.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	before := time.Now()
	r := startBrowse(t, mc, configMapCollection("default"))
	snap := r.waitFor("reconnecting", watchTimeout, func(s BrowseSnapshot) bool { return s.Connection.State == Reconnecting })
	if snap.Synced || snap.Connection.Err == nil || snap.Connection.Since.Before(before) {
		t.Errorf("snapshot %s since %v", describeSnapshot(snap), snap.Connection.Since)
	}
}

func configMapCollection(ns string) *Collection {
	return &Collection{Namespace: ns, Mapping: &meta.RESTMapping{
		Resource:         schema.GroupVersionResource{Version: "v1", Resource: "configmaps"},
		GroupVersionKind: schema.GroupVersionKind{Version: "v1", Kind: "ConfigMap"},
		Scope:            meta.RESTScopeNamespace,
	}}
}

// TestBrowseCoalescesWhileTheReaderIsAway: a receiver that stops reading
// gets the present when it comes back, not every state in between.
func TestBrowseCoalescesWhileTheReaderIsAway(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	cl := connectForTest(t, kubetest.Kubeconfig(t), ns)
	col, err := cl.Collection("cm", false)
	if err != nil {
		t.Fatal(err)
	}
	r := startBrowse(t, cl.Metadata, col)
	first := r.waitFor("the empty list", liveDeadline, func(s BrowseSnapshot) bool { return s.Synced })
	const n = 30
	cs := kubetest.Clientset(t)
	for i := range n {
		cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("cm-%02d", i)}}
		if _, err := cs.CoreV1().ConfigMaps(ns).Create(context.Background(), cm, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	// Nobody reads until the informer has every object: at most one
	// snapshot waited in the pump, built before the last creations, and
	// the next one has them all.
	if !testwait.Until(liveDeadline, func() bool { return len(r.b.informer.GetStore().List()) >= n }) {
		t.Fatalf("the informer has %d of %d objects", len(r.b.informer.GetStore().List()), n)
	}
	got := 0
	for len(r.last.Rows) < n {
		r.next(liveDeadline)
		got++
	}
	if got > 2 {
		t.Errorf("%d snapshots after the reader came back, want at most 2", got)
	}
	if r.last.Generation <= first.Generation {
		t.Errorf("generation %d after changes, %d before", r.last.Generation, first.Generation)
	}
}

// benchNamespace creates a namespace with n ConfigMaps of size bytes each,
// once per benchmark function: b.Loop runs the function's body once.
func benchNamespace(b *testing.B, n, size int) string {
	b.Helper()
	ns := kubetest.Namespace(b)
	start := time.Now()
	kubetest.CreateConfigMaps(b, ns, n, size)
	b.Logf("created %d ConfigMaps of %d bytes in %s", n, size, time.Since(start).Round(time.Millisecond))
	return ns
}

// browseOnce lists col through mc until the first complete snapshot.
func browseOnce(b *testing.B, mc metadata.Interface, col *Collection, want int) {
	br := NewBrowse(mc, col)
	if err := br.Start(context.Background()); err != nil {
		b.Fatal(err)
	}
	for snap := range br.Snapshots() {
		if snap.Synced {
			if len(snap.Rows) != want {
				b.Fatalf("%d rows, want %d", len(snap.Rows), want)
			}
			break
		}
	}
	br.Stop()
}

// BenchmarkBrowseFirstSnapshot is the time from starting a Browse of 5,000
// ConfigMaps in one namespace to its first complete snapshot: the list
// part of "process start to the first screen with rows". The peer is
// `kubectl get cm` on the same server, measured as a whole process.
func BenchmarkBrowseFirstSnapshot(b *testing.B) {
	const n = 5000
	ns := benchNamespace(b, n, 64)
	cl := connectForTest(b, kubetest.Kubeconfig(b), ns)
	col, err := cl.Collection("cm", false)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		browseOnce(b, cl.Metadata, col, n)
	}
}

// BenchmarkBrowseMetadataOnly is TestBrowseDownloadsMetadataOnly at the
// issue's full size, 200 ConfigMaps of 1 MiB: it reports what one Browse
// downloads until its first complete snapshot (downloaded-B/op), against
// the 200 MiB of the objects.
func BenchmarkBrowseMetadataOnly(b *testing.B) {
	const n = 200
	ns := benchNamespace(b, n, maxConfigMapData-1024)
	mc, log := loggedMetadataClient(b, false)
	col := configMapCollection(ns)
	var downloaded int64
	for b.Loop() {
		before := log.bytes()
		browseOnce(b, mc, col, n)
		downloaded += log.bytes() - before
	}
	b.ReportMetric(float64(downloaded)/float64(b.N), "downloaded-B/op")
	if per := downloaded / int64(b.N); per > n*metadataRowBytes {
		b.Errorf("downloaded %d bytes for %d objects: more than metadata", per, n)
	}
	checkMetadataRequests(b, log.requests(), "/api/v1/namespaces/"+ns+"/configmaps")
}
