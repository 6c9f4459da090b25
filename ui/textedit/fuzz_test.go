package textedit

import (
	"encoding/binary"
	"math/rand/v2"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
)

// FuzzOpenText: any bytes opened, drawn, walked over and left give back
// the same bytes, and every row drawn fits the width.
func FuzzOpenText(f *testing.F) {
	for _, s := range []string{"", "\n", "a\r\nb", "\xff\xfe", "e\u0301\u200b", "\x1b[2J\u202e\u009b", "日本\t😀", "\u0600\x1b", "🇩🇪🇩", "a\r"} {
		f.Add(s, uint8(40), uint8(10))
	}
	f.Fuzz(func(t *testing.T, text string, w, h uint8) {
		m := New()
		m.Open(text)
		width, height := int(w%120)+1, int(h%40)+1
		m.SetSize(width, height)
		fits(t, m.View(), width, height)
		for _, k := range []string{"ctrl+end", "left", "left", "alt+left", "up", "end", "right", "home", "alt+right", "pgup", "down"} {
			m = press(t, m, k)
			fits(t, m.View(), width, height)
		}
		m, _ = m.Update(tea.MouseMsg{X: width / 2, Y: height / 2, Button: tea.MouseButtonLeft, Action: tea.MouseActionPress})
		fits(t, m.View(), width, height)
		c := m.Cursor()
		if s := m.content(c.Line); c.Col > len(s) || snapBack(s, c.Col) != c.Col {
			t.Fatalf("cursor %+v is not on a unit boundary of %q", c, s)
		}
		if got := m.Text(); got != text || m.Changed() {
			t.Fatalf("Text() = %q, want %q (Changed %v)", got, text, m.Changed())
		}
	})
}

// fits checks that a view has h rows and none wider than w. (Exactly w is
// what the walks check on their alphabet; arbitrary Unicode has clusters,
// such as a prepended mark before an escape, that a terminal measures its
// own way.)
func fits(t *testing.T, view string, w, h int) {
	t.Helper()
	rows := strings.Split(view, "\n")
	if len(rows) != h {
		t.Fatalf("%d rows, want %d", len(rows), h)
	}
	for i, row := range rows {
		if got := ansi.StringWidth(row); got > w {
			t.Fatalf("row %d is %d cells wide, more than %d: %q", i, got, w, row)
		}
	}
}

// pieces are what fuzzed documents are made of, one per byte: the walks'
// alphabet, whose characters are each one unit, so that the reference
// model applies.
var pieces = []string{"a", "b", "K", " ", ":", "-", "\n", "\r\n", "\r", "\t", "\x1b", "\u009b", "\u202e", "\xff", "\xc3", "\xa9", "é", "日", "😀", "  key: value\n", "#", "\"", "<<<<<<< mine\n"}

// byteSource is a rand.Source that reads the fuzzer's bytes, so that the
// fuzzer steers the actions. Past their end it counts on (a source stuck
// on one value would hang rand's rejection sampling).
type byteSource struct {
	b []byte
	n uint64
}

func (s *byteSource) Uint64() uint64 {
	if len(s.b) == 0 {
		s.n++
		return s.n * 0x9e3779b97f4a7c15
	}
	var buf [8]byte
	n := copy(buf[:], s.b)
	s.b = s.b[n:]
	return binary.LittleEndian.Uint64(buf[:])
}

// FuzzEdits: random actions steered by the fuzzer agree with the reference
// model after every step, as in the walks.
func FuzzEdits(f *testing.F) {
	f.Add([]byte{0, 19, 6, 7, 11, 12, 13, 14, 8, 19}, []byte("some actions to take, steered by these bytes........"))
	f.Add([]byte{21, 7, 15, 16, 6, 17, 18}, []byte{1, 2, 3, 4, 5, 6, 7, 8, 200, 100, 50, 25, 12, 6, 3, 1, 255, 254, 128, 64})
	f.Fuzz(func(t *testing.T, docBytes, ops []byte) {
		var doc strings.Builder
		for _, b := range docBytes {
			doc.WriteString(pieces[int(b)%len(pieces)])
		}
		steps := min(len(ops)/4, 300)
		w := newWalker(t, rand.New(&byteSource{b: ops}), doc.String(), 30, 8)
		w.walk(steps)
	})
}
