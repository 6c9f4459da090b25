package common

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// WrapWords wraps text at its spaces into lines of at most width cells.
// A word is never split across lines unless it is wider than a whole line
// (a long path, a URL): then it starts a line of its own, and only its
// own lines are cut, after a "/", "?", "&" or "," where one is near. A newline in text starts a new line, and a line's
// leading spaces are kept on its first line. A hyphen is no place to
// break: demo-writer and a path with a hyphen stay whole (ansi.Wrap and
// ansi.Wordwrap break at every hyphen).
//
// A width of 0 or less is none known yet (a view asked to draw before its
// size came): text's own lines, unwrapped.
func WrapWords(text string, width int) []string {
	if width <= 0 {
		return strings.Split(text, "\n")
	}
	var out []string
	for _, para := range strings.Split(text, "\n") {
		out = append(out, wrapLine(para, width)...)
	}
	return out
}

// wrapLine wraps one line of text: the greedy fill, a word at a time.
func wrapLine(line string, width int) []string {
	if LineWidth(line) <= width {
		return []string{line}
	}
	indent := line[:len(line)-len(strings.TrimLeft(line, " "))]
	if len(indent) >= width/2 {
		indent = ""
	}
	var out []string
	// cur is the line being filled, w its width; empty while it holds no
	// word yet (its indent at most).
	cur, w, empty := indent, len(indent), true
	for _, word := range strings.Fields(line) {
		ww := ansi.StringWidth(word)
		switch {
		case !empty && w+1+ww <= width:
			cur, w = cur+" "+word, w+1+ww
			continue
		case empty && w+ww <= width:
			cur, w, empty = cur+word, w+ww, false
			continue
		case !empty:
			out = append(out, cur)
		}
		for ww > width {
			// Wider than a line: lines of its own, cut after the last
			// separator of a path or query that fits, else where the width
			// ends.
			at := width
			if i := strings.LastIndexAny(ansi.Cut(word, 0, width), "/?&,"); i > 0 && i+1 < width && ansi.StringWidth(word[:i+1]) == i+1 {
				at = i + 1
			}
			piece := ansi.Cut(word, 0, at)
			if piece == "" {
				// A character wider than the line (a CJK one on a line of
				// one cell): a line of its own all the same, or no word
				// would ever end.
				piece, _ = ansi.FirstGraphemeCluster(word, ansi.GraphemeWidth)
			}
			out = append(out, piece)
			word = ansi.Cut(word, ansi.StringWidth(piece), ww)
			ww = ansi.StringWidth(word)
		}
		cur, w, empty = word, ww, false
	}
	if !empty {
		out = append(out, cur)
	}
	return out
}
