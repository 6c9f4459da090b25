package ui

import (
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/kedit/kedit/internal/demo"
)

// smallSizes are the terminal sizes every view must be usable at.
var smallSizes = []struct {
	name string
	w, h int
}{{"80x24", 80, 24}, {"60x15", 60, 15}}

// everyView builds the app on each of its views (and states of a view
// whose keys differ), at a given size.
var everyView = []struct {
	name  string
	build func(t *testing.T, w, h int) App
}{
	{"object", func(t *testing.T, w, h int) App { return newApp(t, w, h, &fakeRunner{}) }},
	{"object_draft_diff", func(t *testing.T, w, h int) App {
		return drive(t, edit(t, newApp(t, w, h, &fakeRunner{}), `foo: "1"`, `foo: mine`), keys("d")...)
	}},
	{"object_from_browser", func(t *testing.T, w, h int) App {
		c := newFakeCluster(t)
		c.add("configmaps", "default", "testmap")
		m := browserApp(t, c, c.collection("configmaps", "default", false), w, h)
		return drive(t, m, tea.KeyMsg{Type: tea.KeyEnter})
	}},
	{"object_blame", func(t *testing.T, w, h int) App { return drive(t, newApp(t, w, h, &fakeRunner{}), keys("b")...) }},
	{"object_demo", func(t *testing.T, w, h int) App {
		fake := &fakeDemo{now: make(chan struct{}, 1), writes: make(chan demo.Write)}
		return newApp(t, w, h, &fakeRunner{}, func(c *Config) { c.Object.Demo = fake })
	}},
	{"secret", func(t *testing.T, w, h int) App { return newSecretApp(t, w, h, &fakeRunner{}) }},
	{"conflict", func(t *testing.T, w, h int) App {
		r := &fakeRunner{}
		m := edit(t, newApp(t, w, h, r), `foo: "1"`, `foo: mine`)
		return drive(t, theirsWrite(t, m, r, "foo", "theirs"), keys("s")...)
	}},
	{"secret_conflict", secretConflict},
	{"editor", func(t *testing.T, w, h int) App { return drive(t, newApp(t, w, h, &fakeRunner{}), keys("i")...) }},
	{"timeline", func(t *testing.T, w, h int) App { return drive(t, newApp(t, w, h, &fakeRunner{}), keys("t")...) }},
	{"timeline_audit_log", func(t *testing.T, w, h int) App {
		m, _ := auditApp(t, w, h, &fakeRunner{})
		return drive(t, m, keys("t")...)
	}},
	{"lost", func(t *testing.T, w, h int) App {
		m, _ := auditApp(t, w, h, &fakeRunner{})
		return drive(t, m, keys("t", "enter")...)
	}},
	{"lost_secret", secretLostApp},
	{"preview", func(t *testing.T, w, h int) App {
		return drive(t, edit(t, newApp(t, w, h, &fakeRunner{}), `foo: "1"`, `foo: mine`), keys("p")...)
	}},
	{"browser", func(t *testing.T, w, h int) App {
		c := newFakeCluster(t)
		c.add("configmaps", "default", "testmap")
		return browserApp(t, c, c.collection("configmaps", "default", false), w, h)
	}},
	{"set", func(t *testing.T, w, h int) App { return setApp(t, newFakeCluster(t), w, h, "a", "b") }},
	{"object_from_set", func(t *testing.T, w, h int) App {
		return drive(t, setApp(t, newFakeCluster(t), w, h, "a", "b"), tea.KeyMsg{Type: tea.KeyEnter})
	}},
	{"requests", func(t *testing.T, w, h int) App { return drive(t, newApp(t, w, h, &fakeRunner{}), keys("L")...) }},
}

// helpPages opens the help page of the view m shows and returns every
// screen of it, scrolling with pgdn until nothing is left below.
func helpPages(t *testing.T, m App, w, h int) (App, []string) {
	t.Helper()
	open := keyMsg("?")
	if m.screen == screenEditor {
		open = tea.KeyMsg{Type: tea.KeyF1}
	}
	m = drive(t, m, open)
	if !m.help.Shown() {
		t.Fatalf("%s does not open the help page", open)
	}
	var pages []string
	for range 20 {
		screen := plain(m)
		checkSize(t, screen, w, h)
		pages = append(pages, screen)
		if !strings.Contains(screen, "more lines below") && !strings.Contains(screen, "more line below") {
			return m, pages
		}
		m = drive(t, m, tea.KeyMsg{Type: tea.KeyPgDown})
	}
	t.Fatal("the help page never ends")
	return m, nil
}

// checkSize fails unless screen is h lines of at most w cells.
func checkSize(t *testing.T, screen string, w, h int) {
	t.Helper()
	if n := strings.Count(screen, "\n") + 1; n != h {
		t.Errorf("the screen has %d lines, want %d", n, h)
	}
	for i, l := range strings.Split(screen, "\n") {
		if lw := ansi.StringWidth(l); lw > w {
			t.Errorf("line %d is %d wide, more than %d: %q", i+1, lw, w, l)
		}
	}
}

// shows reports whether a line of screen holds binding b: its key, then
// (after the padding of its column) its whole description.
func shows(screen string, b key.Binding) bool {
	re := regexp.MustCompile(`(^|\s)` + regexp.QuoteMeta(b.Help().Key) + ` +` + regexp.QuoteMeta(b.Help().Desc) + `(\s|$)`)
	for _, l := range strings.Split(screen, "\n") {
		if re.MatchString(l) {
			return true
		}
	}
	return false
}

// TestHelpShowsEveryKey walks every view at 80×24 and 60×15: its help
// page, scrolled to its end, shows every enabled binding of the view with
// its whole description, and its footer names every key it holds or
// ends with "…  ? help".
func TestHelpShowsEveryKey(t *testing.T) {
	for _, v := range everyView {
		for _, s := range smallSizes {
			t.Run(v.name+"_"+s.name, func(t *testing.T) {
				m := v.build(t, s.w, s.h)
				src := m.helpSource()
				footer := plain(m)[strings.LastIndex(plain(m), "\n")+1:]
				if strings.Contains(footer, "…") && src.help.Help().Key != "" && !strings.HasSuffix(footer, "…  "+src.help.Help().Key+" help") {
					t.Errorf("a shortened footer does not end with …  %s help: %q", src.help.Help().Key, footer)
				}
				m, pages := helpPages(t, m, s.w, s.h)
				all := strings.Join(pages, "\n")
				if !strings.Contains(all, "keys of the ") {
					t.Errorf("the help page has no title:\n%s", all)
				}
				n := 0
				for _, g := range src.full {
					for _, b := range g {
						if !b.Enabled() || b.Help().Key == "" {
							continue
						}
						n++
						if !shows(all, b) {
							t.Errorf("the help does not show %q %q:\n%s", b.Help().Key, b.Help().Desc, all)
						}
					}
				}
				// The footer's keys are all in the help too.
				for _, b := range src.short {
					if b.Enabled() && !strings.Contains(all, b.Help().Key+" ") {
						t.Errorf("the footer's %q is not in the help", b.Help().Key)
					}
				}
				if n < 5 {
					t.Errorf("only %d bindings", n)
				}
				if !strings.Contains(all, "escapes (reversed)") || !strings.Contains(all, "quoted)") {
					t.Errorf("the legend of the escapes is cut:\n%s", all)
				}
				// The page's own key closes it.
				closing := keyMsg("?")
				if m.screen == screenEditor {
					closing = tea.KeyMsg{Type: tea.KeyF1}
				}
				if m = drive(t, m, closing); m.help.Shown() || strings.Contains(plain(m), "keys of the ") {
					t.Errorf("the help page stays:\n%s", plain(m))
				}
			})
		}
	}
}

// TestEveryKeyIsInItsViewsHelp: every binding of a view's key map is in
// that view's help, but the answers to a question (y, n, 1-9), which the
// question names, and the help page's own, which its footer names.
func TestEveryKeyIsInItsViewsHelp(t *testing.T) {
	listed := map[string]map[string]bool{}
	for _, v := range everyView {
		m := v.build(t, 120, 40)
		src := m.helpSource()
		if listed[src.name] == nil {
			listed[src.name] = map[string]bool{}
		}
		for _, g := range src.full {
			for _, b := range g {
				listed[src.name][b.Help().Key+" "+b.Help().Desc] = true
			}
		}
	}
	k := DefaultKeyMap()
	// ctrl+l, which every view answers, is in every view's help.
	redraw := k.Screen.Redraw.Help()
	for view, keys := range listed {
		if !keys[redraw.Key+" "+redraw.Desc] {
			t.Errorf("the %s's help does not list %s", view, redraw.Key)
		}
	}
	for view, keys := range map[string]any{"object view": k.Object, "conflict view": k.Conflict, "in-app editor": k.Editor,
		"timeline": k.Timeline, "lost updates": k.Lost, "preview": k.Preview, "browser": k.Browser, "set view": k.Set,
		"request pane": k.Requests} {
		for name, b := range bindingsOf(keys) {
			if !listed[view][b.Help().Key+" "+b.Help().Desc] {
				t.Errorf("the %s's %s (%s %s) is not in its help", view, name, b.Help().Key, b.Help().Desc)
			}
		}
	}
}

// TestHelpPageScrollsAndAnyOtherKeyActs: the help page scrolls with the
// movement keys, says what is above and below, and a key that is not the
// page's closes it and does what it does.
func TestHelpPageScrollsAndAnyOtherKeyActs(t *testing.T) {
	m := drive(t, newApp(t, 60, 15, &fakeRunner{}), keys("?")...)
	first := plain(m)
	if !strings.Contains(first, "more lines below (pgdn, ↓)") || strings.Contains(first, "above (pgup") {
		t.Fatalf("the first page:\n%s", first)
	}
	m = drive(t, m, keys("j")...)
	if s := plain(m); !strings.Contains(s, "↑ 1 more line above") {
		t.Errorf("j did not scroll one line:\n%s", s)
	}
	m = drive(t, m, keys("end")...)
	if s := plain(m); strings.Contains(s, "below (pgdn") || !strings.Contains(s, "quoted)") {
		t.Errorf("end does not show the end:\n%s", s)
	}
	m = drive(t, m, keys("f")...)
	if m.help.Shown() || !m.object.ShowingAllFields() {
		t.Errorf("f with the help page: help %v, all fields %v", m.help.Shown(), m.object.ShowingAllFields())
	}
	m = drive(t, m, keys("?")...)
	m = drive(t, m, keys("esc")...)
	if m.help.Shown() || m.screen != screenObject {
		t.Errorf("esc closes the page only: help %v, screen %v", m.help.Shown(), m.screen)
	}
}

// TestFooterNamesTheViewsKeys: the object view's footer names t, b and p
// (and R on a Secret), as many as fit then "…  ? help"; a Secret's R says
// hide once the values show, in the object view and the conflict view.
func TestFooterNamesTheViewsKeys(t *testing.T) {
	// The footer's rows, " / " between two.
	footer := func(m App) string {
		return strings.ReplaceAll(ansi.Strip(m.frame.helpLine), "\n", " / ")
	}
	if f := footer(newApp(t, 120, 40, &fakeRunner{})); f != "e edit • i edit here • s save • t timeline • b blame • p preview • f all fields • q quit • ? help" {
		t.Errorf("the object view's footer at 120: %q", f)
	}
	// From 20 rows up the footer takes two rows, so that the view's own
	// keys are named beside the everyday ones, with a draft too.
	if f := footer(newApp(t, 80, 24, &fakeRunner{})); f != "e edit • i edit here • s save • t timeline • b blame • p preview • f all fields / q quit • ? help" {
		t.Errorf("the object view's footer at 80: %q", f)
	}
	drafted := edit(t, newSecretApp(t, 80, 24, &fakeRunner{}), testPassword, "mine-password")
	if f := footer(drafted); strings.Contains(f, "…") || !strings.Contains(f, "R reveal") || !strings.Contains(f, "t timeline") ||
		!strings.Contains(f, "b blame") || !strings.Contains(f, "p preview") || !strings.Contains(f, "x discard") {
		t.Errorf("a Secret's footer with a draft at 80x24: %q", f)
	}
	// Below 20 rows, one row, shortened.
	if f := footer(newApp(t, 60, 15, &fakeRunner{})); strings.Contains(f, " / ") || !strings.HasSuffix(f, " …  ? help") {
		t.Errorf("the object view's footer at 60x15: %q", f)
	}
	m := newSecretApp(t, 120, 40, &fakeRunner{})
	if f := footer(m); !strings.Contains(f, "R reveal") || !strings.Contains(f, "t timeline") {
		t.Errorf("a Secret's footer: %q", f)
	}
	if f := footer(drive(t, m, keys("R")...)); !strings.Contains(f, "R hide") {
		t.Errorf("a Secret's footer once revealed: %q", f)
	}
	c := secretConflict(t, 80, 24)
	if f := footer(c); !strings.Contains(f, "R reveal") {
		t.Errorf("a Secret's conflict footer: %q", f)
	}
	if f := footer(drive(t, c, keys("R")...)); !strings.Contains(f, "R hide") || strings.Contains(f, "R reveal") {
		t.Errorf("a Secret's conflict footer once revealed: %q", f)
	}
}
