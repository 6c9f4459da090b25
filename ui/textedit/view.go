package textedit

import (
	"sort"
	"strconv"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
)

// View draws the rows on screen, and nothing else: each row is the gutter
// (a mark against base, the line number) and the part of the line that
// the horizontal scroll shows, then the line's notes; the find or
// go-to-line prompt takes the last row. Every row is exactly the width
// given to SetSize.
func (m Model) View() string {
	if m.width <= 0 || m.height <= 0 {
		return ""
	}
	gw, tw := m.gutter()
	h := m.bodyHeight()
	var b strings.Builder
	// Room for a row of ASCII and a few styles' escape sequences, so that
	// the builder rarely grows: what View allocates is most of a
	// keystroke's garbage, and garbage is what makes the collector run
	// during a keystroke.
	b.Grow(m.height * (m.width + 120))
	d := m.newDrawer(&b)
	rows := 0
	newRow := func() {
		if rows > 0 {
			b.WriteByte('\n')
		}
		rows++
	}
	for l := m.top; l < len(m.lines) && rows < h; l++ {
		newRow()
		m.drawGutter(&d, l, gw)
		m.drawLine(&d, l, tw)
		if len(m.notes) == 0 {
			continue
		}
		for _, t := range m.noteTexts(l) {
			if rows >= h {
				break
			}
			newRow()
			d.note(t, gw, tw)
		}
	}
	for rows < h {
		newRow()
		d.pad(m.width)
	}
	if m.prompt != noPrompt {
		newRow()
		m.drawPrompt(&b)
	}
	return b.String()
}

// newDrawer returns the drawer of View's rows into b.
func (m *Model) newDrawer(b *strings.Builder) drawer {
	if m.styles == nil {
		// A Model not made by New.
		m.SetStyles(DefaultStyles())
	}
	d := drawer{b: b, st: m.styles, sgr: m.sgr}
	if p := lipgloss.ColorProfile(); d.sgr.profile != p {
		*d.sgr = sgrCache{profile: p}
	}
	return d
}

// gutter returns the gutter's width (a mark column, the line numbers,
// which take as many digits as the last line's number, and a space) and
// the text's. On a screen too narrow for both, the text takes it all.
func (m *Model) gutter() (gw, tw int) {
	gw = len(strconv.Itoa(len(m.lines))) + 2
	if m.width-gw < 1 {
		return 0, m.width
	}
	return gw, m.width - gw
}

// drawGutter draws line l's mark against base and its number.
func (m *Model) drawGutter(d *drawer, l, gw int) {
	if gw == 0 {
		return
	}
	mk := m.marks[l]
	switch {
	case mk&markAdded != 0:
		d.put(clsAdded, "+", 1)
	case mk&markChanged != 0:
		d.put(clsChanged, "~", 1)
	case mk&(markDeleted|markDeletedBelow) != 0:
		d.put(clsDeleted, "-", 1)
	default:
		d.put(clsPlain, " ", 1)
	}
	var buf [20]byte
	num := strconv.AppendInt(buf[:0], int64(l+1), 10)
	d.blank(gw - 2 - len(num))
	cls := clsLineNumber
	switch {
	case l == m.cur.Line:
		cls = clsCursorLineNumber
	case m.hasNote(l):
		cls = clsNoteLineNumber
	}
	if cls != d.cls {
		d.flush()
		d.cls = cls
	}
	d.run = append(d.run, num...)
	d.put(clsPlain, " ", 1)
	d.flush()
	d.cells = 0
}

// drawLine draws what the horizontal scroll shows of line l in tw cells:
// it walks the line's units from its start to the right edge of the
// screen, and no further.
func (m *Model) drawLine(d *drawer, l, tw int) {
	s := m.content(l)
	d.hl = highlight(s, d.hl[:0])
	d.matches = d.matches[:0]
	if q := m.findQuery(); q != "" {
		d.matches = matchesIn(s, q, d.matches)
	}
	cursor := -1
	if l == m.cur.Line {
		cursor = m.cur.Col
	}
	selFrom, selTo, selBreak := m.selectedOn(l)
	left, right := m.xoff, m.xoff+tw
	hk, mk := 0, 0
	x, i := skipTo(s, left)
	for i < len(s) && x < right {
		u := unitAt(s, i)
		cls := classAt(d.hl, &hk, i)
		if u.esc != "" {
			cls = clsEscape
		}
		if j := spanAt(d.matches, &mk, i); j >= 0 {
			cls = clsMatch
			if d.matches[j].start == cursor {
				cls = clsCurrentMatch
			}
		}
		if i >= selFrom && i < selTo {
			cls = clsSelection
		}
		if i == cursor {
			cls = clsCursor
		}
		d.unit(cls, s[i:i+u.n], u, x, left, right)
		x, i = x+u.w, i+u.n
	}
	if i == len(s) && x < right {
		m.drawLineEnd(d, l, cursor, selBreak, x, left, right)
	}
	d.pad(tw)
	d.flush()
}

// skipTo goes through s, a line's content, to the column left, where the
// screen starts: only the columns count. It returns the column it stops
// at and its byte offset, before a unit that left cuts.
func skipTo(s string, left int) (x, i int) {
	for i < len(s) && x < left {
		if j := min(plainEnd(s, i), i+left-x); j > i {
			x, i = x+j-i, j
			continue
		}
		u := unitAt(s, i)
		if x+u.w > left {
			break
		}
		x, i = x+u.w, i+u.n
	}
	return x, i
}

// drawLineEnd draws what follows line l's content at column x: a CRLF
// line's "\r", which the cursor stands on at the end of the line, or the
// cursor on a blank.
func (m *Model) drawLineEnd(d *drawer, l, cursor int, selBreak bool, x, left, right int) {
	s := m.content(l)
	cls := clsEscape
	if selBreak {
		cls = clsSelection
	}
	if cursor == len(s) {
		cls = clsCursor
	}
	switch {
	case len(s) < len(m.lines[l]):
		d.unit(cls, "\r", unit{n: 1, w: 2, esc: `\r`}, x, left, right)
	case cursor == len(s) || selBreak:
		// A selected line break shows as a selected blank.
		d.unit(cls, " ", unit{n: 1, w: 1}, x, left, right)
	}
}

// selectedOn returns the bytes of line l's content that are selected, and
// whether its line break is: nothing (0, 0, false) without a selection.
func (m *Model) selectedOn(l int) (from, to int, lineBreak bool) {
	if !m.Selected() {
		return 0, 0, false
	}
	a, b := m.selBounds()
	if l < a.Line || l > b.Line {
		return 0, 0, false
	}
	from, to = 0, len(m.lines[l])
	if l == a.Line {
		from = a.Col
	}
	if l == b.Line {
		to = b.Col
	}
	return from, to, l < b.Line
}

// hasNote reports whether line l has a note.
func (m *Model) hasNote(l int) bool {
	i := sort.Search(len(m.notes), func(i int) bool { return m.notes[i].Line >= l })
	return i < len(m.notes) && m.notes[i].Line == l
}

// noteTexts returns the rows of line l's notes (escaped where they were
// made), each wrapped at words to the text's width: a reason is read
// whole, not cut.
func (m *Model) noteTexts(l int) []string {
	i := sort.Search(len(m.notes), func(i int) bool { return m.notes[i].Line >= l })
	var rows []string
	_, tw := m.gutter()
	for ; i < len(m.notes) && m.notes[i].Line == l; i++ {
		if m.notes[i].AtCursor && l != m.cur.Line {
			continue
		}
		t := strings.ReplaceAll(string(m.notes[i].Text), "\t", " ")
		if tw > 2 && ansi.StringWidth(t) > tw-2 {
			t = ansi.Wrap(t, tw-2, " ")
		}
		for j, r := range strings.Split(t, "\n") {
			if j == 0 {
				r = "↑ " + r
			} else {
				r = "  " + r
			}
			rows = append(rows, r)
		}
	}
	return rows
}

// noteRows returns how many rows line l's notes take.
func (m *Model) noteRows(l int) int {
	if len(m.notes) == 0 {
		return 0
	}
	return len(m.noteTexts(l))
}

// drawPrompt draws the open prompt on the last row.
func (m *Model) drawPrompt(b *strings.Builder) {
	label, hint := "find: ", "  enter: next  esc: close"
	switch m.prompt {
	case gotoPrompt:
		label, hint = "go to line: ", "  enter: go  esc: cancel"
	case replacePrompt:
		label, hint = "replace: ", "  enter: then type what replaces it  esc: close"
	case replaceWithPrompt:
		// The query was typed through appendInput: no control character.
		label, hint = "replace "+strconv.Quote(m.query)+" with: ", "  enter: this one, next  ctrl+a: all  esc: close"
	}
	row := m.styles.Prompt.Render(label) + m.input + m.styles.Cursor.Render(" ")
	if m.noMatch {
		row += "  " + m.styles.NoMatch.Render("no match")
	}
	row = ansi.Truncate(row+hint, m.width, "")
	b.WriteString(row)
	b.WriteString(strings.Repeat(" ", max(m.width-ansi.StringWidth(row), 0)))
}

// classAt returns the class of the span holding byte i, spans sorted and
// walked left to right with *k.
func classAt(spans []span, k *int, i int) class {
	if j := spanAt(spans, k, i); j >= 0 {
		return spans[j].cls
	}
	return clsPlain
}

// spanAt returns the index of the span holding byte i, or -1.
func spanAt(spans []span, k *int, i int) int {
	for *k < len(spans) && spans[*k].end <= i {
		*k++
	}
	if *k < len(spans) && spans[*k].start <= i {
		return *k
	}
	return -1
}
