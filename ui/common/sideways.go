package common

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// LineWidth is ansi.StringWidth, without its cost for a line of printable
// ASCII only (nearly every line of YAML), whose width is its length.
func LineWidth(l string) int {
	for i := 0; i < len(l); i++ {
		if l[i] < 0x20 || l[i] >= 0x7f {
			return ansi.StringWidth(l)
		}
	}
	return len(l)
}

// CutSideways shows the columns of line l from fixed+x on, within width
// columns, the first fixed columns kept in place. A "…" in the first
// column after the fixed ones says that the line goes on to the left, one
// in the last column that it goes on to the right. The row is padded to
// width.
func CutSideways(st *Styles, l string, fixed, x, width int) string {
	w := ansi.StringWidth(l)
	avail := width - fixed
	var b strings.Builder
	if fixed > 0 {
		b.WriteString(cutCells(l, 0, fixed))
	}
	from, to := fixed+x, fixed+x+avail
	left := x > 0 && w > fixed
	right := w > to
	if left {
		b.WriteString(st.Muted.Render("…"))
		from++
	}
	if right {
		to--
	}
	if from < to {
		b.WriteString(cutCells(l, from, to))
	}
	if right {
		b.WriteString(st.Muted.Render("…"))
	}
	row := b.String()
	// A wide character cut by an edge is left out: blanks take its place.
	return row + strings.Repeat(" ", max(0, width-ansi.StringWidth(row)))
}

// cutCells is the columns [from, to) of s, ANSI styles kept: a wide
// character that only partly falls inside is left out, a blank in its
// place on the left (ansi.Cut keeps one that starts a column before from).
func cutCells(s string, from, to int) string {
	seg := ansi.Cut(s, from, to)
	if ansi.StringWidth(seg) > to-from && from+1 < to {
		seg = " " + ansi.Cut(s, from+1, to)
	}
	return seg
}

// Sideways is a body's horizontal state, for a view whose lines may be
// wider than the screen (←/h, →/l scroll them).
type Sideways struct {
	// X is how many columns of the body are scrolled off to the left.
	X int
	// Lines are the body's lines, Longest the width of the widest.
	Lines   []string
	Longest int
}

// Measure takes the body's lines.
func (s *Sideways) Measure(text string) {
	s.Lines = strings.Split(text, "\n")
	s.Longest = 0
	for _, l := range s.Lines {
		s.Longest = max(s.Longest, LineWidth(l))
	}
}
