package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/kedit/kedit/internal/demo"
	"github.com/kedit/kedit/ui/common"
)

// TestFooterAt80x24KeepsTheWayOutAndTheWayToEveryKey: at 80×24, in the
// states where a view has more keys than the footer's two rows hold (a
// draft on an object wider than the screen opened from a list, the tour's
// alt+n over a draft, the timeline in the tour), the footer names every
// key, or as many as fit then "…  q quit • ? help": the way out is never
// the key cut, and ? names every key the footer left out. The object
// view's everyday keys (e, i, s, t, b, p) are always named.
func TestFooterAt80x24KeepsTheWayOutAndTheWayToEveryKey(t *testing.T) {
	tourOn := func(c *Config) {
		c.Object.Demo = &tourDemo{fakeDemo: fakeDemo{now: make(chan struct{}, 1), writes: make(chan demo.Write)}}
		c.Tour = true
	}
	wide := map[string]any{"long": strings.Repeat("wide-", 40), "foo": "1"}
	states := []struct {
		name   string
		object bool
		build  func(t *testing.T) App
	}{
		{"wide_draft_from_list", true, func(t *testing.T) App {
			m := newAppWith(t, 80, 24, &fakeRunner{}, wide)
			m.object.SetBackToList(true)
			return edit(t, m, `foo: "1"`, `foo: mine`)
		}},
		{"tour_draft", true, func(t *testing.T) App {
			return edit(t, newApp(t, 80, 24, &fakeRunner{}, tourOn), `foo: "1"`, `foo: mine`)
		}},
		{"tour_wide_draft", true, func(t *testing.T) App {
			return edit(t, newAppWith(t, 80, 24, &fakeRunner{}, wide, tourOn), `foo: "1"`, `foo: mine`)
		}},
		{"tour_timeline", false, func(t *testing.T) App {
			return drive(t, newApp(t, 80, 24, &fakeRunner{}, tourOn), keys("t")...)
		}},
		{"tour_draft_timeline", false, func(t *testing.T) App {
			return drive(t, edit(t, newApp(t, 80, 24, &fakeRunner{}, tourOn), `foo: "1"`, `foo: mine`), keys("t")...)
		}},
	}
	for _, st := range states {
		t.Run(st.name, func(t *testing.T) {
			m := st.build(t)
			footer := strings.ReplaceAll(ansi.Strip(m.frame.helpLine), "\n", " ")
			src := m.helpSource()
			var missing []string
			hasQuit := false
			for _, b := range common.HelpEntries(src.short) {
				item := b.Help().Key + " " + b.Help().Desc
				hasQuit = hasQuit || b.Help().Key == common.QuitFooterKey
				if !strings.Contains(footer, item) {
					missing = append(missing, item)
				}
			}
			if len(missing) > 0 {
				end := " …  ? help"
				if hasQuit {
					end = " …  q quit • ? help"
				}
				if !strings.HasSuffix(footer, end) {
					t.Errorf("the footer leaves out %q and does not end %q: %q", missing, end, footer)
				}
			}
			if st.object {
				for _, k := range []string{"e edit", "i edit here", "s save", "t timeline", "b blame", "p preview"} {
					if !strings.Contains(footer, k) {
						t.Errorf("the object view's footer does not name %q: %q", k, footer)
					}
				}
			}
			if n := strings.Count(ansi.Strip(m.frame.helpLine), "\n") + 1; n > 2 {
				t.Errorf("the footer takes %d rows at 80×24", n)
			}
			t.Logf("%s", footer)
		})
	}
}
