package textedit

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// editKind is what a change was, for grouping changes into undo steps.
type editKind uint8

const (
	// kindNone: no change is open; the next one starts an undo step.
	kindNone editKind = iota
	// kindType, kindBackspace and kindDelete join the open change of the
	// same kind, one undo step per word.
	kindType
	kindBackspace
	kindDelete
	// kindPaste joins the open paste while pastes follow one another with
	// nothing between them: a paste that kedit's input filter (or the
	// terminal) cut into several is one undo step.
	kindPaste
	// kindOther is an undo step of its own: enter, tab, ctrl+k.
	kindOther
)

// edit is one change of the text: at `at`, del was replaced by ins. Undo
// keeps these, never copies of the text, so its memory is what was typed
// and deleted.
type edit struct {
	at       Pos
	del, ins string
}

// group is one undo step and where the cursor was before and after it.
// Every step is one edit: a run of typing grows its edit in place.
type group struct {
	edit
	// more is inserted text that follows ins, one piece per paste joined:
	// appending a piece to ins would copy the whole paste so far each time,
	// a square of a large paste's size. Undo and redo join them (flat).
	more          []string
	before, after Pos
}

// flat joins the pieces of a joined paste into ins.
func (g *group) flat() {
	if len(g.more) > 0 {
		g.ins += strings.Join(g.more, "")
		g.more = nil
	}
}

// change replaces the text from `from` to `to` with s as a change of the
// given kind, records it for undo and returns where s ends. Typing joins
// the open typing step while it goes on where it left off, and so do runs
// of backspace and delete; a new step starts where a new word starts (a
// character that is not a space after one that is), and with every other
// kind of change.
func (m *Model) change(kind editKind, from, to Pos, s string) Pos {
	before := m.cur
	end, old := m.replace(from, to, s)
	text := s
	if kind != kindType {
		text = old
	}
	first, last := spaceAt(text, false), spaceAt(text, true)
	join := kind == m.open && kind != kindOther && len(m.undo) > 0 && (kind == kindPaste || !(m.lastSpace && !first))
	switch {
	case join && kind == kindPaste && from == m.expect:
		g := &m.undo[len(m.undo)-1]
		g.more = append(g.more, s)
	case join && kind == kindType && from == m.expect:
		e := &m.undo[len(m.undo)-1].edit
		e.ins += s
	case join && kind == kindBackspace && to == m.expect:
		e := &m.undo[len(m.undo)-1].edit
		e.at, e.del = from, old+e.del
	case join && kind == kindDelete && from == m.expect:
		e := &m.undo[len(m.undo)-1].edit
		e.del += old
	default:
		join = false
	}
	if join {
		if m.clean == len(m.undo) {
			m.clean = -1
		}
	} else {
		if m.clean > len(m.undo) {
			// The original was in the redo history this change drops.
			m.clean = -1
		}
		m.undo = append(m.undo, group{edit: edit{at: from, del: old, ins: s}, before: before})
	}
	m.redo = nil
	m.open = kind
	if kind == kindOther {
		m.open = kindNone
	}
	m.lastSpace = first
	m.expect = from
	if kind == kindType || kind == kindPaste {
		m.lastSpace, m.expect = last, end
	}
	return end
}

// land puts the cursor at p after a change, moving it off the middle of a
// unit the change may have made (forward after an insertion, back after a
// deletion), and records it as where redo leaves the cursor.
func (m *Model) land(p Pos, forward bool) {
	p.Line = min(max(p.Line, 0), len(m.lines)-1)
	s := m.content(p.Line)
	p.Col = min(max(p.Col, 0), len(s))
	if forward {
		p.Col = snapForward(s, p.Col)
	} else {
		p.Col = snapBack(s, p.Col)
	}
	m.cur, m.goalX = p, -1
	m.undo[len(m.undo)-1].after = p
}

// spaceAt reports whether the first (or last) character of t is a space; a
// line break counts as one.
func spaceAt(t string, last bool) bool {
	if t == "" {
		return false
	}
	if strings.IndexByte(t, '\n') >= 0 {
		return true
	}
	r, size := utf8.DecodeRuneInString(t)
	if last {
		r, size = utf8.DecodeLastRuneInString(t)
	}
	return !(r == utf8.RuneError && size == 1) && unicode.IsSpace(r)
}

// closeStep ends the open typing or deleting step: whatever comes next is a
// step of its own.
func (m *Model) closeStep() { m.open = kindNone }

// typeText inserts what was typed at the cursor.
func (m *Model) typeText(s string) {
	if s == "" || m.replaceSelection(kindType, s) {
		return
	}
	m.land(m.change(kindType, m.cur, m.cur, s), true)
}

// insert inserts s at the cursor as one undo step of its own.
func (m *Model) insert(s string) {
	if s == "" {
		m.closeStep()
		return
	}
	m.land(m.change(kindOther, m.cur, m.cur, s), true)
}

// paste inserts a paste as one undo step, joined to the paste before it
// when nothing came between them (Update ends the paste's step on any
// other key or the mouse). Terminals send a paste's line breaks as "\r"
// (what enter sends), so "\r\n" and "\r" become the document's line break
// at the cursor, also when a "\r\n" was cut between two pastes; the cost
// is the paste's size and the lines it adds.
func (m *Model) paste(s string) {
	joins := m.open == kindPaste && m.cur == m.expect
	if joins && m.pasteCR && strings.HasPrefix(s, "\n") {
		s = s[1:]
	}
	if s == "" {
		// Nothing to paste; the paste around it goes on.
		return
	}
	m.pasteCR = s[len(s)-1] == '\r'
	if strings.IndexByte(s, '\r') >= 0 {
		s = strings.ReplaceAll(s, "\r\n", "\n")
		s = strings.ReplaceAll(s, "\r", "\n")
	}
	if eol := m.eolAt(m.cur.Line); eol != "\n" && strings.IndexByte(s, '\n') >= 0 {
		s = strings.ReplaceAll(s, "\n", eol)
	}
	if m.replaceSelection(kindPaste, s) {
		return
	}
	m.land(m.change(kindPaste, m.cur, m.cur, s), true)
}

// newline breaks the line at the cursor with the line's own ending, and
// starts the new line with the current one's indentation (as far as the
// cursor, when the cursor is inside it).
func (m *Model) newline() {
	s := m.content(m.cur.Line)
	n := 0
	for n < len(s) && n < m.cur.Col && (s[n] == ' ' || s[n] == '\t') {
		n++
	}
	m.insert(m.eolAt(m.cur.Line) + s[:n])
}

// outdent removes up to two spaces from the start of the line.
func (m *Model) outdent() {
	l := m.cur.Line
	s := m.content(l)
	n := 0
	for n < 2 && n < len(s) && s[n] == ' ' {
		n++
	}
	if n == 0 {
		m.closeStep()
		return
	}
	col := max(m.cur.Col-n, 0)
	m.change(kindOther, Pos{l, 0}, Pos{l, n}, "")
	m.land(Pos{l, col}, false)
}

// backspace deletes the unit before the cursor, or the line break before
// the line.
func (m *Model) backspace() {
	if m.deleteSelection() {
		return
	}
	c := m.cur
	switch {
	case c.Col > 0:
		from := Pos{c.Line, prevBoundary(m.content(c.Line), c.Col)}
		m.change(kindBackspace, from, c, "")
		m.land(from, false)
	case c.Line > 0:
		from := Pos{c.Line - 1, len(m.content(c.Line - 1))}
		m.change(kindBackspace, from, c, "")
		m.land(from, false)
	default:
		m.closeStep()
	}
}

// deleteRight deletes the unit under the cursor, or the line's break.
func (m *Model) deleteRight() {
	if m.deleteSelection() {
		return
	}
	c := m.cur
	s := m.content(c.Line)
	switch {
	case c.Col < len(s):
		m.change(kindDelete, c, Pos{c.Line, nextBoundary(s, c.Col)}, "")
		m.land(c, false)
	case c.Line < len(m.lines)-1:
		m.change(kindDelete, c, Pos{c.Line + 1, 0}, "")
		m.land(c, false)
	default:
		m.closeStep()
	}
}

// deleteLine deletes the cursor's line with its line break (the last line
// takes the break before it) and puts the cursor at the start of the line
// that takes its place.
func (m *Model) deleteLine() {
	l := m.cur.Line
	switch {
	case l < len(m.lines)-1:
		m.change(kindOther, Pos{l, 0}, Pos{l + 1, 0}, "")
		m.land(Pos{l, 0}, false)
	case l > 0:
		m.change(kindOther, Pos{l - 1, len(m.content(l - 1))}, Pos{l, len(m.lines[l])}, "")
		m.land(Pos{l - 1, 0}, false)
	case m.lines[0] != "":
		m.change(kindOther, Pos{0, 0}, Pos{0, len(m.lines[0])}, "")
		m.land(Pos{0, 0}, false)
	default:
		m.closeStep()
	}
}

// undoStep takes back the last undo step and puts the cursor where it was
// before it.
func (m *Model) undoStep() {
	m.closeStep()
	if len(m.undo) == 0 {
		return
	}
	g := m.undo[len(m.undo)-1]
	m.undo[len(m.undo)-1] = group{}
	m.undo = m.undo[:len(m.undo)-1]
	g.flat()
	m.replace(g.at, endOf(g.at, g.ins), g.del)
	m.redo = append(m.redo, g)
	m.cur, m.goalX = m.clamp(g.before), -1
}

// redoStep does the last undone step again and puts the cursor where it
// was after it.
func (m *Model) redoStep() {
	m.closeStep()
	if len(m.redo) == 0 {
		return
	}
	g := m.redo[len(m.redo)-1]
	m.redo[len(m.redo)-1] = group{}
	m.redo = m.redo[:len(m.redo)-1]
	m.replace(g.at, endOf(g.at, g.del), g.ins)
	m.undo = append(m.undo, g)
	m.cur, m.goalX = m.clamp(g.after), -1
}
