package kube

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/internal/words"
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
	// By names who in kedit sent the request when it was not kedit's
	// own doing: the demo writer, which shares kedit's client
	// (WithRequester); "" for kedit.
	By string
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
	if r.By != "" {
		s += " by " + escape.String(r.By)
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
