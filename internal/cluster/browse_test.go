package cluster

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/go-logr/logr"
	"k8s.io/client-go/rest"

	"github.com/kedit/kedit/internal/drafts"
	"github.com/kedit/kedit/internal/testwait"
	"github.com/kedit/kedit/kube"
	"github.com/kedit/kedit/kube/kubetest"
	"github.com/kedit/kedit/ui"
)

// The browser as kedit runs it (the Opener, the app, a Bubble Tea
// program without a terminal), with every request counted by a
// round-tripper: what it downloads, and what it sends while idle.

// requestLog counts the requests of one kedit and the bytes of their
// responses.
type requestLog struct {
	mu   sync.Mutex
	reqs []loggedReq
}

// wrap is a WrapConfigFn that logs every request of the clients made from
// the config to l.
func (l *requestLog) wrap(c *rest.Config) *rest.Config {
	c.Wrap(func(rt http.RoundTripper) http.RoundTripper { return &loggingTransport{next: rt, log: l} })
	return c
}

type loggingTransport struct {
	next http.RoundTripper
	log  *requestLog
}

type loggedReq struct {
	path  string
	query string
	bytes *int64
}

func (lt *loggingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	l := lt.log
	resp, err := lt.next.RoundTrip(r)
	n := new(int64)
	l.mu.Lock()
	l.reqs = append(l.reqs, loggedReq{path: r.URL.Path, query: r.URL.RawQuery, bytes: n})
	l.mu.Unlock()
	if resp != nil {
		resp.Body = &countingBody{ReadCloser: resp.Body, n: n, mu: &l.mu}
	}
	return resp, err
}

type countingBody struct {
	io.ReadCloser
	n  *int64
	mu *sync.Mutex
}

func (b *countingBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.mu.Lock()
	*b.n += int64(n)
	b.mu.Unlock()
	return n, err
}

// snapshot returns the requests so far.
func (l *requestLog) snapshot() []loggedReq {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]loggedReq, len(l.reqs))
	copy(out, l.reqs)
	return out
}

// bytesTo sums what the responses to requests for path brought.
func (l *requestLog) bytesTo(path string) (n int64, count int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, r := range l.reqs {
		if r.path == path {
			n += *r.bytes
			count++
		}
	}
	return n, count
}

// runBrowser runs kedit's browser on TYPE in ns, as kedit builds it, in a
// program without a terminal, until the test ends.
func runBrowser(t testing.TB, ns, typ string) *requestLog {
	t.Helper()
	log := &requestLog{}
	kubeconfig, cacheDir := kubetest.Kubeconfig(t), t.TempDir()
	flags := &kube.ConnFlags{KubeConfig: kubeconfig, Namespace: ns, CacheDir: cacheDir, WrapConfigFn: log.wrap}
	cluster, err := kube.Connect(flags)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	o, err := New(cluster, Options{Flags: flags, Store: &drafts.Store{Dir: t.TempDir()}, Strategy: kube.StrategyUpdate, Logger: logr.Discard()})
	if err != nil {
		t.Fatal(err)
	}
	list, first, err := o.StartList(ctx, typ, false)
	if err != nil {
		t.Fatal(err)
	}
	p := tea.NewProgram(ui.New(ui.Config{Cluster: o, List: list, First: first, Context: ctx}),
		tea.WithInput(nil), tea.WithOutput(io.Discard), tea.WithContext(ctx), tea.WithoutSignalHandler())
	done := make(chan struct{})
	go func() { _, _ = p.Run(); close(done) }()
	t.Cleanup(func() {
		cancel()
		<-done
		list.Stop()
		o.CloseAll(io.Discard)
	})
	return log
}

// metadataBytes bounds what one ConfigMap's metadata may cost on the wire
// (a few hundred bytes; phase 1's tests allow as much).
const metadataBytes = 2048

// bigConfigMap is a ConfigMap's data at the API's limit, less room for its
// metadata.
const bigConfigMap = 1<<20 - 1024

// TestBrowserDownloadsMetadataOnlyAndIdles: kedit's browser on large
// ConfigMaps downloads their metadata only, and once the list is on the
// screen sends nothing more while nothing changes: its one watch stays
// open. BenchmarkBrowserMetadataOnly is the full size.
func TestBrowserDownloadsMetadataOnlyAndIdles(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	const n = 20
	kubetest.CreateConfigMaps(t, ns, n, bigConfigMap)
	log := runBrowser(t, ns, "cm")
	path := "/api/v1/namespaces/" + ns + "/configmaps"

	// Start-up is over once the list's watch request is in the log
	// (after a list, or a watch-list at once); then 3 s idle, which the
	// first request sent ends. What was downloaded is counted after, when
	// the list has surely been read.
	testwait.Eventually(t, 30*time.Second, "the list's watch request", func() bool {
		for _, r := range log.snapshot() {
			if q, _ := url.ParseQuery(r.query); r.path == path && q.Get("watch") == "true" {
				return true
			}
		}
		return false
	})
	before := log.snapshot()
	testwait.Until(3*time.Second, func() bool { return len(log.snapshot()) > len(before) })
	after := log.snapshot()
	for _, r := range after[len(before):] {
		t.Errorf("idle, the browser sent %s?%s", r.path, r.query)
	}
	got, count := log.bytesTo(path)
	t.Logf("%d ConfigMaps of 1 MiB: %d bytes downloaded for them in %d requests", n, got, count)
	if got > n*metadataBytes || count == 0 {
		t.Errorf("downloaded %d bytes in %d requests for %d ConfigMaps: more than their metadata", got, count, n)
	}
	var watches int
	for _, r := range after {
		if r.path == path && strings.Contains(r.query, "watch=true") {
			watches++
		}
	}
	t.Logf("idle for 3 s: %d requests; %d requests in all since start, %d of them the list's watch", len(after)-len(before), len(after), watches)
	if watches == 0 {
		t.Error("no watch of the list")
	}
}

// BenchmarkBrowserMetadataOnly reports what kedit's browser downloads for
// 200 ConfigMaps of 1 MiB (downloaded-B/op), until the list is complete.
// KEDIT_BENCH_NAMESPACE names a namespace that holds them already
// (scripts/bench-browser.sh creates one); else they are created.
func BenchmarkBrowserMetadataOnly(b *testing.B) {
	const n = 200
	ns := os.Getenv("KEDIT_BENCH_NAMESPACE")
	if ns == "" {
		ns = kubetest.Namespace(b)
		kubetest.CreateConfigMaps(b, ns, n, bigConfigMap)
	}
	path := "/api/v1/namespaces/" + ns + "/configmaps"
	var downloaded int64
	for b.Loop() {
		log := &requestLog{}
		kubeconfig, cacheDir := kubetest.Kubeconfig(b), b.TempDir()
		flags := &kube.ConnFlags{KubeConfig: kubeconfig, Namespace: ns, CacheDir: cacheDir, WrapConfigFn: log.wrap}
		cluster, err := kube.Connect(flags)
		if err != nil {
			b.Fatal(err)
		}
		o, err := New(cluster, Options{Flags: flags, Store: &drafts.Store{Dir: b.TempDir()}, Logger: logr.Discard()})
		if err != nil {
			b.Fatal(err)
		}
		list, first, err := o.StartList(context.Background(), "cm", false)
		if err != nil {
			b.Fatal(err)
		}
		if len(first.Rows) < n {
			b.Fatalf("%d rows, want %d", len(first.Rows), n)
		}
		list.Stop()
		got, _ := log.bytesTo(path)
		downloaded += got
	}
	b.ReportMetric(float64(downloaded)/float64(b.N), "downloaded-B/op")
	if per := downloaded / int64(b.N); per > n*metadataBytes {
		b.Errorf("downloaded %d bytes for %d objects: more than metadata", per, n)
	}
}
