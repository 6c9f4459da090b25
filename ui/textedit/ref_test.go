package textedit

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/kedit/kedit/internal/escape"
)

// ref is the reference model of the property tests: the text as one
// string and the cursor as a byte offset into it, with each of the
// editor's rules written the plain way, on the whole string. It knows
// nothing of lines kept in a slice, units, screens or scrolling.
//
// Its characters are runes: the tests' alphabet has no combining marks,
// so a grapheme cluster is one rune (an invalid byte is one too).
type ref struct {
	text     string
	original string
	c        int

	undo, redo []refStep
	open       editKind
	lastSpace  bool
	expect     int
	pasteCR    bool

	prompt promptKind
	input  string
	origin int
	query  string

	anchor    int
	selecting bool
	register  string
}

// refStep is an undo step: the texts and cursors around it.
type refStep struct {
	textBefore, textAfter string
	before, after         int
}

func newRef(text string) *ref { return &ref{text: text, original: text} }

// lineStart, lineEnd and contentEnd bound the line holding offset c: its
// first byte, its "\n" (or the end), and the end of what the cursor can
// reach (before a CRLF's "\r").
func (r *ref) lineStart(c int) int { return strings.LastIndexByte(r.text[:c], '\n') + 1 }

func (r *ref) lineEnd(c int) int {
	if i := strings.IndexByte(r.text[c:], '\n'); i >= 0 {
		return c + i
	}
	return len(r.text)
}

func (r *ref) isLast(c int) bool { return r.lineEnd(c) == len(r.text) }

func (r *ref) contentEnd(c int) int {
	ls, le := r.lineStart(c), r.lineEnd(c)
	if le < len(r.text) && le > ls && r.text[le-1] == '\r' {
		return le - 1
	}
	return le
}

// starts returns the offsets where a rune starts on the line holding c,
// decoding from the line's start, and the content's end.
func (r *ref) starts(c int) []int {
	ls, ce := r.lineStart(c), r.contentEnd(c)
	var out []int
	for i := ls; i < ce; {
		out = append(out, i)
		_, n := utf8.DecodeRuneInString(r.text[i:ce])
		i += n
	}
	return append(out, ce)
}

// valid reports whether c is a place the cursor may be.
func (r *ref) valid(c int) bool {
	if c < 0 || c > len(r.text) {
		return false
	}
	for _, s := range r.starts(c) {
		if s == c {
			return true
		}
	}
	return false
}

// snap moves c to a rune start of its line: forward or back.
func (r *ref) snap(c int, forward bool) int {
	ss := r.starts(c)
	for i, s := range ss {
		if s == c {
			return c
		}
		if s > c {
			if forward {
				return s
			}
			return ss[i-1]
		}
	}
	return ss[len(ss)-1]
}

func (r *ref) prevRune(c int) int {
	ss := r.starts(c)
	for i := len(ss) - 1; i >= 0; i-- {
		if ss[i] < c {
			return ss[i]
		}
	}
	return c
}

func (r *ref) nextRune(c int) int {
	for _, s := range r.starts(c) {
		if s > c {
			return s
		}
	}
	return c
}

func refSpace(t string, last bool) bool {
	if t == "" {
		return false
	}
	if strings.Contains(t, "\n") {
		return true
	}
	ru, n := utf8.DecodeRuneInString(t)
	if last {
		ru, n = utf8.DecodeLastRuneInString(t)
	}
	return !(ru == utf8.RuneError && n == 1) && unicode.IsSpace(ru)
}

// edit is the one change of the reference: text[from:to] becomes s, the
// cursor goes to cur (snapped), and the undo steps follow the editor's
// rule: typing, backspace and delete each join their own open step while
// they go on where they left off, and break where a word starts.
func (r *ref) edit(kind editKind, from, to int, s string, cur int, forward bool) {
	before, textBefore := r.c, r.text
	old := r.text[from:to]
	r.text = r.text[:from] + s + r.text[to:]
	t := s
	if kind != kindType {
		t = old
	}
	first := refSpace(t, false)
	join := kind == r.open && kind != kindOther && len(r.undo) > 0 && (kind == kindPaste || !(r.lastSpace && !first))
	if join {
		switch kind {
		case kindType, kindDelete, kindPaste:
			join = from == r.expect
		case kindBackspace:
			join = to == r.expect
		}
	}
	r.c = r.snap(cur, forward)
	if join {
		top := &r.undo[len(r.undo)-1]
		top.textAfter, top.after = r.text, r.c
	} else {
		r.undo = append(r.undo, refStep{textBefore: textBefore, textAfter: r.text, before: before, after: r.c})
	}
	r.redo = nil
	r.open = kind
	if kind == kindOther {
		r.open = kindNone
	}
	r.lastSpace, r.expect = first, from
	if kind == kindType || kind == kindPaste {
		r.lastSpace, r.expect = refSpace(t, true), from+len(s)
	}
}

func (r *ref) typeText(s string) {
	if r.selected() {
		a, b := r.selBounds()
		r.unselect()
		r.edit(kindType, a, b, s, a+len(s), true)
		return
	}
	r.unselect()
	if s != "" {
		r.edit(kindType, r.c, r.c, s, r.c+len(s), true)
	}
}

func (r *ref) insert(s string) {
	if s == "" {
		r.open = kindNone
		return
	}
	r.edit(kindOther, r.c, r.c, s, r.c+len(s), true)
}

// eol is the break enter makes: the line's own, or the one before the last
// line.
func (r *ref) eol() string {
	c := r.c
	if r.isLast(c) {
		ls := r.lineStart(c)
		if ls == 0 {
			return "\n"
		}
		c = ls - 1
	}
	if r.contentEnd(c) < r.lineEnd(c) {
		return "\r\n"
	}
	return "\n"
}

// paste joins the paste before it when nothing came between them (the
// walker ends the paste's step on every other key and the mouse), and a
// "\r\n" cut between them is one line break.
func (r *ref) paste(s string) {
	if r.open == kindPaste && r.c == r.expect && r.pasteCR {
		s = strings.TrimPrefix(s, "\n")
	}
	if s == "" {
		return
	}
	r.pasteCR = strings.HasSuffix(s, "\r")
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	s = strings.ReplaceAll(s, "\n", r.eol())
	if r.selected() {
		a, b := r.selBounds()
		r.unselect()
		r.edit(kindPaste, a, b, s, a+len(s), true)
		return
	}
	r.unselect()
	r.edit(kindPaste, r.c, r.c, s, r.c+len(s), true)
}

func (r *ref) newline() {
	ls := r.lineStart(r.c)
	n := 0
	for ls+n < r.c && (r.text[ls+n] == ' ' || r.text[ls+n] == '\t') {
		n++
	}
	r.insert(r.eol() + r.text[ls:ls+n])
}

func (r *ref) outdent() {
	ls, ce := r.lineStart(r.c), r.contentEnd(r.c)
	n := 0
	for n < 2 && ls+n < ce && r.text[ls+n] == ' ' {
		n++
	}
	if n == 0 {
		r.open = kindNone
		return
	}
	r.edit(kindOther, ls, ls+n, "", ls+max(r.c-ls-n, 0), false)
}

func (r *ref) backspace() {
	if r.deleteSelection() {
		return
	}
	ls := r.lineStart(r.c)
	switch {
	case r.c > ls:
		p := r.prevRune(r.c)
		r.edit(kindBackspace, p, r.c, "", p, false)
	case ls > 0:
		p := r.contentEnd(ls - 1)
		r.edit(kindBackspace, p, r.c, "", p, false)
	default:
		r.open = kindNone
	}
}

func (r *ref) deleteRight() {
	if r.deleteSelection() {
		return
	}
	ce, le := r.contentEnd(r.c), r.lineEnd(r.c)
	switch {
	case r.c < ce:
		r.edit(kindDelete, r.c, r.nextRune(r.c), "", r.c, false)
	case le < len(r.text):
		r.edit(kindDelete, r.c, le+1, "", r.c, false)
	default:
		r.open = kindNone
	}
}

func (r *ref) deleteLine() {
	ls, le := r.lineStart(r.c), r.lineEnd(r.c)
	switch {
	case le < len(r.text):
		r.edit(kindOther, ls, le+1, "", ls, false)
	case ls > 0:
		r.edit(kindOther, r.contentEnd(ls-1), len(r.text), "", r.lineStart(ls-1), false)
	case r.text != "":
		r.edit(kindOther, 0, len(r.text), "", 0, false)
	default:
		r.open = kindNone
	}
}

func (r *ref) undoStep() {
	r.open = kindNone
	if len(r.undo) == 0 {
		return
	}
	s := r.undo[len(r.undo)-1]
	r.undo = r.undo[:len(r.undo)-1]
	r.text, r.c = s.textBefore, s.before
	r.redo = append(r.redo, s)
}

func (r *ref) redoStep() {
	r.open = kindNone
	if len(r.redo) == 0 {
		return
	}
	s := r.redo[len(r.redo)-1]
	r.redo = r.redo[:len(r.redo)-1]
	r.text, r.c = s.textAfter, s.after
	r.undo = append(r.undo, s)
}

func (r *ref) move(c int) {
	r.open = kindNone
	r.c = c
}

func (r *ref) left() {
	ls := r.lineStart(r.c)
	switch {
	case r.c > ls:
		r.move(r.prevRune(r.c))
	case ls > 0:
		r.move(r.contentEnd(ls - 1))
	default:
		r.move(r.c)
	}
}

func (r *ref) right() {
	ce, le := r.contentEnd(r.c), r.lineEnd(r.c)
	switch {
	case r.c < ce:
		r.move(r.nextRune(r.c))
	case le < len(r.text):
		r.move(le + 1)
	default:
		r.move(r.c)
	}
}

func refWord(t string, i int) bool {
	ru, n := utf8.DecodeRuneInString(t[i:])
	return !(ru == utf8.RuneError && n == 1) && (ru == '_' || unicode.IsLetter(ru) || unicode.IsDigit(ru))
}

func (r *ref) wordRight() {
	ce, le := r.contentEnd(r.c), r.lineEnd(r.c)
	if r.c >= ce {
		if le < len(r.text) {
			r.move(le + 1)
		} else {
			r.move(r.c)
		}
		return
	}
	i := r.c
	for i < ce && !refWord(r.text, i) {
		i = r.nextRune(i)
	}
	for i < ce && refWord(r.text, i) {
		i = r.nextRune(i)
	}
	r.move(i)
}

func (r *ref) wordLeft() {
	ls := r.lineStart(r.c)
	if r.c == ls {
		if ls > 0 {
			r.move(r.contentEnd(ls - 1))
		} else {
			r.move(r.c)
		}
		return
	}
	i := r.c
	for i > ls && !refWord(r.text, r.prevRune(i)) {
		i = r.prevRune(i)
	}
	for i > ls && refWord(r.text, r.prevRune(i)) {
		i = r.prevRune(i)
	}
	r.move(i)
}

// search finds q at or after from, or else from the top: on the whole
// text at once, where the editor goes line by line.
func (r *ref) search(from int, q string) (int, bool) {
	t := r.text
	if !strings.ContainsFunc(q, func(c rune) bool { return c >= 'A' && c <= 'Z' }) {
		t, q = refLowerASCII(t), refLowerASCII(q)
	}
	from = min(from, len(t))
	if i := strings.Index(t[from:], q); i >= 0 {
		return from + i, true
	}
	if i := strings.Index(t[:min(len(t), from+len(q)-1)], q); i >= 0 {
		return i, true
	}
	return 0, false
}

// refLowerASCII lowers ASCII letters byte by byte (strings.Map would turn
// invalid bytes into U+FFFD and move every offset after them).
func refLowerASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 32
		}
	}
	return string(b)
}

func (r *ref) openPrompt(k promptKind) {
	r.open = kindNone
	r.prompt, r.input, r.origin = k, "", r.c
}

// promptInput is what a prompt keeps of typed or pasted text; when it
// keeps nothing, nothing happens.
func (r *ref) promptInput(s string) {
	before := r.input
	for _, c := range s {
		switch {
		case r.prompt == gotoPrompt && (c < '0' || c > '9'):
		case c == utf8.RuneError || c == '\n' || c == '\t' || escape.String(string(c)) != string(c):
		default:
			r.input += string(c)
		}
	}
	if r.input != before {
		r.searchInput()
	}
}

func (r *ref) searchInput() {
	if r.prompt != findPrompt && r.prompt != replacePrompt {
		return
	}
	r.c = r.origin
	if r.input != "" {
		if p, ok := r.search(r.origin, r.input); ok {
			r.c = p
		}
	}
}

func (r *ref) findNext() {
	q := r.input
	if r.prompt == replaceWithPrompt {
		q = r.query
	}
	if q == "" {
		return
	}
	from := r.c + 1
	if from > len(r.text) {
		from = 0
	}
	if p, ok := r.search(from, q); ok {
		r.c = p
	}
}

func (r *ref) gotoLine() {
	n, err := strconv.Atoi(r.input)
	if err != nil {
		return
	}
	lines := strings.Count(r.text, "\n") + 1
	n = min(max(n-1, 0), lines-1)
	c := 0
	for range n {
		c = strings.IndexByte(r.text[c:], '\n') + c + 1
	}
	r.c = c
}

// The selection, the register and the keys that use them, readline's
// deletes and replace, the plain way.

func (r *ref) selected() bool { return r.selecting && r.anchor != r.c }

func (r *ref) unselect() { r.selecting = false }

// startSelect is what a select key or a drag does before moving: the
// selection starts at the cursor unless one is being made.
func (r *ref) startSelect() {
	if !r.selecting {
		r.selecting, r.anchor = true, r.c
	}
}

func (r *ref) selBounds() (int, int) { return min(r.anchor, r.c), max(r.anchor, r.c) }

// deleteSelection removes the selection as a step of its own; false
// without one. Either way nothing is selected after it.
func (r *ref) deleteSelection() bool {
	if !r.selected() {
		r.unselect()
		return false
	}
	a, b := r.selBounds()
	r.unselect()
	r.edit(kindOther, a, b, "", a, false)
	return true
}

// lineBounds is the line with its break that ctrl+k deletes.
func (r *ref) lineBounds() (int, int, bool) {
	ls, le := r.lineStart(r.c), r.lineEnd(r.c)
	switch {
	case le < len(r.text):
		return ls, le + 1, true
	case ls > 0:
		return r.contentEnd(ls - 1), len(r.text), true
	case r.text != "":
		return 0, len(r.text), true
	}
	return 0, 0, false
}

func (r *ref) copyKey() {
	if r.selected() {
		a, b := r.selBounds()
		r.register = r.text[a:b]
		return
	}
	if a, b, ok := r.lineBounds(); ok {
		r.register = r.text[a:b]
	}
}

func (r *ref) cut() {
	if r.selected() {
		a, b := r.selBounds()
		r.register = r.text[a:b]
		r.deleteSelection()
		return
	}
	r.unselect()
	a, b, ok := r.lineBounds()
	if !ok {
		r.open = kindNone
		return
	}
	r.register = r.text[a:b]
	r.deleteLine()
}

func (r *ref) pasteRegister() {
	from, to := r.c, r.c
	if r.selected() {
		from, to = r.selBounds()
	}
	r.unselect()
	if r.register == "" && from == to {
		r.open = kindNone
		return
	}
	r.edit(kindOther, from, to, r.register, from+len(r.register), true)
}

// deleteTo deletes from `from`, before the cursor, to the cursor (the
// selection instead, when there is one).
func (r *ref) deleteTo(from int) {
	if r.deleteSelection() {
		return
	}
	if from == r.c {
		r.open = kindNone
		return
	}
	r.edit(kindOther, from, r.c, "", from, false)
}

// wordLeftOf is where alt+left goes from the cursor.
func (r *ref) wordLeftOf() int {
	c, open := r.c, r.open
	r.wordLeft()
	p := r.c
	r.c, r.open = c, open
	return p
}

// refMatchesAt reports whether q is in the text at c, by find's rule of
// case.
func (r *ref) matchesAt(c int, q string) bool {
	if c+len(q) > len(r.text) {
		return false
	}
	t := r.text[c : c+len(q)]
	if !strings.ContainsFunc(q, func(c rune) bool { return c >= 'A' && c <= 'Z' }) {
		t, q = refLowerASCII(t), refLowerASCII(q)
	}
	return t == q
}

func (r *ref) replaceOne() {
	if r.matchesAt(r.c, r.query) {
		r.edit(kindOther, r.c, r.c+len(r.query), r.input, r.c+len(r.input), true)
	}
	if p, ok := r.search(r.c, r.query); ok {
		r.c = p
	}
}

func (r *ref) replaceAll() {
	t, q := r.text, r.query
	if !strings.ContainsFunc(q, func(c rune) bool { return c >= 'A' && c <= 'Z' }) {
		t, q = refLowerASCII(t), refLowerASCII(q)
	}
	var b strings.Builder
	first, last, i := -1, 0, 0
	for {
		j := strings.Index(t[i:], q)
		if j < 0 {
			break
		}
		if first < 0 {
			first = i + j
		}
		b.WriteString(r.text[i : i+j])
		b.WriteString(r.input)
		i += j + len(q)
		last = i
	}
	b.WriteString(r.text[i:])
	if first < 0 {
		r.open = kindNone
		return
	}
	ls := r.lineStart(first)
	le := r.lineEnd(last)
	after := b.String()
	r.edit(kindOther, ls, le, after[ls:len(after)-(len(r.text)-le)], ls, false)
}
