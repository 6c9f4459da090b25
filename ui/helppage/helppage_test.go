package helppage

import (
	"reflect"
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/kedit/kedit/internal/escape"
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

// TestNoteUnderTheKeys: a note the app gives (kedit demo's how to join)
// is said under the keys, escaped as it came, wrapped at the width and
// never cut: a sentence at words (was "ConfigMap" then "s):"), a command
// running on from line to line.
func TestNoteUnderTheKeys(t *testing.T) {
	keys := DefaultKeyMap()
	m := New(keys, common.NewStyles())
	m.SetView("object view", [][]key.Binding{{common.Binding("saves", "s")}}, keys)
	long := "  export KUBECONFIG=/tmp/" + strings.Repeat("d", 60) + "/cluster/kubeconfig"
	m.SetNote([]escape.Text{escape.Safe("A second terminal joins\x1b[31m:"), escape.Safe(long),
		"A second terminal joins this cluster as bob (alice or bob may edit its ConfigMaps):"})
	m.Open()
	m.SetSize(50, 40)
	page := ansi.Strip(m.View())
	if !strings.Contains(page, `A second terminal joins\x1b[31m:`) {
		t.Errorf("the note is not on the page, escaped:\n%s", page)
	}
	if got := strings.ReplaceAll(page[strings.Index(page, "  export"):], "\n", ""); !strings.HasPrefix(got, strings.TrimRight(long, " ")) {
		t.Errorf("the long line is not whole, wrapped:\n%s", page)
	}
	if !strings.Contains(page, "\nA second terminal joins this cluster as bob (alice\nor bob may edit its ConfigMaps):") {
		t.Errorf("the sentence is not wrapped at words:\n%s", page)
	}
	for _, l := range strings.Split(page, "\n") {
		if ansi.StringWidth(l) > 50 {
			t.Errorf("a line wider than the page: %q", l)
		}
	}
}
