package textedit

import (
	"slices"
	"sort"
	"strings"
	"sync/atomic"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/kedit/kedit/internal/escape"
)

// Pos is a place in the text: a line, counted from 0, and a byte offset
// into it. The editor keeps its cursor on a character boundary.
type Pos struct{ Line, Col int }

// Note is a message drawn under a line while editing: a YAML parse error,
// or a field the server refused in a save (a 422's cause). Its text holds
// server text (a 422's message quotes the value the server refused), so it
// is an escape.Text, escaped where it was made.
type Note struct {
	Line int // counted from 0
	Text escape.Text
	// AtCursor: the note is drawn only while the cursor is on its line
	// (a diagnostic of many, which would crowd the text); its line's
	// number is marked all the same.
	AtCursor bool
}

// lastID numbers editors, so that one editor's background results never
// reach another.
var lastID atomic.Int64

// Model is the editor. It is a value, as bubbles' components are: Update
// returns the next one, and a Model must not be used once Update has
// returned its successor, since they share the text's storage.
type Model struct {
	// KeyMap is the editor's keys; DefaultKeyMap unless changed.
	KeyMap KeyMap

	id int64

	styles *Styles // shared by the copies Update makes: a Styles is large
	// sgr holds what each style puts around text, rendered once. It is
	// shared by the copies Update makes, and replaced by SetStyles.
	sgr *sgrCache

	// The text is lines joined by "\n". A line keeps its "\r" of a CRLF
	// ending: the editor treats "\r\n" as one line break, and the "\r" is
	// never lost.
	lines    []string
	size     int    // the text's length in bytes
	original string // what Open put in, for Changed
	version  uint64

	cur           Pos
	goalX         int // the display column up and down aim for; -1 to take the cursor's
	top, xoff     int // first line and first display column on screen
	width, height int

	undo, redo []group
	open       editKind // the kind of the last change while it can still take more
	lastSpace  bool     // the last character typed or deleted was a space
	pasteCR    bool     // the open paste ended with "\r", maybe the first half of "\r\n"
	expect     Pos      // where the next change must be to join the open one
	clean      int      // len(undo) at which the text is the original; -1 if none

	base         string
	marks        []mark // one per line
	marksTick    bool   // a marksDueMsg is on its way
	marksVersion uint64 // the version the marks are the diff's of
	diffing      bool   // a diff runs in the background
	diffSeq      uint64

	notes []Note // sorted by line

	prompt  promptKind
	input   string
	origin  Pos // the cursor when the find prompt opened
	noMatch bool
	// query is what the replace prompt's second step (typing the
	// replacement) replaces: the text typed in its first.
	query string

	// The selection runs from anchor to the cursor while selecting.
	anchor    Pos
	selecting bool
	// out is what the editor hands its parent besides the text: the
	// register and what a key did, in words. It is shared by the copies
	// Update makes, as the text is (a Model is large, and copied often).
	out *output
}

// output is the register, what was last copied or cut (copies counts
// them), and what a key last did, in words (saidSeq counts them).
type output struct {
	register string
	copies   uint64
	said     escape.Text
	saidSeq  uint64
}

// output returns the editor's output, made on first use (a Model not made
// by New has none).
func (m *Model) output() *output {
	if m.out == nil {
		m.out = &output{}
	}
	return m.out
}

// New returns an editor holding the empty text, with the default keys and
// styles. It draws nothing until SetSize.
func New() Model {
	m := Model{KeyMap: DefaultKeyMap(), id: lastID.Add(1), out: &output{}}
	m.SetStyles(DefaultStyles())
	m.Open("")
	return m
}

// SetStyles sets how the editor draws.
func (m *Model) SetStyles(s Styles) {
	m.styles = &s
	m.sgr = &sgrCache{}
}

// Styles returns how the editor draws.
func (m Model) Styles() Styles {
	if m.styles == nil {
		return DefaultStyles()
	}
	return *m.styles
}

// Open puts text in the editor, with the cursor at the top and no history.
// The gutter compares it with itself (no marks) until SetBase gives the
// base. It keeps text as it is: the lines share its storage, and Text
// returns it byte for byte until something is typed.
func (m *Model) Open(text string) {
	m.lines = strings.Split(text, "\n")
	m.size = len(text)
	m.original = text
	m.version++
	m.cur, m.goalX, m.top, m.xoff = Pos{}, -1, 0, 0
	m.undo, m.redo, m.open, m.clean = nil, nil, kindNone, 0
	m.base = text
	m.marks = make([]mark, len(m.lines))
	m.marksVersion = m.version
	m.diffSeq++
	m.diffing = false
	m.notes = nil
	m.prompt, m.input = noPrompt, ""
	m.selecting = false
}

// Text returns the text as edited: what Open put in, byte for byte, while
// nothing has changed it. It joins the lines, so it costs the text's size.
func (m Model) Text() string { return strings.Join(m.lines, "\n") }

// Len returns the text's length in bytes, without building it.
func (m Model) Len() int { return m.size }

// Lines returns how many lines the text has: one more than its "\n"s.
func (m Model) Lines() int { return len(m.lines) }

// Version counts changes of the text: it grows with every keystroke that
// changes it (undo and redo included) and with Open, and with nothing else,
// so the parent can tell when to write the draft without comparing texts.
func (m Model) Version() uint64 { return m.version }

// Changed reports whether the text differs from what Open put in. It is
// immediate after no change or after undoing back to the start, and
// otherwise compares lengths first: only a text of the original's length is
// compared byte by byte.
func (m Model) Changed() bool {
	if m.clean == len(m.undo) {
		return false
	}
	if m.size != len(m.original) {
		return true
	}
	off := 0
	for i, l := range m.lines {
		if i > 0 {
			if m.original[off] != '\n' {
				return true
			}
			off++
		}
		if !strings.HasPrefix(m.original[off:], l) {
			return true
		}
		off += len(l)
	}
	return false
}

// Cursor returns the cursor's place: its line from 0 and its byte offset.
func (m Model) Cursor() Pos { return m.cur }

// CursorColumn returns the display column of the cursor from 0, as a
// status line would show it (wide characters count two, an escape its
// width).
func (m Model) CursorColumn() int { return xOf(m.content(m.cur.Line), m.cur.Col) }

// SetCursor moves the cursor to p, kept inside the text and on a character
// boundary, and scrolls to it.
func (m *Model) SetCursor(p Pos) {
	m.clearSelection()
	m.moveTo(p)
	m.scrollToCursor(true)
}

// Prompting reports whether the find or go-to-line prompt is open. Esc then
// closes the prompt, so the parent asks before it takes esc as leaving the
// editor (after Update the prompt is closed and the question too late).
func (m Model) Prompting() bool { return m.prompt != noPrompt }

// SetSize sets the width and height the editor draws in, prompt row
// included.
func (m *Model) SetSize(width, height int) {
	m.width, m.height = max(width, 0), max(height, 0)
	m.scrollToCursor(false)
}

// Width returns the width SetSize gave.
func (m Model) Width() int { return m.width }

// Height returns the height SetSize gave.
func (m Model) Height() int { return m.height }

// SetNotes replaces the notes drawn under lines. While the text is edited,
// a note follows its line as lines are added or removed above it; the
// parent sets new ones when it has new ones to show.
func (m *Model) SetNotes(notes []Note) {
	m.notes = slices.Clone(notes)
	for i := range m.notes {
		m.notes[i].Line = min(max(m.notes[i].Line, 0), len(m.lines)-1)
	}
	sort.SliceStable(m.notes, func(i, j int) bool { return m.notes[i].Line < m.notes[j].Line })
}

// Notes are the notes drawn under lines, each on its line as it is now
// (they follow the lines as the text is edited).
func (m Model) Notes() []Note { return slices.Clone(m.notes) }

// Update handles keys, the mouse and the editor's own background results
// (the gutter's diff): the parent passes it every message it does not
// handle itself and runs the commands it returns, or the marks stop
// following the text. Mouse coordinates must be relative to the editor's
// top left corner: the parent subtracts where it draws the editor. Keys
// the editor does not use (esc outside a prompt, ctrl+s, ctrl+c) change
// nothing, for the parent to act on.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.KeyMsg:
		if !msg.Paste && m.open == kindPaste {
			// Something came between two pastes: they are two steps.
			m.closeStep()
		}
		v := m.version
		if m.prompt == noPrompt || !m.promptKey(msg) {
			if !m.key(msg) {
				return m, nil
			}
		}
		if m.version != v {
			cmd := m.scheduleMarks()
			return m, cmd
		}
	case tea.MouseMsg:
		if m.open == kindPaste {
			m.closeStep()
		}
		m.mouse(msg)
	case marksDueMsg:
		return m.marksDue(msg)
	case marksMsg:
		return m.marksDone(msg)
	}
	return m, nil
}

// content returns line i without the "\r" of a CRLF ending. Only a line
// followed by "\n" has an ending: a last line's "\r" is content.
func (m *Model) content(i int) string {
	s := m.lines[i]
	if i < len(m.lines)-1 && strings.HasSuffix(s, "\r") {
		return s[:len(s)-1]
	}
	return s
}

// eolAt returns the line break that enter inserts on line i: the line's
// own, or on the last line (which has none) the one before it.
func (m *Model) eolAt(i int) string {
	if i == len(m.lines)-1 {
		if i == 0 {
			return "\n"
		}
		i--
	}
	if len(m.content(i)) < len(m.lines[i]) {
		return "\r\n"
	}
	return "\n"
}

// clamp keeps p inside the text, on the content of its line, and on the
// start of a unit.
func (m *Model) clamp(p Pos) Pos {
	p.Line = min(max(p.Line, 0), len(m.lines)-1)
	s := m.content(p.Line)
	p.Col = snapBack(s, min(max(p.Col, 0), len(s)))
	return p
}

// slice returns the text from a to b.
func (m *Model) slice(a, b Pos) string {
	if a.Line == b.Line {
		return m.lines[a.Line][a.Col:b.Col]
	}
	var sb strings.Builder
	sb.WriteString(m.lines[a.Line][a.Col:])
	for i := a.Line + 1; i < b.Line; i++ {
		sb.WriteByte('\n')
		sb.WriteString(m.lines[i])
	}
	sb.WriteByte('\n')
	sb.WriteString(m.lines[b.Line][:b.Col])
	return sb.String()
}

// endOf returns where s ends when it starts at p.
func endOf(p Pos, s string) Pos {
	n := strings.Count(s, "\n")
	if n == 0 {
		return Pos{p.Line, p.Col + len(s)}
	}
	return Pos{p.Line + n, len(s) - strings.LastIndexByte(s, '\n') - 1}
}

// replace puts s in place of the text from `from` to `to` and returns
// where s ends and what it replaced. Every change of the text, undo and
// redo included, goes through it. It costs the lines it touches and, when
// the number of lines changes, a move of the line index after them (a
// memmove of 16 bytes a line, no copy of the text).
func (m *Model) replace(from, to Pos, s string) (end Pos, old string) {
	old = m.slice(from, to)
	prefix := m.lines[from.Line][:from.Col]
	suffix := m.lines[to.Line][to.Col:]
	oldN := to.Line - from.Line + 1
	if strings.IndexByte(s, '\n') < 0 {
		end = Pos{from.Line, len(prefix) + len(s)}
		line := prefix + s + suffix
		if oldN == 1 {
			m.lines[from.Line] = line
		} else {
			m.lines = slices.Replace(m.lines, from.Line, to.Line+1, line)
		}
		m.changed(from.Line, oldN, 1, len(s)-len(old))
		return end, old
	}
	parts := strings.Split(s, "\n")
	last := len(parts) - 1
	end = Pos{from.Line + last, len(parts[last])}
	parts[0] = prefix + parts[0]
	parts[last] += suffix
	m.lines = slices.Replace(m.lines, from.Line, to.Line+1, parts...)
	m.changed(from.Line, oldN, len(parts), len(s)-len(old))
	return end, old
}

// changed brings everything that is kept per line up to date after oldN
// lines from line r became newN lines, and the text grew by delta bytes.
func (m *Model) changed(r, oldN, newN, delta int) {
	m.size += delta
	m.version++
	m.markChanged(r, oldN, newN)
	if d := newN - oldN; d != 0 {
		for i := range m.notes {
			switch l := &m.notes[i].Line; {
			case *l >= r+oldN:
				*l += d
			case *l >= r+newN:
				// The note's line went: it stays with the change.
				*l = r + newN - 1
			}
		}
	}
}
