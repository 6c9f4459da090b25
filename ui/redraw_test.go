package ui

import (
	"reflect"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// TestCtrlLRedrawsInEveryView: ctrl+l asks Bubble Tea to clear and draw
// the whole screen again in every view, the in-app editor and the
// browser's prompt included, and changes nothing else.
func TestCtrlLRedrawsInEveryView(t *testing.T) {
	clear := reflect.TypeOf(tea.ClearScreen())
	for _, v := range everyView {
		t.Run(v.name, func(t *testing.T) {
			m := v.build(t, 100, 30)
			before := m.screen
			got, cmd := m.Update(tea.KeyMsg{Type: tea.KeyCtrlL})
			if cmd == nil || reflect.TypeOf(cmd()) != clear {
				t.Fatalf("ctrl+l gave %v", cmd)
			}
			if got.(App).screen != before {
				t.Errorf("ctrl+l moved from screen %v to %v", before, got.(App).screen)
			}
		})
	}
}
