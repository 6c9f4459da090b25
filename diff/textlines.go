package diff

import (
	"strings"
)

// splitLines cuts s after every "\n"; a last line without one is kept as
// is. The lines share s's memory.
func splitLines(s string) []string {
	t := newTextLines(s)
	return t.lines(0, t.n())
}

// textLines is a text with the offsets of its lines, so that a run of lines
// is one substring: the merge copies long runs without touching each line.
type textLines struct {
	s string
	// off[i] is where line i starts; off[n] is len(s).
	off []int
}

func newTextLines(s string) textLines {
	off := make([]int, 1, strings.Count(s, "\n")+2)
	for at := 0; at < len(s); {
		i := strings.IndexByte(s[at:], '\n')
		if i < 0 {
			at = len(s)
		} else {
			at += i + 1
		}
		off = append(off, at)
	}
	return textLines{s: s, off: off}
}

// n is the number of lines.
func (t textLines) n() int { return len(t.off) - 1 }

// line returns line i with its line end.
func (t textLines) line(i int) string { return t.s[t.off[i]:t.off[i+1]] }

// span returns count lines from i as one string; i and count are clamped to
// the text.
func (t textLines) span(i, count int) string {
	i = min(max(i, 0), t.n())
	j := min(max(i+count, i), t.n())
	return t.s[t.off[i]:t.off[j]]
}

// lines returns count lines from i, clamped to the text, in a slice of its
// own.
func (t textLines) lines(i, count int) []string {
	i = min(max(i, 0), t.n())
	j := min(max(i+count, i), t.n())
	if i == j {
		return []string{}
	}
	out := make([]string, j-i)
	for k := range out {
		out[k] = t.line(i + k)
	}
	return out
}
