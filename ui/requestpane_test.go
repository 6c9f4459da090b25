package ui

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"k8s.io/client-go/rest"

	"github.com/kedit/kedit/internal/demo"
	"github.com/kedit/kedit/kube"
)

// openPaneKey is the key that opens the request pane over m's view.
func openPaneKey(m App) tea.KeyMsg {
	if m.screen == screenEditor {
		return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("l"), Alt: true}
	}
	return keyMsg("L")
}

// TestRequestPaneOverEveryView: L (alt+l in the in-app editor) opens the
// pane over every view, each view's help names the key, and esc goes
// back to the view as it was; in the browser's filter L is typed.
func TestRequestPaneOverEveryView(t *testing.T) {
	for _, v := range everyView {
		if v.name == "requests" {
			continue
		}
		t.Run(v.name, func(t *testing.T) {
			m := v.build(t, 120, 40)
			open, screen := openPaneKey(m), m.screen
			listed := false
			for _, g := range m.helpSource().full {
				for _, b := range g {
					listed = listed || b.Help().Key == open.String()
				}
			}
			if !listed {
				t.Errorf("the %s's help does not name %s", m.helpSource().name, open)
			}
			m = drive(t, m, open)
			if !m.requestsOpen || !strings.Contains(plain(m), "requests kedit sent and watch events it read") || m.helpSource().name != "request pane" {
				t.Fatalf("%s did not open the pane:\n%s", open, plain(m))
			}
			m = drive(t, m, keyMsg("esc"))
			if m.requestsOpen || m.screen != screen {
				t.Errorf("esc: pane open %v, screen %v (was %v)", m.requestsOpen, m.screen, screen)
			}
		})
	}
	c := newFakeCluster(t)
	c.add("configmaps", "default", "testmap")
	m := drive(t, browserApp(t, c, c.collection("configmaps", "default", false), 120, 40), keys("/", "L")...)
	if m.requestsOpen || m.browser.Filter() != "L" {
		t.Errorf("L in the browser's filter: pane open %v, filter %q", m.requestsOpen, m.browser.Filter())
	}
}

// fakeAPI answers a PUT of testmap 409 and anything else with testmap at
// rv 204, and a path with "fail" with no answer: the log's rows come from
// the log's own round-tripper.
type fakeAPI struct{}

func (fakeAPI) RoundTrip(req *http.Request) (*http.Response, error) {
	if strings.Contains(req.URL.Path, "fail") {
		return nil, errors.New("dial tcp: connection refused \x1b[31mred")
	}
	status, body := 200, `{"kind":"ConfigMap","metadata":{"name":"testmap","resourceVersion":"204"},"data":{"foo":"theirs"}}`
	if req.Method == http.MethodPut {
		status, body = 409, `{"kind":"Status","reason":"Conflict","code":409}`
	}
	return &http.Response{StatusCode: status, Header: http.Header{"Content-Type": {"application/json"}}, Body: io.NopCloser(strings.NewReader(body)), Request: req}, nil
}

// send sends one request through rt.
func send(t *testing.T, rt http.RoundTripper, method, path, body string) {
	t.Helper()
	req, err := http.NewRequest(method, "http://server"+path, bytes.NewReader([]byte(body)))
	if err != nil {
		t.Fatal(err)
	}
	if resp, err := rt.RoundTrip(req); err == nil {
		_ = resp.Body.Close()
	}
}

// TestRequestPaneShowsTheLog: the pane lists the request log's rows, the
// 409 with both versions once theirs was read; a request sent while it
// shows is listed; enter shows the PUT's body as sent and the answer's;
// an error's control characters are escaped; closed, the pane waits on
// nothing.
func TestRequestPaneShowsTheLog(t *testing.T) {
	log := kube.NewRequestLog(nil)
	rt := kube.LogRequests(&rest.Config{}, log).WrapTransport(fakeAPI{})
	const path = "/api/v1/namespaces/default/configmaps/testmap"
	send(t, rt, http.MethodGet, path, "")
	send(t, rt, http.MethodPut, path, `{"metadata":{"name":"testmap","resourceVersion":"202"},"data":{"foo":"mine"}}`)
	log.TheirsRead(path, "204")

	d := newDriver(t, newApp(t, 160, 30, &fakeRunner{}, func(c *Config) { c.Requests = log }))
	d.send(keyMsg("L"))
	m := d.m
	out := plain(m)
	for _, want := range []string{"2 rows, newest last", "409 Conflict", "the server holds rv 204; this write was based on 202"} {
		if !strings.Contains(out, want) {
			t.Errorf("the pane lacks %q:\n%s", want, out)
		}
	}
	send(t, rt, http.MethodGet, "/api/v1/namespaces/default/configmaps/fail", "")
	m = d.until(func(m App) bool { return strings.Contains(plain(m), "3 rows") })
	if out := plain(m); !strings.Contains(out, `no answer: dial tcp: connection refused \x1b[31mred`) {
		t.Errorf("the row of no answer, escaped:\n%s", out)
	}
	d.send(keyMsg("k"))
	d.send(tea.KeyMsg{Type: tea.KeyEnter})
	out = plain(d.m)
	for _, want := range []string{"PUT " + path + ": 409 Conflict", "rv sent: 202; rv returned: none", `"foo": "mine"`, `"reason": "Conflict"`} {
		if !strings.Contains(out, want) {
			t.Errorf("the PUT's bodies lack %q:\n%s", want, out)
		}
	}
	d.send(keyMsg("esc"))
	d.send(keyMsg("esc"))
	if d.m.requestsOpen {
		t.Fatal("esc, esc did not close the pane")
	}
	// Opened and closed again, and opened: the waits of the earlier
	// openings end with the next row and start no other; the one that
	// shows waits on.
	d.send(keyMsg("L"))
	d.send(keyMsg("esc"))
	d.send(keyMsg("L"))
	send(t, rt, http.MethodGet, path, "")
	d.until(func(m App) bool { return strings.Contains(plain(m), "4 rows") })
	for d.running > 1 {
		d.step()
	}
	d.send(keyMsg("esc"))
	// The wait still running ends with the next row, and starts no other.
	send(t, rt, http.MethodGet, path, "")
	d.settle()
	if d.running != 0 || strings.Contains(plain(d.m), "requests kedit sent") {
		t.Errorf("closed, the pane still waits (%d running) or shows", d.running)
	}
}

// TestRequestPaneMarksTheDemoWriter: a request sent through kedit's
// client with the demo writer's mark is listed by demo-writer, in its
// row and its detail; kedit's own are not marked.
func TestRequestPaneMarksTheDemoWriter(t *testing.T) {
	log := kube.NewRequestLog(nil)
	rt := kube.LogRequests(&rest.Config{}, log).WrapTransport(fakeAPI{})
	const path = "/api/v1/namespaces/default/configmaps/testmap"
	req, err := http.NewRequestWithContext(kube.WithRequester(context.Background(), demo.WriterManager), http.MethodGet, "http://server"+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp, err := rt.RoundTrip(req); err == nil {
		_ = resp.Body.Close()
	}
	send(t, rt, http.MethodGet, path, "")
	d := newDriver(t, newApp(t, 160, 30, &fakeRunner{}, func(c *Config) { c.Requests = log }))
	d.send(keyMsg("L"))
	var marked []bool
	for _, l := range strings.Split(plain(d.m), "\n") {
		if strings.HasPrefix(l, "─") {
			break // the strip, under the rows
		}
		if strings.Contains(l, "GET ") && strings.Contains(l, "testmap") {
			marked = append(marked, strings.Contains(l, "by demo-writer"))
		}
	}
	if len(marked) != 2 || !marked[0] || marked[1] {
		t.Errorf("rows marked by demo-writer: %v, want [true false]:\n%s", marked, plain(d.m))
	}
	d.send(keyMsg("k"))
	d.send(tea.KeyMsg{Type: tea.KeyEnter})
	if out := plain(d.m); !strings.Contains(out, "sent by demo-writer, at ") {
		t.Errorf("the detail does not say who sent it:\n%s", out)
	}
}
