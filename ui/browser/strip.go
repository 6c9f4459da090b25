package browser

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/ui/common"
)

// When the table cuts a name, a namespace or a field manager (at 80
// columns a long name, kubectl-client-side-apply), a strip under the rows
// says the selected row whole, wrapped at words, as the request pane's
// does: every row can be read by moving onto it.

// stripLines is how many lines the strip's words take at most; a rule
// above them sets it apart from the rows.
const stripLines = 3

// stripHeight is the strip's height, its rule included: none while no
// row is cut, in the picker, or on a screen too low to keep rows above it.
func (m Model) stripHeight() int {
	if m.mode == modePicker || m.height < 12 || !m.cutsCells() {
		return 0
	}
	return 1 + stripLines
}

// cutsCells reports whether the table cuts some row's name, namespace or
// field manager at this width.
func (m Model) cutsCells() bool {
	for _, c := range m.columns() {
		switch c.Title {
		case "NAME":
			if m.nameWidth > c.Width {
				return true
			}
		case "BY":
			if m.byWidth > c.Width {
				return true
			}
		case "NAMESPACE":
			if m.nsWidth > c.Width {
				return true
			}
		}
	}
	return false
}

// stripWords is the selected row in words: its namespace and name, and
// who changed it last.
func (m Model) stripWords() escape.Text {
	if m.selected < 0 || m.selected >= len(m.shown) {
		return ""
	}
	r := m.all[m.shown[m.selected]]
	text := r.name
	if r.ns != "" {
		text = r.ns + "/" + r.name
	}
	if r.by != "" {
		text += ", changed last by " + r.by
	}
	return text
}

// strip draws the selected row whole under a rule, stripLines lines at
// most: what does not fit ends in "…".
func (m Model) strip() []string {
	if m.stripHeight() == 0 {
		return nil
	}
	lines := common.WrapWords(string(m.stripWords()), m.width)
	if len(lines) > stripLines {
		lines = lines[:stripLines]
		lines[stripLines-1] = ansi.Truncate(lines[stripLines-1]+" …", m.width, "…")
	}
	for len(lines) < stripLines {
		lines = append(lines, "")
	}
	return append([]string{m.styles.Muted.Render(strings.Repeat("─", m.width))}, lines...)
}
