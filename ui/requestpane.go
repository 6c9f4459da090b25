package ui

import (
	"bytes"
	"encoding/json"
	"net/url"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/kube"
	"github.com/kedit/kedit/model"
	"github.com/kedit/kedit/ui/requests"
)

// The request pane (ui/requests) is over every view, as the help page is:
// L opens it (alt+l in the in-app editor, where L is typed), and while it
// shows it takes the keys. It is drawn from the request log's rows, read
// when it opens and when the log changes while it shows; closed, it costs
// nothing: no row is read, nothing drawn, and the log's change is not
// waited on.

// requestsChangedMsg says that the request log kept a row, or changed
// one, since the pane's opening gen read it.
type requestsChangedMsg struct{ gen int }

// opensRequests says whether k opens the request pane over the active
// view: L, unless the view takes it as text (the browser's filter or
// prompt; the in-app editor, where alt+l opens it).
func (m App) opensRequests(k tea.KeyMsg) bool {
	switch {
	case m.screen == screenEditor:
		return key.Matches(k, m.keys.Requests.OpenInEditor)
	case m.screen == screenBrowser && m.browser.InputActive():
		return false
	}
	return key.Matches(k, m.keys.Requests.Open)
}

// openRequests shows the pane on the log's rows, the newest selected.
func (m App) openRequests() (App, tea.Cmd) {
	m.requestsOpen = true
	m.requestsGen++
	m.requests.SetRows(requestRows(m.cfg.Requests))
	m.requests.Reset()
	return m, waitRequestsCmd(m.cfg.Requests, m.requestsGen)
}

// waitRequestsCmd waits until the log changes, for the pane's opening
// gen; nil without a log.
func waitRequestsCmd(log *kube.RequestLog, gen int) tea.Cmd {
	if log == nil {
		return nil
	}
	changed := log.Changed()
	return func() tea.Msg {
		<-changed
		return requestsChangedMsg{gen: gen}
	}
}

// requestsIntent acts on the pane's intents and the log's changes; false
// for any other message.
func (m App) requestsIntent(msg tea.Msg) (App, tea.Cmd, bool) {
	switch msg := msg.(type) {
	case requestsChangedMsg:
		if !m.requestsOpen || msg.gen != m.requestsGen {
			// Closed, or the wait of an earlier opening: the opening
			// that shows reads the log, and waits, itself.
			return m, nil, true
		}
		m.requests.SetRows(requestRows(m.cfg.Requests))
		return m, waitRequestsCmd(m.cfg.Requests, m.requestsGen), true
	case requests.ShowRequestMsg:
		if d, ok := requestDetail(m.cfg.Requests, msg.Seq); ok {
			m.requests.ShowDetail(d)
		}
		return m, nil, true
	case requests.CloseMsg:
		m.requestsOpen = false
		return m, nil, true
	}
	return m, nil, false
}

// theirsReadCmd tells the request log, when ev was a save's conflict (or
// theirs read after one) and sess now rebases, the version of theirs it
// rebases onto: the version the server held, which the 409's row then
// says. Nothing is said of a version kedit did not take as theirs.
func (m App) theirsReadCmd(target *kube.Target, sess *model.Session, ev model.Event) tea.Cmd {
	log := m.cfg.Requests
	switch ev := ev.(type) {
	case model.SaveFailed:
		if model.KindOf(ev.Err) != model.ErrorConflict {
			return nil
		}
	case model.Conflicted:
	default:
		return nil
	}
	if log == nil || target == nil {
		return nil
	}
	var rv string
	switch r := sess.Rebase(); {
	case r != nil:
		rv = r.Theirs.ResourceVersion
	case sess.State() == model.StateSaving:
		// A rebase resubmitted at once (a hot object's status,
		// --auto-rebase): base is theirs now.
		rv = sess.Base().ResourceVersion
	}
	if rv == "" {
		return nil
	}
	path := target.APIPath()
	// --debug's log may get a line: a file's write, so in a command.
	return func() tea.Msg {
		log.TheirsRead(path, rv)
		return nil
	}
}

// requestRows are log's rows as the pane lists them, every server text
// escaped.
func requestRows(log *kube.RequestLog) []requests.Row {
	if log == nil {
		return nil
	}
	rows := log.Rows()
	out := make([]requests.Row, len(rows))
	for i, r := range rows {
		path, query, _ := strings.Cut(r.Path, "?")
		if q, err := url.ParseQuery(query); err == nil && q.Get("watch") != "" && r.Method != "WATCH" {
			path += " (watch)"
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
	return out
}

// requestDetail is row seq of log in full: its path and query, the
// versions, and the bodies (a Secret's values masked when the log kept
// them), JSON indented.
func requestDetail(log *kube.RequestLog, seq uint64) (requests.Detail, bool) {
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

// bodyText is a body as the pane shows it: JSON indented, escaped.
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
