package conflict

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"

	"github.com/kedit/kedit/diff"
	"github.com/kedit/kedit/model"
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

// TestContentDrawsTheRebase: the view draws the Content it is given (the
// versions' resourceVersions, each conflict with its resolution and the
// manager behind theirs, the merged changes) and answers m with the
// selected conflict's resolution; a Secret's values stay masked.
func TestContentDrawsTheRebase(t *testing.T) {
	value := func(s string) diff.FieldValue { return diff.FieldValue{Present: true, Value: s} }
	c := Content{Format: model.FormatYAML, Open: 1, Rebasing: true, BaseRV: "810", TheirsRV: "811",
		Conflicts: []Conflict{{Conflict: diff.Conflict{Path: fieldpath.MakePathOrDie("data", "foo"), Base: value("1"), Theirs: value("from-theirs"), Mine: value("from-mine")}, Manager: "bob"}},
		Merged:    []diff.Change{{Path: fieldpath.MakePathOrDie("data", "bar"), Side: diff.SideMine, Base: value("1"), Value: value("2")}}}
	m := New(DefaultKeyMap(), common.NewStyles())
	m.SetSize(120, 30)
	m.SetContent(c)
	out := ansi.Strip(m.View())
	for _, want := range []string{"conflict: base rv 810, theirs rv 811: 1 conflict, 1 change merged (1 open)", "open    .data.foo  theirs by bob",
		"merged without conflict:", "base (rv 810)", "theirs (rv 811)", "from-theirs", "from-mine"} {
		if !strings.Contains(out, want) {
			t.Errorf("the view lacks %q:\n%s", want, out)
		}
	}
	if _, cmd := m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("m")}); cmd == nil || cmd() != (ResolveMsg{Index: 0, Choice: diff.TakeMine}) {
		t.Error("m does not ask to take mine for the selected conflict")
	}
	c.Secret = true
	m.SetContent(c)
	if out := ansi.Strip(m.View()); strings.Contains(out, "from-theirs") || !strings.Contains(out, common.SecretMask) {
		t.Errorf("a Secret's values show before R:\n%s", out)
	}
}
