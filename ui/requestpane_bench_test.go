package ui

import (
	"fmt"
	"net/http"
	"runtime"
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
	"github.com/kedit/kedit/ui/internal/effect"
)

// benchPaneApp is the app on testmap, 120x40 with colours on, its request
// log full (10,000 requests sent, 40 KiB bodies, the log keeping its
// last rows) and the request pane open.
func benchPaneApp(b *testing.B) (App, *kube.RequestLog, http.RoundTripper) {
	b.Helper()
	log, rt := benchPaneLog(b)
	return benchPaneOpen(b, log), log, rt
}

// benchPaneLog is a request log full after 10,000 requests of 40 KiB
// bodies, and the round-tripper that fills it.
func benchPaneLog(b *testing.B) (*kube.RequestLog, http.RoundTripper) {
	b.Helper()
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
	return log, rt
}

// benchPaneOpen is the app on testmap over log, 120x40 with colours on,
// the request pane open.
func benchPaneOpen(b *testing.B, log *kube.RequestLog) App {
	b.Helper()
	lipgloss.SetColorProfile(termenv.TrueColor)
	b.Cleanup(func() { lipgloss.SetColorProfile(termenv.Ascii) })
	sess := model.NewSession(ref)
	if _, _, err := sess.Handle(model.Opened{Object: configMap("812", map[string]any{"foo": "1"}, "kubectl-create", 0), At: t0}); err != nil {
		b.Fatal(err)
	}
	var m tea.Model = New(Config{Object: &Object{Session: sess, Runner: &fakeRunner{}}, Requests: log})
	m, _ = m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	m, _ = m.Update(keyMsg("L"))
	if !m.(App).requestsOpen {
		b.Fatal("L did not open the pane")
	}
	return m.(App)
}

// BenchmarkRequestPaneKeystroke is one keystroke with the request pane
// open over a full log: App.Update and App.View ("move": j and k in
// turn), and the pane taking a new row of the log (a request sent while
// it shows: effect.RequestsChanged, the rows read and drawn).
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
			next, _ := m.Update(effect.RequestsChanged{Gen: m.requestsGen})
			m = next.(App)
			_ = m.View()
			d = append(d, time.Since(t0))
		}
		b.StopTimer()
		benchkeys.ReportLatency(b, d)
	})
}

// BenchmarkRequestPaneHeld measures the heap the request pane holds open
// over a full log: the app on testmap with the pane open after 10,000
// requests of 40 KiB bodies, less the heap before, the log's included
// (B-held), and less the heap with the log alone (B-pane: the app, the
// pane's rows and its lines), after a GC each.
func BenchmarkRequestPaneHeld(b *testing.B) {
	var held, pane float64
	for range b.N {
		runtime.GC()
		var before, logged, open runtime.MemStats
		runtime.ReadMemStats(&before)
		log, _ := benchPaneLog(b)
		runtime.GC()
		runtime.ReadMemStats(&logged)
		m := benchPaneOpen(b, log)
		_ = m.View()
		runtime.GC()
		runtime.ReadMemStats(&open)
		held = float64(open.HeapAlloc) - float64(before.HeapAlloc)
		pane = float64(open.HeapAlloc) - float64(logged.HeapAlloc)
		runtime.KeepAlive(m)
		runtime.KeepAlive(log)
	}
	b.ReportMetric(held, "B-held")
	b.ReportMetric(pane, "B-pane")
	b.ReportMetric(0, "ns/op")
}
