package textedit

import (
	"strings"
	"unicode/utf8"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/internal/words"
)

// The selection is the text between the anchor and the cursor. A move with
// shift held (or a drag of the mouse) makes it and extends it; typing, a
// paste, backspace, delete and cut replace or remove it; copy keeps it;
// every other key, and esc, clears it first.

// Selected reports whether some text is selected: esc then clears the
// selection, and ctrl+c copies it, so the parent asks before it takes
// either as its own.
func (m Model) Selected() bool { return m.selecting && m.anchor != m.cur }

// Selection returns the selected text, "" for none.
func (m Model) Selection() string {
	if !m.Selected() {
		return ""
	}
	a, b := m.selBounds()
	return m.slice(a, b)
}

// Register returns kedit's own register: the text last copied or cut,
// which Paste inserts. It outlives Open, so that what was cut from one
// text can be pasted in the next.
func (m Model) Register() string {
	if m.out == nil {
		return ""
	}
	return m.out.register
}

// Copied counts the copies and cuts into the register: the parent hands the
// register to the terminal's clipboard when it grows.
func (m Model) Copied() uint64 {
	if m.out == nil {
		return 0
	}
	return m.out.copies
}

// Said returns what the editor last said of what a key did ("copied 3
// lines", "replaced 2 occurrences") and a count that grows each time it
// says something, for the parent's status line.
func (m Model) Said() (uint64, escape.Text) {
	if m.out == nil {
		return 0, ""
	}
	return m.out.saidSeq, m.out.said
}

// say records what a key did, for Said.
func (m *Model) say(t escape.Text) {
	o := m.output()
	o.saidSeq++
	o.said = t
}

// selBounds returns the selection's start and end, in the text's order.
func (m *Model) selBounds() (Pos, Pos) {
	a, b := m.anchor, m.cur
	if b.Line < a.Line || b.Line == a.Line && b.Col < a.Col {
		a, b = b, a
	}
	return a, b
}

// clearSelection forgets the selection.
func (m *Model) clearSelection() { m.selecting = false }

// unshifted is the move a select key extends the selection with: the same
// key without shift.
var unshifted = map[tea.KeyType]tea.KeyType{
	tea.KeyShiftLeft: tea.KeyLeft, tea.KeyShiftRight: tea.KeyRight, tea.KeyShiftUp: tea.KeyUp, tea.KeyShiftDown: tea.KeyDown,
	tea.KeyShiftHome: tea.KeyHome, tea.KeyShiftEnd: tea.KeyEnd,
	tea.KeyCtrlShiftLeft: tea.KeyCtrlLeft, tea.KeyCtrlShiftRight: tea.KeyCtrlRight,
	tea.KeyCtrlShiftHome: tea.KeyCtrlHome, tea.KeyCtrlShiftEnd: tea.KeyCtrlEnd,
}

// selectKey moves the cursor as the key without shift does, keeping (or
// setting) the selection's anchor.
func (m *Model) selectKey(msg tea.KeyMsg) {
	move, ok := unshifted[msg.Type]
	if !ok {
		return
	}
	if !m.selecting {
		m.selecting, m.anchor = true, m.cur
	}
	msg.Type = move
	m.moveKey(msg)
}

// selectionKey handles the keys that act on the selection or the
// register, and readline's deletes; false for any other key. A key that
// is neither a select key nor one of these clears the selection before it
// acts (key does it).
func (m *Model) selectionKey(msg tea.KeyMsg, ks string) bool {
	k := m.KeyMap
	switch {
	case bound(ks, k.Select):
		m.selectKey(msg)
	case bound(ks, k.Copy):
		if !m.Selected() {
			if ks == "ctrl+c" {
				// Without a selection ctrl+c is the parent's.
				return false
			}
			m.copyLine()
			return true
		}
		m.copyText(m.Selection(), "copied")
	case bound(ks, k.Cut):
		m.cut()
	case bound(ks, k.Paste):
		m.pasteRegister()
	case bound(ks, k.DeleteWordLeft):
		if !m.deleteSelection() {
			m.deleteTo(m.wordLeft())
		}
	case bound(ks, k.DeleteToLineStart):
		if !m.deleteSelection() {
			m.deleteTo(Pos{m.cur.Line, 0})
		}
	default:
		return false
	}
	return true
}

// copyText puts s in the register and says so.
func (m *Model) copyText(s, verb string) {
	o := m.output()
	o.register = s
	o.copies++
	m.say(escape.Textf("%s %s", verb, measure(s)))
}

// measure says how much s is: the lines it touches, or its characters
// within one line.
func measure(s string) string {
	n := strings.Count(s, "\n")
	if n == 0 {
		return words.Count(utf8.RuneCountInString(s), "character")
	}
	if !strings.HasSuffix(s, "\n") {
		n++
	}
	return words.Count(n, "line")
}

// lineBounds returns the cursor's line with its line break (the last line
// takes the break before it): what ctrl+k deletes.
func (m *Model) lineBounds() (Pos, Pos, bool) {
	l := m.cur.Line
	switch {
	case l < len(m.lines)-1:
		return Pos{l, 0}, Pos{l + 1, 0}, true
	case l > 0:
		return Pos{l - 1, len(m.content(l - 1))}, Pos{l, len(m.lines[l])}, true
	case m.lines[0] != "":
		return Pos{0, 0}, Pos{0, len(m.lines[0])}, true
	}
	return Pos{}, Pos{}, false
}

// copyLine copies the cursor's line, as cut would cut it.
func (m *Model) copyLine() {
	if a, b, ok := m.lineBounds(); ok {
		m.copyText(m.slice(a, b), "copied")
	}
}

// cut removes the selection, or without one the cursor's line, into the
// register, as one undo step.
func (m *Model) cut() {
	if m.Selected() {
		m.copyText(m.Selection(), "cut")
		m.deleteSelection()
		return
	}
	m.clearSelection()
	a, b, ok := m.lineBounds()
	if !ok {
		m.closeStep()
		return
	}
	m.copyText(m.slice(a, b), "cut")
	m.deleteLine()
}

// deleteSelection removes the selected text as one undo step; false when
// nothing is selected.
func (m *Model) deleteSelection() bool {
	if !m.Selected() {
		m.clearSelection()
		return false
	}
	a, b := m.selBounds()
	m.clearSelection()
	m.change(kindOther, a, b, "")
	m.land(a, false)
	return true
}

// deleteTo deletes from p, before the cursor, to the cursor as one undo
// step.
func (m *Model) deleteTo(p Pos) {
	if p == m.cur {
		m.closeStep()
		return
	}
	m.change(kindOther, p, m.cur, "")
	m.land(p, false)
}

// pasteRegister inserts the register at the cursor, in place of the
// selection, byte for byte, as one undo step.
func (m *Model) pasteRegister() {
	from, to := m.cur, m.cur
	if m.Selected() {
		from, to = m.selBounds()
	}
	m.clearSelection()
	reg := m.output().register
	if reg == "" && from == to {
		m.closeStep()
		return
	}
	m.land(m.change(kindOther, from, to, reg), true)
}

// replaceSelection removes the selected text before typing or a paste
// puts s in its place, as one undo step with it; false when nothing is
// selected.
func (m *Model) replaceSelection(kind editKind, s string) bool {
	if !m.Selected() {
		m.clearSelection()
		return false
	}
	a, b := m.selBounds()
	m.clearSelection()
	m.land(m.change(kind, a, b, s), true)
	return true
}

// drag extends the selection to where the mouse is while its left button
// is held: above or below the text, a line up or down.
func (m *Model) drag(x, y int) {
	var l int
	switch {
	case y < 0:
		l = max(m.top-1, 0)
	case y >= m.bodyHeight():
		l = min(m.top+m.bodyHeight(), len(m.lines)-1)
	default:
		var ok bool
		if l, ok = m.lineAtRow(y); !ok {
			l = len(m.lines) - 1
		}
	}
	gw, _ := m.gutter()
	col, _ := colAt(m.content(l), max(x-gw, 0)+m.xoff)
	if !m.selecting {
		m.selecting, m.anchor = true, m.cur
	}
	m.cur, m.goalX = m.clamp(Pos{l, col}), -1
	m.scrollToCursor(false)
}
