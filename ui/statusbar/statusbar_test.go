package statusbar

import (
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/spinner"

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
