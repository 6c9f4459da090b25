package object

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

// fixed is how many columns on the left stay when the body scrolls
// sideways: blame's gutter.
func (m Model) fixed() int {
	if !m.blame.on {
		return 0
	}
	return blameManagerWidth(m.width) + 1 + len(blameTimeLayout) + len(" │ ")
}

// wider reports whether a line of the body is wider than the screen, so
// that ← and → have something to show.
func (m Model) wider() bool { return m.side.Longest > m.width }

// maxX is how far the body can scroll to the right: until the end of the
// widest line is in view.
func (m Model) maxX() int {
	return max(0, m.side.Longest-m.width)
}

// sidewaysKey scrolls the body half a screen left or right; false for any
// other key.
func (m *Model) sidewaysKey(msg tea.KeyMsg) bool {
	step := max(1, (m.width-m.fixed())/2)
	switch {
	case key.Matches(msg, m.keys.Left):
		m.side.X = max(0, m.side.X-step)
	case key.Matches(msg, m.keys.Right):
		m.side.X = max(0, min(m.side.X+step, m.maxX()))
	default:
		return false
	}
	return true
}

// bodyView draws the body: the viewport's own drawing when nothing is
// wider than the screen, else the lines in view cut at the scrolled
// window, with the signs of what is cut.
func (m Model) bodyView() string {
	if !m.wider() && m.side.X == 0 {
		return m.body.View()
	}
	x := min(m.side.X, m.maxX())
	top := max(0, min(m.body.YOffset, len(m.side.Lines)))
	end := min(len(m.side.Lines), top+m.body.Height)
	rows := make([]string, 0, m.body.Height)
	for _, l := range m.side.Lines[top:end] {
		rows = append(rows, common.CutSideways(m.styles, l, m.fixed(), x, m.width))
	}
	for len(rows) < m.body.Height {
		rows = append(rows, strings.Repeat(" ", m.width))
	}
	return strings.Join(rows, "\n")
}

// setBlameContent gives the body blame's rows again with the cursor moved:
// the rows keep their widths, so they are not measured again.
func (m *Model) setBlameContent() {
	y := m.body.YOffset
	text := m.blameContent()
	m.body.SetContent(text)
	m.body.SetYOffset(y)
	m.side.Lines = strings.Split(text, "\n")
}
