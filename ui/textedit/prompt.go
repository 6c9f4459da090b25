package textedit

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/internal/words"
)

// promptKind is which prompt is open on the editor's last row.
type promptKind uint8

const (
	noPrompt promptKind = iota
	findPrompt
	gotoPrompt
	// replacePrompt takes what to replace, searching as find does;
	// replaceWithPrompt then takes what replaces it.
	replacePrompt
	replaceWithPrompt
)

// openPrompt opens a prompt with nothing typed in it yet.
func (m *Model) openPrompt(k promptKind) {
	m.closeStep()
	m.prompt, m.input, m.origin, m.noMatch = k, "", m.cur, false
}

// promptKey handles a key while a prompt is open and reports whether the
// prompt took it. A key it does not take closes it and then does what it
// does in the text (an arrow moves the cursor from the match), except for
// ctrl+s and the like, which stay the parent's.
func (m *Model) promptKey(msg tea.KeyMsg) bool {
	k := m.KeyMap
	switch {
	case key.Matches(msg, k.Cancel):
		m.prompt = noPrompt
	case key.Matches(msg, k.Accept):
		switch m.prompt {
		case gotoPrompt:
			m.gotoLine()
			m.prompt = noPrompt
		case replacePrompt:
			if m.input != "" {
				m.prompt, m.query, m.input = replaceWithPrompt, m.input, ""
			}
		case replaceWithPrompt:
			m.replaceOne()
		default:
			m.findNext()
		}
	case m.prompt == replaceWithPrompt && key.Matches(msg, k.ReplaceAll):
		m.replaceAll()
		m.prompt = noPrompt
	case m.prompt == findPrompt && key.Matches(msg, k.Find):
		m.findNext()
	case key.Matches(msg, k.Backspace):
		if m.input != "" {
			_, n := utf8.DecodeLastRuneInString(m.input)
			m.input = m.input[:len(m.input)-n]
			m.inputChanged()
		}
	case msg.Type == tea.KeyRunes && !msg.Alt:
		m.appendInput(string(msg.Runes))
	case msg.Type == tea.KeySpace && !msg.Alt:
		m.appendInput(" ")
	default:
		m.prompt = noPrompt
		return false
	}
	return true
}

// appendInput adds typed (or pasted) text to the prompt: digits only to go
// to a line, and to find anything but control characters and line breaks,
// which a line cannot hold.
func (m *Model) appendInput(s string) {
	var b strings.Builder
	for _, r := range s {
		switch {
		case m.prompt == gotoPrompt && (r < '0' || r > '9'):
		case r == utf8.RuneError || r == '\t' || r == '\n' || escape.Unsafe(r):
		default:
			b.WriteRune(r)
		}
	}
	if b.Len() == 0 {
		return
	}
	m.input += b.String()
	m.inputChanged()
}

// inputChanged searches again, from where the cursor was when find opened:
// the search is incremental.
func (m *Model) inputChanged() {
	if m.prompt != findPrompt && m.prompt != replacePrompt {
		return
	}
	m.noMatch = false
	if m.input == "" {
		m.cur = m.origin
	} else if p, ok := m.search(m.origin, m.input); ok {
		m.cur = p
	} else {
		m.cur, m.noMatch = m.origin, true
	}
	m.goalX = -1
	m.scrollToCursor(true)
}

// findNext moves to the next match after the cursor, from the top again
// after the last one.
func (m *Model) findNext() {
	q := m.findQuery()
	if q == "" {
		return
	}
	from := Pos{m.cur.Line, m.cur.Col + 1}
	if m.cur.Col >= len(m.lines[m.cur.Line]) {
		from = Pos{m.cur.Line + 1, 0}
		if from.Line == len(m.lines) {
			from.Line = 0
		}
	}
	p, ok := m.search(from, q)
	m.noMatch = !ok
	if ok {
		m.cur, m.goalX = p, -1
		m.scrollToCursor(true)
	}
}

// findQuery is what the open prompt finds: what is typed in find and in
// replace's first step, what replace's second replaces; "" in go to line.
func (m *Model) findQuery() string {
	switch m.prompt {
	case findPrompt, replacePrompt:
		return m.input
	case replaceWithPrompt:
		return m.query
	}
	return ""
}

// replaceOne replaces the match at the cursor, if there is one, with what
// is typed, as one undo step, and goes to the next match.
func (m *Model) replaceOne() {
	q := m.query
	if matchesAt(m.lines[m.cur.Line], m.cur.Col, q) {
		end := m.change(kindOther, m.cur, Pos{m.cur.Line, m.cur.Col + len(q)}, m.input)
		m.land(end, true)
		m.say(escape.Textf("replaced %s", words.Count(1, "occurrence")))
	}
	p, ok := m.search(m.cur, q)
	m.noMatch = !ok
	if ok {
		m.cur, m.goalX = p, -1
	}
	m.scrollToCursor(true)
}

// replaceAll replaces every match with what is typed, as one undo step,
// says how many it replaced, and leaves the cursor at the start of the
// first line it changed.
func (m *Model) replaceAll() {
	q, with := m.query, m.input
	fold := !hasUpper(q)
	if fold {
		q = lowerASCII(q)
	}
	first, last := -1, -1
	for l, s := range m.lines {
		if index(s, q, fold) >= 0 {
			if first < 0 {
				first = l
			}
			last = l
		}
	}
	if first < 0 {
		m.closeStep()
		m.say(escape.Textf("replaced %s", words.Count(0, "occurrence")))
		return
	}
	var b strings.Builder
	n := 0
	for l := first; l <= last; l++ {
		if l > first {
			b.WriteByte('\n')
		}
		s, i := m.lines[l], 0
		for {
			j := index(s[i:], q, fold)
			if j < 0 {
				break
			}
			b.WriteString(s[i : i+j])
			b.WriteString(with)
			i += j + len(q)
			n++
		}
		b.WriteString(s[i:])
	}
	m.change(kindOther, Pos{first, 0}, Pos{last, len(m.lines[last])}, b.String())
	m.land(Pos{first, 0}, false)
	m.say(escape.Textf("replaced %s", words.Count(n, "occurrence")))
	m.scrollToCursor(true)
}

// matchesAt reports whether q matches s at byte i, by search's rule of
// case.
func matchesAt(s string, i int, q string) bool {
	if i+len(q) > len(s) {
		return false
	}
	fold := !hasUpper(q)
	if fold {
		q = lowerASCII(q)
	}
	return index(s[i:i+len(q)], q, fold) == 0
}

// gotoLine moves to the start of the line typed, counted from 1 and kept
// inside the text.
func (m *Model) gotoLine() {
	n, err := strconv.Atoi(m.input)
	if err != nil {
		return
	}
	m.cur, m.goalX = Pos{min(max(n-1, 0), len(m.lines)-1), 0}, -1
	m.scrollToCursor(true)
}

// search returns the first match of q at or after from, going round to the
// top after the end. A query without capitals matches either case (of
// ASCII letters, which is what YAML keys are made of). It is the one thing
// a keystroke can do that reads the whole text, and only when nothing
// matches: a scan at memory speed.
func (m *Model) search(from Pos, q string) (Pos, bool) {
	fold := !hasUpper(q)
	if fold {
		q = lowerASCII(q)
	}
	n := len(m.lines)
	for k := 0; k <= n; k++ {
		l := (from.Line + k) % n
		s := m.lines[l]
		start, end := 0, len(s)
		switch k {
		case 0:
			start = min(from.Col, len(s))
		case n:
			// Back on the first line: the matches before from.
			end = min(max(from.Col+len(q)-1, 0), len(s))
		}
		if i := index(s[start:end], q, fold); i >= 0 {
			return Pos{l, snapBack(m.content(l), start+i)}, true
		}
	}
	return Pos{}, false
}

// matchesIn returns where q matches in s, for drawing a visible line.
func matchesIn(s, q string, spans []span) []span {
	fold := !hasUpper(q)
	if fold {
		q = lowerASCII(q)
	}
	for i := 0; i <= len(s)-len(q); {
		j := index(s[i:], q, fold)
		if j < 0 {
			break
		}
		spans = append(spans, span{i + j, i + j + len(q), clsMatch})
		i += j + len(q)
	}
	return spans
}

// index is strings.Index, folding ASCII case when fold is set (q is then
// lower case already).
func index(s, q string, fold bool) int {
	if !fold {
		return strings.Index(s, q)
	}
	if q == "" {
		return 0
	}
	for i := 0; i+len(q) <= len(s); i++ {
		if lower(s[i]) != q[0] {
			continue
		}
		j := 1
		for j < len(q) && lower(s[i+j]) == q[j] {
			j++
		}
		if j == len(q) {
			return i
		}
	}
	return -1
}

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

func lowerASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		b[i] = lower(c)
	}
	return string(b)
}

func hasUpper(s string) bool {
	for i := 0; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' {
			return true
		}
	}
	return false
}
