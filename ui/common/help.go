package common

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/x/ansi"

	"github.com/kedit/kedit/model"
)

// Help is drawn from the active view's own bindings (its ShortHelp and
// FullHelp, key.Binding data), never from a list kept beside them, so a
// key the view answers to cannot be missing from what the user reads:
//
//   - the footer (the help line) names the view's keys in its order, on
//     two rows from 20 rows up (one on a shorter screen), and when they do
//     not fit, as many as do, then "…  ? help";
//   - ? (f1 in the in-app editor) shows every key of the view in place of
//     the body: each group a column, columns side by side while they fit
//     the width and wrapped into further rows when they do not, then the
//     legend of the escapes. A page taller than the screen scrolls, and a
//     mark says how much more there is above or below.

// HelpGap is the space between two columns of the help page.
const HelpGap = "   "

// HelpEntries are a view's bindings to show: enabled ones with a help
// text, each once.
func HelpEntries(bindings []key.Binding) []key.Binding {
	var out []key.Binding
	seen := map[string]bool{}
	for _, b := range bindings {
		h := b.Help()
		if !b.Enabled() || h.Key == "" || seen[h.Key+"\x00"+h.Desc] {
			continue
		}
		seen[h.Key+"\x00"+h.Desc] = true
		out = append(out, b)
	}
	return out
}

// FooterRows is how many rows the footer may take on a screen height rows
// tall: two from FooterTallMin rows up, so that a view's own keys (the
// timeline, blame, preview, reveal) are named at 80x24 beside the
// everyday ones; one below, where the body needs every row.
func FooterRows(height int) int {
	if height >= FooterTallMin {
		return 2
	}
	return 1
}

// QuitFooterKey is the key a shortened footer keeps beside help: the
// views' quit.
const QuitFooterKey = "q"

// FooterTallMin is the height from which the footer may take two rows.
const FooterTallMin = 20

// FooterLine renders bindings on at most rows lines of width cells: "key
// desc" items joined by " • ", an item never split between two lines. The
// help binding, when among them, goes last and stays: when the items do
// not fit, as many as do are followed by "…", on a footer of two rows or
// more the quit key (q, when among them: the way out is never the one
// cut), and "? help", whose page names every key cut.
func FooterLine(st *Styles, bindings []key.Binding, help key.Binding, width, rows int) string {
	var items []string
	helpItem, quitItem, quitAt := "", "", -1
	for _, b := range HelpEntries(bindings) {
		text := st.HelpKey.Render(b.Help().Key) + " " + st.Muted.Render(b.Help().Desc)
		if b.Help().Key == help.Help().Key && b.Help().Key != "" {
			helpItem = text
			continue
		}
		if b.Help().Key == QuitFooterKey && quitAt < 0 && rows > 1 {
			quitItem, quitAt = text, len(items)
		}
		items = append(items, text)
	}
	sep := st.Muted.Render(" • ")
	if helpItem != "" {
		if lines, ok := FooterFill(append(append([]string(nil), items...), helpItem), sep, "", width, rows); ok {
			return strings.Join(lines, "\n")
		}
	} else if lines, ok := FooterFill(items, sep, "", width, rows); ok {
		return strings.Join(lines, "\n")
	}
	// Shortened: the first items that fit before the mark of the cut,
	// then the quit key and help.
	tail := st.Muted.Render(" …")
	if quitAt >= 0 {
		items = append(items[:quitAt:quitAt], items[quitAt+1:]...)
		tail += "  " + quitItem
		if helpItem != "" {
			tail += sep + helpItem
		}
	} else if helpItem != "" {
		tail += "  " + helpItem
	}
	for n := len(items); n > 0; n-- {
		if lines, ok := FooterFill(items[:n], sep, tail, width, rows); ok {
			return strings.Join(lines, "\n")
		}
	}
	return ansi.Truncate(strings.TrimPrefix(tail, st.Muted.Render(" ")), width, "…")
}

// FooterFill lays items out on at most rows lines of width cells, filling
// each line before the next, with tail after the last item; ok is false
// when they do not fit.
func FooterFill(items []string, sep, tail string, width, rows int) (lines []string, ok bool) {
	line := ""
	for i, it := range items {
		end := ""
		if i == len(items)-1 {
			end = tail
		}
		switch {
		case line == "":
			line = it
		case ansi.StringWidth(line+sep+it+end) <= width:
			line += sep + it
		default:
			lines = append(lines, line)
			line = it
		}
		if ansi.StringWidth(line+end) > width {
			return nil, false
		}
	}
	lines = append(lines, line+tail)
	if len(items) == 0 {
		lines = []string{strings.TrimPrefix(tail, " ")}
	}
	return lines, len(lines) <= rows && ansi.StringWidth(lines[len(lines)-1]) <= width
}

// HelpBlock renders one group of bindings as a column: each key padded to
// the widest, then its description; no row wider than width.
func HelpBlock(st *Styles, group []key.Binding, width int) []string {
	kw := 0
	for _, b := range group {
		kw = max(kw, ansi.StringWidth(b.Help().Key))
	}
	var rows []string
	for _, b := range group {
		k := b.Help().Key
		row := st.HelpKey.Render(k) + strings.Repeat(" ", kw-ansi.StringWidth(k)+1) + b.Help().Desc
		rows = append(rows, ansi.Truncate(row, width, "…"))
	}
	return rows
}

// HelpLines lays out groups of bindings within width: the groups' columns
// side by side while they fit, wrapped into further bands of rows (a blank
// row between two) when they do not.
func HelpLines(st *Styles, groups [][]key.Binding, width int) []string {
	var blocks [][]string
	for _, g := range groups {
		if g = HelpEntries(g); len(g) > 0 {
			blocks = append(blocks, HelpBlock(st, g, width))
		}
	}
	var lines []string
	for len(blocks) > 0 {
		// A band: as many blocks as fit side by side, at least one.
		n, used := 0, 0
		for n < len(blocks) {
			w := BlockWidth(blocks[n])
			if n > 0 {
				w += len(HelpGap)
			}
			if n > 0 && used+w > width {
				break
			}
			used += w
			n++
		}
		if len(lines) > 0 {
			lines = append(lines, "")
		}
		lines = append(lines, JoinBlocks(blocks[:n])...)
		blocks = blocks[n:]
	}
	return lines
}

func BlockWidth(rows []string) int {
	w := 0
	for _, r := range rows {
		w = max(w, ansi.StringWidth(r))
	}
	return w
}

// JoinBlocks puts blocks side by side, each padded to its width.
func JoinBlocks(blocks [][]string) []string {
	height := 0
	for _, b := range blocks {
		height = max(height, len(b))
	}
	lines := make([]string, height)
	for i, b := range blocks {
		w := BlockWidth(b)
		for r := range height {
			cell := ""
			if r < len(b) {
				cell = b[r]
			}
			if i < len(blocks)-1 {
				cell += strings.Repeat(" ", w-ansi.StringWidth(cell)) + HelpGap
			}
			lines[r] += cell
		}
	}
	for r := range lines {
		lines[r] = strings.TrimRight(lines[r], " ")
	}
	return lines
}

// HelpWindow shows the lines of a help page from offset off within height
// rows: when they do not all fit, a mark on the first row counts the lines
// above, one on the last those below, and how to scroll to them. It
// returns the rows and the offset, kept within the page.
func HelpWindow(st *Styles, lines []string, off, height int) ([]string, int) {
	if len(lines) <= height || height < 3 {
		return lines[:min(len(lines), max(height, 0))], 0
	}
	// The last offset shows the end of the page below the top mark.
	last := len(lines) - (height - 1)
	off = max(0, min(off, last))
	var rows []string
	if off > 0 {
		rows = append(rows, st.Muted.Render(fmt.Sprintf("↑ %s above (pgup, ↑)", model.Count(off, "more line"))))
	}
	room := height - len(rows)
	if off+room < len(lines) {
		room--
		rows = append(rows, lines[off:off+room]...)
		return append(rows, st.Muted.Render(fmt.Sprintf("↓ %s below (pgdn, ↓)", model.Count(len(lines)-off-room, "more line")))), off
	}
	return append(rows, lines[off:]...), off
}

// StateHelp is b with its description replaced: the same keys, said for
// what they do now (R reveal, R hide).
func StateHelp(b key.Binding, desc string) key.Binding {
	return key.NewBinding(key.WithKeys(b.Keys()...), key.WithHelp(b.Help().Key, desc))
}

// RevealHelp is R as it acts now: reveal, or hide once the values show.
func RevealHelp(b key.Binding, revealed bool) key.Binding {
	if revealed {
		return StateHelp(b, "hide")
	}
	return b
}
