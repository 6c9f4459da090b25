// Package wire is what went over the wire, as the app's views draw it:
// kube's request log as the request pane's rows and a request's bodies,
// and the writes of the demo's object as the tour's line says them (a dry
// run, which writes nothing, is none). Only
// the app uses it; it reads kube's log and hands the views their values.
package wire

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/url"
	"sort"
	"strings"

	"github.com/kedit/kedit/internal/demo"
	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/kube"
	"github.com/kedit/kedit/ui/requests"
	"github.com/kedit/kedit/ui/tour"
)

// Rows are log's rows as the request pane lists them, every server text
// escaped.
func Rows(log *kube.RequestLog) []requests.Row {
	if log == nil {
		return nil
	}
	rows := log.Rows()
	out := make([]requests.Row, len(rows))
	for i, r := range rows {
		path, query, _ := strings.Cut(r.Path, "?")
		if q, err := url.ParseQuery(query); err == nil && q.Get("watch") != "" && r.Method != "WATCH" {
			path += " (watch)"
		} else if err == nil && q.Get("dryRun") != "" {
			// The server's check of a draft (as it is typed, or back
			// from $EDITOR, or p): nothing was written.
			path += " (dry run)"
		}
		row := requests.Row{Seq: r.Seq, Time: r.Time, Method: escape.String(r.Method), Path: escape.Safe(path),
			SentRV: escape.Safe(r.SentRV), ReturnedRV: escape.Safe(r.ReturnedRV), Status: escape.Safe(r.StatusText()),
			Failed: r.Method != "WATCH" && (r.Status == 0 || r.Status >= 400) || r.Event == "ERROR", Latency: r.Latency}
		if r.Method == "WATCH" {
			// The event's type, version and writer are its line.
			row.Status, row.ReturnedRV = "", ""
		}
		row.Said, row.By = escape.Safe(r.Said()), escape.Safe(r.By)
		out[i] = row
	}
	// In the order they were sent (a watch event when it came), which is
	// the time the rows show: the log keeps them as their answers come,
	// and a PUT's answer can come after the watch event its write made.
	sort.SliceStable(out, func(i, j int) bool { return out[i].Time.Before(out[j].Time) })
	return out
}

// Detail is row seq of log in full: its path and query, the
// versions, and the bodies (a Secret's values masked when the log kept
// them), JSON indented.
func Detail(log *kube.RequestLog, seq uint64) (requests.Detail, bool) {
	if log == nil {
		return requests.Detail{}, false
	}
	for _, r := range log.Rows() {
		if r.Seq != seq {
			continue
		}
		d := requests.Detail{Seq: seq, Title: escape.Textf("%s %s: %s", r.Method, r.Path, r.StatusText())}
		at := escape.Textf("at %s", r.Time.Format("15:04:05.000"))
		if r.Method != "WATCH" {
			at += escape.Textf(", answered in %s", r.Latency.String())
		}
		if r.By != "" {
			at = escape.Textf("sent by %s, %s", r.By, at)
		}
		d.Lines = append(d.Lines, at)
		if r.Method != "WATCH" {
			sent := r.SentRV
			if sent == "" {
				sent = "none"
			}
			back := r.ReturnedRV
			if back == "" {
				back = "none"
			}
			d.Lines = append(d.Lines, escape.Textf("rv sent: %s; rv returned: %s", sent, back))
		}
		if said := r.Said(); said != "" {
			d.Lines = append(d.Lines, escape.Safe(said))
		}
		d.ContentType = escape.Safe(r.ContentType)
		if r.BodiesDropped {
			d.Lines = append(d.Lines, escape.Textf("the bodies were let go for newer requests' (the log keeps %d MiB of them)", kube.RequestLogBodiesSize>>20))
		}
		d.Request, d.Answer = bodyText(r.RequestBody), bodyText(r.ResponseBody)
		return d, true
	}
	return requests.Detail{}, false
}

// bodyText is a body as the request pane shows it: JSON indented, escaped.
func bodyText(body string) escape.Text {
	if body == "" {
		return ""
	}
	var b bytes.Buffer
	if json.Indent(&b, []byte(body), "", "  ") == nil {
		body = b.String()
	}
	// JSON has escapes of its own: backslashes stay as they are.
	return escape.SafeYAML(body)
}

// TourRequests are the writes of target's object the log holds (reads
// and other objects' requests, such as an access review, left out), and
// the watch's events of versions the demo's kubectl edit wrote, which
// kedit's log holds no request of. Each is named by who sent it: the
// demo writer's are marked so in the log, the rest are kedit's.
func TourRequests(log *kube.RequestLog, target *kube.Target) []tour.Request {
	if log == nil || target == nil {
		return nil
	}
	path := target.APIPath()
	var out []tour.Request
	for _, r := range log.Rows() {
		if read := tourRead(r); read != "" {
			p, _, _ := strings.Cut(r.Path, "?")
			out = append(out, tour.Request{Seq: r.Seq, Who: "kedit", Method: escape.Safe(r.Method), Path: escape.Safe(p), Status: escape.Safe(r.StatusText()), Read: read})
			continue
		}
		switch r.Method {
		case http.MethodPut, http.MethodPatch, http.MethodPost:
		case "WATCH":
			if r.Manager != demo.EditorManager || r.Event != "MODIFIED" {
				continue
			}
		default:
			continue
		}
		u, err := url.Parse(r.Path)
		if err != nil || u.Path != path || u.Query().Get("dryRun") != "" {
			// A dry run (the server's check of a draft) writes nothing.
			continue
		}
		who := "kedit"
		switch {
		case r.By != "":
			who = r.By
		case r.Method == "WATCH":
			who = r.Manager
		}
		out = append(out, tour.Request{Seq: r.Seq, Who: escape.Safe(who), Method: escape.Safe(r.Method),
			SentRV: escape.Safe(r.SentRV), ServerRV: escape.Safe(r.ServerRV), ReturnedRV: escape.Safe(r.ReturnedRV),
			Status: escape.Safe(r.StatusText()), Conflict: r.Status == http.StatusConflict, Sent: r.Time, Latency: r.Latency})
	}
	return out
}

// tourRead is why kedit read what r asked for the object: its schema (the
// OpenAPI documents), or whether the user may save it (an access review);
// "" for any other request.
func tourRead(r kube.RequestRow) tour.Read {
	switch {
	case r.By != "":
	case r.Method == http.MethodGet && strings.HasPrefix(r.Path, "/openapi/"):
		return tour.ReadSchema
	case r.Method == http.MethodPost && strings.Contains(r.Path, "/selfsubjectaccessreviews"):
		return tour.ReadAccess
	}
	return ""
}
