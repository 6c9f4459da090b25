package textedit

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/textarea"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/kedit/kedit/internal/fixture"
	"github.com/kedit/kedit/ui/internal/benchkeys"
)

// The editor's benchmarks, recorded in BENCHMARKS.md:
//
//	go test ./ui/textedit -run '^$' -bench . -benchtime 2000x -benchmem
//
// A keystroke is Update plus View at the middle of the document; each
// benchmark reports the median and p99 of its keystrokes (run with
// -benchtime Nx for N of them).

// textareaMaxLines is bubbles' textarea's cap: it keeps the first 10,000
// lines of a longer text, which textedit does not.
const textareaMaxLines = 10000

// colour renders with colours during a benchmark, as a terminal does (the
// tests draw without).
func colour(b *testing.B) {
	lipgloss.SetColorProfile(termenv.TrueColor)
	b.Cleanup(func() { lipgloss.SetColorProfile(termenv.Ascii) })
}

// BenchmarkKeystroke types at the middle of each document in the editor,
// and in bubbles' textarea (configured as ui/editorview.go does) on the
// same documents up to its cap.
func BenchmarkKeystroke(b *testing.B) {
	for _, s := range fixture.BenchSizes {
		doc := fixture.BenchConfigMap(s.Size)
		b.Run("textedit/"+s.Name, func(b *testing.B) {
			colour(b)
			m := New()
			m.Open(doc)
			m.SetSize(120, 40)
			m.SetCursor(Pos{m.Lines() / 2, 4})
			b.ReportAllocs()
			d := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for i := range b.N {
				t0 := time.Now()
				m, _ = m.Update(benchkeys.Typing(i))
				_ = m.View()
				d = append(d, time.Since(t0))
			}
			b.StopTimer()
			benchkeys.ReportLatency(b, d)
		})
	}
	for _, s := range fixture.BenchSizes {
		doc := fixture.BenchConfigMap(s.Size)
		name := s.Name
		if n := strings.Count(doc, "\n"); n >= textareaMaxLines {
			// Past the cap textarea drops lines: measure it on the part it
			// keeps, once.
			if s.Size > 1<<20 {
				continue
			}
			doc = strings.Join(strings.SplitN(doc, "\n", textareaMaxLines+1)[:textareaMaxLines], "\n")
			name = fmt.Sprintf("cap-%dlines-%dKiB", textareaMaxLines, len(doc)>>10)
		}
		b.Run("textarea/"+name, func(b *testing.B) {
			colour(b)
			ta := newTextarea(120, 40)
			ta.SetValue(doc)
			for range ta.LineCount() / 2 {
				ta.CursorUp()
			}
			b.ReportAllocs()
			d := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for i := range b.N {
				t0 := time.Now()
				ta, _ = ta.Update(benchkeys.Typing(i))
				_ = ta.View()
				d = append(d, time.Since(t0))
			}
			b.StopTimer()
			benchkeys.ReportLatency(b, d)
		})
	}
}

// BenchmarkKeystrokeFlatness types into the 1 KiB and the 3 MiB document
// in turn, one keystroke each (which goes first alternates), so that
// whatever else the machine does falls on both alike, and reports both
// medians and p99s and the ratio of the p99s: the editor's flatness goal, at most
// 1.5. Run one after the other, the two p99s measure the machine's load
// as much as the editor.
func BenchmarkKeystrokeFlatness(b *testing.B) {
	colour(b)
	open := func(size int) Model {
		m := New()
		m.Open(fixture.BenchConfigMap(size))
		m.SetSize(120, 40)
		m.SetCursor(Pos{m.Lines() / 2, 4})
		return m
	}
	small, large := open(1<<10), open(3<<20)
	ds, dl := make([]time.Duration, 0, b.N), make([]time.Duration, 0, b.N)
	key := func(m *Model, i int) time.Duration {
		t0 := time.Now()
		*m, _ = m.Update(benchkeys.Typing(i))
		_ = m.View()
		return time.Since(t0)
	}
	b.ResetTimer()
	for i := range b.N {
		if i%2 == 0 {
			ds = append(ds, key(&small, i))
			dl = append(dl, key(&large, i))
		} else {
			dl = append(dl, key(&large, i))
			ds = append(ds, key(&small, i))
		}
	}
	b.StopTimer()
	p := func(d []time.Duration, q int) float64 {
		slices.Sort(d)
		return float64(d[(len(d)*q+99)/100-1].Nanoseconds())
	}
	b.ReportMetric(p(ds, 50), "1KiB-p50-ns")
	b.ReportMetric(p(dl, 50), "3MiB-p50-ns")
	b.ReportMetric(p(ds, 99), "1KiB-p99-ns")
	b.ReportMetric(p(dl, 99), "3MiB-p99-ns")
	b.ReportMetric(p(dl, 99)/p(ds, 99), "p99-ratio")
}

// newTextarea is bubbles' textarea as ui/editorview.go sets it up.
func newTextarea(w, h int) textarea.Model {
	ta := textarea.New()
	ta.ShowLineNumbers = true
	ta.Prompt = ""
	ta.CharLimit = 0
	ta.MaxHeight = 0
	ta.Cursor.SetMode(cursor.CursorStatic)
	ta.SetWidth(w)
	ta.SetHeight(h)
	ta.Focus()
	return ta
}

// BenchmarkKeystrokeLongLine types in the middle of one line of a
// mebibyte (a certificate or minified JSON in a value): the walk along the
// line to the cursor's column is the cost no windowing avoids.
func BenchmarkKeystrokeLongLine(b *testing.B) {
	colour(b)
	doc := "data:\n  blob: " + strings.Repeat("MIIC0zCCAbOgAwIBAgIUQ", (1<<20)/21) + "\n"
	m := New()
	m.Open(doc)
	m.SetSize(120, 40)
	m.SetCursor(Pos{1, len(m.lines[1]) / 2})
	d := make([]time.Duration, 0, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		t0 := time.Now()
		m, _ = m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{rune('a' + i%26)}})
		_ = m.View()
		d = append(d, time.Since(t0))
	}
	b.StopTimer()
	benchkeys.ReportLatency(b, d)
}

// BenchmarkOpen opens the editor on each document: New, Open, SetBase
// (base and draft the same, as when the editor opens on a fresh draft),
// SetSize and the first View.
func BenchmarkOpen(b *testing.B) {
	for _, s := range fixture.BenchSizes {
		doc := fixture.BenchConfigMap(s.Size)
		b.Run("textedit/"+s.Name, func(b *testing.B) {
			colour(b)
			b.ReportAllocs()
			for range b.N {
				m := New()
				m.Open(doc)
				if cmd := m.SetBase(doc); cmd != nil {
					b.Fatal("a diff of a text against itself")
				}
				m.SetSize(120, 40)
				_ = m.View()
			}
		})
	}
	doc := fixture.BenchConfigMap(1 << 20)
	b.Run("textarea/1MiB", func(b *testing.B) {
		colour(b)
		b.ReportAllocs()
		for range b.N {
			ta := newTextarea(120, 40)
			ta.SetValue(doc)
			_ = ta.View()
		}
	})
}

// BenchmarkPaste1MiB pastes a mebibyte (a bracketed paste: one KeyMsg) into
// a small document and draws, as one step.
func BenchmarkPaste1MiB(b *testing.B) {
	colour(b)
	paste := fixture.BenchConfigMap(1 << 20)
	msg := tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(paste), Paste: true}
	b.ReportAllocs()
	for range b.N {
		m := New()
		m.Open(fixture.BenchConfigMap(1 << 10))
		m.SetSize(120, 40)
		m.SetCursor(Pos{5, 0})
		m, _ = m.Update(msg)
		_ = m.View()
		if m.Len() < 1<<20 {
			b.Fatal("the paste did not go in")
		}
	}
}

// BenchmarkPaste1MiBCut pastes a mebibyte as kedit's input filter hands
// it on: pastes of 244 bytes (one of Bubble Tea's reads less the markers),
// each through Update and View as Bubble Tea draws after every message,
// joined into one undo step.
func BenchmarkPaste1MiBCut(b *testing.B) {
	colour(b)
	paste := []rune(fixture.BenchConfigMap(1 << 20))
	var msgs []tea.KeyMsg
	for i := 0; i < len(paste); {
		// 244 bytes of this ASCII document are 244 runes.
		n := min(244, len(paste)-i)
		msgs = append(msgs, tea.KeyMsg{Type: tea.KeyRunes, Runes: paste[i : i+n], Paste: true})
		i += n
	}
	b.ReportAllocs()
	for range b.N {
		m := New()
		m.Open(fixture.BenchConfigMap(1 << 10))
		m.SetSize(120, 40)
		m.SetCursor(Pos{5, 0})
		for _, msg := range msgs {
			m, _ = m.Update(msg)
			_ = m.View()
		}
		if m.Len() < 1<<20 || len(m.undo) != 1 {
			b.Fatalf("%d bytes, %d undo steps", m.Len(), len(m.undo))
		}
	}
	b.ReportMetric(float64(len(msgs)), "pastes")
}

// BenchmarkMarks is the background diff against base that follows a pause
// in typing: 20 edits spread over the document.
func BenchmarkMarks(b *testing.B) {
	for _, s := range fixture.BenchSizes {
		base := fixture.BenchConfigMap(s.Size)
		lines := strings.SplitAfter(base, "\n")
		for i := 1; i <= 20; i++ {
			lines[i*len(lines)/22] = "    changed: line\n"
		}
		text := strings.Join(lines, "")
		b.Run(s.Name, func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				computeMarks(base, text)
			}
		})
	}
}

// BenchmarkMemory reports what an editor keeps on each document: the heap
// it holds beyond the document itself (which it shares with the caller,
// as Open keeps it), in bytes and over the document's size, once opened
// and after a thousand keystrokes in the middle (their undo history
// included); and the whole, document included, over its size.
func BenchmarkMemory(b *testing.B) {
	for _, s := range fixture.BenchSizes {
		b.Run(s.Name, func(b *testing.B) {
			// Sizes, not times: measured once whatever b.N is.
			open, typed := keptBy(s.Size, 0), keptBy(s.Size, 1000)
			for range b.N {
			}
			b.ReportMetric(float64(open), "open-kept-B")
			b.ReportMetric(float64(typed), "typed-kept-B")
			b.ReportMetric(float64(typed)/float64(s.Size), "typed-kept/doc")
			b.ReportMetric(float64(typed+int64(s.Size))/float64(s.Size), "total/doc")
		})
	}
}

// BenchmarkMemoryTextarea is BenchmarkMemory's open figure for bubbles'
// textarea, up to its cap.
func BenchmarkMemoryTextarea(b *testing.B) {
	for _, s := range fixture.BenchSizes[:3] {
		b.Run(s.Name, func(b *testing.B) {
			doc := fixture.BenchConfigMap(s.Size)
			if n := strings.Count(doc, "\n"); n >= textareaMaxLines {
				doc = strings.Join(strings.SplitN(doc, "\n", textareaMaxLines+1)[:textareaMaxLines], "\n")
			}
			runtime.GC()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			ta := newTextarea(120, 40)
			ta.SetValue(doc)
			_ = ta.View()
			runtime.GC()
			runtime.ReadMemStats(&after)
			runtime.KeepAlive(ta)
			for range b.N {
			}
			kept := int64(after.HeapAlloc) - int64(before.HeapAlloc)
			b.ReportMetric(float64(len(doc)), "doc-B")
			b.ReportMetric(float64(kept), "open-kept-B")
			b.ReportMetric(float64(kept)/float64(len(doc)), "kept/doc")
		})
	}
}

// keptBy returns the heap an editor keeps on a document of size bytes
// beyond the document, after keys keystrokes in the middle.
func keptBy(size, keys int) int64 {
	heap := func() int64 {
		runtime.GC()
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return int64(ms.HeapAlloc)
	}
	// Whatever lipgloss sets up on its first Render is not the editor's.
	_ = DefaultStyles().Key.Render("x")
	doc := strings.Clone(fixture.BenchConfigMap(size))
	before := heap()
	m := New()
	m.Open(doc)
	m.SetBase(doc)
	m.SetSize(120, 40)
	m.SetCursor(Pos{m.Lines() / 2, 4})
	_ = m.View()
	for i := range keys {
		m, _ = m.Update(benchkeys.Typing(i))
		_ = m.View()
	}
	doc = "" // the editor alone holds it now
	after := heap()
	runtime.KeepAlive(m)
	return after - before
}
