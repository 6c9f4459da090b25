package kube

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/kedit/kedit/internal/drafts"
	"github.com/kedit/kedit/internal/testwait"
	"github.com/kedit/kedit/kube/kubetest"
	"github.com/kedit/kedit/model"
)

// The harness of the fault and race tests: the engine the UI sits on (a
// model.Session fed by a Watch, its effects performed by a Runner) on any
// cluster, its client optionally through a proxy that injects faults.

// testCluster is where an engine runs: the binary's shared cluster or one
// of the test's own.
type testCluster struct {
	kubeconfig string
	cfg        *rest.Config
}

func sharedCluster(t *testing.T) testCluster {
	return testCluster{kubeconfig: kubetest.Kubeconfig(t), cfg: kubetest.RESTConfig(t)}
}

func ownCluster(t *testing.T, c *kubetest.Cluster) testCluster {
	return testCluster{kubeconfig: c.Kubeconfig(), cfg: c.RESTConfig(t)}
}

func (c testCluster) dynamic(t *testing.T) dynamic.Interface {
	t.Helper()
	dc, err := dynamic.NewForConfig(c.cfg)
	if err != nil {
		t.Fatal(err)
	}
	return dc
}

// engineOptions tune newEngineAt.
type engineOptions struct {
	// client, when set, is the runner's client (a proxy's); the watch
	// keeps a direct one.
	client *rest.Config
	// draftDir, when set, is the draft store's directory; "" keeps drafts
	// in memory.
	draftDir string
	// performErr receives what Perform reports for the user (a draft that
	// could not be written); nil fails the test on one.
	performErr func(model.Effect, error)
	strategy   Strategy
}

// newEngineAt is an engine on TYPE/NAME in ns of c, with the watch kedit
// runs (NewWatchForConfig).
func newEngineAt(t *testing.T, c testCluster, ns, typ, name string, opt engineOptions) *engine {
	t.Helper()
	kc := c.kubeconfig
	cache := t.TempDir()
	flags := &ConnFlags{KubeConfig: kc, Namespace: ns, CacheDir: cache}
	target, err := Resolve(flags, typ, name)
	if err != nil {
		t.Fatalf("resolving %s/%s: %v", typ, name, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	w, err := NewWatchForConfig(c.cfg, target)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Stop)
	client := c.dynamic(t)
	if opt.client != nil {
		if client, err = dynamic.NewForConfig(opt.client); err != nil {
			t.Fatal(err)
		}
	}
	runner := &Runner{Client: client, Target: target, Strategy: opt.strategy, Cached: w.Latest}
	if runner.Strategy == "" {
		runner.Strategy = StrategyUpdate
	}
	e := &engine{t: t, ctx: ctx, watch: w, session: model.NewSession(target.Ref()), runner: runner, performErr: opt.performErr}
	if opt.draftDir != "" {
		e.store = &drafts.Store{Dir: opt.draftDir}
		od := e.store.Open(DraftKey(target), "")
		t.Cleanup(od.Close)
		runner.Drafts = od
	}
	e.awaitLive(func(*unstructured.Unstructured) bool { return true })
	return e
}

// states returns a hook that records every state the session passes
// through, to assert on what the user would have seen.
func (e *engine) recordStates() *[]model.State {
	var seen []model.State
	e.onState = func(st model.State) { seen = append(seen, st) }
	return &seen
}

// saveSettled saves the draft and, while the save fails for a reason worth
// a retry, saves again, as the UI does when RetrySave's delay is over, but
// without waiting out the back-off: the delay does not change what the
// session decides. It gives up at deadline.
func (e *engine) saveSettled(deadline time.Duration) {
	e.t.Helper()
	e.handle(model.SaveRequested{})
	settled := func() bool {
		f := e.session.Failure()
		return e.session.State() != model.StateFailed || f == nil || !f.Kind.Retryable()
	}
	// Each poll after the first retries: the retry's timer, shortened to
	// the poll's interval.
	retry := false
	if !testwait.Until(deadline, func() bool {
		if retry {
			e.handle(model.SaveRequested{})
		}
		retry = true
		return settled()
	}) {
		e.t.Fatalf("the save still fails after %s: %v", deadline, e.session.Failure().Err)
	}
}

// clusterConfig is a rest.Config for kubeconfig.
func clusterConfig(t *testing.T, kubeconfig string) *rest.Config {
	t.Helper()
	cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// faultAction is what the fault proxy does with one request.
type faultAction int

const (
	// pass forwards the request and its answer.
	pass faultAction = iota
	// dropBefore closes the client's connection without forwarding: the
	// request never reaches the server.
	dropBefore
	// dropAfter forwards the request, then closes the client's connection
	// instead of answering: the server did the work, its answer is lost.
	dropAfter
	// status502After forwards the request, then answers 502 Bad Gateway,
	// as a load balancer whose backend timed out does.
	status502After
	// status503Before answers 503 without forwarding.
	status503Before
	// status500Before answers 500 with an HTML page, without forwarding.
	status500Before
	// delayAfter forwards the request and holds its answer for delay, past
	// the client's timeout.
	delayAfter
	// expireWatch answers a watch request with 410 Gone, as a server whose
	// watch cache no longer holds the resourceVersion does.
	expireWatch
	// busy429Before answers 429 with the API server's own Status, asking
	// to wait 3 seconds, without forwarding (a server shedding load).
	busy429Before
	// refused400Before answers 400 Bad Request with the API server's own
	// Status, without forwarding: an answer.
	refused400Before
	// failed500Before answers 500 with the API server's own Status naming
	// a field, without forwarding: an answer, after which the write may
	// have been done.
	failed500Before
)

// apiStatus writes a Kubernetes Status as the API server answers it.
func apiStatus(w http.ResponseWriter, code int, reason, message, details string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	fmt.Fprintf(w, `{"kind":"Status","apiVersion":"v1","status":"Failure","message":%q,"reason":%q,"code":%d%s}`, message, reason, code, details)
}

var faultNames = map[faultAction]string{pass: "pass", dropBefore: "drop before", dropAfter: "drop after",
	status502After: "502 after", status503Before: "503 before", status500Before: "500 before", delayAfter: "delay after",
	expireWatch: "410 Gone", busy429Before: "429 before", refused400Before: "400 before", failed500Before: "500 Status before"}

func (a faultAction) String() string { return faultNames[a] }

// faultProxy is a loopback HTTP proxy (httputil.ReverseProxy) in front of
// the API server that delays, drops and answers 5xx as a broken network
// or load balancer would, as decide says for each request. It speaks plain
// HTTP to the client, so that it can close a connection mid-request.
type faultProxy struct {
	URL    string
	srv    *httptest.Server
	decide func(r *http.Request) faultAction
	delay  time.Duration

	mu sync.Mutex
	// forwarded counts the requests that reached the server, by method.
	forwarded map[string]int
	// log lists each request and what the proxy did with it.
	log []string
}

func newFaultProxy(t *testing.T, upstream *rest.Config, decide func(*http.Request) faultAction) *faultProxy {
	t.Helper()
	target, err := url.Parse(upstream.Host)
	if err != nil {
		t.Fatal(err)
	}
	// The upstream transport trusts the cluster's CA; the client's bearer
	// token passes through in its Authorization header.
	tlsCfg := rest.CopyConfig(upstream)
	tlsCfg.BearerToken, tlsCfg.BearerTokenFile = "", ""
	rt, err := rest.TransportFor(tlsCfg)
	if err != nil {
		t.Fatal(err)
	}
	p := &faultProxy{decide: decide, delay: 3 * time.Second, forwarded: map[string]int{}}
	rp := httputil.NewSingleHostReverseProxy(target)
	rp.Transport = rt
	rp.FlushInterval = -1 // watches stream
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		action := pass
		if p.decide != nil {
			action = p.decide(r)
		}
		p.record(r, action)
		switch action {
		case dropBefore:
			hijackClose(w)
			return
		case status503Before:
			http.Error(w, "upstream unavailable", http.StatusServiceUnavailable)
			return
		case status500Before:
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(http.StatusInternalServerError)
			fmt.Fprint(w, "<html><body><h1>500 Internal Server Error</h1>"+strings.Repeat("<p>nginx</p>", 200)+"</body></html>")
			return
		case busy429Before:
			apiStatus(w, http.StatusTooManyRequests, "TooManyRequests", "too many requests, please try again later", `,"details":{"retryAfterSeconds":3}`)
			return
		case refused400Before:
			apiStatus(w, http.StatusBadRequest, "BadRequest", "the server rejected our request for a reason of its own", "")
			return
		case failed500Before:
			apiStatus(w, http.StatusInternalServerError, "InternalError", "failed to create typed patch object (ns/testmap; /v1, Kind=ConfigMap): .data.bogus: field not declared in schema", "")
			return
		case expireWatch:
			http.Error(w, `{"kind":"Status","apiVersion":"v1","status":"Failure","message":"too old resource version: 1 (2)","reason":"Expired","code":410}`, http.StatusGone)
			return
		case dropAfter, status502After, delayAfter:
			rec := httptest.NewRecorder()
			rp.ServeHTTP(rec, r.WithContext(context.WithoutCancel(r.Context())))
			p.count(r)
			switch action {
			case dropAfter:
				hijackClose(w)
			case status502After:
				http.Error(w, "bad gateway", http.StatusBadGateway)
			case delayAfter:
				select {
				case <-time.After(p.delay):
				case <-r.Context().Done():
					return
				}
				copyRecorded(w, rec)
			}
			return
		}
		p.count(r)
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	p.URL, p.srv = srv.URL, srv
	return p
}

// closeClients cuts every connection to the proxy, open watches too.
func (p *faultProxy) closeClients() { p.srv.CloseClientConnections() }

func (p *faultProxy) record(r *http.Request, a faultAction) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.log = append(p.log, r.Method+" "+r.URL.Path+" -> "+a.String())
}

func (p *faultProxy) count(r *http.Request) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.forwarded[r.Method]++
}

// reached returns how many requests of method reached the server.
func (p *faultProxy) reached(method string) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.forwarded[method]
}

func (p *faultProxy) describe() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return strings.Join(p.log, "\n")
}

// clientConfig is a client configuration that reaches upstream's server
// through the proxy, with upstream's credentials, in plain HTTP.
func (p *faultProxy) clientConfig(upstream *rest.Config, timeout time.Duration) *rest.Config {
	c := rest.CopyConfig(upstream)
	c.Host = p.URL
	c.TLSClientConfig = rest.TLSClientConfig{}
	c.Timeout = timeout
	c.QPS, c.Burst = -1, 0
	return c
}

// hijackClose closes the client's connection without an answer.
func hijackClose(w http.ResponseWriter) {
	hj, ok := w.(http.Hijacker)
	if !ok {
		panic("the fault proxy's server cannot hijack")
	}
	conn, buf, err := hj.Hijack()
	if err != nil {
		return
	}
	_ = buf.Flush()
	if tc, ok := conn.(*net.TCPConn); ok {
		_ = tc.SetLinger(0) // a reset, as a broken connection gives
	}
	conn.Close()
}

func copyRecorded(w http.ResponseWriter, rec *httptest.ResponseRecorder) {
	for k, v := range rec.Header() {
		w.Header()[k] = v
	}
	w.WriteHeader(rec.Code)
	_, _ = w.Write(rec.Body.Bytes())
}

// draftDirOf is a fresh draft store directory in t's temporary directory.
func draftDirOf(t *testing.T) string { return filepath.Join(t.TempDir(), "kedit", "drafts") }
