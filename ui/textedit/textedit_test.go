package textedit

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"github.com/kedit/kedit/internal/escape"
)

func init() {
	// Golden files and screen checks hold plain text: no colour, whatever
	// the terminal.
	lipgloss.SetColorProfile(termenv.Ascii)
}

// keyNames are the keys the tests press by name; anything else is typed.
var keyNames = map[string]tea.KeyMsg{
	"enter": {Type: tea.KeyEnter}, "tab": {Type: tea.KeyTab}, "shift+tab": {Type: tea.KeyShiftTab},
	"backspace": {Type: tea.KeyBackspace}, "delete": {Type: tea.KeyDelete},
	"left": {Type: tea.KeyLeft}, "right": {Type: tea.KeyRight}, "up": {Type: tea.KeyUp}, "down": {Type: tea.KeyDown},
	"home": {Type: tea.KeyHome}, "end": {Type: tea.KeyEnd}, "pgup": {Type: tea.KeyPgUp}, "pgdown": {Type: tea.KeyPgDown},
	"ctrl+home": {Type: tea.KeyCtrlHome}, "ctrl+end": {Type: tea.KeyCtrlEnd},
	"alt+left": {Type: tea.KeyLeft, Alt: true}, "alt+right": {Type: tea.KeyRight, Alt: true},
	"ctrl+z": {Type: tea.KeyCtrlZ}, "ctrl+y": {Type: tea.KeyCtrlY}, "ctrl+f": {Type: tea.KeyCtrlF},
	"ctrl+g": {Type: tea.KeyCtrlG}, "ctrl+k": {Type: tea.KeyCtrlK}, "esc": {Type: tea.KeyEsc},
	"ctrl+s": {Type: tea.KeyCtrlS}, "ctrl+c": {Type: tea.KeyCtrlC}, "space": {Type: tea.KeySpace, Runes: []rune{' '}},
}

// press sends keys by name (or types them) to m and returns the result.
func press(t *testing.T, m Model, keys ...string) Model {
	t.Helper()
	for _, k := range keys {
		msg, ok := keyNames[k]
		if !ok {
			msg = runes(k)
		}
		m, _ = m.Update(msg)
	}
	return m
}

// opened returns an editor on text, 80x24.
func opened(text string) Model {
	m := New()
	m.Open(text)
	m.SetSize(80, 24)
	return m
}

// TestOpenAndLeaveKeepsTheTextByteForByte: opening a text and doing
// everything but typing gives back the same bytes, whatever they are.
func TestOpenAndLeaveKeepsTheTextByteForByte(t *testing.T) {
	var big strings.Builder
	for i := range 60000 {
		big.WriteString("    line " + strings.Repeat("x", i%50) + "\n")
	}
	cases := map[string]string{
		"60,000 lines":         big.String(),
		"CRLF":                 "apiVersion: v1\r\nkind: ConfigMap\r\ndata:\r\n  foo: bar\r\n",
		"no final newline":     "apiVersion: v1\nkind: ConfigMap",
		"control characters":   "data:\n  esc: \"\x1b[2J\x1b]0;title\x07\"\n  c1: \u009b31m\n  bidi: \u202eevil\u202c\n  nul: \x00\x7f\n",
		"invalid UTF-8":        "data:\n  bad: \"\xff\xfe\xc3(\xe2\x28\xa1\"\n  ok: é\n",
		"empty":                "",
		"just a newline":       "\n",
		"CRLF and lone CRs":    "a\r\n\r\nb\rc\r\n\r",
		"mixed endings":        "a\r\nb\nc\r\n",
		"tabs and wide":        "key:\tv\n日本語: 😀\ne\u0301\u200b\ufeff\n",
		"trailing blank lines": "a\n\n\n",
	}
	for name, text := range cases {
		t.Run(name, func(t *testing.T) {
			m := opened(text)
			v := m.Version()
			m.View()
			m = press(t, m, "ctrl+end", "up", "left", "alt+left", "home", "pgup", "pgdown", "end", "right",
				"ctrl+home", "down", "alt+right", "esc", "ctrl+s", "ctrl+c",
				"ctrl+f", "a", "enter", "esc", "ctrl+g", "3", "enter", "ctrl+z", "ctrl+y")
			m, _ = m.Update(tea.MouseMsg{X: 10, Y: 3, Button: tea.MouseButtonLeft, Action: tea.MouseActionPress})
			m, _ = m.Update(tea.MouseMsg{Button: tea.MouseButtonWheelDown, Action: tea.MouseActionPress})
			m.View()
			if got := m.Text(); got != text {
				t.Fatalf("Text() changed the text:\n%q\nwant\n%q", around(got, 0), around(text, 0))
			}
			if m.Changed() || m.Version() != v || m.Len() != len(text) {
				t.Fatalf("Changed %v, version %d -> %d, Len %d of %d", m.Changed(), v, m.Version(), m.Len(), len(text))
			}
		})
	}
}

// TestKeys checks each key of the contract on a text and a cursor; "|"
// marks the cursor in the text before and after.
func TestKeys(t *testing.T) {
	cases := []struct {
		name     string
		text     string
		keys     []string
		want     string
		wantUndo string // the text after one ctrl+z, when it is not the start
	}{
		{"enter keeps the indentation", "data:\n  foo: 1|\n", []string{"enter", "b"}, "data:\n  foo: 1\n  b|\n", "data:\n  foo: 1\n  |\n"},
		{"enter inside the indentation keeps what is left of the cursor", "    x|", []string{"home", "right", "enter"}, " \n |   x", ""},
		{"enter on a CRLF line breaks with CRLF", "a: 1|\r\nb: 2\r\n", []string{"enter"}, "a: 1\r\n|\r\nb: 2\r\n", ""},
		{"enter on the last line takes the line before's ending", "a\r\nb|", []string{"enter"}, "a\r\nb\r\n|", ""},
		{"tab inserts two spaces", "a|b", []string{"tab"}, "a  |b", ""},
		{"shift+tab removes up to two spaces", "   x|", []string{"shift+tab"}, " x|", ""},
		{"shift+tab removes what there is", " x|", []string{"shift+tab", "shift+tab"}, "x|", " x"},
		{"shift+tab inside the indentation", "   x|", []string{"home", "right", "shift+tab"}, "| x", ""},
		{"backspace deletes a character", "ab|c", []string{"backspace"}, "a|c", ""},
		{"backspace at a line start joins lines", "ab\n|cd", []string{"backspace"}, "ab|cd", ""},
		{"backspace at a CRLF line start removes the CRLF", "ab\r\n|cd", []string{"backspace"}, "ab|cd", ""},
		{"backspace at the start does nothing", "|ab", []string{"backspace"}, "|ab", ""},
		{"delete deletes a character", "a|bc", []string{"delete"}, "a|c", ""},
		{"delete at a CRLF line end joins lines", "ab|\r\ncd", []string{"delete"}, "ab|cd", ""},
		{"delete at the end does nothing", "ab|", []string{"delete"}, "ab|", ""},
		{"backspace over an escape deletes the control character", "a\x1b|b", []string{"backspace"}, "a|b", ""},
		{"backspace over an invalid byte deletes the byte", "a\xc3\xff|b", []string{"backspace"}, "a\xc3|b", ""},
		{"backspace over a combining mark deletes the cluster", "xe\u0301|", []string{"backspace"}, "x|", ""},
		{"ctrl+k deletes the line", "a\nb|b\nc", []string{"ctrl+k"}, "a\n|c", ""},
		{"ctrl+k on the last line takes the break before", "a\r\nb|", []string{"ctrl+k"}, "|a", ""},
		{"ctrl+k on the only line empties it", "ab|", []string{"ctrl+k"}, "|", ""},
		{"ctrl+k on the empty line after a final newline", "a\n|", []string{"ctrl+k"}, "|a", ""},
		{"left and right step over a line break", "ab\r\n|c", []string{"left", "x", "right", "right", "y"}, "abx\r\ncy|", "abx\r\nc"},
		{"home and end", "  ab|c", []string{"home", "x", "end", "y"}, "x  abcy|", "x  abc"},
		{"ctrl+home and ctrl+end", "a\nb|\nc", []string{"ctrl+home", "x", "ctrl+end", "y"}, "xa\nb\ncy|", "xa\nb\nc"},
		{"alt+right goes to the end of the word", "|foo: bar_baz qux", []string{"alt+right", "alt+right", "x"}, "foo: bar_bazx| qux", ""},
		{"alt+left goes to the start of the word", "foo: bar_baz qux|", []string{"alt+left", "alt+left", "x"}, "foo: x|bar_baz qux", ""},
		{"alt+left from a line start goes to the line before", "ab\n|c", []string{"alt+left", "x"}, "abx|\nc", ""},
		{"up and down keep the display column", "日本x\nab|cde\nab", []string{"up", "1", "down", "down", "2"}, "日1本x\nabcde\nab2|", "日1本x\nabcde\nab"},
		{"up to a shorter line goes to its end", "日本x\nabcdef|", []string{"up", "1"}, "日本x1|\nabcdef", ""},
		{"up and down over an escape", "a\x1bbc|\nabcdefgh", []string{"down", "x"}, "a\x1bbc\nabcdefgx|h", ""},
		{"pgdown and pgup move a screen", "|" + strings.Repeat("l\n", 100), []string{"pgdown", "x", "pgup", "y"}, "ly|\n" + strings.Repeat("l\n", 23) + "xl\n" + strings.Repeat("l\n", 75), "" + strings.Repeat("l\n", 24) + "xl\n" + strings.Repeat("l\n", 75)},
		{"esc, ctrl+s and ctrl+c are the parent's", "a|b", []string{"esc", "ctrl+s", "ctrl+c", "x"}, "ax|b", "a|b"},
		{"space types a space", "a|b", []string{"space"}, "a |b", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			text, cur := cursorOf(c.text)
			m := opened(text)
			m.SetCursor(cur)
			if m.Cursor() != cur {
				t.Fatalf("SetCursor(%+v) put the cursor at %+v", cur, m.Cursor())
			}
			m = press(t, m, c.keys...)
			if got := withCursor(m); got != c.want {
				t.Fatalf("after %q:\n%q\nwant\n%q", c.keys, got, c.want)
			}
			m = press(t, m, "ctrl+z")
			want := c.wantUndo
			if want == "" {
				want = text
			}
			if got := m.Text(); got != strings.ReplaceAll(want, "|", "") {
				t.Fatalf("after ctrl+z:\n%q\nwant\n%q", got, want)
			}
		})
	}
}

// cursorOf takes the "|" out of text and returns where it was.
func cursorOf(text string) (string, Pos) {
	i := strings.IndexByte(text, '|')
	before := text[:i]
	line := strings.Count(before, "\n")
	return text[:i] + text[i+1:], Pos{line, len(before) - strings.LastIndexByte(before, '\n') - 1}
}

// withCursor returns m's text with "|" at the cursor.
func withCursor(m Model) string {
	lines := append([]string(nil), m.lines...)
	c := m.Cursor()
	lines[c.Line] = lines[c.Line][:c.Col] + "|" + lines[c.Line][c.Col:]
	return strings.Join(lines, "\n")
}

// TestUndoSteps: typing is one undo step per word, a run of backspaces
// too, and a paste is one step whatever its size.
func TestUndoSteps(t *testing.T) {
	m := opened("")
	m = press(t, m, "h", "e", "l", "l", "o", "space", "w", "o", "r", "l", "d")
	m = press(t, m, "ctrl+z")
	if m.Text() != "hello " {
		t.Fatalf("one undo after typing two words left %q, want %q", m.Text(), "hello ")
	}
	m = press(t, m, "ctrl+z")
	if m.Text() != "" || m.Changed() {
		t.Fatalf("two undos left %q (changed %v)", m.Text(), m.Changed())
	}
	m = press(t, m, "ctrl+y", "ctrl+y")
	if m.Text() != "hello world" || m.Cursor() != (Pos{0, 11}) {
		t.Fatalf("redo gave %q, cursor %+v", m.Text(), m.Cursor())
	}
	m = press(t, m, "backspace", "backspace", "backspace", "backspace", "backspace", "backspace", "backspace")
	if m.Text() != "hell" {
		t.Fatalf("backspaces left %q", m.Text())
	}
	m = press(t, m, "ctrl+z")
	if m.Text() != "hello" {
		t.Fatalf("undoing a run of backspaces over two words gave %q, want %q", m.Text(), "hello")
	}
	m = press(t, m, "ctrl+z")
	if m.Text() != "hello world" {
		t.Fatalf("the second undo gave %q", m.Text())
	}

	// A moved cursor starts a new step even inside a word.
	m = press(t, opened(""), "a", "b", "left", "c", "ctrl+z")
	if m.Text() != "ab" {
		t.Fatalf("typing after a move undid to %q", m.Text())
	}

	// A paste of a mebibyte is one step, and the text before it comes back.
	var p strings.Builder
	for p.Len() < 1<<20 {
		p.WriteString("  key: a value of some length\n")
	}
	m = opened("a\nb\n")
	m = press(t, m, "down")
	m, _ = m.Update(pasteMsg(p.String()))
	if want := "a\n" + p.String() + "b\n"; m.Text() != want {
		t.Fatalf("the paste gave %d bytes, want %d", len(m.Text()), len(want))
	}
	if m.Cursor() != (Pos{1 + strings.Count(p.String(), "\n"), 0}) {
		t.Fatalf("after the paste the cursor is at %+v", m.Cursor())
	}
	m = press(t, m, "ctrl+z")
	if m.Text() != "a\nb\n" || m.Changed() {
		t.Fatalf("one undo after the paste left %d bytes", len(m.Text()))
	}
}

// TestPasteLineBreaks: a terminal sends a paste's line breaks as "\r"; they
// become the document's line break.
func TestPasteLineBreaks(t *testing.T) {
	for _, c := range []struct{ text, paste, want string }{
		{"a|", "x\ry\r\nz", "ax\ny\nz|"},
		{"a|\r\nb", "x\ry\nz", "ax\r\ny\r\nz|\r\nb"},
		{"a|", "\x1b[31m\u202e\t", "a\x1b[31m\u202e\t|"},
	} {
		text, cur := cursorOf(c.text)
		m := opened(text)
		m.SetCursor(cur)
		m, _ = m.Update(pasteMsg(c.paste))
		if got := withCursor(m); got != c.want {
			t.Errorf("paste %q into %q gave %q, want %q", c.paste, c.text, got, c.want)
		}
	}
}

// TestCutPasteIsOneStep: a paste that arrives cut into several (kedit's
// input filter cuts long pastes into pastes of one read each) goes in as
// the whole would, "\r\n" cut in two included, and is one undo step;
// anything between two pastes makes them two.
func TestCutPasteIsOneStep(t *testing.T) {
	m := opened("a\nb\n")
	m.SetCursor(Pos{1, 0})
	whole := strings.Repeat("line: é日\r\n", 3000) + "end"
	rs := []rune(whole)
	for i := 0; i < len(rs); i += 61 {
		m, _ = m.Update(pasteMsg(string(rs[i:min(i+61, len(rs))])))
		if i == 61*7 {
			m, _ = m.Update(pasteMsg("")) // an empty paste changes nothing
		}
	}
	want := "a\n" + strings.ReplaceAll(whole, "\r\n", "\n") + "b\n"
	if m.Text() != want {
		t.Fatalf("the cut paste gave %d bytes, want %d", len(m.Text()), len(want))
	}
	if len(m.undo) != 1 {
		t.Fatalf("%d undo steps, want 1", len(m.undo))
	}
	m = press(t, m, "ctrl+z")
	if m.Text() != "a\nb\n" {
		t.Fatalf("undo left %q", m.Text())
	}
	m = press(t, m, "ctrl+y")
	if m.Text() != want {
		t.Fatal("redo did not paste it again")
	}
	// A key or the mouse between two pastes: two steps.
	for _, between := range []tea.Msg{tea.KeyMsg{Type: tea.KeyCtrlS}, tea.MouseMsg{Button: tea.MouseButtonWheelDown, Action: tea.MouseActionPress}} {
		m := opened("")
		m, _ = m.Update(pasteMsg("x\r"))
		m, _ = m.Update(between)
		m, _ = m.Update(pasteMsg("\ny"))
		if len(m.undo) != 2 || m.Text() != "x\n\ny" {
			t.Errorf("with %T between: %d steps, %q", between, len(m.undo), m.Text())
		}
	}
}

// TestFind: ctrl+f opens an incremental prompt; enter goes to the next match
// and round to the first; esc closes the prompt only; a query without
// capitals matches either case.
func TestFind(t *testing.T) {
	m := opened("name: a\nkind: Name\nother: x\nname: b\n")
	m = press(t, m, "down", "down")
	m = press(t, m, "ctrl+f")
	if !m.Prompting() {
		t.Fatal("ctrl+f opened no prompt")
	}
	m = press(t, m, "n", "a")
	if m.Cursor() != (Pos{3, 0}) {
		t.Fatalf("typing \"na\" went to %+v, want the first match after the cursor, {3 0}", m.Cursor())
	}
	m = press(t, m, "enter")
	if m.Cursor() != (Pos{0, 0}) {
		t.Fatalf("enter went to %+v, want {0 0} (round to the top)", m.Cursor())
	}
	m = press(t, m, "enter")
	if m.Cursor() != (Pos{1, 6}) {
		t.Fatalf("enter went to %+v, want {1 6} (either case)", m.Cursor())
	}
	m = press(t, m, "backspace", "backspace", "N")
	if m.Cursor() != (Pos{1, 6}) {
		t.Fatalf("\"N\" went to %+v, want {1 6} (a capital matches its case only)", m.Cursor())
	}
	m = press(t, m, "z", "z")
	if !strings.Contains(m.View(), "no match") || m.Cursor() != (Pos{2, 0}) {
		t.Fatalf("no match: cursor %+v (want back where find started), view:\n%s", m.Cursor(), m.View())
	}
	m = press(t, m, "esc")
	if m.Prompting() || m.Text() != "name: a\nkind: Name\nother: x\nname: b\n" {
		t.Fatalf("esc left prompting %v, text %q", m.Prompting(), m.Text())
	}
	// Closed, esc is the parent's again: it changes nothing.
	m2 := press(t, m, "esc")
	if m2.Cursor() != m.Cursor() || m2.Prompting() {
		t.Fatal("esc outside a prompt did something")
	}
	// A key the prompt does not take closes it and acts.
	m = press(t, m, "ctrl+f", "kind", "end")
	if m.Prompting() || m.Cursor() != (Pos{1, 10}) {
		t.Fatalf("end in the prompt: prompting %v, cursor %+v", m.Prompting(), m.Cursor())
	}
}

// TestGotoLine: ctrl+g takes a line number; enter goes there, kept inside
// the text; esc cancels.
func TestGotoLine(t *testing.T) {
	m := opened(strings.Repeat("line\n", 1000))
	m = press(t, m, "ctrl+g", "5", "x", "0", "0", "enter")
	if m.Prompting() || m.Cursor() != (Pos{499, 0}) {
		t.Fatalf("go to 500: prompting %v, cursor %+v", m.Prompting(), m.Cursor())
	}
	if v := ansi.Strip(m.View()); !strings.Contains(v, " 500 line") {
		t.Fatalf("line 500 is not on screen:\n%s", v)
	}
	m = press(t, m, "ctrl+g", "9", "9", "9", "9", "enter")
	if m.Cursor() != (Pos{1000, 0}) {
		t.Fatalf("go to 9999 of 1001 lines: cursor %+v", m.Cursor())
	}
	m = press(t, m, "ctrl+g", "1", "esc")
	if m.Prompting() || m.Cursor() != (Pos{1000, 0}) {
		t.Fatalf("esc: prompting %v, cursor %+v", m.Prompting(), m.Cursor())
	}
}

// TestMouse: a click puts the cursor on the cell clicked, past the gutter
// and the horizontal scroll; the wheel scrolls without moving it.
func TestMouse(t *testing.T) {
	long := strings.Repeat("abcdefghij", 20)
	m := opened("first\n" + long + "\nthird 日本\n")
	m.SetSize(40, 5)
	click := func(x, y int) {
		m, _ = m.Update(tea.MouseMsg{X: x, Y: y, Button: tea.MouseButtonLeft, Action: tea.MouseActionPress})
	}
	// The gutter is a mark, one digit (4 lines) and a space: 3 cells.
	click(3+2, 0)
	if m.Cursor() != (Pos{0, 2}) {
		t.Fatalf("click at column 2 of line 1: %+v", m.Cursor())
	}
	click(3+7, 2)
	if m.Cursor() != (Pos{2, 6}) {
		t.Fatalf("click on the second cell of 日: %+v, want before it", m.Cursor())
	}
	click(30, 3)
	if m.Cursor() != (Pos{3, 0}) {
		t.Fatalf("click past the end of the last line: %+v", m.Cursor())
	}
	m = press(t, m, "up", "up", "end")
	if m.xoff == 0 {
		t.Fatal("the end of a 200-column line did not scroll")
	}
	xoff := m.xoff
	click(3, 1)
	if m.Cursor() != (Pos{1, xoff}) {
		t.Fatalf("click on the first text cell, scrolled by %d: %+v", xoff, m.Cursor())
	}
	m, _ = m.Update(tea.MouseMsg{Button: tea.MouseButtonWheelDown, Action: tea.MouseActionPress})
	if m.top != 0 {
		// 4 lines on 5 rows: nothing to scroll.
		t.Fatalf("the wheel scrolled a text that fits to line %d", m.top)
	}
	m = opened(strings.Repeat("x\n", 100))
	m.SetSize(40, 5)
	m, _ = m.Update(tea.MouseMsg{Button: tea.MouseButtonWheelDown, Action: tea.MouseActionPress})
	if m.top != wheelLines || m.Cursor() != (Pos{}) {
		t.Fatalf("the wheel: top %d, cursor %+v", m.top, m.Cursor())
	}
	m = press(t, m, "x")
	if m.top != 0 {
		t.Fatal("typing did not scroll back to the cursor")
	}
}

// TestJoinedAndZeroWidthCharacters: a ZWJ sequence is one step of the
// cursor, two cells wide, drawn as it is; a stray joiner and a character
// that takes no cell are each a step drawn as their escapes, as
// internal/escape draws them everywhere else in kedit.
func TestJoinedAndZeroWidthCharacters(t *testing.T) {
	family := "\U0001F468\u200d\U0001F469\u200d\U0001F467\u200d\U0001F466"
	m := opened("a" + family + "b\u200dc\u200bd")
	m.SetSize(60, 3)
	row := strings.Split(ansi.Strip(m.View()), "\n")[0]
	if want := " 1 a" + family + `b\u200dc\u200bd`; !strings.HasPrefix(row, want) {
		t.Fatalf("row %q, want it to start %q", row, want)
	}
	var cols []int
	for range 7 {
		cols = append(cols, m.CursorColumn())
		m = press(t, m, "right")
	}
	if want := []int{0, 1, 3, 4, 10, 11, 17}; !slices.Equal(cols, want) {
		t.Fatalf("display columns walking right %v, want %v", cols, want)
	}
}

// TestEscapesAndWidths: what a terminal must not interpret is drawn
// escaped, is one step of the cursor and takes the escape's width.
func TestEscapesAndWidths(t *testing.T) {
	m := opened("a\x1bb\u202ec\xffd\te\u009b日\u200bf\r\ng")
	m.SetSize(60, 3)
	row := strings.Split(ansi.Strip(m.View()), "\n")[0]
	if want := ` 1 a\x1bb\u202ec\xffd\te\u009b日\u200bf\r`; !strings.HasPrefix(row, want) {
		t.Fatalf("row %q, want it to start %q", row, want)
	}
	var cols []int
	for range 14 {
		cols = append(cols, m.CursorColumn())
		m = press(t, m, "right")
	}
	want := []int{0, 1, 5, 6, 12, 13, 17, 18, 20, 21, 27, 29, 35, 36}
	for i := range want {
		if cols[i] != want[i] {
			t.Fatalf("display columns walking right %v, want %v", cols, want)
		}
	}
	if m.Cursor() != (Pos{1, 0}) {
		t.Fatalf("right from the end of a CRLF line went to %+v", m.Cursor())
	}
}

// TestMarks: the gutter marks lines added, changed and deleted against
// base; edits mark their lines at once, and the background diff settles
// them once typing pauses.
func TestMarks(t *testing.T) {
	base := "a\nb\nc\nd\ne\n"
	m := opened("a\nB\nc\nx\ny\ne\n")
	m, _ = settle(t, m, m.SetBase(base))
	want := []mark{0, markChanged, 0, markChanged, markAdded, 0, 0}
	if !equalMarks(m.marks, want) {
		t.Fatalf("marks %v, want %v", m.marks, want)
	}
	gutter := gutterMarks(m)
	if gutter != " ~ ~+  " {
		t.Fatalf("gutter %q", gutter)
	}

	// Deleting line 3 marks the line after it at once.
	m = press(t, m, "down", "down", "ctrl+k")
	if m.marks[2]&(markChanged|markDeleted) == 0 {
		t.Fatalf("after ctrl+k the marks are %v", m.marks)
	}
	var cmd tea.Cmd
	m, cmd = m.Update(marksDueMsg{id: m.id, version: m.version})
	m, _ = settle(t, m, cmd)
	if want := []mark{0, markChanged, markChanged, markChanged, 0, 0}; !equalMarks(m.marks, want) {
		t.Fatalf("settled marks %v, want %v", m.marks, want)
	}
	// A diff of an older text is dropped, and asks again.
	m, cmd = m.Update(marksDueMsg{id: m.id, version: m.version})
	if cmd != nil {
		t.Fatal("a diff ran again on the same text")
	}
	old := computeMarks(base, m.Text())
	m = press(t, m, "ctrl+end", "z")
	stale := marksMsg{id: m.id, seq: m.diffSeq, version: m.version - 1, marks: old}
	m, _ = m.Update(stale)
	if equalMarks(m.marks, old) || !m.marksTick {
		t.Fatalf("the marks of an older text were taken (%v), or no new diff is due (%v)", equalMarks(m.marks, old), m.marksTick)
	}
	// Back to base, no marks.
	m, _ = settle(t, m, m.SetBase(m.Text()))
	if !equalMarks(m.marks, make([]mark, m.Lines())) {
		t.Fatalf("marks against the text itself: %v", m.marks)
	}
	// Another editor's result is not taken.
	other := opened("q\n")
	if n, _ := other.Update(stale); !equalMarks(n.marks, other.marks) {
		t.Fatal("an editor took another's marks")
	}
}

// settle runs a marks command and hands its result back, as Bubble Tea
// would.
func settle(t *testing.T, m Model, cmd tea.Cmd) (Model, tea.Cmd) {
	t.Helper()
	if cmd == nil {
		return m, nil
	}
	return m.Update(cmd())
}

func equalMarks(a, b []mark) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// gutterMarks returns the mark column of the view.
func gutterMarks(m Model) string {
	var b strings.Builder
	for _, row := range strings.Split(ansi.Strip(m.View()), "\n")[:m.Lines()] {
		b.WriteByte(row[0])
	}
	return b.String()
}

// TestNotes: a note is drawn under its line and follows it as lines are
// added and removed above it.
func TestNotes(t *testing.T) {
	m := opened("data:\n  replicas: -1\n  foo: bar\n")
	m.SetNotes([]Note{{Line: 1, Text: "spec.replicas: Invalid value: -1: must be greater than or equal to 0"}})
	rows := strings.Split(ansi.Strip(m.View()), "\n")
	if !strings.HasPrefix(rows[2], "   ↑ spec.replicas: Invalid value") || !strings.HasPrefix(rows[3], " 3   foo: bar") {
		t.Fatalf("the note is not under its line:\n%s", strings.Join(rows[:5], "\n"))
	}
	m = press(t, m, "enter", "enter")
	if m.notes[0].Line != 3 {
		t.Fatalf("after two lines above, the note is on line %d, want 3", m.notes[0].Line)
	}
	m = press(t, m, "ctrl+home", "ctrl+k", "ctrl+k")
	if m.notes[0].Line != 1 {
		t.Fatalf("after deleting them, the note is on line %d, want 1", m.notes[0].Line)
	}
	m = press(t, m, "down", "ctrl+k")
	if m.notes[0].Line != 1 {
		t.Fatalf("with its line deleted, the note is on line %d, want 1 (where the change is)", m.notes[0].Line)
	}
	// A note from the server is drawn as it was escaped, once.
	m.SetNotes([]Note{{Line: 0, Text: escape.Safe("bad \x1b]0;pwned\x07 value")}})
	if v := m.View(); strings.Contains(v, "\x1b]") || !strings.Contains(v, `bad \x1b]0;pwned\x07 value`) {
		t.Fatalf("the note was not escaped:\n%q", v)
	}
}

// TestChangedAndVersion: Changed says whether the text differs from what
// was opened, however it got there; Version moves with every change.
func TestChangedAndVersion(t *testing.T) {
	m := opened("ab")
	v := m.Version()
	m = press(t, m, "end", "x")
	if !m.Changed() || m.Version() == v {
		t.Fatal("typing did not change the text")
	}
	m = press(t, m, "backspace")
	if m.Changed() {
		t.Fatal("typing then deleting the same character left Changed true")
	}
	m = press(t, m, "home", "delete", "a")
	if m.Changed() {
		t.Fatal("replacing a by a left Changed true")
	}
	m = press(t, m, "delete", "c")
	if !m.Changed() {
		t.Fatal("replacing b by c left Changed false")
	}
}

// TestKeysNotSwallowed: the parent's keys pass through untouched: no
// change, no command, and no prompt closed or opened.
func TestKeysNotSwallowed(t *testing.T) {
	m := opened("abc")
	for _, k := range []string{"esc", "ctrl+s", "ctrl+c"} {
		n, cmd := m.Update(keyNames[k])
		if cmd != nil || n.Text() != m.Text() || n.Cursor() != m.Cursor() || n.Version() != m.Version() || n.Prompting() {
			t.Errorf("%s did something in the editor", k)
		}
	}
}

// TestHelp: the help lists every key of the KeyMap.
func TestHelp(t *testing.T) {
	m := New()
	seen := map[string]bool{}
	for _, group := range m.FullHelp() {
		for _, b := range group {
			seen[b.Help().Key] = true
		}
	}
	k := DefaultKeyMap()
	all := []string{k.Left.Help().Key, k.Right.Help().Key, k.Up.Help().Key, k.Down.Help().Key, k.WordLeft.Help().Key, k.WordRight.Help().Key,
		k.LineStart.Help().Key, k.LineEnd.Help().Key, k.PageUp.Help().Key, k.PageDown.Help().Key, k.DocStart.Help().Key, k.DocEnd.Help().Key,
		k.Backspace.Help().Key, k.Delete.Help().Key, k.Newline.Help().Key, k.Indent.Help().Key, k.Outdent.Help().Key, k.DeleteLine.Help().Key,
		k.Undo.Help().Key, k.Redo.Help().Key, k.Find.Help().Key, k.GotoLine.Help().Key, k.Accept.Help().Key, k.Cancel.Help().Key}
	for _, key := range all {
		if !seen[key] {
			t.Errorf("FullHelp lacks %q", key)
		}
	}
	if len(m.ShortHelp()) == 0 {
		t.Error("no short help")
	}
	m = press(t, m, "ctrl+f")
	if sh := m.ShortHelp(); len(sh) != 2 || sh[1].Help().Key != "esc" {
		t.Errorf("the prompt's short help is %v", sh)
	}
}

// TestPlainEnd: the eight-bytes-at-a-time scan for printable ASCII stops
// exactly where a byte-by-byte one does.
func TestPlainEnd(t *testing.T) {
	stops := []string{"\x00", "\x1f", "\x7f", "\x80", "\xff", "\t", "é", "\u0301"}
	for n := range 20 {
		for _, stop := range stops {
			for at := range n + 1 {
				s := strings.Repeat("a~ ", n)[:n]
				s = s[:at] + stop + s[at:]
				want := at
				if s[at] >= 0x80 && at > 0 {
					want = at - 1
				}
				if got := plainEnd(s, 0); got != want {
					t.Fatalf("plainEnd(%q) = %d, want %d", s, got, want)
				}
			}
		}
		if s := strings.Repeat("x", n); plainEnd(s, 0) != n {
			t.Fatalf("plainEnd of %d x's = %d", n, plainEnd(s, 0))
		}
	}
}

// TestMarksWhileTyping runs the background diff as Bubble Tea does, in a
// goroutine, while typing goes on: its result, for an older text, is not
// taken, and the diff is asked for again.
func TestMarksWhileTyping(t *testing.T) {
	var b strings.Builder
	for i := range 2000 {
		fmt.Fprintf(&b, "key%d: value\n", i)
	}
	base := b.String()
	m := opened(strings.Replace(base, "value", "other", 1))
	cmd := m.SetBase(base)
	if cmd == nil {
		t.Fatal("no diff for a text that differs from base")
	}
	done := make(chan tea.Msg)
	go func() { done <- cmd() }()
	m = press(t, m, "ctrl+end", "n", "e", "w")
	m, _ = m.Update(<-done)
	// The stale diff's marks would leave the typed line unmarked; the
	// editor's own mark for it stays until a diff of this text.
	if m.marks[0] != 0 || m.marks[len(m.marks)-1] == 0 || !m.marksTick {
		t.Fatalf("marks %v ... %v after a stale diff (tick due %v)", m.marks[0], m.marks[len(m.marks)-1], m.marksTick)
	}
	m, cmd = m.Update(marksDueMsg{id: m.id, version: m.version})
	m, _ = settle(t, m, cmd)
	if m.marks[0] != markChanged || m.marks[len(m.marks)-1] != markAdded {
		t.Fatalf("settled marks %v ... %v", m.marks[0], m.marks[len(m.marks)-1])
	}
}

// TestHighlight: keys, quoted strings, comments and diff3 markers, line by
// line.
func TestHighlight(t *testing.T) {
	cases := []struct {
		line string
		want []span
	}{
		{"  foo: bar # c", []span{{2, 5, clsKey}, {11, 14, clsComment}}},
		{`  - name: "a # b"`, []span{{4, 8, clsKey}, {10, 17, clsString}}},
		{`"quoted key": 'it''s' # c`, []span{{0, 12, clsKey}, {14, 21, clsString}, {22, 25, clsComment}}},
		{"# whole line", []span{{0, 12, clsComment}}},
		{"url: http://x:8080/#frag", []span{{0, 3, clsKey}}},
		{"plain: a#b", []span{{0, 5, clsKey}}},
		{"<<<<<<< mine", []span{{0, 12, clsMarker}}},
		{"=======", []span{{0, 7, clsMarker}}},
		{"|||||||  base", []span{{0, 13, clsMarker}}},
		{"========", nil},
		{"- just a value", nil},
		{"key:value", nil},
	}
	for _, c := range cases {
		got := highlight(c.line, nil)
		if len(got) != len(c.want) {
			t.Errorf("highlight(%q) = %v, want %v", c.line, got, c.want)
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("highlight(%q) = %v, want %v", c.line, got, c.want)
				break
			}
		}
	}
}
