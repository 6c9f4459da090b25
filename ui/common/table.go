package common

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/kedit/kedit/internal/escape"
)

// Column is one column of a view's table (the browser's, the set view's).
type Column struct {
	Title escape.Text
	Width int
	// Right aligns the column's text to the right (the durations).
	Right bool
}

// Cells lays out one row of a table: each text in its column, cut to its
// width, two spaces between columns and no trailing blanks.
func Cells(cols []Column, texts []escape.Text) string {
	var b strings.Builder
	for i, c := range cols {
		if i > 0 {
			b.WriteString("  ")
		}
		t := ansi.Truncate(string(texts[i]), c.Width, "…")
		pad := strings.Repeat(" ", max(0, c.Width-ansi.StringWidth(t)))
		if c.Right {
			b.WriteString(pad + t)
		} else if i == len(cols)-1 {
			b.WriteString(t) // no trailing blanks
		} else {
			b.WriteString(t + pad)
		}
	}
	return b.String()
}
