package requests

import (
	"strings"

	"github.com/kedit/kedit/ui/common"
)

// The strip under the rows says the selected row in words, whole, wrapped
// at words: what a row's columns say cut at 80 columns (the TOOK column,
// a 409's explanation, a watch event's writer) is read there without
// scrolling.

// stripLines is how many lines the strip's words take at most; a rule
// above them sets it apart from the rows.
const stripLines = 4

// stripHeight is the strip's height, its rule included: none on a pane
// too low to keep rows above it.
func (m Model) stripHeight() int {
	if m.height < 12 {
		return 0
	}
	return 1 + stripLines
}

// Meaning is row r in words, what matters most first (a long path, which
// the row shows the end of, comes last): the method and the answer and
// what happened, the versions, how long it took, when, who sent it, the
// whole path.
func Meaning(r Row) string {
	var b strings.Builder
	b.WriteString(r.Method)
	if r.Method != "WATCH" {
		b.WriteString(" " + string(r.Status))
	}
	switch {
	case r.Said != "" && r.Method == "WATCH":
		b.WriteString(" " + string(r.Said))
	case r.Said != "":
		b.WriteString(": " + string(r.Said))
	}
	if r.Method != "WATCH" {
		sent := string(r.SentRV)
		if sent == "" {
			sent = "none"
		}
		b.WriteString("; rv sent " + sent)
		if r.ReturnedRV != "" {
			b.WriteString(", rv back " + string(r.ReturnedRV))
		}
		if r.Status == "no answer" {
			b.WriteString("; no answer after " + r.Latency.String())
		} else {
			b.WriteString("; took " + r.Latency.String())
		}
	}
	b.WriteString("; at " + r.Time.Format("15:04:05.000"))
	if r.By != "" {
		b.WriteString(", sent by " + string(r.By))
	}
	b.WriteString("; " + string(r.Path))
	return b.String()
}

// strip draws the selected row's meaning under a rule, stripLines lines
// at most: what does not fit ends in "…" (enter shows it all).
func (m Model) strip() []string {
	r, ok := m.Selected()
	if !ok || m.stripHeight() == 0 {
		return nil
	}
	lines := common.WrapWords(Meaning(r), m.width)
	if len(lines) > stripLines {
		lines = lines[:stripLines]
		lines[stripLines-1] = cut(lines[stripLines-1]+" …", m.width)
	}
	out := []string{m.styles.Muted.Render(strings.Repeat("─", m.width))}
	return append(out, lines...)
}
