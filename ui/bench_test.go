package ui

import (
	"io"
	"os"
	"sync"
	"syscall"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/kedit/kedit/internal/fixture"
	"github.com/kedit/kedit/model"
	"github.com/kedit/kedit/ui/editor"
	"github.com/kedit/kedit/ui/internal/benchkeys"
	"github.com/kedit/kedit/ui/pasteinput"
	"github.com/kedit/kedit/ui/textedit"
)

// The whole app's share of a keystroke in the in-app editor:
// App.Update and App.View, with the editor open on documents of every
// size, beside textedit's own figures (ui/textedit/bench_test.go); what
// keeping the typing costs; and a paste of a mebibyte from the terminal to
// the screen.

// benchApp opens testmap holding a config of size bytes, 120x40, with
// colours on, and the in-app editor open at the config's middle line,
// the server's checks on.
func benchApp(b *testing.B, size int) App {
	b.Helper()
	lipgloss.SetColorProfile(termenv.TrueColor)
	b.Cleanup(func() { lipgloss.SetColorProfile(termenv.Ascii) })
	sess := model.NewSession(ref)
	obj := configMap("812", map[string]any{"config.yaml": fixture.BenchConfig(size)}, "kubectl-create", 0)
	if _, _, err := sess.Handle(model.Opened{Object: obj, At: t0}); err != nil {
		b.Fatal(err)
	}
	// The server's checks as you type are on, as they are against a
	// server (their requests run off the UI's goroutine, once typing
	// pauses: not in a keystroke).
	r := &fakeRunner{server: obj}
	var m tea.Model = New(Config{Object: &Object{Session: sess, Runner: r, ServerCheck: r.ServerCheck}})
	m, _ = m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	m, _ = m.Update(keyMsg("i"))
	app := m.(App)
	app.editor.SetCursor(textedit.Pos{Line: app.editor.Lines() / 2, Col: 4})
	return app
}

// BenchmarkAppKeystroke is one keystroke in the app: App.Update and
// App.View, with the editor open at the middle of the document. The
// commands a keystroke returns (the pause's tick) are not run: what they
// lead to, once a pause, is BenchmarkAppKeep.
func BenchmarkAppKeystroke(b *testing.B) {
	for _, s := range fixture.BenchSizes {
		b.Run(s.Name, func(b *testing.B) {
			benchTyping(b, benchApp(b, s.Size))
		})
	}
}

// benchTyping times keystrokes typed into m, App.Update and App.View, one
// for each of b.N, and reports their latency.
func benchTyping(b *testing.B, m App) {
	b.ReportAllocs()
	d := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := range b.N {
		t0 := time.Now()
		next, _ := m.Update(benchkeys.Typing(i))
		m = next.(App)
		_ = m.View()
		d = append(d, time.Since(t0))
	}
	b.StopTimer()
	benchkeys.ReportLatency(b, d)
}

// BenchmarkAppKeep is what keeping the typing costs once typing pauses:
// "check" the background command (ParseDraft of the whole text and the
// causes' lines), off the UI's goroutine; "update" the app taking its
// result (DraftEdited with the parse to the session, the notes), on it;
// "text" the join of the lines when the pause is over, on it too.
func BenchmarkAppKeep(b *testing.B) {
	for _, s := range fixture.BenchSizes {
		m := benchApp(b, s.Size)
		next, _ := m.Update(benchkeys.Typing(0))
		m = next.(App)
		text := m.editor.Text()
		b.Run("text/"+s.Name, func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				_ = m.editor.Text()
			}
		})
		b.Run("check/"+s.Name, func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				_ = editor.Check(m.editor.Opening(), model.FormatYAML, m.editor.Version(), text, nil)
			}
		})
		b.Run("update/"+s.Name, func(b *testing.B) {
			b.ReportAllocs()
			var d []time.Duration
			for range b.N {
				b.StopTimer()
				app := m
				app.editor.SetKept(0)
				msg := editor.CheckedMsg{Opening: app.editor.Opening(), Version: app.editor.Version(), Text: text, Parsed: model.FormatYAML.ParseDraft(text)}
				b.StartTimer()
				t0 := time.Now()
				next, _ := app.Update(msg)
				_ = next.(App).View()
				d = append(d, time.Since(t0))
			}
			benchkeys.ReportLatency(b, d)
		})
	}
}

// BenchmarkAppPaste1MiB pastes a mebibyte into the in-app editor from the
// terminal (a pipe), through tea.NewProgram as kedit runs it: Bubble Tea's
// reader, then App.Update and App.View for every message, with kedit's
// paste filter and without it.
func BenchmarkAppPaste1MiB(b *testing.B) {
	paste := fixture.BenchConfig(1 << 20)
	for _, bc := range []struct {
		name string
		wrap func(*os.File) io.Reader
	}{
		{"filter", func(f *os.File) io.Reader { return pasteinput.New(f) }},
		{"bubbletea", func(f *os.File) io.Reader { return f }},
	} {
		b.Run(bc.name, func(b *testing.B) {
			var cpu time.Duration
			for range b.N {
				b.StopTimer()
				m := benchApp(b, 1<<10)
				pr, pw, err := os.Pipe()
				if err != nil {
					b.Fatal(err)
				}
				want := m.editor.Len() + len(paste)
				p := tea.NewProgram(untilLen{m, want}, tea.WithInput(bc.wrap(pr)), tea.WithOutput(io.Discard), tea.WithoutSignalHandler())
				b.StartTimer()
				cpu0 := cpuTime()
				var wg sync.WaitGroup
				wg.Go(func() { pw.WriteString("\x1b[200~" + paste + "\x1b[201~") })
				final, err := p.Run()
				b.StopTimer()
				cpu += cpuTime() - cpu0
				wg.Wait()
				pr.Close()
				pw.Close()
				if err != nil {
					b.Fatal(err)
				}
				if got := final.(untilLen).App.editor.Len(); got != want {
					b.Fatalf("%d bytes in the editor, want %d", got, want)
				}
			}
			b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
		})
	}
}

// cpuTime is the CPU time this process has used, user and system: on a
// machine others share, the wall time of a benchmark measures their load
// too.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// untilLen is the app, ended once its editor holds n bytes.
type untilLen struct {
	App
	n int
}

func (u untilLen) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	next, cmd := u.App.Update(msg)
	u.App = next.(App)
	if u.App.editor.Len() >= u.n {
		return u, tea.Quit
	}
	return u, cmd
}
