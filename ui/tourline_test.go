package ui

import (
	"strings"
	"sync"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/kedit/kedit/internal/demo"
	"github.com/kedit/kedit/ui/tour"
)

// tourDemo is a demo writer that writes nothing and counts how the tour
// prepares it.
type tourDemo struct {
	fakeDemo
	mu     sync.Mutex
	resets int
	next   []bool
	races  int
}

func (f *tourDemo) Reset() { f.mu.Lock(); f.resets++; f.mu.Unlock() }
func (f *tourDemo) Race()  { f.mu.Lock(); f.races++; f.mu.Unlock() }
func (f *tourDemo) NextWrites(mine bool) {
	f.mu.Lock()
	f.next = append(f.next, mine)
	f.mu.Unlock()
}

func (f *tourDemo) counts() (int, []bool, int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.resets, append([]bool(nil), f.next...), f.races
}

var altN = tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("n"), Alt: true}

// TestTourSkipKeyPreparesEachStep: alt+n skips the step under way in
// any view, and the next one is prepared as if the one before were done:
// foo set back to "1" before the first step, blame, the lost update and
// the race, unless it is "1" already (here it always is: no reset is
// asked, which would only say it found foo so), the writer's next field
// before the conflict and the clean rebase. The footer and ? name the key while the tour goes on; A asks
// the demo writer for the race.
func TestTourSkipKeyPreparesEachStep(t *testing.T) {
	fake := &tourDemo{fakeDemo: fakeDemo{now: make(chan struct{}, 1), writes: make(chan demo.Write)}}
	d := newDriver(t, newApp(t, 160, 30, &fakeRunner{}, func(c *Config) { c.Object.Demo, c.Tour = fake, true }))
	d.send(tea.WindowSizeMsg{Width: 160, Height: 30})
	if r, _, _ := fake.counts(); r != 0 || !strings.Contains(plain(d.m), "tour 1/8: "+tour.Steps[0].Do) {
		t.Fatalf("the first step: %d resets\n%s", r, plain(d.m))
	}
	if out := plain(d.m); !strings.Contains(out, "alt+n") {
		t.Errorf("the footer does not name alt+n:\n%s", out)
	}
	d.send(keyMsg("?"))
	if out := plain(d.m); !strings.Contains(out, "tour: skip the step") {
		t.Errorf("? does not name the skip key:\n%s", out)
	}
	d.send(keyMsg("esc"))
	d.send(keyMsg("t")) // in another view than the object view
	for i := 1; i < len(tour.Steps); i++ {
		d.send(altN)
		d.settle()
		if d.m.tour.Step() != i {
			t.Fatalf("alt+n at step %d: step %d", i, d.m.tour.Step()+1)
		}
	}
	resets, next, _ := fake.counts()
	// The resolution's step, skipped to with no conflict, says to make
	// one first: w must write foo.
	if resets != 0 || len(next) != 3 || !next[0] || !next[1] || next[2] {
		t.Errorf("the steps' preparations: %d resets, next writes %v; want none (foo is \"1\") and [true true false]", resets, next)
	}
	out := plain(d.m)
	if !strings.Contains(out, "step 7 skipped") || !strings.Contains(out, "tour 8/8: press A") {
		t.Errorf("after skipping to the race:\n%s", out)
	}
	// Skipping step 1 made its draft and showed it, as y does, from the
	// timeline.
	if d.m.screen != screenObject {
		t.Errorf("after skipping the draft's step from the timeline: screen %v", d.m.screen)
	}
	d.send(keyMsg("A"))
	if _, _, races := fake.counts(); races != 1 {
		t.Errorf("A asked %d races", races)
	}
	d.send(altN)
	d.settle()
	if out := plain(d.m); !strings.Contains(out, "tour done") || strings.Contains(out, "alt+n") {
		t.Errorf("after the last step the footer still names alt+n, or the tour is not done:\n%s", out)
	}
	close(fake.writes)
	d.settle()

	// Each step skipped in turn (and those before it), the next one is
	// done by the keys its line says; and the resolution skipped with its
	// conflict open.
	for i := 0; i+1 < len(tour.Steps); i++ {
		skipEachStepThenFollow(t, i)
	}
	skipHalfDoneStep3(t)
}
