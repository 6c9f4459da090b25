package kube

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/rest"

	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/internal/words"
	"github.com/kedit/kedit/model"
)

// The request log's bounds: the rows it keeps (the oldest go first), the
// bytes it keeps of one body, and of all the bodies together (the oldest
// rows' bodies go first, their rows stay).
const (
	RequestLogRows       = 1000
	RequestLogBodyBytes  = 16 << 10
	RequestLogBodiesSize = 1 << 20
)

// RequestLog keeps every request kedit sends and every event its watches
// read, newest last, in memory and bounded (RequestLogRows rows, bodies
// cut to RequestLogBodyBytes, RequestLogBodiesSize for all of them). A
// Secret's values are masked before a body is kept, so no value ever
// reaches it, nor --debug's log, which gets each row's line as the row
// is kept. It is safe for concurrent use. LogRequests fills it.
type RequestLog struct {
	logf func(format string, args ...any)

	mu      sync.Mutex
	ring    []RequestRow // RequestLogRows long once full
	next    int          // where the next row goes once full
	seq     uint64
	bodies  int    // the bytes of the bodies kept
	bodyLow uint64 // rows before this Seq keep no body
	changed chan struct{}
}

// NewRequestLog makes an empty log; logf, when not nil, gets each row's
// line as it is kept (--debug's log).
func NewRequestLog(logf func(format string, args ...any)) *RequestLog {
	return &RequestLog{logf: logf, changed: make(chan struct{})}
}

// RequestRow is one request and its answer, or one event a watch read
// (Method WATCH).
type RequestRow struct {
	// Seq numbers the rows from 1 in the order kept.
	Seq  uint64
	Time time.Time
	// Method is the HTTP method, or WATCH for a watch's event.
	Method string
	// Path is the request's path and query; for a watch's event, the
	// object's path.
	Path string
	// Event is a watch event's type (ADDED, MODIFIED, DELETED, ERROR), and
	// Manager the field manager that wrote its version, from its
	// managedFields, when they tell.
	Event, Manager string
	// SentRV is the resourceVersion the request carried: a PUT's body's,
	// a patch's metadata.resourceVersion or its JSON Patch test of it; ""
	// for none.
	SentRV string
	// Status is the answer's status code; 0 when none came, Err says why.
	Status int
	Err    string
	// ReturnedRV is the resourceVersion the answer carried, or the watch
	// event's version.
	ReturnedRV string
	// ServerRV is, for a 409, the resourceVersion of the object kedit
	// then read as theirs (TheirsRead); "" while kedit has not read it.
	ServerRV string
	Latency  time.Duration
	// ContentType is the request body's.
	ContentType string
	// RequestBody and ResponseBody are the bodies, a Secret's values
	// masked, cut to RequestLogBodyBytes; empty once the log dropped them
	// for newer rows' (BodiesDropped).
	RequestBody, ResponseBody string
	BodiesDropped             bool
}

// StatusText is the answer's status as the pane shows it: 200, 409
// Conflict, no answer.
func (r RequestRow) StatusText() string {
	switch {
	case r.Method == "WATCH":
		return r.Event
	case r.Status == 0:
		return "no answer"
	case r.Status >= 300:
		return fmt.Sprintf("%d %s", r.Status, http.StatusText(r.Status))
	}
	return fmt.Sprint(r.Status)
}

// Said is what the row says happened, in one line, where there is more
// than its status: a 409's resourceVersions (the server's only when kedit
// read it), a watch event's version and writer, the error of no answer.
// It is raw server text: escape it to draw it.
func (r RequestRow) Said() string {
	switch {
	case r.Method == "WATCH":
		s := r.Event
		if r.ReturnedRV != "" {
			s += " rv " + r.ReturnedRV
		}
		if r.Manager != "" {
			s += " by " + r.Manager
		}
		if r.Err != "" {
			s += ": " + r.Err
		}
		return s
	case r.Status == 0:
		return "no answer: " + r.Err
	case r.Status == http.StatusConflict:
		based := "this write carried no resourceVersion"
		if r.SentRV != "" {
			based = "this write was based on " + r.SentRV
		}
		if r.ServerRV != "" {
			return "the server holds rv " + r.ServerRV + "; " + based
		}
		return based + "; the server holds a newer version"
	}
	return ""
}

// Line is the row as --debug's log writes it, control characters
// escaped. A request's line starts "request METHOD PATH STATUS in TIME"
// (scripts count them); a watch event's "watch".
func (r RequestRow) Line() string {
	if r.Method == "WATCH" {
		return escape.String("watch " + r.Said() + " on " + r.Path)
	}
	what := escape.String(r.Path)
	if r.Status == 0 {
		return fmt.Sprintf("request %s %s: %s after %v", r.Method, what, escape.String(r.Err), r.Latency)
	}
	s := fmt.Sprintf("request %s %s %d in %v", r.Method, what, r.Status, r.Latency)
	if r.SentRV != "" || r.ReturnedRV != "" {
		s += fmt.Sprintf(" (rv sent %s, returned %s)", orNone(r.SentRV), orNone(r.ReturnedRV))
	}
	return s
}

func orNone(rv string) string {
	if rv == "" {
		return "none"
	}
	return escape.String(rv)
}

// Rows returns the rows kept, oldest first.
func (l *RequestLog) Rows() []RequestRow {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]RequestRow, 0, len(l.ring))
	out = append(out, l.ring[l.next:]...)
	return append(out, l.ring[:l.next]...)
}

// Changed is closed when the next row is kept, or a row changes.
func (l *RequestLog) Changed() <-chan struct{} {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.changed
}

// add keeps r, cut to the bounds, and logs its line.
func (l *RequestLog) add(r RequestRow) {
	r.RequestBody, r.ResponseBody = cutBody(r.RequestBody), cutBody(r.ResponseBody)
	l.mu.Lock()
	l.seq++
	r.Seq = l.seq
	l.bodies += len(r.RequestBody) + len(r.ResponseBody)
	if len(l.ring) < RequestLogRows {
		l.ring = append(l.ring, r)
	} else {
		old := &l.ring[l.next]
		l.bodies -= len(old.RequestBody) + len(old.ResponseBody)
		*old = r
		l.next = (l.next + 1) % RequestLogRows
	}
	l.dropBodiesLocked()
	l.notifyLocked()
	l.mu.Unlock()
	if l.logf != nil {
		l.logf("%s", r.Line())
	}
}

// dropBodiesLocked lets go of the oldest rows' bodies until the bodies
// fit in RequestLogBodiesSize.
func (l *RequestLog) dropBodiesLocked() {
	for i := 0; l.bodies > RequestLogBodiesSize && i < len(l.ring); i++ {
		row := &l.ring[(l.next+i)%len(l.ring)]
		if row.Seq < l.bodyLow || (row.RequestBody == "" && row.ResponseBody == "") {
			continue
		}
		l.bodies -= len(row.RequestBody) + len(row.ResponseBody)
		row.RequestBody, row.ResponseBody, row.BodiesDropped = "", "", true
		l.bodyLow = row.Seq + 1
	}
}

func (l *RequestLog) notifyLocked() {
	close(l.changed)
	l.changed = make(chan struct{})
}

// cutBody keeps the first RequestLogBodyBytes of b and says how long it
// was.
func cutBody(b string) string {
	if len(b) <= RequestLogBodyBytes {
		return b
	}
	return strings.ToValidUTF8(b[:RequestLogBodyBytes], "") + "\n… (" + words.Count(len(b), "byte") + " in all)"
}

// TheirsRead says that kedit read theirs, at resourceVersion rv, for the
// object at path (Target.APIPath) after a conflict: the newest 409 on the
// object not yet told gets it as the version the server holds.
func (l *RequestLog) TheirsRead(path, rv string) {
	if l == nil || rv == "" {
		return
	}
	l.mu.Lock()
	var found *RequestRow
	for i := len(l.ring) - 1; i >= 0; i-- {
		row := &l.ring[(l.next+i)%len(l.ring)]
		if row.Status == http.StatusConflict && row.Method != "WATCH" && pathOnly(row.Path) == path {
			found = row
			break
		}
	}
	if found == nil || found.ServerRV != "" {
		l.mu.Unlock()
		return
	}
	found.ServerRV = rv
	row := *found
	l.notifyLocked()
	l.mu.Unlock()
	if l.logf != nil {
		l.logf("%s", escape.String("conflict on "+row.Path+": "+row.Said()))
	}
}

func pathOnly(p string) string {
	path, _, _ := strings.Cut(p, "?")
	return path
}

// LogRequests makes every request sent with c kept in log, with its
// answer, and every event of a watch made with c (in JSON) a row of its
// own. Headers, where credentials are, are never kept. kedit --debug
// writes the log's lines, the request pane shows its rows, and the
// benchmarks count start-up and idle requests from it.
func LogRequests(c *rest.Config, log *RequestLog) *rest.Config {
	c.Wrap(func(rt http.RoundTripper) http.RoundTripper { return &requestLogger{next: rt, log: log} })
	return c
}

type requestLogger struct {
	next http.RoundTripper
	log  *RequestLog
}

func (l *requestLogger) RoundTrip(req *http.Request) (*http.Response, error) {
	row := RequestRow{Time: time.Now(), Method: req.Method, Path: req.URL.RequestURI(), ContentType: req.Header.Get("Content-Type")}
	if body, err := requestBody(req); err == nil && len(body) > 0 {
		row.SentRV = sentResourceVersion(body)
		row.RequestBody = maskBody(req.URL.Path, body)
	}
	resp, err := l.next.RoundTrip(req)
	if err != nil {
		row.Latency = time.Since(row.Time).Round(time.Microsecond)
		row.Err = err.Error()
		l.log.add(row)
		return resp, err
	}
	row.Status = resp.StatusCode
	ct := resp.Header.Get("Content-Type")
	isJSON := strings.Contains(ct, "json")
	if isWatch(req) {
		row.Latency = time.Since(row.Time).Round(time.Microsecond)
		l.log.add(row)
		if isJSON && resp.StatusCode == http.StatusOK {
			resp.Body = &watchTee{body: resp.Body, log: l.log, path: req.URL.Path, secret: secretPathRE.MatchString(req.URL.Path)}
		}
		return resp, nil
	}
	body, rerr := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	resp.Body = io.NopCloser(io.MultiReader(bytes.NewReader(body), errReader{rerr}))
	row.Latency = time.Since(row.Time).Round(time.Microsecond)
	switch {
	case len(body) == 0:
	case isJSON:
		var obj struct {
			Metadata struct {
				ResourceVersion string `json:"resourceVersion"`
			} `json:"metadata"`
		}
		if json.Unmarshal(body, &obj) == nil {
			row.ReturnedRV = obj.Metadata.ResourceVersion
		}
		row.ResponseBody = maskBody(req.URL.Path, body)
	default:
		row.ResponseBody = "(" + words.Count(len(body), "byte") + " of " + ct + ")"
	}
	l.log.add(row)
	return resp, nil
}

// errReader gives err once its reader before it is read (nil: EOF).
type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	return 0, io.EOF
}

// isWatch says whether req opens a watch, whose body streams for as
// long as it lasts.
func isWatch(req *http.Request) bool {
	return req.URL.Query().Get("watch") == "true" || req.URL.Query().Get("watch") == "1" || strings.Contains(req.URL.Path, "/watch/")
}

// sentResourceVersion reads the resourceVersion a write's body carries:
// an object's or a merge patch's metadata.resourceVersion, or a JSON
// Patch's test of /metadata/resourceVersion; "" for none.
func sentResourceVersion(body []byte) string {
	var v any
	if json.Unmarshal(body, &v) != nil {
		return ""
	}
	switch doc := v.(type) {
	case map[string]any:
		md, _ := doc["metadata"].(map[string]any)
		rv, _ := md["resourceVersion"].(string)
		return rv
	case []any:
		for _, op := range doc {
			o, _ := op.(map[string]any)
			if o["op"] == "test" && o["path"] == "/metadata/resourceVersion" {
				rv, _ := o["value"].(string)
				return rv
			}
		}
	}
	return ""
}

// watchTee hands a watch's stream to its reader as it is, and keeps a row
// for each event in it: the API server's JSON watch stream is one event a
// line.
type watchTee struct {
	body   io.ReadCloser
	log    *RequestLog
	path   string
	secret bool
	line   []byte
}

// watchLineMax bounds the bytes an event may take before the tee gives up
// on reading it (the watch itself goes on).
const watchLineMax = 64 << 20

func (w *watchTee) Read(p []byte) (int, error) {
	n, err := w.body.Read(p)
	rest := p[:n]
	for len(rest) > 0 {
		i := bytes.IndexByte(rest, '\n')
		if i < 0 {
			if len(w.line)+len(rest) <= watchLineMax {
				w.line = append(w.line, rest...)
			} else {
				w.line = w.line[:0]
			}
			break
		}
		w.line = append(w.line, rest[:i]...)
		w.event(w.line)
		w.line = w.line[:0]
		rest = rest[i+1:]
	}
	return n, err
}

func (w *watchTee) Close() error { return w.body.Close() }

// event keeps the row of one event's line.
func (w *watchTee) event(line []byte) {
	var ev struct {
		Type   string `json:"type"`
		Object struct {
			Metadata metav1.ObjectMeta `json:"metadata"`
			Message  string            `json:"message"`
		} `json:"object"`
	}
	if json.Unmarshal(line, &ev) != nil || ev.Type == "" || ev.Type == "BOOKMARK" {
		return
	}
	md := ev.Object.Metadata
	row := RequestRow{Time: time.Now(), Method: "WATCH", Path: w.path, Event: ev.Type, Status: http.StatusOK, ReturnedRV: md.ResourceVersion}
	if md.Name != "" && !strings.HasSuffix(w.path, "/"+md.Name) {
		row.Path = w.path + "/" + md.Name
	}
	if ev.Type == "ERROR" {
		row.Err = ev.Object.Message
		if w.secret {
			row.Err = "(a Secret's watch error, not shown)"
		}
	}
	if len(md.ManagedFields) > 0 {
		u := &unstructured.Unstructured{Object: map[string]any{}}
		u.SetManagedFields(md.ManagedFields)
		row.Manager = model.Writer(u, nil).Manager
	}
	w.log.add(row)
}

// APIPath is the target's path on the API server, as a request on it
// names it: /api/v1/namespaces/ns/configmaps/app, with /status or /scale
// for a subresource.
func (t *Target) APIPath() string {
	r := t.Mapping.Resource
	p := "/apis/" + r.Group + "/" + r.Version
	if r.Group == "" {
		p = "/api/" + r.Version
	}
	if t.Namespaced() {
		p += "/namespaces/" + t.Namespace
	}
	p += "/" + r.Resource + "/" + t.Name
	if t.Subresource != "" {
		p += "/" + string(t.Subresource)
	}
	return p
}
