package textedit

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/internal/testseed"
)

// stress multiplies the random walks' length when KEDIT_STRESS is set
// (make stress); CI runs the short walks under -race.
func stress() int {
	if os.Getenv("KEDIT_STRESS") != "" {
		return 20
	}
	return 1
}

// docLines are the lines random documents are made of: YAML as kedit shows
// it, with what the editor must keep byte for byte mixed in: control
// characters, a C1 control, a bidi override, invalid UTF-8, a tab, a lone
// "\r", wide characters and diff3 markers.
var docLines = []string{
	"apiVersion: v1", "kind: ConfigMap", "metadata:", "  name: testmap", "data:",
	`  foo: "bar"`, "  config.yaml: |", "    server:", "      port: 8080 # the port",
	"    - name: a_b", "", "  ctl: a\x1bb\u009bc\u202ed\x07", "  bad: \xff\xfe x \xc3",
	"  wide: 日本語 😀", "  tab:\tx", "  cr: a\rb", "<<<<<<< mine", "=======", ">>>>>>> theirs",
}

// genDoc returns a document of n lines, with LF or CRLF endings (now and
// then mixed) and with or without a final newline.
func genDoc(r *rand.Rand, n int) string {
	crlf := r.IntN(3) == 0
	var b strings.Builder
	for i := range n {
		if i > 0 {
			if crlf != (r.IntN(50) == 0) {
				b.WriteString("\r\n")
			} else {
				b.WriteString("\n")
			}
		}
		b.WriteString(docLines[r.IntN(len(docLines))])
	}
	if r.IntN(2) == 0 {
		b.WriteString("\n")
	}
	return b.String()
}

// typed are the characters typed; pastes and raw inserts add line breaks,
// controls and invalid bytes.
var (
	typed   = []string{"a", "b", "c", "K", " ", " ", ":", "-", "_", "é", "日", "😀", "1"}
	pastes  = []string{"x", "key: value\n", "a\nb\n  c", "l1\r\nl2\r\n", "cr\rcr", "\x1b[2J\u202e\u009b", "\t\t", "😀\n日本", "\n", "x: y\n  z: w", "a\r", "\nb", "\r"}
	raws    = []string{"\xff", "\xc3", "\xa9", "\xe6\x97", "\xa5", "a\xffb\n\xfe", "\x80\x80"}
	queries = []string{"a", "b", "K", "日", " ", ":", "é"}
)

// walker drives an editor and the reference with the same random actions
// and checks, after every one, that they agree.
type walker struct {
	t       *testing.T
	r       *rand.Rand
	m       Model
	ref     *ref
	name    string
	version uint64
	text    string
	view    bool // draw every step
	log     []string
}

func newWalker(t *testing.T, r *rand.Rand, doc string, w, h int) *walker {
	m := New()
	m.Open(doc)
	m.SetSize(w, h)
	wk := &walker{t: t, r: r, m: m, ref: newRef(doc), version: m.Version(), text: doc, view: true}
	if r.IntN(2) == 0 {
		var notes []Note
		for range r.IntN(4) {
			notes = append(notes, Note{Line: r.IntN(m.Lines()), Text: escape.Safe("bad\x1b value\nsecond row")})
		}
		wk.m.SetNotes(notes)
	}
	return wk
}

func keyMsg(t tea.KeyType) tea.KeyMsg { return tea.KeyMsg{Type: t} }
func runes(s string) tea.KeyMsg       { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)} }
func altKey(t tea.KeyType) tea.KeyMsg { return tea.KeyMsg{Type: t, Alt: true} }
func pasteMsg(s string) tea.KeyMsg {
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s), Paste: true}
}
func pick[T any](r *rand.Rand, s []T) T { return s[r.IntN(len(s))] }

// press hands msg to the editor. Any key but a paste, and the mouse, end
// an open paste's undo step, in the reference too.
func (w *walker) press(msg tea.Msg) {
	k, isKey := msg.(tea.KeyMsg)
	if _, mouse := msg.(tea.MouseMsg); (mouse || isKey && !k.Paste) && w.ref.open == kindPaste {
		w.ref.open = kindNone
	}
	w.m, _ = w.m.Update(msg)
}

// offset is the editor's cursor as a byte offset into its text.
func (w *walker) offset() int { return w.offsetOf(w.m.cur) }

// offsetOf is p as a byte offset into the editor's text.
func (w *walker) offsetOf(p Pos) int {
	off := 0
	for i := range p.Line {
		off += len(w.m.lines[i]) + 1
	}
	return off + p.Col
}

// adoptSelection takes the editor's selection after a click or a drag,
// whose place the reference does not compute.
func (w *walker) adoptSelection() {
	w.ref.selecting = w.m.selecting
	if w.m.selecting {
		w.ref.anchor = w.offsetOf(w.m.anchor)
	}
}

// adopt takes the editor's cursor after a move whose target the reference
// does not compute (up and down aim for a display column, a click for a
// cell), once it is a place the cursor may be.
func (w *walker) adopt() {
	c := w.offset()
	if !w.ref.valid(c) {
		w.t.Fatalf("%s: cursor %+v (offset %d) is not on a character boundary of its line's content in %q", w.name, w.m.cur, c, w.ref.text)
	}
	w.ref.move(c)
}

// prompted reports whether a key closes the open prompt before acting (a
// key the prompt does not take), as the editor does.
func (w *walker) closePrompt() {
	w.ref.prompt = noPrompt
}

// key presses msg, named name, a key the open prompt does not take (it
// closes the prompt first, as in the editor), and does to the reference
// what the key does.
func (w *walker) key(name string, msg tea.Msg, do func()) {
	w.name = name
	w.closePrompt()
	w.press(msg)
	do()
}

// promptOrKey is key for a key the open prompt takes: with a prompt open,
// an action inside the prompt instead.
func (w *walker) promptOrKey(name string, msg tea.Msg, do func()) {
	if w.ref.prompt != noPrompt {
		w.promptStep()
		return
	}
	w.name = name
	w.press(msg)
	do()
}

// step does one random action on both models.
func (w *walker) step() {
	r, ref := w.r, w.ref
	if ref.prompt != noPrompt && r.IntN(5) > 0 {
		w.promptStep()
		return
	}
	if r.IntN(4) == 0 {
		w.selectStep()
		return
	}
	n := r.IntN(100)
	if n >= 36 && n < 98 && !(n >= 92 && n < 93) && !(n >= 53 && n < 55) {
		// Every key but typing, a paste, backspace, delete, a click, the
		// wheel and esc clears the selection; those of them that change
		// the text replace it.
		if !(n < 40 || n < 53 && n >= 50) {
			ref.unselect()
		}
	}
	switch {
	case n < 30:
		s := pick(r, typed)
		w.name = fmt.Sprintf("type %q", s)
		if ref.prompt != noPrompt {
			w.press(runes(s))
			ref.promptInput(s)
			return
		}
		if s == " " && r.IntN(2) == 0 {
			w.press(keyMsg(tea.KeySpace))
		} else {
			w.press(runes(s))
		}
		ref.typeText(s)
	case n < 36:
		w.promptOrKey("backspace", keyMsg(tea.KeyBackspace), ref.backspace)
	case n < 40:
		w.key("delete", keyMsg(tea.KeyDelete), ref.deleteRight)
	case n < 44:
		w.promptOrKey("enter", keyMsg(tea.KeyEnter), ref.newline)
	case n < 46:
		w.key("tab", keyMsg(tea.KeyTab), func() { ref.insert("  ") })
	case n < 48:
		w.key("shift+tab", keyMsg(tea.KeyShiftTab), ref.outdent)
	case n < 50:
		w.key("ctrl+k", keyMsg(tea.KeyCtrlK), ref.deleteLine)
	case n < 53:
		s := pick(r, pastes)
		if r.IntN(2) == 0 {
			s += pick(r, pastes) + pick(r, pastes)
		}
		w.name = fmt.Sprintf("paste %q", s)
		if ref.prompt != noPrompt {
			w.press(pasteMsg(s))
			ref.promptInput(s)
			return
		}
		// Cut into pastes at rune boundaries, as kedit's input filter
		// cuts a long paste: the same as the whole, in one undo step.
		rs := []rune(s)
		for len(rs) > 0 {
			n := 1 + r.IntN(len(rs))
			w.press(pasteMsg(string(rs[:n])))
			rs = rs[n:]
		}
		ref.paste(s)
	case n < 55:
		if ref.prompt != noPrompt {
			w.promptStep()
			return
		}
		// A terminal's paste cannot carry invalid UTF-8 (Bubble Tea decodes
		// it to runes); the bytes go in through the paste's own path.
		s := pick(r, raws)
		w.name = fmt.Sprintf("raw paste %q", s)
		w.m.paste(s)
		w.m.scrollToCursor(false)
		ref.paste(s)
	case n < 62:
		w.key("undo", keyMsg(tea.KeyCtrlZ), ref.undoStep)
	case n < 66:
		w.key("redo", keyMsg(tea.KeyCtrlY), ref.redoStep)
	case n < 70:
		w.key("left", keyMsg(tea.KeyLeft), ref.left)
	case n < 74:
		w.key("right", keyMsg(tea.KeyRight), ref.right)
	case n < 80:
		up := r.IntN(2) == 0
		w.name = "down"
		msg, d := keyMsg(tea.KeyDown), 1
		if up {
			w.name, msg, d = "up", keyMsg(tea.KeyUp), -1
		}
		if r.IntN(4) == 0 {
			w.name = "page " + w.name
			msg = keyMsg(tea.KeyPgDown)
			if up {
				msg = keyMsg(tea.KeyPgUp)
			}
			d *= w.m.height
		}
		w.closePrompt()
		w.press(msg)
		w.checkRow(d)
	case n < 82:
		w.key("home", keyMsg(tea.KeyHome), func() { ref.move(ref.lineStart(ref.c)) })
	case n < 84:
		w.key("end", keyMsg(tea.KeyEnd), func() { ref.move(ref.contentEnd(ref.c)) })
	case n < 85:
		w.key("ctrl+home", keyMsg(tea.KeyCtrlHome), func() { ref.move(0) })
	case n < 86:
		w.key("ctrl+end", keyMsg(tea.KeyCtrlEnd), func() { ref.move(ref.contentEnd(len(ref.text))) })
	case n < 88:
		w.key("alt+left", altKey(tea.KeyLeft), ref.wordLeft)
	case n < 90:
		w.key("alt+right", altKey(tea.KeyRight), ref.wordRight)
	case n < 92:
		x, y := r.IntN(w.m.width+4), r.IntN(w.m.height)
		w.name = fmt.Sprintf("click %d,%d", x, y)
		before := w.m.prompt
		w.press(tea.MouseMsg{X: x, Y: y, Button: tea.MouseButtonLeft, Action: tea.MouseActionPress})
		if w.m.prompt != before {
			w.t.Fatalf("%s: a click changed the prompt", w.name)
		}
		w.adopt()
		w.adoptSelection()
	case n < 93:
		w.name = "wheel"
		b := pick(r, []tea.MouseButton{tea.MouseButtonWheelUp, tea.MouseButtonWheelDown, tea.MouseButtonWheelLeft, tea.MouseButtonWheelRight})
		w.press(tea.MouseMsg{Button: b, Action: tea.MouseActionPress})
	case n < 96:
		w.name = "ctrl+f"
		w.press(keyMsg(tea.KeyCtrlF))
		if ref.prompt == findPrompt {
			ref.findNext()
		} else {
			ref.openPrompt(findPrompt)
		}
	case n < 98:
		w.key("ctrl+g", keyMsg(tea.KeyCtrlG), func() { ref.openPrompt(gotoPrompt) })
	default:
		if ref.prompt != noPrompt {
			w.promptStep()
			return
		}
		// The parent's keys: nothing happens in the editor, but esc and
		// any key clear the selection.
		w.name = "esc / ctrl+s"
		w.press(pick(r, []tea.KeyMsg{keyMsg(tea.KeyEsc), keyMsg(tea.KeyCtrlS)}))
		ref.unselect()
	}
}

// promptStep does an action inside the open prompt.
func (w *walker) promptStep() {
	r, ref := w.r, w.ref
	switch n := r.IntN(10); {
	case n < 5:
		s := pick(r, queries)
		if ref.prompt == gotoPrompt {
			s = string(rune('0' + r.IntN(10)))
			if r.IntN(8) == 0 {
				s = "x" // not a digit: ignored
			}
		}
		w.name = fmt.Sprintf("prompt type %q", s)
		w.press(runes(s))
		ref.promptInput(s)
	case n < 6:
		w.name = "prompt backspace"
		w.press(keyMsg(tea.KeyBackspace))
		if ref.input != "" {
			_, size := lastRune(ref.input)
			ref.input = ref.input[:len(ref.input)-size]
			ref.searchInput()
		}
	case n < 9:
		w.name = "prompt enter"
		w.press(keyMsg(tea.KeyEnter))
		switch ref.prompt {
		case gotoPrompt:
			ref.gotoLine()
			ref.prompt = noPrompt
		case replacePrompt:
			if ref.input != "" {
				ref.prompt, ref.query, ref.input = replaceWithPrompt, ref.input, ""
			}
		case replaceWithPrompt:
			ref.replaceOne()
		default:
			ref.findNext()
		}
	default:
		w.name = "prompt esc"
		w.press(keyMsg(tea.KeyEsc))
		ref.prompt = noPrompt
	}
}

func lastRune(s string) (rune, int) {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] < 0x80 || s[i] >= 0xc0 {
			return []rune(s[i:])[0], len(s) - i
		}
	}
	return 0, 1
}

// checkRow checks an up, down or page move: the cursor went d lines (kept
// inside the text) and sits on a boundary of that line.
func (w *walker) checkRow(d int) {
	before := strings.Count(w.ref.text[:w.ref.c], "\n")
	want := min(max(before+d, 0), strings.Count(w.ref.text, "\n"))
	if w.m.cur.Line != want {
		w.t.Fatalf("%s: from line %d the cursor went to line %d, want %d", w.name, before, w.m.cur.Line, want)
	}
	w.adopt()
}

// check compares the editor with the reference and checks what must
// always hold.
func (w *walker) check(step int) {
	t, m, ref := w.t, &w.m, w.ref
	t.Helper()
	where := fmt.Sprintf("step %d (%s)", step, w.name)
	text := m.Text()
	if text != ref.text {
		i := 0
		for i < len(text) && i < len(ref.text) && text[i] == ref.text[i] {
			i++
		}
		t.Fatalf("%s: text differs at byte %d:\n%q\nwant\n%q\nafter %q", where, i, around(text, i), around(ref.text, i), w.log)
	}
	if c := w.offset(); c != ref.c {
		t.Fatalf("%s: cursor %+v = offset %d, want %d:\n%q\nat the cursor %q, want %q\nafter %q", where, m.cur, c, ref.c, around(text, c), around(text, c)[min(c, 40):], around(text, ref.c)[min(ref.c, 40):], w.log)
	}
	if len(m.undo) != len(ref.undo) || len(m.redo) != len(ref.redo) {
		t.Fatalf("%s: %d undo and %d redo steps, want %d and %d\nafter %q", where, len(m.undo), len(m.redo), len(ref.undo), len(ref.redo), w.log)
	}
	if n := len(m.undo); n > 0 {
		// The last step, taken back on the text as it is, gives the text
		// before it.
		g := m.undo[n-1]
		g.ins += strings.Join(g.more, "")
		off := g.at.Col
		for i := range g.at.Line {
			off += len(m.lines[i]) + 1
		}
		if off+len(g.ins) > len(text) || text[off:off+len(g.ins)] != g.ins || text[:off]+g.del+text[off+len(g.ins):] != ref.undo[n-1].textBefore {
			t.Fatalf("%s: the last undo step %+v does not take the text back\nafter %q", where, g, w.log)
		}
	}
	if got, want := m.Changed(), text != ref.original; got != want {
		t.Fatalf("%s: Changed() = %v, want %v", where, got, want)
	}
	if (m.Version() != w.version) != (text != w.text) && !(text == w.text && sameTextStep(ref)) {
		t.Fatalf("%s: version %d -> %d while the text went %q -> %q", where, w.version, m.Version(), w.text, text)
	}
	w.version, w.text = m.Version(), text
	if m.Len() != len(text) || m.Lines() != strings.Count(text, "\n")+1 || len(m.marks) != m.Lines() {
		t.Fatalf("%s: Len %d, Lines %d, %d marks for %d bytes, %d lines", where, m.Len(), m.Lines(), len(m.marks), len(text), strings.Count(text, "\n")+1)
	}
	if m.Prompting() != (ref.prompt != noPrompt) || m.prompt != ref.prompt {
		t.Fatalf("%s: prompt %d, want %d", where, m.prompt, ref.prompt)
	}
	if m.prompt != noPrompt && m.input != ref.input {
		t.Fatalf("%s: prompt input %q, want %q", where, m.input, ref.input)
	}
	if m.prompt == replaceWithPrompt && m.query != ref.query {
		t.Fatalf("%s: replacing %q, want %q", where, m.query, ref.query)
	}
	if m.Selected() != ref.selected() || ref.selected() && w.offsetOf(m.anchor) != ref.anchor {
		t.Fatalf("%s: selection %v from %+v, want %v from %d\nafter %q", where, m.Selected(), m.anchor, ref.selected(), ref.anchor, w.log)
	}
	if m.Register() != ref.register {
		t.Fatalf("%s: register %q, want %q\nafter %q", where, m.Register(), ref.register, w.log)
	}
	for i, n := range m.notes {
		if n.Line < 0 || n.Line >= m.Lines() || (i > 0 && m.notes[i-1].Line > n.Line) {
			t.Fatalf("%s: notes %+v out of place on %d lines", where, m.notes, m.Lines())
		}
	}
	if w.view {
		checkScreen(t, where, m.View(), m.width, m.height)
	}
}

// around returns the text near byte i, for a failure's message.
func around(s string, i int) string { return s[max(i-40, 0):min(i+40, len(s))] }

// checkScreen checks that a view is exactly w by h cells.
func checkScreen(t *testing.T, where, view string, w, h int) {
	t.Helper()
	rows := strings.Split(view, "\n")
	if len(rows) != h {
		t.Fatalf("%s: %d rows, want %d:\n%s", where, len(rows), h, view)
	}
	for i, row := range rows {
		if got := ansi.StringWidth(row); got != w {
			t.Fatalf("%s: row %d is %d cells wide, want %d: %q", where, i, got, w, row)
		}
	}
}

// walk runs steps random actions and then undoes everything and redoes it
// again.
func (w *walker) walk(steps int) {
	w.t.Helper()
	for step := range steps {
		w.step()
		w.log = append(w.log, w.name)
		if len(w.log) > 12 {
			w.log = w.log[1:]
		}
		w.check(step)
		if w.r.IntN(40) == 0 {
			w.settleMarks()
		}
	}
	final, undos := w.ref.text, len(w.ref.undo)
	w.press(keyMsg(tea.KeyEsc)) // closes an open prompt
	w.ref.prompt = noPrompt
	for range undos + 1 {
		w.press(keyMsg(tea.KeyCtrlZ))
	}
	if got := w.m.Text(); got != w.ref.original {
		w.t.Fatalf("after %d undos the text is\n%q\nnot the original\n%q", undos, got, w.ref.original)
	}
	if w.m.Changed() {
		w.t.Fatalf("undone to the original, Changed() is true")
	}
	// Exactly as many redos: a walk that ended with undos has more steps
	// to redo beyond its final text.
	for range undos {
		w.press(keyMsg(tea.KeyCtrlY))
	}
	if got := w.m.Text(); got != final {
		w.t.Fatalf("after %d redos the text is\n%q\nnot the final\n%q", undos, got, final)
	}
}

// settleMarks runs what a pause in typing runs: the background diff
// against base. After it the marks are the diff's.
func (w *walker) settleMarks() {
	m, cmd := w.m.Update(marksDueMsg{id: w.m.id, version: w.m.version})
	if cmd != nil {
		msg := cmd()
		if _, ok := msg.(marksMsg); !ok {
			w.t.Fatalf("the marks' command returned %T", msg)
		}
		m, _ = m.Update(msg)
	}
	w.m = m
	want := computeMarks(w.ref.original, w.ref.text)
	for i := range want {
		if m.marks[i] != want[i] {
			w.t.Fatalf("settled marks %v, want %v", m.marks, want)
		}
	}
}

// TestWalkSmallDocuments: random edits on small documents agree with the
// reference after every step.
func TestWalkSmallDocuments(t *testing.T) {
	walks := 100 * stress()
	if testing.Short() {
		walks = 30
	}
	base := testseed.Fixed(t, 0)
	for i := range walks {
		r := rand.New(rand.NewPCG(base+uint64(i), 9))
		doc := genDoc(r, r.IntN(30))
		if r.IntN(10) == 0 {
			doc = ""
		}
		w := newWalker(t, r, doc, 20+r.IntN(60), 3+r.IntN(20))
		w.walk(150)
	}
}

// TestWalkLargeDocument: the same on a 20,000-line document, where a
// rule that only works near the top would fail.
func TestWalkLargeDocument(t *testing.T) {
	walks, steps := 2, 300
	if testing.Short() {
		walks = 1
	}
	base := testseed.Fixed(t, 0)
	for i := range walks * stress() {
		r := rand.New(rand.NewPCG(base+uint64(i), 20000))
		w := newWalker(t, r, genDoc(r, 20000+r.IntN(100)), 80, 24)
		// Start in the middle, where a real edit of a big ConfigMap is.
		w.press(keyMsg(tea.KeyCtrlG))
		w.press(runes("10000"))
		w.press(keyMsg(tea.KeyEnter))
		w.ref.openPrompt(gotoPrompt)
		w.ref.promptInput("10000")
		w.ref.gotoLine()
		w.ref.prompt = noPrompt
		w.name = "go to 10000"
		w.check(-1)
		w.walk(steps)
	}
}

// selectStep does one of the selection's actions, the register's,
// readline's or replace's on both models.
func (w *walker) selectStep() {
	r, ref := w.r, w.ref
	switch n := r.IntN(100); {
	case n < 40:
		type sel struct {
			msg  tea.KeyMsg
			move func()
		}
		moves := []sel{
			{keyMsg(tea.KeyShiftLeft), ref.left},
			{keyMsg(tea.KeyShiftRight), ref.right},
			{keyMsg(tea.KeyShiftHome), func() { ref.move(ref.lineStart(ref.c)) }},
			{keyMsg(tea.KeyShiftEnd), func() { ref.move(ref.contentEnd(ref.c)) }},
			{keyMsg(tea.KeyCtrlShiftHome), func() { ref.move(0) }},
			{keyMsg(tea.KeyCtrlShiftEnd), func() { ref.move(ref.contentEnd(len(ref.text))) }},
			{keyMsg(tea.KeyCtrlShiftLeft), ref.wordLeft},
			{altKey(tea.KeyShiftRight), ref.wordRight},
			{keyMsg(tea.KeyShiftUp), nil},
			{keyMsg(tea.KeyShiftDown), nil},
		}
		s := pick(r, moves)
		w.name = s.msg.String()
		w.closePrompt()
		ref.startSelect()
		w.press(s.msg)
		if s.move == nil {
			d := 1
			if s.msg.Type == tea.KeyShiftUp {
				d = -1
			}
			w.checkRow(d)
			return
		}
		s.move()
	case n < 48:
		w.name = "alt+c"
		if r.IntN(2) == 0 && ref.selected() {
			w.name = "ctrl+c"
		}
		w.closePrompt()
		w.press(keyMsg(tea.KeyCtrlC))
		if w.name == "alt+c" {
			w.m, _ = w.m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("c"), Alt: true})
		}
		ref.copyKey()
	case n < 58:
		w.key("ctrl+x", keyMsg(tea.KeyCtrlX), ref.cut)
	case n < 68:
		w.key("ctrl+v", keyMsg(tea.KeyCtrlV), ref.pasteRegister)
	case n < 74:
		w.name = "ctrl+w"
		msg := keyMsg(tea.KeyCtrlW)
		if r.IntN(2) == 0 {
			w.name, msg = "alt+backspace", altKey(tea.KeyBackspace)
		}
		w.closePrompt()
		w.press(msg)
		ref.deleteTo(ref.wordLeftOf())
	case n < 78:
		w.key("ctrl+u", keyMsg(tea.KeyCtrlU), func() { ref.deleteTo(ref.lineStart(ref.c)) })
	case n < 82:
		if ref.prompt == replaceWithPrompt {
			w.name = "ctrl+a (replace all)"
			w.press(keyMsg(tea.KeyCtrlA))
			ref.replaceAll()
			ref.prompt = noPrompt
			return
		}
		w.name = "ctrl+a"
		msg, to := keyMsg(tea.KeyCtrlA), ref.lineStart(ref.c)
		if r.IntN(2) == 0 {
			w.name, msg, to = "ctrl+e", keyMsg(tea.KeyCtrlE), ref.contentEnd(ref.c)
		}
		w.closePrompt()
		ref.unselect()
		w.press(msg)
		ref.move(to)
	case n < 86:
		w.promptOrKey("esc", keyMsg(tea.KeyEsc), ref.unselect)
	case n < 92:
		x, y := r.IntN(w.m.width+4), r.IntN(w.m.height+2)-1
		w.name = fmt.Sprintf("drag %d,%d", x, y)
		before := w.m.prompt
		w.press(tea.MouseMsg{X: x, Y: y, Button: tea.MouseButtonLeft, Action: tea.MouseActionMotion})
		if w.m.prompt != before {
			w.t.Fatalf("%s: a drag changed the prompt", w.name)
		}
		if ref.prompt == noPrompt {
			ref.startSelect()
		}
		w.adopt()
	default:
		w.name = "ctrl+r"
		w.closePrompt()
		ref.unselect()
		w.press(keyMsg(tea.KeyCtrlR))
		ref.openPrompt(replacePrompt)
		if r.IntN(2) == 0 {
			// Type a query and go on to what replaces it.
			q := pick(r, queries)
			w.press(runes(q))
			ref.promptInput(q)
			w.press(keyMsg(tea.KeyEnter))
			ref.prompt, ref.query, ref.input = replaceWithPrompt, ref.input, ""
			w.name += fmt.Sprintf(" %q enter", q)
		}
	}
}

// sameTextStep reports whether an undo or redo step leaves the text as it
// was (a selection replaced by the same text): taking it, or back, changes
// the version but not the text.
func sameTextStep(r *ref) bool {
	for _, s := range append(append([]refStep(nil), r.undo...), r.redo...) {
		if s.textBefore == s.textAfter {
			return true
		}
	}
	return false
}
