package textedit

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/muesli/termenv"
)

func init() {
	for name, msg := range map[string]tea.KeyMsg{
		"shift+left": {Type: tea.KeyShiftLeft}, "shift+right": {Type: tea.KeyShiftRight},
		"shift+up": {Type: tea.KeyShiftUp}, "shift+down": {Type: tea.KeyShiftDown},
		"shift+home": {Type: tea.KeyShiftHome}, "shift+end": {Type: tea.KeyShiftEnd},
		"ctrl+shift+right": {Type: tea.KeyCtrlShiftRight}, "alt+shift+left": {Type: tea.KeyShiftLeft, Alt: true},
		"alt+c": {Type: tea.KeyRunes, Runes: []rune("c"), Alt: true}, "ctrl+x": {Type: tea.KeyCtrlX}, "ctrl+v": {Type: tea.KeyCtrlV},
		"ctrl+w": {Type: tea.KeyCtrlW}, "alt+backspace": {Type: tea.KeyBackspace, Alt: true}, "ctrl+u": {Type: tea.KeyCtrlU},
		"ctrl+a": {Type: tea.KeyCtrlA}, "ctrl+e": {Type: tea.KeyCtrlE}, "ctrl+r": {Type: tea.KeyCtrlR},
	} {
		keyNames[name] = msg
	}
}

// TestSelectCutPasteMovesALine: shift+down selects a line with its break,
// ctrl+x cuts it into the register, ctrl+v pastes it elsewhere, byte for
// byte (a CRLF line keeps its "\r\n"); each is one undo step.
func TestSelectCutPasteMovesALine(t *testing.T) {
	for _, eol := range []string{"\n", "\r\n"} {
		text := strings.Join([]string{"a: 1", "b: 2", "c: 3", ""}, eol)
		m := press(t, opened(text), "shift+down")
		if !m.Selected() || m.Selection() != "a: 1"+eol {
			t.Fatalf("shift+down selects %q", m.Selection())
		}
		m = press(t, m, "ctrl+x")
		if m.Text() != strings.Join([]string{"b: 2", "c: 3", ""}, eol) || m.Register() != "a: 1"+eol || m.Selected() {
			t.Fatalf("ctrl+x: text %q, register %q", m.Text(), m.Register())
		}
		if seq, said := m.Said(); seq == 0 || said != "cut 1 line" {
			t.Errorf("ctrl+x said %q", said)
		}
		m = press(t, m, "down", "down", "ctrl+v")
		if want := strings.Join([]string{"b: 2", "c: 3", "a: 1", ""}, eol); m.Text() != want {
			t.Fatalf("ctrl+v: %q, want %q", m.Text(), want)
		}
		m = press(t, m, "ctrl+z", "ctrl+z")
		if m.Text() != text || m.Changed() {
			t.Fatalf("two undos: %q", m.Text())
		}
	}
}

// TestSelectionKeys: typing, a paste and backspace replace the selection;
// a move without shift and esc clear it; alt+c copies it and keeps it,
// and without one copies the line; ctrl+c is the editor's only on a
// selection.
func TestSelectionKeys(t *testing.T) {
	text := "name: web\nimage: nginx\n"
	cases := []struct {
		keys     []string
		want     string
		selected bool
		register string
	}{
		{[]string{"shift+end", "x"}, "x\nimage: nginx\n", false, ""},
		{[]string{"ctrl+shift+right", "backspace"}, ": web\nimage: nginx\n", false, ""},
		{[]string{"shift+end", "right"}, text, false, ""},
		{[]string{"shift+end", "esc"}, text, false, ""},
		{[]string{"shift+end", "alt+c"}, text, true, "name: web"},
		{[]string{"alt+c"}, text, false, "name: web\n"},
		{[]string{"end", "alt+shift+left", "ctrl+c", "home", "ctrl+v"}, "webname: web\nimage: nginx\n", false, "web"},
		{[]string{"down", "end", "shift+up", "delete"}, "name: web\n", false, ""},
	}
	for _, c := range cases {
		m := press(t, opened(text), c.keys...)
		if m.Text() != c.want || m.Selected() != c.selected || m.Register() != c.register {
			t.Errorf("%v: text %q selected %v register %q; want %q %v %q", c.keys, m.Text(), m.Selected(), m.Register(), c.want, c.selected, c.register)
		}
	}
	// A paste replaces the selection, as one undo step.
	m := press(t, opened(text), "shift+end")
	m, _ = m.Update(pasteMsg("name: api"))
	if m.Text() != "name: api\nimage: nginx\n" {
		t.Errorf("a paste over the selection: %q", m.Text())
	}
	if m = press(t, m, "ctrl+z"); m.Text() != text {
		t.Errorf("undo of the paste: %q", m.Text())
	}
	// ctrl+c without a selection changes nothing: the parent's.
	m = press(t, opened(text), "ctrl+c")
	if m.Register() != "" || m.Text() != text {
		t.Errorf("ctrl+c without a selection: register %q", m.Register())
	}
}

// TestReadlineKeys: ctrl+a and ctrl+e go to the line's ends, ctrl+w and
// alt+backspace delete the word left, ctrl+u the line left of the cursor.
func TestReadlineKeys(t *testing.T) {
	text := "  image: nginx:1.27\nx\n"
	for _, c := range []struct {
		keys []string
		want string
		col  int
	}{
		{[]string{"ctrl+e"}, text, 19},
		{[]string{"ctrl+e", "ctrl+a"}, text, 0},
		{[]string{"ctrl+e", "ctrl+w"}, "  image: nginx:1.\nx\n", 17},
		{[]string{"ctrl+e", "alt+backspace", "alt+backspace"}, "  image: nginx:\nx\n", 15},
		{[]string{"ctrl+e", "left", "left", "ctrl+u"}, "27\nx\n", 0},
		{[]string{"down", "ctrl+w"}, "  image: nginx:1.27x\n", 19},
		{[]string{"ctrl+u"}, text, 0},
	} {
		m := press(t, opened(text), c.keys...)
		if m.Text() != c.want || m.Cursor().Col != c.col {
			t.Errorf("%v: %q at %d, want %q at %d", c.keys, m.Text(), m.Cursor().Col, c.want, c.col)
		}
	}
}

// TestReplace: ctrl+r finds as find does; enter then takes what replaces
// it; enter replaces the match at the cursor and goes to the next, ctrl+a
// replaces all and says how many, all in one undo step.
func TestReplace(t *testing.T) {
	text := "image: nginx:1.27\nsidecar: NGINX\nproxy: nginx\n"
	m := press(t, opened(text), "ctrl+r", "n", "g", "i", "n", "x", "enter", "h", "t", "t", "p", "d")
	if m.prompt != replaceWithPrompt || m.query != "nginx" || m.input != "httpd" || m.Cursor() != (Pos{0, 7}) {
		t.Fatalf("replace prompt %d %q %q at %+v", m.prompt, m.query, m.input, m.Cursor())
	}
	m = press(t, m, "enter")
	if !strings.HasPrefix(m.Text(), "image: httpd:1.27\n") || m.Cursor() != (Pos{1, 9}) {
		t.Fatalf("enter: %q at %+v", m.Text(), m.Cursor())
	}
	if _, said := m.Said(); said != "replaced 1 occurrence" {
		t.Errorf("enter said %q", said)
	}
	m = press(t, m, "ctrl+a")
	if m.Text() != "image: httpd:1.27\nsidecar: httpd\nproxy: httpd\n" || m.Prompting() {
		t.Fatalf("ctrl+a: %q", m.Text())
	}
	if _, said := m.Said(); said != "replaced 2 occurrences" {
		t.Errorf("ctrl+a said %q", said)
	}
	if m = press(t, m, "ctrl+z"); m.Text() != "image: httpd:1.27\nsidecar: NGINX\nproxy: nginx\n" {
		t.Errorf("one undo takes back all of ctrl+a: %q", m.Text())
	}
	// Capitals match exactly; nothing to replace says 0.
	m = press(t, opened(text), "ctrl+r", "N", "G", "I", "N", "X", "enter", "x", "ctrl+a")
	if m.Text() != "image: nginx:1.27\nsidecar: x\nproxy: nginx\n" {
		t.Errorf("NGINX: %q", m.Text())
	}
	m = press(t, opened(text), "ctrl+r", "q", "enter", "x", "ctrl+a")
	if _, said := m.Said(); m.Text() != text || said != "replaced 0 occurrences" {
		t.Errorf("no match: %q, said %q", m.Text(), said)
	}
}

// TestDragSelects: the left button down and moved selects from where it
// went down; a click alone selects nothing.
func TestDragSelects(t *testing.T) {
	m := opened("apiVersion: v1\nkind: ConfigMap\n")
	gw, _ := m.gutter()
	m, _ = m.Update(tea.MouseMsg{X: gw + 5, Y: 0, Button: tea.MouseButtonLeft, Action: tea.MouseActionPress})
	if m.Selected() {
		t.Fatal("a click selects")
	}
	m, _ = m.Update(tea.MouseMsg{X: gw + 4, Y: 1, Button: tea.MouseButtonLeft, Action: tea.MouseActionMotion})
	m, _ = m.Update(tea.MouseMsg{X: gw + 4, Y: 1, Button: tea.MouseButtonLeft, Action: tea.MouseActionRelease})
	if m.Selection() != "rsion: v1\nkind" {
		t.Errorf("drag selects %q", m.Selection())
	}
}

// TestShiftClickExtendsTheSelection: a click with shift selects from the
// cursor to where it clicks; another extends the same selection from its
// anchor, and a drag after it too; a click without shift ends it.
func TestShiftClickExtendsTheSelection(t *testing.T) {
	m := opened("apiVersion: v1\nkind: ConfigMap\ndata: {}\n")
	gw, _ := m.gutter()
	click := func(m Model, x, y int, shift bool) Model {
		m, _ = m.Update(tea.MouseMsg{X: gw + x, Y: y, Shift: shift, Button: tea.MouseButtonLeft, Action: tea.MouseActionPress})
		m, _ = m.Update(tea.MouseMsg{X: gw + x, Y: y, Shift: shift, Button: tea.MouseButtonLeft, Action: tea.MouseActionRelease})
		return m
	}
	m = click(m, 3, 0, false)
	m = click(m, 4, 1, true)
	if m.Selection() != "Version: v1\nkind" {
		t.Fatalf("shift+click selects %q", m.Selection())
	}
	m = click(m, 4, 2, true)
	if m.Selection() != "Version: v1\nkind: ConfigMap\ndata" {
		t.Fatalf("a second shift+click selects %q", m.Selection())
	}
	m = click(m, 1, 0, true)
	if m.Selection() != "pi" {
		t.Fatalf("shift+click before the anchor selects %q", m.Selection())
	}
	m, _ = m.Update(tea.MouseMsg{X: gw + 1, Y: 0, Shift: true, Button: tea.MouseButtonLeft, Action: tea.MouseActionPress})
	m, _ = m.Update(tea.MouseMsg{X: gw + 2, Y: 1, Button: tea.MouseButtonLeft, Action: tea.MouseActionMotion})
	if m.Selection() != "Version: v1\nki" {
		t.Fatalf("a drag after shift+click selects %q", m.Selection())
	}
	if m = click(m, 0, 2, false); m.Selected() {
		t.Errorf("a click without shift keeps %q selected", m.Selection())
	}
}

// TestGoldenSelectionAndReplace draws a selection over three lines (the
// selection reversed, the cursor underlined; written «selected» and
// ‹cursor› in the golden file) and the replace prompt's two steps.
func TestGoldenSelectionAndReplace(t *testing.T) {
	marked := regexp.MustCompile("\x1b\\[7m(.*?)\x1b\\[0m")
	cursor := regexp.MustCompile("\x1b\\[4;4m(.*?)\x1b\\[0m")
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		w, h := size[0], size[1]
		t.Run(fmt.Sprintf("selection_%dx%d", w, h), func(t *testing.T) {
			lipgloss.SetColorProfile(termenv.ANSI)
			defer lipgloss.SetColorProfile(termenv.Ascii)
			m := sized(goldenConfigMap(), w, h)
			m.SetStyles(Styles{Selection: lipgloss.NewStyle().Reverse(true), Cursor: lipgloss.NewStyle().Underline(true)})
			m = press(t, m, "down", "down", "down", "down", "down", "down", "down", "down", "down", "right", "right", "right", "right",
				"shift+down", "shift+down", "shift+right", "shift+right", "shift+right")
			view := m.View()
			checkScreen(t, "selection", view, w, h)
			shown := cursor.ReplaceAllString(marked.ReplaceAllString(view, "«$1»"), "‹$1›")
			golden.RequireEqual(t, []byte(ansi.Strip(shown)))
		})
		for name, keys := range map[string][]string{
			"replace":      {"ctrl+r", "v", "a", "l", "u", "e"},
			"replace_with": {"ctrl+r", "v", "a", "l", "u", "e", "enter", "s", "e", "t", "t", "i", "n", "g"},
		} {
			t.Run(fmt.Sprintf("%s_%dx%d", name, w, h), func(t *testing.T) {
				view := press(t, sized(goldenConfigMap(), w, h), keys...).View()
				checkScreen(t, name, view, w, h)
				golden.RequireEqual(t, []byte(ansi.Strip(view)))
			})
		}
	}
}
