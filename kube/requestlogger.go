package kube

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/rest"

	"github.com/kedit/kedit/internal/words"
	"github.com/kedit/kedit/model"
)

// The request log's round-tripper: each request and its answer a row of
// the RequestLog (requestlog.go), each event of a JSON watch one too.

// LogRequests makes every request sent with c kept in log, with its
// answer, and every event of a watch made with c (in JSON) a row of its
// own. Headers, where credentials are, are never kept. kedit --debug
// writes the log's lines, the request pane shows its rows, and the
// benchmarks count start-up and idle requests from it.
func LogRequests(c *rest.Config, log *RequestLog) *rest.Config {
	c.Wrap(func(rt http.RoundTripper) http.RoundTripper { return &requestLogger{next: rt, log: log} })
	return c
}

// requesterKey is the context key of WithRequester.
type requesterKey struct{}

// WithRequester marks the requests sent with ctx as by's in the request
// log (RequestRow.By): a part of kedit that writes as another client, as
// kedit demo's writer does through kedit's own client.
func WithRequester(ctx context.Context, by string) context.Context {
	return context.WithValue(ctx, requesterKey{}, by)
}

type requestLogger struct {
	next http.RoundTripper
	log  *RequestLog
}

func (l *requestLogger) RoundTrip(req *http.Request) (*http.Response, error) {
	row := RequestRow{Time: time.Now(), Method: req.Method, Path: req.URL.RequestURI(), ContentType: req.Header.Get("Content-Type")}
	row.By, _ = req.Context().Value(requesterKey{}).(string)
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
	// writers are each object's managedFields entries (their fields
	// left out) at its last event in this stream, keyed by namespace and
	// name: an event's writer is the entry that moved since
	// (model.WriterSince), which managedFields alone cannot tell when two
	// writers wrote within the same second.
	writers map[string][]metav1.ManagedFieldsEntry
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
		row.Manager = w.writer(md.Namespace+"/"+md.Name, md.ManagedFields, ev.Type == "DELETED")
	}
	w.log.add(row)
}

// writer is the field manager that wrote the version of object key whose
// managedFields are mfs: since its last event in this stream when there
// was one (model.WriterSince), else as its managedFields tell
// (model.Writer); "" when they cannot tell. A deletion forgets the object.
func (w *watchTee) writer(key string, mfs []metav1.ManagedFieldsEntry, deleted bool) string {
	cur := &unstructured.Unstructured{Object: map[string]any{}}
	cur.SetManagedFields(mfs)
	var prev *unstructured.Unstructured
	if before, ok := w.writers[key]; ok {
		prev = &unstructured.Unstructured{Object: map[string]any{}}
		prev.SetManagedFields(before)
	}
	manager := model.WriterSince(prev, cur, nil).Manager
	if deleted {
		delete(w.writers, key)
		return manager
	}
	kept := make([]metav1.ManagedFieldsEntry, len(mfs))
	for i, e := range mfs {
		e.FieldsV1 = nil
		kept[i] = e
	}
	if w.writers == nil {
		w.writers = map[string][]metav1.ManagedFieldsEntry{}
	}
	w.writers[key] = kept
	return manager
}
