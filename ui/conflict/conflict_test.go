package conflict

import (
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/kedit/kedit/ui/common"
)

// TestConflictViewSelection: n, j and ↓ move the selection down the list,
// p, k and ↑ up, stopping at either end.
func TestConflictViewSelection(t *testing.T) {
	v := New(DefaultKeyMap(), common.NewStyles())
	v.rows = make([]conflictRow, 3)
	for _, step := range []struct {
		key  string
		want int
	}{{"n", 1}, {"j", 2}, {"down", 2}, {"p", 1}, {"k", 0}, {"up", 0}} {
		km := tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(step.key)}
		switch step.key {
		case "up":
			km = tea.KeyMsg{Type: tea.KeyUp}
		case "down":
			km = tea.KeyMsg{Type: tea.KeyDown}
		}
		v, _ = v.Update(km)
		if v.Selected() != step.want {
			t.Errorf("after %s: selected %d, want %d", step.key, v.Selected(), step.want)
		}
	}
}
