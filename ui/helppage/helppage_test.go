package helppage

import (
	"reflect"
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/kedit/kedit/ui/common"
)

// answer is what cmd answers, nil for no command.
func answer(cmd tea.Cmd) tea.Msg {
	if cmd == nil {
		return nil
	}
	return cmd()
}

// TestScrollsClosesAndHandsOn: the page shows the keys it was given under
// the view's name, its own keys scroll and close it, and any other key
// closes it and comes back to be done in the view.
func TestScrollsClosesAndHandsOn(t *testing.T) {
	var group []key.Binding
	for _, k := range strings.Split("abcdefghijklmnopqrstuvwxyz", "") {
		group = append(group, common.Binding("does "+k, k))
	}
	keys := DefaultKeyMap()
	m := New(keys, common.NewStyles())
	m.SetView("object view", [][]key.Binding{group}, keys)
	m.Open()
	m.SetSize(60, 8)
	first := ansi.Strip(m.View())
	if !m.Shown() || !strings.Contains(first, "keys of the object view") {
		t.Fatalf("the page opened:\n%s", first)
	}
	var cmd tea.Cmd
	m, cmd = m.Update(tea.KeyMsg{Type: tea.KeyDown})
	m.SetSize(60, 8)
	if answer(cmd) != nil || ansi.Strip(m.View()) == first {
		t.Errorf("↓ did not scroll the page:\n%s", ansi.Strip(m.View()))
	}
	if m, cmd = m.Update(tea.KeyMsg{Type: tea.KeyEsc}); m.Shown() || answer(cmd) != nil {
		t.Errorf("esc: shown %v, answers %#v; want the page closed, nothing asked", m.Shown(), answer(cmd))
	}
	m.Open()
	f := tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("f")}
	if m, cmd = m.Update(f); m.Shown() || !reflect.DeepEqual(answer(cmd), ClosedMsg{Key: f}) {
		t.Errorf("f: shown %v, answers %#v; want the page closed and f handed on", m.Shown(), answer(cmd))
	}
	m.Open()
	if _, cmd = m.Update(tea.KeyMsg{Type: tea.KeyCtrlC}); !reflect.DeepEqual(answer(cmd), common.ForceQuitMsg{}) {
		t.Errorf("ctrl+c answers %#v, want common.ForceQuitMsg", answer(cmd))
	}
}
