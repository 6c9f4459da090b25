package statusbar

import (
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/spinner"
	"github.com/charmbracelet/x/ansi"

	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/ui/common"
)

// TestSpinner: the spinner runs while the bar is busy, and its ticks end
// once the save is over.
func TestSpinner(t *testing.T) {
	s := New(common.NewStyles())
	s.SetSize(80, 1)
	if cmd := s.SetBusy("saving"); cmd == nil {
		t.Fatal("SetBusy does not start the spinner")
	}
	if !strings.Contains(s.View(), "saving") {
		t.Errorf("status %q does not say saving", s.View())
	}
	s.SetBusy("")
	s.OK("saved rv 9")
	if _, cmd := s.Update(spinner.TickMsg{}); cmd != nil {
		t.Error("the spinner goes on ticking after the save")
	}
	if got := s.View(); got != "saved rv 9" {
		t.Errorf("status %q, want saved rv 9", got)
	}
}

// TestMessagesWrapAtWords: at 80 columns a long message is wrapped at
// words, never cut (was "9 refusals (9…"), and a path too long for the
// rest of a line starts a line of its own; the spinner's text goes
// before it, the lines under it indented.
func TestMessagesWrapAtWords(t *testing.T) {
	m := New(common.NewStyles())
	m.SetSize(80, 1)
	race := `10 × kedit set /data/foo=2 --if /data/foo=1: 1 won (200, rv 215); 9 refusals (9 × 422 Unprocessable Entity): the test op found foo was no longer "1", nothing was written`
	m.Info(escape.Text(race))
	out := ansi.Strip(m.View())
	if strings.Join(strings.Fields(out), " ") != race {
		t.Errorf("the message is not whole:\n%s", out)
	}
	for _, l := range strings.Split(out, "\n") {
		if ansi.StringWidth(l) > 80 || strings.HasSuffix(l, "…") {
			t.Errorf("a line cut or wider than 80: %q", l)
		}
	}
	m.OK("draft recovered from /home/teacher/class/keep1/state/kedit/drafts/default/configmaps/testmap.yaml")
	if lines := strings.Split(ansi.Strip(m.View()), "\n"); len(lines) != 2 || lines[0] != "draft recovered from" {
		t.Errorf("the path does not start a line of its own:\n%s", strings.Join(lines, "\n"))
	}
	m.SetBusy("saving")
	m.Error(escape.Text(race))
	lines := strings.Split(ansi.Strip(m.View()), "\n")
	if !strings.Contains(lines[0], " saving 10 × kedit set") || !strings.HasPrefix(lines[1], "  ") {
		t.Errorf("the spinner's line and the lines under it:\n%s", strings.Join(lines, "\n"))
	}
}

// TestSuccessGoesWithItsView: "saved rv N" said in the object view is
// gone once the timeline shows (it stayed over the timeline and its
// diff), while a failure, true in every view of its object, stays.
func TestSuccessGoesWithItsView(t *testing.T) {
	obj := new(int)
	objectView := State{Object: obj, View: 0}
	timeline := State{Object: obj, View: 3}
	m := New(common.NewStyles())
	m.OK("saved rv 224")
	m.Settle(objectView)
	m.Settle(timeline)
	if m.Text() != "" {
		t.Errorf("the timeline shows %q", m.Text())
	}
	m.Error("the server refused the draft")
	m.Settle(objectView)
	m.Settle(timeline)
	if m.Text() == "" || !m.Describes(timeline) {
		t.Errorf("a failure went with the view: %q", m.Text())
	}
}
