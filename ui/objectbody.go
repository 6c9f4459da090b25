package ui

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/kedit/kedit/ui/common"
)

// Sideways scrolling of the object view's body (←/h, →/l): a line wider
// than the screen (a certificate, a JSON blob in an annotation) is cut at
// the screen's edges, and a "…" on the edge says that the line goes on
// that way. Blame's gutter stays in place: only the YAML beside it moves.

// sideways is the body's horizontal state.
type sideways struct {
	// x is how many columns of the body are scrolled off to the left.
	x int
	// lines are the body's lines, longest the width of the widest.
	lines   []string
	longest int
}

// measure takes the body's lines.
func (s *sideways) measure(text string) {
	s.lines = strings.Split(text, "\n")
	s.longest = 0
	for _, l := range s.lines {
		s.longest = max(s.longest, lineWidth(l))
	}
}

// fixed is how many columns on the left stay when the body scrolls
// sideways: blame's gutter.
func (m ObjectView) fixed() int {
	if !m.blame {
		return 0
	}
	return blameManagerWidth(m.width) + 1 + len(blameTimeLayout) + len(" │ ")
}

// wider reports whether a line of the body is wider than the screen, so
// that ← and → have something to show.
func (m ObjectView) wider() bool { return m.side.longest > m.width }

// maxX is how far the body can scroll to the right: until the end of the
// widest line is in view.
func (m ObjectView) maxX() int {
	return max(0, m.side.longest-m.width)
}

// sidewaysKey scrolls the body half a screen left or right; false for any
// other key.
func (m *ObjectView) sidewaysKey(msg tea.KeyMsg) bool {
	step := max(1, (m.width-m.fixed())/2)
	switch {
	case key.Matches(msg, m.keys.Left):
		m.side.x = max(0, m.side.x-step)
	case key.Matches(msg, m.keys.Right):
		m.side.x = max(0, min(m.side.x+step, m.maxX()))
	default:
		return false
	}
	return true
}

// bodyView draws the body: the viewport's own drawing when nothing is
// wider than the screen, else the lines in view cut at the scrolled
// window, with the signs of what is cut.
func (m ObjectView) bodyView() string {
	if !m.wider() && m.side.x == 0 {
		return m.body.View()
	}
	x := min(m.side.x, m.maxX())
	top := max(0, min(m.body.YOffset, len(m.side.lines)))
	end := min(len(m.side.lines), top+m.body.Height)
	rows := make([]string, 0, m.body.Height)
	for _, l := range m.side.lines[top:end] {
		rows = append(rows, cutSideways(m.styles, l, m.fixed(), x, m.width))
	}
	for len(rows) < m.body.Height {
		rows = append(rows, strings.Repeat(" ", m.width))
	}
	return strings.Join(rows, "\n")
}

// setBlameContent gives the body blame's rows again with the cursor moved:
// the rows keep their widths, so they are not measured again.
func (m *ObjectView) setBlameContent() {
	y := m.body.YOffset
	text := m.blameContent()
	m.body.SetContent(text)
	m.body.SetYOffset(y)
	m.side.lines = strings.Split(text, "\n")
}

// lineWidth is common.LineWidth.
func lineWidth(l string) int { return common.LineWidth(l) }

// cutSideways is common.CutSideways.
func cutSideways(st *common.Styles, l string, fixed, x, width int) string {
	return common.CutSideways(st, l, fixed, x, width)
}
