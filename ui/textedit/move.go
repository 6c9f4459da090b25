package textedit

import (
	"slices"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// wheelLines and wheelCols are how far one notch of the mouse wheel
// scrolls.
const wheelLines, wheelCols = 3, 8

// key handles a key outside the prompts and reports whether it was the
// editor's.
func (m *Model) key(msg tea.KeyMsg) bool {
	k := m.KeyMap
	// The key's name, made once: key.Matches makes it again for each
	// binding, and a keystroke's allocations are what makes the collector
	// run during one.
	ks := msg.String()
	switch {
	case msg.Paste:
		m.paste(string(msg.Runes))
	case m.Selected() && key.Matches(msg, k.Cancel):
		m.clearSelection()
		return true
	case bound(ks, k.Find):
		m.clearSelection()
		m.openPrompt(findPrompt)
		return true
	case bound(ks, k.Replace):
		m.clearSelection()
		m.openPrompt(replacePrompt)
		return true
	case bound(ks, k.GotoLine):
		m.clearSelection()
		m.openPrompt(gotoPrompt)
		return true
	case m.selectionKey(msg, ks):
	case !m.keepsSelection(msg, ks) && m.clearsSelection():
	case !m.editKey(msg) && !m.moveKey(msg) && !m.typeKey(msg):
		// esc and ctrl+s are the parent's; anything else is nobody's.
		return false
	}
	m.scrollToCursor(false)
	return true
}

// keepsSelection reports whether msg acts on the selection (typing,
// backspace, delete), where a key that is not a select key clears it.
func (m *Model) keepsSelection(msg tea.KeyMsg, ks string) bool {
	k := m.KeyMap
	return (msg.Type == tea.KeyRunes || msg.Type == tea.KeySpace) && !msg.Alt ||
		bound(ks, k.Backspace) || bound(ks, k.Delete)
}

// bound is key.Matches for the key named ks.
func bound(ks string, b key.Binding) bool {
	return b.Enabled() && slices.Contains(b.Keys(), ks)
}

// clearsSelection clears the selection and returns false, so that the
// key goes on to act.
func (m *Model) clearsSelection() bool {
	m.clearSelection()
	return false
}

// editKey handles the keys that change the text but typing; false for
// any other key.
func (m *Model) editKey(msg tea.KeyMsg) bool {
	k := m.KeyMap
	switch {
	case key.Matches(msg, k.Undo):
		m.undoStep()
	case key.Matches(msg, k.Redo):
		m.redoStep()
	case key.Matches(msg, k.Backspace):
		m.backspace()
	case key.Matches(msg, k.Delete):
		m.deleteRight()
	case key.Matches(msg, k.Newline):
		m.newline()
	case key.Matches(msg, k.Indent):
		// YAML has no tabs.
		m.insert("  ")
	case key.Matches(msg, k.Outdent):
		m.outdent()
	case key.Matches(msg, k.DeleteLine):
		m.deleteLine()
	default:
		return false
	}
	return true
}

// moveKey handles the keys that move the cursor; false for any other key.
func (m *Model) moveKey(msg tea.KeyMsg) bool {
	k := m.KeyMap
	c := m.cur
	switch {
	case key.Matches(msg, k.Left):
		m.closeStep()
		if c.Col > 0 {
			m.moveTo(Pos{c.Line, prevBoundary(m.content(c.Line), c.Col)})
		} else if c.Line > 0 {
			m.moveTo(Pos{c.Line - 1, len(m.content(c.Line - 1))})
		}
	case key.Matches(msg, k.Right):
		m.closeStep()
		if s := m.content(c.Line); c.Col < len(s) {
			m.moveTo(Pos{c.Line, nextBoundary(s, c.Col)})
		} else if c.Line < len(m.lines)-1 {
			m.moveTo(Pos{c.Line + 1, 0})
		}
	case key.Matches(msg, k.Up):
		m.moveLines(-1)
	case key.Matches(msg, k.Down):
		m.moveLines(1)
	case key.Matches(msg, k.PageUp):
		m.top = max(m.top-m.bodyHeight(), 0)
		m.moveLines(-m.bodyHeight())
	case key.Matches(msg, k.PageDown):
		m.top = min(m.top+m.bodyHeight(), m.maxTop())
		m.moveLines(m.bodyHeight())
	default:
		return m.jumpKey(msg)
	}
	return true
}

// jumpKey handles the keys that move the cursor by a word, to a line's
// ends or to the text's; false for any other key.
func (m *Model) jumpKey(msg tea.KeyMsg) bool {
	k := m.KeyMap
	c := m.cur
	switch {
	case key.Matches(msg, k.WordLeft):
		m.moveTo(m.wordLeft())
	case key.Matches(msg, k.WordRight):
		m.moveTo(m.wordRight())
	case key.Matches(msg, k.LineStart):
		m.moveTo(Pos{c.Line, 0})
	case key.Matches(msg, k.LineEnd):
		m.moveTo(Pos{c.Line, len(m.content(c.Line))})
	case key.Matches(msg, k.DocStart):
		m.moveTo(Pos{})
	case key.Matches(msg, k.DocEnd):
		last := len(m.lines) - 1
		m.moveTo(Pos{last, len(m.content(last))})
	default:
		return false
	}
	return true
}

// typeKey types a key that is text; false for any other key.
func (m *Model) typeKey(msg tea.KeyMsg) bool {
	switch {
	case msg.Type == tea.KeyRunes && !msg.Alt:
		m.typeText(string(msg.Runes))
	case msg.Type == tea.KeySpace && !msg.Alt:
		m.typeText(" ")
	default:
		return false
	}
	return true
}

// moveTo puts the cursor at p (kept inside the text) without changing it,
// which ends the open typing step.
func (m *Model) moveTo(p Pos) {
	m.closeStep()
	m.cur, m.goalX = m.clamp(p), -1
}

// moveLines moves the cursor n lines down (up when negative), aiming for
// the display column it had when it started moving up or down.
func (m *Model) moveLines(n int) {
	m.closeStep()
	if m.goalX < 0 {
		m.goalX = xOf(m.content(m.cur.Line), m.cur.Col)
	}
	l := min(max(m.cur.Line+n, 0), len(m.lines)-1)
	if l == m.cur.Line {
		return
	}
	col, _ := colAt(m.content(l), m.goalX)
	m.cur = Pos{l, col}
}

// isWord reports whether the unit at byte i of s is part of a word: a
// letter, digit or underscore that is not drawn escaped.
func isWord(s string, i int) bool {
	r, size := utf8.DecodeRuneInString(s[i:])
	if r == utf8.RuneError && size == 1 {
		return false
	}
	return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)
}

// wordRight returns the end of the next word, or the start of the next line
// from the end of one.
func (m *Model) wordRight() Pos {
	c := m.cur
	s := m.content(c.Line)
	if c.Col >= len(s) {
		if c.Line < len(m.lines)-1 {
			return Pos{c.Line + 1, 0}
		}
		return c
	}
	i := c.Col
	for i < len(s) && !isWord(s, i) {
		i = nextBoundary(s, i)
	}
	for i < len(s) && isWord(s, i) {
		i = nextBoundary(s, i)
	}
	return Pos{c.Line, i}
}

// wordLeft returns the start of the word before the cursor, or the end of
// the line before from the start of one.
func (m *Model) wordLeft() Pos {
	c := m.cur
	s := m.content(c.Line)
	if c.Col == 0 {
		if c.Line > 0 {
			return Pos{c.Line - 1, len(m.content(c.Line - 1))}
		}
		return c
	}
	// One pass forward to the cursor, then back over its units: stepping
	// back unit by unit would rescan a long line without ASCII for each.
	var starts []int
	for i := 0; i < c.Col; i = nextBoundary(s, i) {
		starts = append(starts, i)
	}
	k := len(starts)
	for k > 0 && !isWord(s, starts[k-1]) {
		k--
	}
	for k > 0 && isWord(s, starts[k-1]) {
		k--
	}
	if k == len(starts) {
		return c
	}
	return Pos{c.Line, starts[k]}
}

// mouse scrolls with the wheel and moves the cursor where the left button
// is pressed (with shift, extending the selection there).
func (m *Model) mouse(msg tea.MouseMsg) {
	switch msg.Button {
	case tea.MouseButtonWheelUp:
		m.top = max(m.top-wheelLines, 0)
	case tea.MouseButtonWheelDown:
		m.top = min(m.top+wheelLines, m.maxTop())
	case tea.MouseButtonWheelLeft:
		m.xoff = max(m.xoff-wheelCols, 0)
	case tea.MouseButtonWheelRight:
		m.xoff += wheelCols
	case tea.MouseButtonLeft:
		if msg.Action == tea.MouseActionMotion {
			if m.prompt == noPrompt {
				m.closeStep()
				m.drag(msg.X, msg.Y)
			}
			return
		}
		if msg.Action != tea.MouseActionPress {
			return
		}
		m.closeStep()
		if msg.Y < 0 || msg.Y >= m.bodyHeight() {
			return
		}
		l, ok := m.lineAtRow(msg.Y)
		if !ok {
			return
		}
		gw, _ := m.gutter()
		col, _ := colAt(m.content(l), max(msg.X-gw, 0)+m.xoff)
		// A click with shift extends the selection to where it is, from
		// its anchor, or from the cursor when nothing is selected.
		anchor, extend := m.cur, msg.Shift && m.prompt == noPrompt
		if extend && m.selecting {
			anchor = m.anchor
		}
		m.moveTo(Pos{l, col})
		// A drag from here selects (outside a prompt, which moves the
		// cursor as it finds).
		m.selecting, m.anchor = m.prompt == noPrompt, m.cur
		if extend {
			m.anchor = anchor
		}
		m.scrollToCursor(false)
	}
}

// lineAtRow returns the line drawn on screen row y of the body; a note's
// row belongs to its line.
func (m *Model) lineAtRow(y int) (int, bool) {
	row := 0
	for l := m.top; l < len(m.lines); l++ {
		row += 1 + m.noteRows(l)
		if y < row {
			return l, true
		}
	}
	return 0, false
}

// bodyHeight is the rows for text: the height less the prompt's row.
func (m *Model) bodyHeight() int {
	if m.prompt != noPrompt {
		return max(m.height-1, 0)
	}
	return m.height
}

// maxTop is the last first line that still fills the screen.
func (m *Model) maxTop() int { return max(len(m.lines)-m.bodyHeight(), 0) }

// scrollToCursor scrolls as little as it takes to show the cursor, its
// line's notes when they fit, and its column; with center, a cursor off
// screen (a find or a jump) is put in the middle instead.
func (m *Model) scrollToCursor(center bool) {
	h := m.bodyHeight()
	if h <= 0 {
		return
	}
	l := m.cur.Line
	switch {
	case center && (l < m.top || l >= m.top+h):
		m.top = max(l-h/2, 0)
	case l < m.top:
		m.top = l
	case l-m.top >= h:
		m.top = l - h + 1
	}
	// Notes take rows too: move down until the cursor's line, and its own
	// notes when there is room for them, are on screen.
	need := 1 + min(m.noteRows(l), h-1)
	for len(m.notes) > 0 && m.top < l {
		rows := need
		for i := m.top; i < l && rows <= h; i++ {
			rows += 1 + m.noteRows(i)
		}
		if rows <= h {
			break
		}
		m.top++
	}

	_, tw := m.gutter()
	if tw <= 0 {
		return
	}
	x := xOf(m.content(l), m.cur.Col)
	switch {
	case x < tw:
		// Near the start of the line the start shows: the indentation
		// that gives YAML its meaning.
		m.xoff = 0
	case x < m.xoff:
		m.xoff = max(x-tw/4, 0)
	case x >= m.xoff+tw:
		m.xoff = x - tw + 1 + tw/4
	}
}
