package kube

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"

	"github.com/kedit/kedit/internal/testwait"
	"github.com/kedit/kedit/kube/kubetest"
)

// TestRequestLogConflictAndWatch: through a real API server, the log
// keeps the watch's event of the other writer's change (its version and
// manager), the PUT based on the older version refused 409 with the
// version it carried, and, once kedit read theirs, the version the server
// holds; --debug's lines are the same rows'.
func TestRequestLogConflictAndWatch(t *testing.T) {
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "logged", "--from-literal=foo=1")
	var lines []string
	var linesMu sync.Mutex
	log := NewRequestLog(func(format string, args ...any) {
		linesMu.Lock()
		lines = append(lines, fmt.Sprintf(format, args...))
		linesMu.Unlock()
	})
	cfg := LogRequests(kubetest.RESTConfig(t), log)
	dc, err := dynamic.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	flags := &ConnFlags{KubeConfig: kubetest.Kubeconfig(t), Namespace: ns, CacheDir: t.TempDir()}
	target, err := Resolve(flags, "configmap", "logged")
	if err != nil {
		t.Fatal(err)
	}
	if want := "/api/v1/namespaces/" + ns + "/configmaps/logged"; target.APIPath() != want {
		t.Errorf("APIPath = %s, want %s", target.APIPath(), want)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	w, err := NewWatchForConfig(cfg, target)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Start(ctx); err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	base, err := Get(ctx, dc, target)
	if err != nil {
		t.Fatal(err)
	}
	testwait.Eventually(t, 10*time.Second, "the watch synced", w.HasSynced)
	// managedFields' times are to the second: within the creation's
	// second, the watch's first event could not tell its writer from the
	// creator (it then names none).
	created := base.GetCreationTimestamp().Time
	testwait.Eventually(t, 5*time.Second, "a second after the creation's", func() bool { return time.Now().Truncate(time.Second).After(created) })
	kubetest.MustKubectl(t, "-n", ns, "patch", "configmap", "logged", "--field-manager=demo-writer", "-p", `{"data":{"foo":"2"}}`)
	theirsRV := strings.TrimSpace(kubetest.MustKubectl(t, "-n", ns, "get", "configmap", "logged", "-o", "jsonpath={.metadata.resourceVersion}"))
	testwait.Eventually(t, 10*time.Second, "the watch's event in the log", func() bool {
		for _, r := range log.Rows() {
			if r.Method == "WATCH" && r.ReturnedRV == theirsRV {
				return true
			}
		}
		return false
	})
	_, err = target.Resource(dc).Update(ctx, withData(base, "foo", "mine"), metav1.UpdateOptions{})
	if err == nil {
		t.Fatal("the stale update was taken")
	}
	log.TheirsRead(target.APIPath(), theirsRV)

	rows := log.Rows()
	var event, conflict *RequestRow
	for i := range rows {
		switch r := &rows[i]; {
		case r.Method == "WATCH" && r.ReturnedRV == theirsRV:
			event = r
		case r.Method == "PUT":
			conflict = r
		}
	}
	if event == nil || event.Said() != "MODIFIED rv "+theirsRV+" by demo-writer" || event.Path != target.APIPath() {
		t.Errorf("the watch's row: %+v", event)
	}
	if conflict == nil {
		t.Fatal("no PUT row")
	}
	if conflict.Seq < event.Seq {
		t.Errorf("the PUT (row %d) is before the event (row %d)", conflict.Seq, event.Seq)
	}
	want := "the server holds rv " + theirsRV + "; this write was based on " + base.GetResourceVersion()
	if conflict.Status != http.StatusConflict || conflict.StatusText() != "409 Conflict" || conflict.SentRV != base.GetResourceVersion() || conflict.Said() != want {
		t.Errorf("the PUT's row: %s %q, sent rv %s; want 409 Conflict %q", conflict.StatusText(), conflict.Said(), conflict.SentRV, want)
	}
	if !strings.Contains(conflict.RequestBody, `"foo":"mine"`) || !strings.Contains(conflict.ResponseBody, `"reason":"Conflict"`) {
		t.Errorf("the PUT's bodies:\n%s\n%s", conflict.RequestBody, conflict.ResponseBody)
	}
	linesMu.Lock()
	all := strings.Join(lines, "\n")
	linesMu.Unlock()
	for _, l := range []string{conflict.Line(), event.Line(), "conflict on " + conflict.Path + ": " + want} {
		if !strings.Contains(all, l) {
			t.Errorf("--debug's lines lack %q:\n%s", l, all)
		}
	}
	if !strings.HasPrefix(conflict.Line(), "request PUT /api/v1/namespaces/"+ns+"/configmaps/logged 409 in ") {
		t.Errorf("the PUT's line: %s", conflict.Line())
	}
}

// TestRequestLogMasksSecrets: a Secret's values, sent and answered, in an
// object, a list and a patch, never reach the log's rows or lines.
func TestRequestLogMasksSecrets(t *testing.T) {
	const value = "hunter2-very-secret"
	ns := kubetest.Namespace(t)
	var lines bytes.Buffer
	log := NewRequestLog(func(format string, args ...any) { fmt.Fprintf(&lines, format+"\n", args...) })
	dc, err := dynamic.NewForConfig(LogRequests(kubetest.RESTConfig(t), log))
	if err != nil {
		t.Fatal(err)
	}
	kubetest.MustKubectl(t, "-n", ns, "create", "secret", "generic", "creds", "--from-literal=password=old-value")
	flags := &ConnFlags{KubeConfig: kubetest.Kubeconfig(t), Namespace: ns, CacheDir: t.TempDir()}
	target, err := Resolve(flags, "secret", "creds")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	base, err := Get(ctx, dc, target)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := target.Resource(dc).List(ctx, metav1.ListOptions{}); err != nil {
		t.Fatal(err)
	}
	mine := withData(base, "password", base64.StdEncoding.EncodeToString([]byte(value)))
	if _, err := Save(ctx, dc, target, StrategyPatch, base, mine, SaveOptions{}); err != nil {
		t.Fatal(err)
	}
	// A stale update: its refusal is kept too.
	_, _ = target.Resource(dc).Update(ctx, mine, metav1.UpdateOptions{})
	var all strings.Builder
	for _, r := range log.Rows() {
		fmt.Fprintf(&all, "%s %s %s\n%s\n%s\n", r.Method, r.Path, r.Said(), r.RequestBody, r.ResponseBody)
	}
	all.WriteString(lines.String())
	for _, leak := range []string{value, base64.StdEncoding.EncodeToString([]byte(value)), "old-value", base64.StdEncoding.EncodeToString([]byte("old-value"))} {
		if strings.Contains(all.String(), leak) {
			t.Errorf("the log holds a Secret's value %q:\n%s", leak, all.String())
		}
	}
	if !strings.Contains(all.String(), `"password":"••••"`) {
		t.Errorf("no masked value in the log:\n%s", all.String())
	}
}

// fakeServer answers every request with a ConfigMap of rv 7 and a body
// of size bytes: the log's bounds are the log's own, whatever the
// server.
type fakeServer struct{ body []byte }

func (f fakeServer) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body != nil {
		_, _ = io.Copy(io.Discard, req.Body)
	}
	return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/json"}},
		Body: io.NopCloser(bytes.NewReader(f.body)), Request: req}, nil
}

func fakeObject(size int) []byte {
	return []byte(`{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"a","resourceVersion":"7"},"data":{"foo":"` + strings.Repeat("x", size) + `"}}`)
}

// sendLogged sends n PUTs of size-byte bodies through a logged client.
func sendLogged(tb testing.TB, log *RequestLog, n, size int) {
	c := LogRequests(&rest.Config{}, log)
	rt := c.WrapTransport(fakeServer{fakeObject(size)})
	for i := range n {
		body := fakeObject(size)
		req, err := http.NewRequest(http.MethodPut, fmt.Sprintf("http://server/api/v1/namespaces/ns/configmaps/a%d", i), bytes.NewReader(body))
		if err != nil {
			tb.Fatal(err)
		}
		resp, err := rt.RoundTrip(req)
		if err != nil {
			tb.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		_ = resp.Body.Close()
	}
}

// TestRequestLogIsBounded: after 1,200 requests of 20 KiB bodies the
// log keeps its last RequestLogRows rows, each body cut, the bodies
// within RequestLogBodiesSize, the newest rows' kept.
// (BenchmarkRequestLog10000 measures the heap after 10,000.)
func TestRequestLogIsBounded(t *testing.T) {
	const n = 1_200
	log := NewRequestLog(nil)
	sendLogged(t, log, n, 20<<10)
	rows := log.Rows()
	if len(rows) != RequestLogRows || rows[len(rows)-1].Seq != n || rows[0].Seq != n-RequestLogRows+1 {
		t.Fatalf("%d rows, %d to %d", len(rows), rows[0].Seq, rows[len(rows)-1].Seq)
	}
	total := 0
	for _, r := range rows {
		total += len(r.RequestBody) + len(r.ResponseBody)
		if len(r.RequestBody) > RequestLogBodyBytes+100 || r.SentRV != "7" || r.ReturnedRV != "7" {
			t.Fatalf("row %d: body %d bytes, rv sent %s returned %s", r.Seq, len(r.RequestBody), r.SentRV, r.ReturnedRV)
		}
	}
	last := rows[len(rows)-1]
	if total > RequestLogBodiesSize || last.BodiesDropped || !strings.HasSuffix(last.RequestBody, "bytes in all)") {
		t.Errorf("bodies %d bytes (at most %d); the newest row's dropped: %v", total, RequestLogBodiesSize, last.BodiesDropped)
	}
}

// TestSentResourceVersion: the version a write carried, in each form a
// write carries it.
func TestSentResourceVersion(t *testing.T) {
	for body, want := range map[string]string{
		`{"metadata":{"name":"a","resourceVersion":"202"}}`: "202",
		`{"data":{"foo":"2"}}`:                              "",
		`[{"op":"test","path":"/metadata/resourceVersion","value":"9"},{"op":"add","path":"/a","value":1}]`: "9",
		`[{"op":"test","path":"/data/foo","value":"1"}]`:                                                    "",
		`not json`: "",
	} {
		if got := sentResourceVersion([]byte(body)); got != want {
			t.Errorf("%s: %q, want %q", body, got, want)
		}
	}
}

// BenchmarkRequestLog10000 measures what the log holds after 10,000
// requests of 40 KiB bodies: the heap it keeps (B-held), which its bounds
// hold whatever the number of requests.
func BenchmarkRequestLog10000(b *testing.B) {
	var held float64
	for range b.N {
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		log := NewRequestLog(nil)
		sendLogged(b, log, 10_000, 40<<10)
		runtime.GC()
		runtime.ReadMemStats(&after)
		held = float64(after.HeapAlloc) - float64(before.HeapAlloc)
		runtime.KeepAlive(log)
	}
	b.ReportMetric(held, "B-held")
	b.ReportMetric(0, "ns/op")
}
