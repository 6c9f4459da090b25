package e2e

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/vt"

	"github.com/kedit/kedit/internal/fixture"
	"github.com/kedit/kedit/kube/kubetest"
	"github.com/kedit/kedit/ui"
)

// The screens of the shipped binary at the sizes an operator's terminal
// has: 80×24 and 60×15. Sideways scrolling, the conflict view's versions
// at 15 rows, every key in ? and the footer, and wide and joined
// characters, as tmux shows them.

// termSize is a terminal's size, named as in a subtest.
type termSize struct {
	name string
	w, h int
}

var e2eSizes = []termSize{{"80x24", 80, 24}, {"60x15", 60, 15}}

// e2eFamily is a ZWJ sequence of four emoji (25 bytes), e2eCouple one of
// two.
const (
	e2eFamily = "\U0001F468\u200d\U0001F469\u200d\U0001F467\u200d\U0001F466"
	e2eCouple = "\U0001F468\u200d\U0001F469"
)

// longValue is a one-line value of about n characters that ends in END.
func longValue(n int) string {
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, "seg%04d-", i)
	}
	return b.String() + "END"
}

// rowOfText returns the screen's first row holding s.
func rowOfText(screen, s string) string {
	for _, l := range strings.Split(screen, "\n") {
		if strings.Contains(l, s) {
			return l
		}
	}
	return ""
}

// TestE2ESidewaysScrolling: → and l scroll a 5,000-character line to its
// end, "…" on each edge where it goes on; ← and h bring its start back.
func TestE2ESidewaysScrolling(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "wide", "--from-literal=long="+longValue(5000), "--from-literal=short=x")
	for _, s := range e2eSizes {
		t.Run(s.name, func(t *testing.T) {
			term := openKeditOn(t, ns, "configmap/wide", "ConfigMap/wide", "true", s.w, s.h)
			screen := term.waitFor(screenWait, "long: seg0000-")
			if row := strings.TrimRight(rowOfText(screen, "long: "), " "); !strings.HasSuffix(row, "…") || ansi.StringWidth(row) != s.w {
				t.Fatalf("the long line is not cut with a sign at the right edge: %q\n%s", row, screen)
			}
			term.send("l")
			term.waitUntil(screenWait, "l scrolls right", func(s string) bool {
				row := rowOfText(s, "seg00")
				return strings.HasPrefix(row, "…") && !strings.Contains(row, "long:")
			})
			for range 40 {
				term.send("Right", "Right", "Right", "Right", "Right")
			}
			term.waitUntil(screenWait, "→ reaches the end", func(s string) bool {
				return strings.HasSuffix(strings.TrimRight(rowOfText(s, "END"), " "), "END")
			})
			for range 40 {
				term.send("Left", "Left", "Left", "Left", "Left")
			}
			term.send("h")
			term.waitUntil(screenWait, "← and h bring the start back", func(s string) bool {
				return strings.HasPrefix(strings.TrimSpace(rowOfText(s, "long: ")), "long: seg0000-")
			})
			term.send("q")
			term.waitFor(screenWait, "EXIT=0")
		})
	}
}

// TestE2EConflictAtSmallSizes: at 15 rows (60 and 100 columns, and at
// 80×24) a conflict's three versions and a merged change's two each show
// their lines under their title; pgdn scrolls them, pgup brings them
// back; a long one-line value shows its end, where the versions differ.
func TestE2EConflictAtSmallSizes(t *testing.T) {
	t.Parallel()
	// And 100×15: as short, wider.
	for _, s := range append(e2eSizes, termSize{"100x15", 100, 15}) {
		t.Run(s.name, func(t *testing.T) {
			ns := kubetest.Namespace(t)
			long := longValue(300)
			kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "conf", "--from-literal=app.conf="+fixture.AppConfBase, "--from-literal=long="+long+"base")
			editor := editorScript(t, `sed -i 's/option5 = 5$/option5 = mine/; s/option10 = 10$/option10 = mine/; s/ENDbase/ENDmine/' "$1"`)
			term := openKeditOn(t, ns, "configmap/conf", "ConfigMap/conf", editor, s.w, s.h)
			term.editAndWait()
			patch, _ := json.Marshal(map[string]any{"data": map[string]any{
				"app.conf": fixture.AppConfTheirs, "long": long + "theirs"}})
			kubetest.MustKubectl(t, "-n", ns, "patch", "configmap", "conf", "--type=merge", "-p", string(patch))
			term.waitFor(screenWait, "changed on server")
			term.send("s")
			screen := term.waitFor(screenWait, "conflict: base rv", "theirs (rv")
			// The first conflict is line 10 of app.conf (sorted before long).
			for _, want := range []string{"option10 = 10", "option10 = theirs", "option10 = mine"} {
				if !strings.Contains(screen, want) {
					t.Errorf("the conflict's versions do not show %q:\n%s", want, screen)
				}
			}
			checkSectionsShowContent(t, screen, "base (rv", "theirs (rv", "mine")
			term.send("PageDown")
			term.waitUntil(screenWait, "pgdn scrolls the versions", func(s string) bool { return s != screen })
			term.send("PageUp")
			term.waitUntil(screenWait, "pgup brings the versions back", func(s string) bool { return s == screen })

			// The long value's conflict: the window around its end.
			term.send("m")
			term.send("j")
			screen = term.waitFor(screenWait, "ENDbase", "ENDtheirs", "ENDmine")
			for _, end := range []string{"ENDbase", "ENDtheirs", "ENDmine"} {
				if row := strings.TrimRight(rowOfText(screen, end), " "); !strings.HasPrefix(row, "…") || !strings.HasSuffix(row, end) {
					t.Errorf("%s's row: %q", end, row)
				}
			}

			// The merged change of line 5: base and mine, each with lines.
			term.send("m")
			term.send("j")
			screen = term.waitFor(screenWait, "option5 = 5", "option5 = mine")
			checkSectionsShowContent(t, screen, "base (rv", "mine")
			versionLine := func(s string) bool {
				for _, l := range strings.Split(s, "\n") {
					if strings.HasPrefix(l, "option5 = mine") {
						return true
					}
				}
				return false
			}
			term.send("PageDown")
			term.waitUntil(screenWait, "pgdn scrolls line 5 away", func(s string) bool { return !versionLine(s) })
			term.send("PageUp")
			term.waitUntil(screenWait, "pgup brings line 5 back", versionLine)
		})
	}
}

// checkSectionsShowContent fails unless the row after each title, found
// below the list, holds a line of its version.
func checkSectionsShowContent(t *testing.T, screen string, titles ...string) {
	t.Helper()
	lines := strings.Split(screen, "\n")
	from := 0
	for _, title := range titles {
		at := -1
		for i := from; i < len(lines); i++ {
			if strings.HasPrefix(lines[i], title) && i > 3 {
				at = i
				break
			}
		}
		if at < 0 || at+1 >= len(lines) || strings.TrimSpace(lines[at+1]) == "" || strings.TrimSpace(lines[at+1]) == "…" {
			t.Errorf("%q shows nothing under it:\n%s", title, screen)
			continue
		}
		from = at + 1
	}
}

// objectViewKeys are the object view's bindings, as its help lists them
// outside kedit demo (w and W are listed in the demo only:
// TestE2EBlameThenEditAndSave).
func objectViewKeys() []key.Binding {
	k := ui.DefaultKeyMap().Object
	return []key.Binding{k.Edit, k.EditInApp, k.Save, k.SaveAsUpdate, k.Rebase, k.Discard, k.Conflicts, k.Diff,
		k.NextHunk, k.PrevHunk, k.Fields, k.Help, k.Quit, k.ForceQuit, k.Up, k.Down, k.PageUp, k.PageDown,
		k.HalfPageUp, k.HalfPageDown, k.Home, k.End, k.Left, k.Right, k.Timeline, k.Blame, k.Preview,
		k.BackToList}
}

// conflictViewKeys are the conflict view's.
func conflictViewKeys() []key.Binding {
	k := ui.DefaultKeyMap().Conflict
	return []key.Binding{k.Next, k.Prev, k.Home, k.End, k.Layout, k.TakeMine, k.TakeTheirs, k.TakeBase, k.AllMine,
		k.AllTheirs, k.PageDown, k.PageUp, k.Edit, k.EditInApp, k.Save, k.Back, k.Help, k.Quit, k.ForceQuit}
}

// helpText opens ? and reads every page of it, pgdn after pgdn, then
// closes it.
func helpText(t *testing.T, term *terminal, view string) string {
	t.Helper()
	term.send("?")
	screen := term.waitFor(screenWait, "keys of the "+view)
	pages := []string{screen}
	for i := 0; strings.Contains(screen, "below (pgdn"); i++ {
		if i > 20 {
			t.Fatalf("the help never ends:\n%s", screen)
		}
		term.send("PageDown")
		screen, _ = term.waitUntil(screenWait, "the next page of help", func(s string) bool { return s != screen })
		pages = append(pages, screen)
	}
	term.send("?")
	term.waitGone(screenWait, "keys of the "+view)
	return strings.Join(pages, "\n")
}

// showsBinding reports whether a row holds b's key and then its whole
// description.
func showsBinding(text string, b key.Binding) bool {
	for _, l := range strings.Split(text, "\n") {
		f := strings.Fields(l)
		for i, w := range f {
			if w == b.Help().Key && strings.Contains(strings.Join(f[i+1:], " ")+" ", b.Help().Desc+" ") {
				return true
			}
		}
	}
	return false
}

// TestE2EEveryKeyCanBeFound: at 80×24 and 60×15, ? shows every key of the
// object view and of the conflict view (scrolled with pgdn); the object
// view's footer names t, b, p and R on two rows at 24 rows, and ends with
// "…  ? help" when cut on one row at 15; a
// Secret's conflict footer says R hide once its values show.
func TestE2EEveryKeyCanBeFound(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	for _, s := range e2eSizes {
		t.Run(s.name, func(t *testing.T) {
			name := "db-" + s.name
			kubetest.MustKubectl(t, "-n", ns, "create", "secret", "generic", name, "--from-literal=password=hunter2", "--from-literal=user=app")
			editor := editorScript(t, `sed -i 's/password: hunter2$/password: mine/' "$1"`)
			term := openKeditOn(t, ns, "secret/"+name, "Secret/"+name, editor, s.w, s.h)
			screen := term.waitFor(screenWait, "e edit", "? help")
			rows := strings.Split(screen, "\n")
			footer := strings.TrimRight(rows[s.h-1], " ")
			if s.h >= 20 {
				// Two rows from 20 rows up: every key of the view is named.
				footer = strings.TrimRight(rows[s.h-2], " ") + " / " + footer
				for _, k := range []string{"t timeline", "b blame", "p preview", "R reveal"} {
					if !strings.Contains(footer, k) || strings.Contains(footer, "…") {
						t.Errorf("the footer at %dx%d lacks %q: %q", s.w, s.h, k, footer)
					}
				}
			} else if !strings.HasSuffix(footer, "…  ? help") {
				t.Errorf("the footer: %q", footer)
			}
			help := helpText(t, term, "object view")
			for _, b := range append(objectViewKeys(), ui.DefaultKeyMap().Object.Reveal) {
				if !showsBinding(help, b) {
					t.Errorf("? does not show %s %s:\n%s", b.Help().Key, b.Help().Desc, help)
				}
			}
			if !strings.Contains(help, "quoted)") {
				t.Errorf("? lacks the end of the legend:\n%s", help)
			}

			term.editAndWait()
			kubetest.MustKubectl(t, "-n", ns, "patch", "secret", name, "--type=merge", "-p", `{"stringData":{"password":"theirs`+s.name+`"}}`)
			term.waitFor(screenWait, "changed on server")
			term.send("s")
			term.waitFor(screenWait, "conflict: base rv", "R reveal")
			help = helpText(t, term, "conflict view")
			for _, b := range conflictViewKeys() {
				if !showsBinding(help, b) {
					t.Errorf("the conflict view's ? does not show %s %s:\n%s", b.Help().Key, b.Help().Desc, help)
				}
			}
			term.send("R")
			screen = term.waitFor(screenWait, "values shown (R hides)")
			// The footer is the last row, or the last two from 24 rows up.
			rows, top := strings.Split(screen, "\n"), s.h-1
			if s.h >= 24 {
				top = s.h - 2
			}
			if footer := strings.Join(rows[top:s.h], "\n"); !regexp.MustCompile(`\bR hide\b`).MatchString(footer) {
				t.Errorf("the conflict footer once values show: %q", footer)
			}
			term.send("Escape")
			term.waitFor(screenWait, "unsaved draft")
			term.send("x")
			term.send("y")
			term.waitFor(screenWait, "draft discarded")
		})
	}
}

// TestE2EWideAndJoinedCharacters: with ZWJ sequences, a stray joiner, a
// zero width space and wide characters in values, tmux shows each row as
// kedit drew it: the same text as a terminal emulator given kedit's raw
// output (charmbracelet/x/vt), no joiner on a row that has no emoji
// sequence, and the value's own line showing the emoji, not \U escapes.
func TestE2EWideAndJoinedCharacters(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "emoji",
		"--from-literal=couple="+e2eCouple+"|", "--from-literal=family="+e2eFamily+"|",
		"--from-literal=stray=a\u200db|", "--from-literal=hidden=x\u200by|", "--from-literal=wide=漢字 e\u0301|")
	for _, s := range e2eSizes {
		t.Run(s.name, func(t *testing.T) {
			env := newKeditEnv(t, "true")
			term, raw := env.runRaw(t, s.w, s.h, "-n", ns, "configmap/emoji")
			screen := term.waitFor(screenWait, "ConfigMap/emoji", "couple: "+e2eCouple+"|", `stray: "a\u200db|"`, `hidden: "x\u200by|"`, "wide: 漢字 e\u0301|")
			if strings.Contains(screen, `\U0001`) {
				t.Errorf("an emoji is drawn as an escape:\n%s", screen)
			}
			// Scroll, open ? and close it: rows are drawn again over others.
			term.send("j")
			term.send("?")
			term.waitFor(screenWait, "keys of the object view")
			term.send("?")
			screen = term.waitFor(screenWait, "couple: "+e2eCouple+"|")
			for i, row := range strings.Split(screen, "\n") {
				if strings.Contains(row, "\u200d") && !strings.Contains(row, e2eCouple) && !strings.Contains(row, "\U0001F468\u200d\U0001F469\u200d\U0001F467") {
					t.Errorf("row %d holds a stray joiner: %q", i+1, row)
				}
			}
			// The same output read by a terminal emulator shows the same
			// rows. tmux keeps at most 21 bytes of a cell (its UTF8_SIZE),
			// so it cuts the family's last emoji: compared without it.
			out, err := os.ReadFile(raw)
			if err != nil {
				t.Fatal(err)
			}
			emulated := emulate(t, out, s.w, s.h)
			tmuxRows := strings.Split(strings.TrimRight(screen, "\n"), "\n")
			for y := range s.h {
				want := strings.TrimRight(strings.ReplaceAll(emulated[y], e2eFamily, "\U0001F468\u200d\U0001F469\u200d\U0001F467\u200d"), " ")
				got := ""
				if y < len(tmuxRows) {
					got = strings.TrimRight(tmuxRows[y], " ")
				}
				if got != want {
					t.Errorf("row %d: tmux shows\n%q\nthe emulator\n%q", y+1, got, want)
				}
			}
			term.send("q")
			term.waitFor(screenWait, "EXIT=0")
		})
	}
}

// emulate feeds out, what kedit wrote to its terminal, to a terminal
// emulator of w×h and returns the rows it shows: each cell's grapheme
// cluster, a blank for an empty one.
func emulate(t *testing.T, out []byte, w, h int) []string {
	t.Helper()
	term := vt.NewSafeEmulator(w, h)
	go func() { _, _ = io.Copy(io.Discard, term) }() // its answers to kedit's queries
	if _, err := term.Write(out); err != nil {
		t.Fatal(err)
	}
	rows := make([]string, h)
	for y := range h {
		var b strings.Builder
		for x := 0; x < w; {
			c := term.CellAt(x, y)
			if c == nil || c.Content == "" {
				b.WriteByte(' ')
				x++
				continue
			}
			b.WriteString(c.Content)
			x += max(1, c.Width)
		}
		rows[y] = b.String()
	}
	return rows
}
