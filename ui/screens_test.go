package ui

import (
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/kedit/kedit/internal/fixture"
)

// Screens at small sizes: sideways scrolling in the object view, the
// conflict view's versions at 15 rows, a long line's first difference.

// longLine is a one-line value of about n characters that ends in END.
func longLine(n int) string {
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, "seg%04d-", i)
	}
	return b.String() + "END"
}

// rowWith returns the screen's first line that holds s.
func rowWith(screen, s string) string {
	for _, l := range strings.Split(screen, "\n") {
		if strings.Contains(l, s) {
			return l
		}
	}
	return ""
}

// mergedMultiline is the conflict view of a config file whose line 10
// collides, with the merged change of mine's line 5 selected (the
// conflict resolved to mine first).
func mergedMultiline(t *testing.T, w, h int) App {
	r := &fakeRunner{}
	m := newAppWith(t, w, h, r, map[string]any{"app.conf": fixture.AppConfBase})
	m = edit(t, m, "option5 = 5\n", "option5 = mine\n")
	m = edit(t, m, "option10 = 10\n", "option10 = mine\n")
	m = theirsWrite(t, m, r, "app.conf", fixture.AppConfTheirs)
	return drive(t, drive(t, m, keys("s")...), keys("m", "n")...)
}

// conflictHunks is the same conflict view with the conflict selected.
func conflictHunks(t *testing.T, w, h int) App {
	r := &fakeRunner{}
	m := newAppWith(t, w, h, r, map[string]any{"app.conf": fixture.AppConfBase})
	m = edit(t, m, "option5 = 5\n", "option5 = mine\n")
	m = edit(t, m, "option10 = 10\n", "option10 = mine\n")
	m = theirsWrite(t, m, r, "app.conf", fixture.AppConfTheirs)
	return drive(t, m, keys("s")...)
}

// longConflict is a conflict over a one-line value of 300 characters
// whose three versions differ only at its end.
func longConflict(t *testing.T, w, h int) App {
	r := &fakeRunner{}
	long := longLine(300)
	m := newAppWith(t, w, h, r, map[string]any{"long": long + "base", "bar": "1"})
	m = edit(t, m, "ENDbase", "ENDmine")
	m = theirsWrite(t, m, r, "long", long+"theirs")
	return drive(t, m, keys("s")...)
}

var screenSizes = []struct {
	name string
	w, h int
}{{"80x24", 80, 24}, {"60x15", 60, 15}, {"100x15", 100, 15}}

// TestScreensGolden draws the screens of sideways scrolling and of small
// terminals at 80×24, 60×15 and 100×15.
func TestScreensGolden(t *testing.T) {
	cases := []struct {
		name  string
		build func(t *testing.T, w, h int) App
	}{
		{"object_long_line", func(t *testing.T, w, h int) App {
			return newAppWith(t, w, h, &fakeRunner{}, map[string]any{"long": longLine(5000), "short": "x"})
		}},
		{"object_long_line_right", func(t *testing.T, w, h int) App {
			m := newAppWith(t, w, h, &fakeRunner{}, map[string]any{"long": longLine(5000), "short": "x"})
			return drive(t, m, keys("l", "right")...)
		}},
		{"object_long_line_end", func(t *testing.T, w, h int) App {
			m := newAppWith(t, w, h, &fakeRunner{}, map[string]any{"long": longLine(5000), "short": "x"})
			return drive(t, m, keys(strings.Split(strings.Repeat("l", 300), "")...)...)
		}},
		{"conflict_hunks", conflictHunks},
		{"conflict_hunks_pgdn", func(t *testing.T, w, h int) App { return drive(t, conflictHunks(t, w, h), keys("pgdown")...) }},
		{"merged_multiline", mergedMultiline},
		{"merged_multiline_pgdn", func(t *testing.T, w, h int) App { return drive(t, mergedMultiline(t, w, h), keys("pgdown")...) }},
		{"conflict_long_value", longConflict},
	}
	for _, c := range cases {
		for _, s := range screenSizes {
			t.Run(c.name+"_"+s.name, func(t *testing.T) {
				out := plain(c.build(t, s.w, s.h))
				checkSize(t, out, s.w, s.h)
				golden.RequireEqual(t, out)
			})
		}
	}
}

// TestObjectViewScrollsSideways: ← and → (h and l) scroll a line wider
// than the screen, with a "…" on each edge where it goes on; the end of
// the widest line is as far as they go, and back at the start the line
// shows from its first column.
func TestObjectViewScrollsSideways(t *testing.T) {
	long := longLine(5000)
	for _, s := range smallSizes {
		t.Run(s.name, func(t *testing.T) {
			m := newAppWith(t, s.w, s.h, &fakeRunner{}, map[string]any{"long": long, "short": "x"})
			row := rowWith(plain(m), "long: ")
			if !strings.HasPrefix(row, "  long: seg0000-") || !strings.HasSuffix(row, "…") || len([]rune(row)) != s.w {
				t.Fatalf("the long line at the start: %q", row)
			}
			m = drive(t, m, keys("l")...)
			row = rowWith(plain(m), "seg0")
			if !strings.HasPrefix(row, "…") || !strings.HasSuffix(row, "…") || strings.Contains(row, "long:") {
				t.Fatalf("l does not scroll right: %q\n%s", row, plain(m))
			}
			if short := rowWith(plain(m), "short"); short != "" {
				t.Errorf("a short line shows although it is scrolled off: %q", short)
			}
			for range 200 {
				m = drive(t, m, tea.KeyMsg{Type: tea.KeyRight})
			}
			row = rowWith(plain(m), "END")
			if !strings.HasSuffix(row, "END") || !strings.HasPrefix(row, "…") {
				t.Fatalf("→ to the end: %q\n%s", row, plain(m))
			}
			at := m.object.SidewaysOffset()
			m = drive(t, m, keys("l")...)
			if m.object.SidewaysOffset() != at {
				t.Errorf("l went past the end: %d, then %d", at, m.object.SidewaysOffset())
			}
			for range 200 {
				m = drive(t, m, keys("h")...)
			}
			if row = rowWith(plain(m), "long: "); !strings.HasPrefix(row, "  long: seg0000-") {
				t.Errorf("h back to the start: %q", row)
			}
		})
	}
}

// TestConflictShowsALongLinesFirstDifference: a one-line value wider than
// the screen shows a window around its first difference from the other
// versions, its end here, with a "…" where it goes on.
func TestConflictShowsALongLinesFirstDifference(t *testing.T) {
	for _, s := range screenSizes {
		t.Run(s.name, func(t *testing.T) {
			screen := plain(longConflict(t, s.w, s.h))
			for _, end := range []string{"ENDbase", "ENDtheirs", "ENDmine"} {
				row := rowWith(screen, end)
				if !strings.HasPrefix(row, "…") || !strings.HasSuffix(strings.TrimRight(row, " "), end) {
					t.Errorf("%s's row: %q\n%s", end, row, screen)
				}
			}
		})
	}
}

// TestConflictVersionsAtSmallSizes: at 15 rows every version shows
// content under its title, and pgdn and pgup scroll the versions.
func TestConflictVersionsAtSmallSizes(t *testing.T) {
	for _, s := range screenSizes {
		t.Run(s.name, func(t *testing.T) {
			for name, build := range map[string]func(*testing.T, int, int) App{"conflict": conflictHunks, "merged": mergedMultiline} {
				m := build(t, s.w, s.h)
				screen := plain(m)
				titles := []string{"base (rv 812)", "theirs (rv 815)", "mine"}
				want := []string{"option10 = 10", "option10 = theirs", "option10 = mine"}
				if name == "merged" {
					titles = []string{"base (rv 812)", "mine"}
					want = []string{"option5 = 5", "option5 = mine"}
				}
				lines := strings.Split(screen, "\n")
				for i, title := range titles {
					at := -1
					for j, l := range lines {
						if strings.HasPrefix(l, title) && j > 5 {
							at = j
							break
						}
					}
					if at < 0 || at+1 >= len(lines) || strings.TrimSpace(lines[at+1]) == "" || strings.TrimSpace(lines[at+1]) == "…" {
						t.Errorf("%s: %q shows no content:\n%s", name, title, screen)
						continue
					}
					if !strings.Contains(screen, want[i]) {
						t.Errorf("%s: %q is not shown:\n%s", name, want[i], screen)
					}
				}
				down := drive(t, m, keys("pgdown")...)
				if plain(down) == screen || down.conflict.DetailOffset() <= 0 {
					t.Errorf("%s: pgdn does nothing:\n%s", name, plain(down))
				}
				if up := drive(t, down, keys("pgup")...); plain(up) != screen {
					t.Errorf("%s: pgup does not come back:\n%s", name, plain(up))
				}
			}
		})
	}
}
