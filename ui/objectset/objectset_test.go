package objectset

import (
	"reflect"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/kedit/kedit/ui/common"
)

// keyMsg is the key k: a name Bubble Tea gives a key (home, end), else
// the runes typed.
func keyMsg(k string) tea.KeyMsg {
	switch k {
	case "home":
		return tea.KeyMsg{Type: tea.KeyHome}
	case "end":
		return tea.KeyMsg{Type: tea.KeyEnd}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)}
}

// TestMovesAndMarks: the set view's own keys move the selection
// and mark rows (space marks the row and moves on); what it asks of the
// app is in the ui package's TestViewsAnswerKeysWithIntents.
func TestMovesAndMarks(t *testing.T) {
	v := New(DefaultKeyMap(), common.NewStyles())
	v.SetTitle("cm a b c")
	v.SetSize(80, 20)
	v.SetRows([]Row{{Name: "configmaps/a"}, {Name: "configmaps/b"}, {Name: "configmaps/c"}})
	v, _ = v.Update(keyMsg(" ")) // marks a, moves to b
	v, _ = v.Update(keyMsg("j"))
	v, _ = v.Update(keyMsg(" ")) // marks c
	if got := v.Marked(); !reflect.DeepEqual(got, []int{0, 2}) || v.Selected() != 2 {
		t.Fatalf("marked %v, selected %d", got, v.Selected())
	}
	v, _ = v.Update(keyMsg("home"))
	v, _ = v.Update(keyMsg(" ")) // unmarks a
	if got := v.Marked(); !reflect.DeepEqual(got, []int{2}) || v.Selected() != 1 {
		t.Errorf("after home and space: marked %v, selected %d", got, v.Selected())
	}
	v, _ = v.Update(keyMsg("end"))
	if v.Selected() != 2 {
		t.Errorf("end selects %d", v.Selected())
	}
}

// TestIsAValue: a copy of the set view never changes when the view
// it was copied from (or another copy) marks or unmarks rows, nor when
// its rows are replaced: each keeps the marks it had, its View too.
func TestIsAValue(t *testing.T) {
	v := New(DefaultKeyMap(), common.NewStyles())
	v.SetTitle("cm a b c")
	v.SetSize(80, 20)
	v.SetRows([]Row{{Name: "configmaps/a"}, {Name: "configmaps/b"}, {Name: "configmaps/c"}})
	v, _ = v.Update(keyMsg(" ")) // marks a
	old := v
	oldView := old.View()
	v, _ = v.Update(keyMsg(" ")) // marks b
	v, _ = v.Update(keyMsg("home"))
	v, _ = v.Update(keyMsg(" ")) // unmarks a
	other := old
	other, _ = other.Update(keyMsg("end"))
	other, _ = other.Update(keyMsg(" ")) // marks c on another copy
	v.SetRows([]Row{{Name: "configmaps/a"}})
	if got := old.Marked(); !reflect.DeepEqual(got, []int{0}) || old.View() != oldView {
		t.Errorf("the old copy changed: marked %v\n%s\nwas\n%s", got, old.View(), oldView)
	}
	if got := other.Marked(); !reflect.DeepEqual(got, []int{0, 2}) {
		t.Errorf("the other copy: marked %v, want [0 2]", got)
	}
	if got := v.Marked(); len(got) != 0 {
		t.Errorf("the view of one row: marked %v, want none (b's mark went with its row)", got)
	}
	v.SetRows([]Row{{Name: "configmaps/a"}, {Name: "configmaps/b"}})
	if got := v.Marked(); len(got) != 0 {
		t.Errorf("rows given back: marked %v, want none", got)
	}
}
