package victorialogs

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/kedit/kedit/internal/testseed"
	"github.com/kedit/kedit/kube/auditlog"
	"github.com/kedit/kedit/kube/auditlog/vltest"
)

func TestURLs(t *testing.T) {
	for _, c := range []struct {
		raw, base, name, filter, err string
	}{
		{raw: "victorialogs://logs:9428", base: "http://logs:9428", name: "victorialogs://logs:9428"},
		{raw: "victorialogs+https://logs.example.com:443/vl/", base: "https://logs.example.com:443/vl", name: "victorialogs+https://logs.example.com:443/vl/"},
		{raw: "victorialogs://ann:s3cret@logs:9428?filter=" + url.QueryEscape(`{cluster="prod"}`), base: "http://logs:9428", name: "victorialogs://ann:xxxxx@logs:9428", filter: `{cluster="prod"}`},
		{raw: "victorialogs://logs:9428?tenants=1", err: `victorialogs://logs:9428: unknown parameter "tenants": the URL takes ?filter=LOGSQL and ?tenant=ACCOUNT:PROJECT`},
		{raw: "victorialogs://logs:9428?tenant=a:1", err: `victorialogs://logs:9428: tenant "a:1": give ACCOUNT:PROJECT, two numbers (VictoriaLogs' AccountID and ProjectID)`},
		{raw: "victorialogs:///x", err: "victorialogs:///x: give the engine's HOST:PORT"},
		{raw: "opensearch://ann:s3cret@logs:9200", err: "opensearch://ann:xxxxx@logs:9200: a log engine's URL is victorialogs://HOST:PORT or victorialogs+https://HOST:PORT"},
		{raw: "victorialogs://ann:s3cret@lo gs:9428", err: "victorialogs://ann:xxxxx@lo gs:9428: not a URL"},
	} {
		ep, err := parseURL(c.raw)
		switch {
		case c.err != "":
			if err == nil || err.Error() != c.err {
				t.Errorf("%s: %v, want %s", c.raw, err, c.err)
			}
		case err != nil:
			t.Errorf("%s: %v", c.raw, err)
		case ep.base != c.base || ep.name != c.name || ep.filter != c.filter:
			t.Errorf("%s: base %q name %q filter %q", c.raw, ep.base, ep.name, ep.filter)
		}
	}
	if !IsURL("victorialogs://x:1") || !IsURL("victorialogs+https://x:1") || IsURL("audit.log") || IsURL("/var/log/victorialogs://x") {
		t.Error("IsURL")
	}
}

// feed reads configmap shop/r1's events from src.
func feed(src auditlog.Source) (*auditlog.Result, error) {
	m := auditlog.Match{Resources: []string{"configmaps"}, Namespace: "shop", Name: "r1", Scoped: true, Namespaced: true}
	return auditlog.ReadFrom(context.Background(), []auditlog.Source{src}, m, auditlog.Window{})
}

// TestUnreachableEngineNamesTheURL: an engine no one answers at is an
// error naming its URL, the password masked, and why.
func TestUnreachableEngineNamesTheURL(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	src, err := New("victorialogs://ann:s3cret@"+addr, Options{Token: "t0ken"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = feed(src)
	var ee *EngineError
	if !errors.As(err, &ee) || !strings.HasPrefix(err.Error(), "victorialogs://ann:xxxxx@"+addr+": cannot ask the log engine: ") ||
		!strings.Contains(err.Error(), "connection refused") || strings.Contains(err.Error(), "s3cret") || strings.Contains(err.Error(), "t0ken") {
		t.Errorf("%v", err)
	}
}

// TestEngineErrorSaysItsWords: a real VictoriaLogs refusing the query (a
// filter it cannot parse; a query over more time than it allows) is an
// error naming the URL, the status and the engine's own words.
func TestEngineErrorSaysItsWords(t *testing.T) {
	if testing.Short() {
		t.Skip("starts VictoriaLogs; not run with -short")
	}
	s := vltest.Start(t, "-search.maxQueryTimeRange=1h")
	src, err := New("victorialogs://"+s.Addr+"?filter="+url.QueryEscape("a:=("), Options{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = feed(src)
	var ee *EngineError
	if !errors.As(err, &ee) || !strings.HasPrefix(err.Error(), "victorialogs://"+s.Addr+": the log engine answered 400 Bad Request: ") || !strings.Contains(err.Error(), "cannot parse") {
		t.Errorf("a bad filter: %v", err)
	}
	src, _ = New("victorialogs://"+s.Addr, Options{})
	_, err = feed(src)
	if !errors.As(err, &ee) || !strings.HasPrefix(err.Error(), "victorialogs://"+s.Addr+": the log engine answered 400 Bad Request: ") || !strings.Contains(err.Error(), "maxQueryTimeRange") {
		t.Errorf("no time bound, with -search.maxQueryTimeRange: %v", err)
	}
	m := auditlog.Match{Resources: []string{"configmaps"}, Namespace: "shop", Name: "r1", Scoped: true, Namespaced: true}
	_, err = auditlog.ReadFrom(context.Background(), []auditlog.Source{src}, m, auditlog.Window{Since: time.Now().Add(-time.Minute)})
	var none *auditlog.NoEventsError
	if !errors.As(err, &none) || !strings.Contains(err.Error(), "victorialogs://"+s.Addr) {
		t.Errorf("within the limit, an empty engine: %v", err)
	}
}

// TestAnswerStoppedByTheEngine: VictoriaLogs stops an answer it has begun
// (its time limit reached, a storage node lost) with a blank line, its
// words, and a dropped connection, as its httpserver.Errorf writes them:
// the events before are kept, and the words are why the answer is cut.
func TestAnswerStoppedByTheEngine(t *testing.T) {
	answer := `{"_time":"2026-01-01T00:00:00Z","verb":"get"}` + "\n" +
		"\ncannot execute query [objectRef.name:=r1]: the request couldn't be executed in 30.001 seconds; possible solutions: to increase -search.maxQueryDuration=30s; to pass bigger value to 'timeout' query arg\n"
	var rows []map[string]string
	keep := func(row map[string]string) error { rows = append(rows, row); return nil }
	_, cut, err := readRows(io.MultiReader(strings.NewReader(answer), errReader{io.ErrUnexpectedEOF}), keep)
	if err != nil || len(rows) != 1 || !strings.HasPrefix(cut, "cannot execute query [objectRef.name:=r1]: the request couldn't be executed in 30.001 seconds") {
		t.Errorf("rows %v cut %q err %v", rows, cut, err)
	}
	rows = nil
	_, cut, err = readRows(strings.NewReader(`{"_time":"2026-01-01T00:00:00Z"}`+"\n"+`{"_time":"2026-01-`), keep)
	if err != nil || len(rows) != 1 || cut != "the answer stops in the middle of an event" {
		t.Errorf("a connection dropped mid-event: rows %v cut %q err %v", rows, cut, err)
	}
}

type errReader struct{ err error }

func (r errReader) Read([]byte) (int, error) { return 0, r.err }

// TestCutAnswerIsIncomplete: a real VictoriaLogs whose answer is cut on
// the way (the connection dropped after part of it) gives the events that
// came, and the history says it is partial, naming the engine and what
// was asked.
func TestCutAnswerIsIncomplete(t *testing.T) {
	if testing.Short() {
		t.Skip("starts VictoriaLogs; not run with -short")
	}
	s := vltest.Start(t)
	r := rand.New(rand.NewPCG(testseed.Seed(t), 3))
	lines := randomLog(r, 400, time.Now().Add(-time.Hour))
	s.Insert(t, bytes.Join(lines, []byte("\n")), url.Values{"preserve_json_keys": {"requestObject,responseObject"}})
	target, _ := url.Parse(s.URL)
	proxy := httputil.NewSingleHostReverseProxy(target)
	proxy.ErrorLog = log.New(io.Discard, "", 0)
	proxy.ModifyResponse = func(resp *http.Response) error {
		resp.Body = &cutBody{r: resp.Body, left: 5000}
		return nil
	}
	front := httptest.NewServer(proxy)
	defer front.Close()
	src, err := New("victorialogs://"+strings.TrimPrefix(front.URL, "http://"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := feed(src)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Incomplete) == 0 || !strings.HasPrefix(res.Incomplete[0].Error(), src.Name()+", the object's events: the answer ended after ") {
		t.Errorf("incomplete: %v", res.Incomplete)
	}
}

// cutBody ends with an error after left bytes: a connection dropped.
type cutBody struct {
	r    io.ReadCloser
	left int
}

func (b *cutBody) Read(p []byte) (int, error) {
	if b.left <= 0 {
		return 0, io.ErrUnexpectedEOF
	}
	if len(p) > b.left {
		p = p[:b.left]
	}
	n, err := b.r.Read(p)
	b.left -= n
	return n, err
}

func (b *cutBody) Close() error { return b.r.Close() }

// TestCredentialsAreSentNeverShown: a bearer token and a URL's basic auth
// reach the engine (behind a proxy that asks for them, as a real
// deployment's does), and neither appears in what kedit says: --debug's
// queries, the source's name, the events' sources.
func TestCredentialsAreSentNeverShown(t *testing.T) {
	if testing.Short() {
		t.Skip("starts VictoriaLogs; not run with -short")
	}
	s := vltest.Start(t)
	r := rand.New(rand.NewPCG(testseed.Seed(t), 4))
	s.Insert(t, bytes.Join(randomLog(r, 200, time.Now().Add(-time.Hour)), []byte("\n")), url.Values{"preserve_json_keys": {"requestObject,responseObject"}})
	target, _ := url.Parse(s.URL)
	proxy := httputil.NewSingleHostReverseProxy(target)
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		user, pass, basic := req.BasicAuth()
		if req.Header.Get("Authorization") != "Bearer t0ken-xyz" && !(basic && user == "ann" && pass == "s3cret-xyz") {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		proxy.ServeHTTP(w, req)
	}))
	defer front.Close()
	host := strings.TrimPrefix(front.URL, "http://")
	for _, c := range []struct {
		url   string
		token string
	}{{"victorialogs://" + host, "t0ken-xyz"}, {"victorialogs://ann:s3cret-xyz@" + host, ""}} {
		var debug bytes.Buffer
		src, err := New(c.url, Options{Token: c.token, Debug: &debug})
		if err != nil {
			t.Fatal(err)
		}
		res, err := feed(src)
		if err != nil {
			t.Fatalf("%s: %v", src.Name(), err)
		}
		said, _ := json.Marshal(res)
		all := debug.String() + src.Name() + string(said)
		if strings.Contains(all, "xyz") {
			t.Errorf("a credential shown:\n%s", all)
		}
		if !strings.Contains(debug.String(), ": the object's events: ") || !strings.Contains(debug.String(), " bytes in ") {
			t.Errorf("--debug said:\n%s", debug.String())
		}
	}
	src, _ := New("victorialogs://"+host, Options{})
	_, err := feed(src)
	if err == nil || !strings.Contains(err.Error(), "401 Unauthorized: unauthorized") {
		t.Errorf("no credentials: %v", err)
	}
}

// TestFlattenedBodiesAreSaidPartial: events sent without
// preserve_json_keys come back with their bodies flattened, which cannot
// be put back exactly: the history says it is partial and how to ingest.
func TestFlattenedBodiesAreSaidPartial(t *testing.T) {
	if testing.Short() {
		t.Skip("starts VictoriaLogs; not run with -short")
	}
	s := vltest.Start(t)
	r := rand.New(rand.NewPCG(testseed.Seed(t), 5))
	s.Insert(t, bytes.Join(randomLog(r, 200, time.Now().Add(-time.Hour)), []byte("\n")), nil)
	src, _ := New("victorialogs://"+s.Addr, Options{})
	res, err := feed(src)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Incomplete) != 1 || !strings.Contains(res.Incomplete[0].Error(), "ingest with preserve_json_keys=requestObject,responseObject") {
		t.Errorf("incomplete: %v", res.Incomplete)
	}
}

// TestTenantIsAsked: ?tenant=ACCOUNT:PROJECT asks a real VictoriaLogs for
// that tenant's events (its AccountID and ProjectID), and only for them.
func TestTenantIsAsked(t *testing.T) {
	if testing.Short() {
		t.Skip("starts VictoriaLogs; not run with -short")
	}
	s := vltest.Start(t)
	r := rand.New(rand.NewPCG(testseed.Seed(t), 7))
	s.InsertTenant(t, "12:34", bytes.Join(randomLog(r, 200, time.Now().Add(-time.Hour)), []byte("\n")), url.Values{"preserve_json_keys": {"requestObject,responseObject"}})
	src, _ := New("victorialogs://"+s.Addr+"?tenant=12:34", Options{})
	if res, err := feed(src); err != nil || len(res.Events) == 0 {
		t.Errorf("the tenant's events: %v", err)
	}
	src, _ = New("victorialogs://"+s.Addr, Options{})
	var none *auditlog.NoEventsError
	if _, err := feed(src); !errors.As(err, &none) {
		t.Errorf("the default tenant: %v", err)
	}
}

// TestReadsRefusedForLimitsArePartial: a real VictoriaLogs that refuses the
// query for the writers' reads for its limits (its time limit: the query's
// timeout, here set so short that it cannot be met) leaves the history
// partial, naming what was asked and the engine's words; refusing the
// query for the object's events so is an error (nothing could be read).
func TestReadsRefusedForLimitsArePartial(t *testing.T) {
	if testing.Short() {
		t.Skip("starts VictoriaLogs; not run with -short")
	}
	s := vltest.Start(t)
	r := rand.New(rand.NewPCG(testseed.Seed(t), 8))
	s.Insert(t, bytes.Join(randomLog(r, 200, time.Now().Add(-time.Hour)), []byte("\n")), url.Values{"preserve_json_keys": {"requestObject,responseObject"}})
	target, _ := url.Parse(s.URL)
	for _, c := range []struct {
		limit string // the query given no time
		err   bool
	}{{"the writers' reads", false}, {"the object's events", true}} {
		proxy := httputil.NewSingleHostReverseProxy(target)
		n := 0
		//lint:ignore SA1019 the test's front rewrites a request's body in place, which Director does as well as Rewrite
		proxy.Director = func(req *http.Request) {
			req.URL.Scheme, req.URL.Host = target.Scheme, target.Host
			n++
			if (n == 2) == (c.limit == "the writers' reads") {
				body, _ := io.ReadAll(req.Body)
				body = append(body, "&timeout=1ns"...)
				req.Body, req.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
			}
		}
		front := httptest.NewServer(proxy)
		src, _ := New("victorialogs://"+strings.TrimPrefix(front.URL, "http://"), Options{})
		res, err := feed(src)
		front.Close()
		if c.err {
			var ee *EngineError
			if !errors.As(err, &ee) || !strings.Contains(err.Error(), "503 Service Unavailable: ") || !strings.Contains(err.Error(), "maxQueryDuration") {
				t.Errorf("%s given no time: %v", c.limit, err)
			}
			continue
		}
		if err != nil || len(res.Events) == 0 || len(res.Incomplete) != 1 ||
			!strings.HasPrefix(res.Incomplete[0].Error(), src.Name()+", the writers' reads: the engine did not answer within its limits: the request couldn't be executed") {
			t.Errorf("%s given no time: %v, %v", c.limit, err, res)
		}
	}
}
