package kube

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
	"sync"

	"k8s.io/client-go/rest"

	"github.com/kedit/kedit/diff"
	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/internal/words"
)

// WriteRecord keeps the write requests kedit sent (--output-patch): each
// save's update, patch or server-side apply, and the requests that go with
// one (the move of kedit's fields to its apply manager), as they went
// out, with the answer's status. A Secret's values are masked
// (diff.MaskSecretValues) before a body is kept: no value ever reaches
// the record. Dry runs (the preview) and access reviews write nothing
// and are left out. It is safe for concurrent use.
type WriteRecord struct {
	// Log, when set, also gets each request as it is recorded (--debug's
	// log).
	Log func(WriteRequest)

	mu   sync.Mutex
	reqs []WriteRequest
}

// WriteRequest is one write request as it was sent.
type WriteRequest struct {
	// Method is PUT, PATCH or POST.
	Method string
	// Path is the request's path and query, e.g.
	// /api/v1/namespaces/ns/configmaps/app?fieldManager=kedit.
	Path string
	// ContentType names the body's kind: a merge patch, an apply ...
	ContentType string
	// Body is the request's body, a Secret's values masked.
	Body string
	// Status is the answer's status code, 0 when none came (the error
	// is in Err).
	Status int
	Err    string
}

// RecordWrites makes every write request sent with c kept in rec.
func RecordWrites(c *rest.Config, rec *WriteRecord) *rest.Config {
	c.Wrap(func(rt http.RoundTripper) http.RoundTripper { return &writeRecorder{next: rt, rec: rec} })
	return c
}

type writeRecorder struct {
	next http.RoundTripper
	rec  *WriteRecord
}

func (w *writeRecorder) RoundTrip(req *http.Request) (*http.Response, error) {
	if !isSave(req) {
		return w.next.RoundTrip(req)
	}
	body, err := requestBody(req)
	if err != nil {
		return nil, err
	}
	r := WriteRequest{Method: req.Method, Path: req.URL.RequestURI(), ContentType: req.Header.Get("Content-Type"),
		Body: maskBody(req.URL.Path, body)}
	resp, err := w.next.RoundTrip(req)
	if err != nil {
		r.Err = err.Error()
	} else {
		r.Status = resp.StatusCode
	}
	w.rec.mu.Lock()
	w.rec.reqs = append(w.rec.reqs, r)
	w.rec.mu.Unlock()
	if w.rec.Log != nil {
		w.rec.Log(r)
	}
	return resp, err
}

// isSave says whether req writes: a PUT, PATCH or POST that is not a dry
// run, nor a question about access (which creates a review object).
func isSave(req *http.Request) bool {
	switch req.Method {
	case http.MethodPut, http.MethodPatch, http.MethodPost:
	default:
		return false
	}
	if req.URL.Query().Has("dryRun") {
		return false
	}
	return !strings.Contains(req.URL.Path, "/apis/authorization.k8s.io/")
}

// requestBody reads req's body without taking it from the request.
func requestBody(req *http.Request) ([]byte, error) {
	if req.Body == nil || req.Body == http.NoBody {
		return nil, nil
	}
	if req.GetBody != nil {
		rc, err := req.GetBody()
		if err != nil {
			return nil, err
		}
		defer rc.Close()
		return io.ReadAll(rc)
	}
	b, err := io.ReadAll(req.Body)
	req.Body.Close()
	if err != nil {
		return nil, err
	}
	req.Body = io.NopCloser(bytes.NewReader(b))
	return b, nil
}

// secretPathRE is the path of a Secret, or of the Secrets of a namespace.
var secretPathRE = regexp.MustCompile(`^/api/v1/(namespaces/[^/]+/)?secrets(/|$)`)

// maskBody is body as the record keeps it: a Secret's values masked in an
// object, a merge patch or a JSON patch; a body about a Secret that cannot
// be read as JSON is not kept at all.
func maskBody(path string, body []byte) string {
	if !secretPathRE.MatchString(path) || len(body) == 0 {
		return string(body)
	}
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		return "(" + words.Count(len(body), "byte") + " of a Secret, not shown)"
	}
	switch doc := v.(type) {
	case map[string]any:
		diff.MaskSecretValues(doc)
		// A list's items, each a Secret.
		items, _ := doc["items"].([]any)
		for _, it := range items {
			if m, ok := it.(map[string]any); ok {
				diff.MaskSecretValues(m)
			}
		}
		if doc["kind"] == "Status" {
			// An error's message may quote what was sent: its reason
			// and code say enough.
			delete(doc, "message")
			delete(doc, "details")
		}
	case []any:
		// A JSON patch: each operation's value where a value goes.
		for _, op := range doc {
			o, _ := op.(map[string]any)
			p, _ := o["path"].(string)
			val, has := o["value"]
			switch {
			case !has || val == nil:
			case p == "" || p == "/":
				if m, ok := val.(map[string]any); ok {
					diff.MaskSecretValues(m)
				}
			case p == "/data" || p == "/stringData" || strings.HasPrefix(p, "/data/") || strings.HasPrefix(p, "/stringData/") ||
				p == "/metadata/annotations/"+strings.ReplaceAll(diff.LastApplied, "/", "~1"):
				o["value"] = diff.SecretMask
			case p == "/metadata/annotations" || p == "/metadata":
				wrap := map[string]any{"metadata": val}
				if p == "/metadata/annotations" {
					wrap = map[string]any{"metadata": map[string]any{"annotations": val}}
				}
				diff.MaskSecretValues(wrap)
			}
		}
	default:
		return "(" + words.Count(len(body), "byte") + " of a Secret, not shown)"
	}
	out, err := json.Marshal(v)
	if err != nil {
		return "(" + words.Count(len(body), "byte") + " of a Secret, not shown)"
	}
	return string(out)
}

// Requests returns the write requests recorded so far, oldest first.
func (r *WriteRecord) Requests() []WriteRequest {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]WriteRequest(nil), r.reqs...)
}

// String renders the request as --output-patch prints it: the method and
// path, the body's content type and the body, and the answer, each on a
// line of its own, with control characters escaped.
func (q WriteRequest) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s\n", q.Method, escape.String(q.Path))
	if q.ContentType != "" {
		fmt.Fprintf(&b, "Content-Type: %s\n", escape.String(q.ContentType))
	}
	if q.Body != "" {
		// JSON has escapes of its own: backslashes stay as they are.
		b.WriteString(escape.Source(q.Body, nil) + "\n")
	}
	if q.Err != "" {
		fmt.Fprintf(&b, "-> no answer: %s\n", escape.String(q.Err))
	} else {
		fmt.Fprintf(&b, "-> %d %s\n", q.Status, http.StatusText(q.Status))
	}
	return b.String()
}

// WriteTo writes every recorded request to w, a blank line between two,
// or says that none was sent.
func (r *WriteRecord) WriteTo(w io.Writer) (int64, error) {
	reqs := r.Requests()
	var b strings.Builder
	if len(reqs) == 0 {
		b.WriteString("kedit: --output-patch: no write request was sent\n")
	}
	for i, q := range reqs {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString(q.String())
	}
	n, err := io.WriteString(w, b.String())
	return int64(n), err
}
