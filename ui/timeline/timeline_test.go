package timeline

import (
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/kedit/kedit/model"
	"github.com/kedit/kedit/ui/common"
)

// answer is the intent the view answers k with; nil for none.
func answer(t *testing.T, m Model, k string) tea.Msg {
	t.Helper()
	_, cmd := m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)})
	if cmd == nil {
		return nil
	}
	return cmd()
}

// TestContentListsTheVersionsNewestFirst: the view draws the Content it is
// given, the newest version selected and kept selected as a version
// arrives, and answers y, enter and t with the selected version's intents.
func TestContentListsTheVersionsNewestFirst(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	live := []model.Entry{
		{ID: 0, ResourceVersion: "811", Observed: at, Manager: "kubectl-edit", Operation: "Update"},
		{ID: 1, ResourceVersion: "812", Observed: at, Manager: "alice", Operation: "Update"},
	}
	m := New(DefaultKeyMap(), common.NewStyles())
	m.SetSize(100, 10)
	m.Open(Content{Object: "ConfigMap/testmap", Format: model.FormatYAML, Live: live})
	out := ansi.Strip(m.View())
	if !strings.Contains(out, "timeline of ConfigMap/testmap: 2 versions since kedit opened it, newest first") {
		t.Errorf("the title:\n%s", out)
	}
	if _, rv, _ := m.Selected(); rv != "812" {
		t.Errorf("selected rv %s, want the newest, 812", rv)
	}
	if got := answer(t, m, "y"); got != (TakeVersionMsg{ID: 1, RV: "812"}) {
		t.Errorf("y asks %#v", got)
	}
	if got := answer(t, m, "t"); got != (CloseMsg{}) {
		t.Errorf("t asks %#v", got)
	}
	m, _ = m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("j")})
	m.SetContent(Content{Object: "ConfigMap/testmap", Format: model.FormatYAML,
		Live: append(live, model.Entry{ID: 2, ResourceVersion: "813", Observed: at, Manager: "bob", Operation: "Update"})})
	if _, rv, _ := m.Selected(); rv != "811" {
		t.Errorf("after a new version the selection is rv %s, want 811 still", rv)
	}
	_, cmd := m.Update(tea.KeyMsg{Type: tea.KeyEnter})
	if got := cmd(); got != (ShowVersionMsg{ID: 0}) {
		t.Errorf("enter asks %#v", got)
	}
}
