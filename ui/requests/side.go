package requests

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/kedit/kedit/ui/common"
)

// Sideways scrolling of the rows (←/h, →/l), as the object view's body
// scrolls: the time and the method stay in place, the columns after them
// move, and a "…" on an edge says that a row goes on that way.

// fixed is how many columns stay in place: the time's and the method's,
// unless the pane is too narrow to keep them.
func (m Model) fixed() int {
	if f := timeW + 1 + methodW + 1; m.width >= 2*f {
		return f
	}
	return 0
}

// longest is the width of the widest row in view, the heading's at least.
func (m Model) longest(pathW int) int {
	w := width(m.line("TIME", "METHOD", "PATH", "RV SENT", "STATUS", "RV BACK", "TOOK", "", pathW))
	end := min(len(m.rows), m.cur.Offset+m.listHeight())
	for i := m.cur.Offset; i < end; i++ {
		w = max(w, width(m.rowLine(m.rows[i], pathW)))
	}
	return w
}

// maxX is how far the rows scroll: until the end of the widest is in view.
func (m Model) maxX() int { return max(0, m.longest(m.pathWidth())-m.width) }

// sidewaysKey scrolls the rows half a screen left or right; false for any
// other key.
func (m *Model) sidewaysKey(k tea.KeyMsg) bool {
	step := max(1, (m.width-m.fixed())/2)
	switch {
	case key.Matches(k, m.keys.Left):
		m.x = max(0, m.x-step)
	case key.Matches(k, m.keys.Right):
		m.x = max(0, min(m.x+step, m.maxX()))
	default:
		return false
	}
	return true
}

// Wider reports whether a row in view is wider than the pane, so that ←
// and → have something to show.
func (m Model) Wider() bool { return m.x > 0 || m.maxX() > 0 }

// shown is line l as the pane shows it, scrolled x columns: cut at the
// width with a "…" where it goes on, the fixed columns kept in place.
func (m Model) shown(l string, x int) string {
	if x == 0 {
		return cut(l, m.width)
	}
	fixed := m.fixed()
	w := width(l)
	if w <= fixed {
		return l
	}
	from, to := fixed+x, m.width+x
	head := ansi.Cut(l, 0, fixed) + "…"
	from++
	if w > to {
		return head + ansi.Cut(l, from, to-1) + "…"
	}
	return head + ansi.Cut(l, from, to)
}

// bodySidewaysKey scrolls a request's bodies half a screen left or right;
// false for any other key.
func (m *Model) bodySidewaysKey(k tea.KeyMsg) bool {
	step, most := max(1, m.width/2), max(0, m.side.Longest-m.width)
	switch {
	case key.Matches(k, m.keys.Left):
		m.side.X = max(0, m.side.X-step)
	case key.Matches(k, m.keys.Right):
		m.side.X = min(m.side.X+step, most)
	default:
		return false
	}
	return true
}

// bodyView draws the bodies: the viewport's own drawing when no line is
// wider than the pane, else the lines in view cut at the scrolled window,
// a "…" on each edge where a line goes on.
func (m Model) bodyView() string {
	if m.side.Longest <= m.width && m.side.X == 0 {
		return m.body.View()
	}
	top := max(0, min(m.body.YOffset(), len(m.side.Lines)))
	end := min(len(m.side.Lines), top+m.body.Height())
	rows := make([]string, 0, m.body.Height())
	for _, l := range m.side.Lines[top:end] {
		rows = append(rows, common.CutSideways(m.styles, l, 0, m.side.X, m.width))
	}
	for len(rows) < m.body.Height() {
		rows = append(rows, "")
	}
	return strings.Join(rows, "\n")
}
