package ui

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
	"k8s.io/client-go/rest"

	"github.com/kedit/kedit/kube"
	"github.com/kedit/kedit/model"
	"github.com/kedit/kedit/ui/internal/benchkeys"
)

// benchPaneApp is the app on testmap, 120x40 with colours on, its request
// log full (10,000 requests sent, 40 KiB bodies, the log keeping its
// last rows) and the request pane open.
func benchPaneApp(b *testing.B) (App, *kube.RequestLog, http.RoundTripper) {
	b.Helper()
	lipgloss.SetColorProfile(termenv.TrueColor)
	b.Cleanup(func() { lipgloss.SetColorProfile(termenv.Ascii) })
	log := kube.NewRequestLog(nil)
	rt := kube.LogRequests(&rest.Config{}, log).WrapTransport(fakeAPI{})
	body := `{"metadata":{"resourceVersion":"202"},"data":{"foo":"` + strings.Repeat("x", 40<<10) + `"}}`
	for i := range 10_000 {
		method := http.MethodGet
		if i%3 == 0 {
			method = http.MethodPut
		}
		req, err := http.NewRequest(method, fmt.Sprintf("http://server/api/v1/namespaces/default/configmaps/testmap%d", i%50), strings.NewReader(body))
		if err != nil {
			b.Fatal(err)
		}
		if resp, err := rt.RoundTrip(req); err == nil {
			_ = resp.Body.Close()
		}
	}
	sess := model.NewSession(ref)
	if _, _, err := sess.Handle(model.Opened{Object: configMap("812", map[string]any{"foo": "1"}, "kubectl-create", 0), At: t0}); err != nil {
		b.Fatal(err)
	}
	var m tea.Model = New(Config{Session: sess, Runner: &fakeRunner{}, Requests: log})
	m, _ = m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	m, _ = m.Update(keyMsg("L"))
	if !m.(App).requestsOpen {
		b.Fatal("L did not open the pane")
	}
	return m.(App), log, rt
}

// BenchmarkRequestPaneKeystroke is one keystroke with the request pane
// open over a full log: App.Update and App.View ("move": j and k in
// turn), and the pane taking a new row of the log (a request sent while
// it shows: requestsChangedMsg, the rows read and drawn).
func BenchmarkRequestPaneKeystroke(b *testing.B) {
	b.Run("move", func(b *testing.B) {
		m, _, _ := benchPaneApp(b)
		keys := []tea.KeyMsg{keyMsg("k"), keyMsg("j")}
		b.ReportAllocs()
		d := make([]time.Duration, 0, b.N)
		b.ResetTimer()
		for i := range b.N {
			t0 := time.Now()
			next, _ := m.Update(keys[i%2])
			m = next.(App)
			_ = m.View()
			d = append(d, time.Since(t0))
		}
		b.StopTimer()
		benchkeys.ReportLatency(b, d)
	})
	b.Run("new_row", func(b *testing.B) {
		m, _, rt := benchPaneApp(b)
		b.ReportAllocs()
		d := make([]time.Duration, 0, b.N)
		b.ResetTimer()
		for range b.N {
			b.StopTimer()
			req, _ := http.NewRequest(http.MethodGet, "http://server/api/v1/namespaces/default/configmaps/testmap", nil)
			if resp, err := rt.RoundTrip(req); err == nil {
				_ = resp.Body.Close()
			}
			b.StartTimer()
			t0 := time.Now()
			next, _ := m.Update(requestsChangedMsg{gen: m.requestsGen})
			m = next.(App)
			_ = m.View()
			d = append(d, time.Since(t0))
		}
		b.StopTimer()
		benchkeys.ReportLatency(b, d)
	})
}
