package ui

import (
	"go/parser"
	"go/token"
	"io"
	"io/fs"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/vt"

	"github.com/kedit/kedit/internal/testwait"
)

// What a terminal shows: kedit's output read by a terminal emulator
// (charmbracelet/x/vt), as the program writes it through Bubble Tea's
// renderer, compared cell by cell with what kedit meant to draw.

// family is a ZWJ sequence: four emoji joined into one, two cells wide.
const family = "\U0001F468\u200d\U0001F469\u200d\U0001F467\u200d\U0001F466"

// inTerminal runs an app mk makes as kedit runs it (alternate screen,
// mouse), its output going to an emulated terminal of w×h, sends msgs, and
// waits until the terminal shows the frame the app draws after them
// (another app mk makes, driven as the program drives it, beside: want;
// an app's copies share their views, so one app cannot be both), or
// fails; it returns the terminal and its cells then (each row's grapheme
// clusters, by column).
func inTerminal(t *testing.T, mk func() App, w, h int, msgs ...tea.Msg) [][]string {
	t.Helper()
	want := plain(drive(t, mk(), append([]tea.Msg{tea.WindowSizeMsg{Width: w, Height: h}}, msgs...)...))
	m := mk()
	term := &lockedTerminal{e: vt.NewEmulator(w, h)}
	go func() { _, _ = io.Copy(io.Discard, term.e) }() // its answers to queries
	p := tea.NewProgram(m, tea.WithAltScreen(), tea.WithMouseCellMotion(), tea.WithInput(nil),
		tea.WithOutput(term), tea.WithoutSignalHandler())
	done := make(chan struct{})
	go func() {
		defer close(done)
		if _, err := p.Run(); err != nil {
			t.Error(err)
		}
	}()
	defer func() {
		p.Quit()
		<-done
	}()
	p.Send(tea.WindowSizeMsg{Width: w, Height: h})
	for _, msg := range msgs {
		p.Send(msg)
	}
	if !testwait.Until(20*time.Second, func() bool { return sameScreen(rows(term, w, h), want, w) }) {
		t.Errorf("the terminal shows\n%s\nkedit drew\n%s", strings.Join(rows(term, w, h), "\n"), want)
	}
	cells := make([][]string, h)
	for y := range h {
		cells[y] = make([]string, w)
		for x := range w {
			cells[y][x], _ = term.CellAt(x, y)
		}
	}
	return cells
}

// sameScreen reports whether the terminal's rows are the frame drawn.
func sameScreen(got []string, frame string, w int) bool {
	want := strings.Split(frame, "\n")
	for y := range got {
		line := ""
		if y < len(want) {
			line = want[y]
		}
		if got[y] != line+strings.Repeat(" ", max(0, w-ansi.StringWidth(line))) {
			return false
		}
	}
	return true
}

// lockedTerminal is an emulator that Bubble Tea's renderer writes to while
// the test reads its cells: the cells are read under the same lock, and
// copied (the emulator's own lock does not cover a cell it returned).
type lockedTerminal struct {
	mu sync.Mutex
	e  *vt.Emulator
}

func (l *lockedTerminal) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.e.Write(p)
}

// CellAt returns the grapheme cluster of the cell at x, y and its width.
func (l *lockedTerminal) CellAt(x, y int) (string, int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if c := l.e.CellAt(x, y); c != nil {
		return c.Content, c.Width
	}
	return "", 0
}

// rows are the terminal's rows as text: each cell's grapheme cluster, a
// blank for an empty one, nothing for the second cell of a wide one.
func rows(term *lockedTerminal, w, h int) []string {
	out := make([]string, h)
	for y := range h {
		var b strings.Builder
		for x := 0; x < w; {
			content, width := term.CellAt(x, y)
			if content == "" {
				b.WriteByte(' ')
				x++
				continue
			}
			b.WriteString(content)
			x += max(1, width)
		}
		out[y] = b.String()
	}
	return out
}

// TestTerminalShowsWideAndJoinedCharacters: with a ZWJ sequence, wide
// characters, combining marks and characters that take no cell in the
// object, the terminal shows every row as kedit drew it, cell for cell:
// the sequence in one cell two wide, no joiner on any row but inside it,
// and the characters that take no cell as their escapes. In the object
// view, its diff, the conflict view and the in-app editor.
func TestTerminalShowsWideAndJoinedCharacters(t *testing.T) {
	data := map[string]any{
		"family": family,
		"team":   "crew " + family + " 漢字 e\u0301",
		"stray":  "a\u200db",
		"hidden": "x\u200by",
		"foo":    "1",
	}
	screens := []struct {
		name string
		msgs func(r *fakeRunner) []tea.Msg
	}{
		{"object", func(*fakeRunner) []tea.Msg { return nil }},
		{"editor", func(*fakeRunner) []tea.Msg { return keys("i") }},
		{"object_scrolled", func(*fakeRunner) []tea.Msg { return keys("j", "j", "k") }},
	}
	for _, s := range smallSizes {
		for _, sc := range screens {
			t.Run(sc.name+"_"+s.name, func(t *testing.T) {
				mk := func() App { return newAppWith(t, s.w, s.h, &fakeRunner{}, data) }
				checkTerminal(t, inTerminal(t, mk, s.w, s.h, sc.msgs(&fakeRunner{})...), family, `a\u200db`, `x\u200by`)
			})
		}
	}
	// The conflict view: the three versions of a value with the sequence.
	for _, s := range smallSizes {
		t.Run("conflict_"+s.name, func(t *testing.T) {
			mk := func() App {
				r := &fakeRunner{}
				m := newAppWith(t, s.w, s.h, r, data)
				m = edit(t, m, "family: "+family, "family: mine "+family)
				m = theirsWrite(t, m, r, "family", "theirs "+family+"\u200d")
				return drive(t, m, keys("s")...)
			}
			cells := inTerminal(t, mk, s.w, s.h)
			checkTerminal(t, cells, "mine "+family, "theirs "+family+`\u200d`)
		})
	}
}

// checkTerminal fails if a cell holds a joiner outside an emoji
// sequence, an emoji is drawn as an escape, or the terminal does not show
// each of shown.
func checkTerminal(t *testing.T, cells [][]string, shown ...string) {
	t.Helper()
	var lines []string
	for y, row := range cells {
		var b strings.Builder
		for x, c := range row {
			if strings.Contains(c, "\u200d") && c != family {
				t.Errorf("cell %d,%d holds a stray joiner: %q", x, y, c)
			}
			b.WriteString(c)
		}
		lines = append(lines, b.String())
	}
	screen := strings.Join(lines, "\n")
	for _, want := range shown {
		if !strings.Contains(screen, want) {
			t.Errorf("the terminal does not show %q:\n%s", want, screen)
		}
	}
	if strings.Contains(screen, `\U0001`) {
		t.Errorf("an emoji is drawn as an escape:\n%s", screen)
	}
}

// TestOneWidthLibrary: kedit measures what it draws with x/ansi only, the
// library lipgloss and Bubble Tea measure with (and the terminal emulator
// above reads with): no other width or segmentation library is imported.
func TestOneWidthLibrary(t *testing.T) {
	others := []string{"github.com/mattn/go-runewidth", "github.com/rivo/uniseg", "github.com/clipperhouse/"}
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "localcluster" || d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != ".." {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, imp := range f.Imports {
			for _, o := range others {
				if strings.HasPrefix(strings.Trim(imp.Path.Value, `"`), o) {
					t.Errorf("%s imports %s: measure widths with x/ansi", path, imp.Path.Value)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
