package timeline

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/kedit/kedit/ui/common"
)

// Sideways scrolling of the timeline (←/h, →/l), as in the object view: a
// row whose changed fields go past the screen's edge, or a line of a
// version's diff, is cut there with a "…" that says it goes on, and ←, →
// scroll half a screen at a time. In the list the selection's marker and
// the RV column stay in place, so that a row scrolled right still says
// which version it is.

// listFixed is how many columns on the left of the list stay when it
// scrolls sideways: the selection's marker and the RV column.
func (m Model) listFixed() int {
	rvW, _, _, _, _ := m.columns()
	return 2 + rvW + 2
}

// listLongest measures the list's widest line, its column titles among
// them, for listWidest: the rows' columns depend on every row, so it is
// measured once as the rows change.
func (m Model) listLongest() int {
	w := common.LineWidth(m.headerRow())
	for _, r := range m.rows {
		w = max(w, common.LineWidth(m.rowText(r, r.mark())))
	}
	return w
}

// sidewaysKey scrolls the list, or the diff while it shows, half a screen
// left or right, until the end of the widest line is in view; false for
// any other key.
func (m *Model) sidewaysKey(msg tea.KeyMsg) bool {
	x, fixed, longest := &m.listX, m.listFixed(), m.listWidest
	if m.showing {
		x, fixed, longest = &m.side.X, 0, m.side.Longest
	}
	step := max(1, (m.width-fixed)/2)
	switch {
	case key.Matches(msg, m.keys.Left):
		*x = max(0, *x-step)
	case key.Matches(msg, m.keys.Right):
		*x = max(0, min(*x+step, longest-m.width))
	default:
		return false
	}
	return true
}

// wider reports whether a line of what shows, the list or the diff, is
// wider than the screen, so that ← and → have something to show.
func (m Model) wider() bool {
	if m.showing {
		return m.side.Longest > m.width
	}
	return m.listWidest > m.width
}

// listLine is line l of the list scrolled sideways, cut at the screen's
// edges; unstyled, for the caller to style as a whole.
func (m Model) listLine(l string) string {
	if m.listX == 0 && common.LineWidth(l) <= m.width {
		return l
	}
	x := min(m.listX, max(0, m.listWidest-m.width))
	return strings.TrimRight(ansi.Strip(common.CutSideways(m.styles, l, m.listFixed(), x, m.width)), " ")
}

// wrapped is text in style, wrapped at words to the screen's width (a
// word wider than the screen on lines of its own).
func (m Model) wrapped(style lipgloss.Style, text string) []string {
	lines := common.WrapWords(text, m.width)
	for i, l := range lines {
		lines[i] = style.Render(l)
	}
	return lines
}

// diffView draws the diff: the viewport's own drawing when no line is
// wider than the screen, else its lines in view cut at the scrolled
// window.
func (m Model) diffView() string {
	if m.side.Longest <= m.width && m.side.X == 0 {
		return m.body.View()
	}
	x := min(m.side.X, max(0, m.side.Longest-m.width))
	return sidewaysWindow(m.styles, m.side.Lines, m.body.YOffset(), m.body.Height(), 0, x, m.width)
}

// sidewaysWindow draws height lines of lines from top on, each cut by
// cutSideways at x (its first fixed columns in place) within width
// columns, and blank rows under the last.
func sidewaysWindow(st *common.Styles, lines []string, top, height, fixed, x, width int) string {
	top = max(0, min(top, len(lines)))
	end := min(len(lines), top+height)
	rows := make([]string, 0, height)
	for _, l := range lines[top:end] {
		rows = append(rows, common.CutSideways(st, l, fixed, x, width))
	}
	for len(rows) < height {
		rows = append(rows, strings.Repeat(" ", width))
	}
	return strings.Join(rows, "\n")
}
