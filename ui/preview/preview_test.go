package preview

import (
	"errors"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/kedit/kedit/model"
	"github.com/kedit/kedit/ui/common"
)

// TestContentSaysWhatTheServerWouldDo: the preview waits until the
// Content carries the server's answer, then says why it would refuse the
// save in the words the app gave it, and esc asks to close it.
func TestContentSaysWhatTheServerWouldDo(t *testing.T) {
	m := New(DefaultKeyMap(), common.NewStyles())
	m.SetSize(80, 20)
	m.SetContent(Content{BaseRV: "812"})
	if out := ansi.Strip(m.View()); !strings.Contains(out, "base rv 812") || !strings.Contains(out, "waiting for the server's dry run ...") {
		t.Errorf("before the answer:\n%s", out)
	}
	m.SetContent(Content{BaseRV: "812", Answered: true, Answer: model.DryRunResult{Err: errors.New("forbidden")},
		Draft: &model.Draft{Text: "foo: mine\n"}, Refusal: "forbidden: you may not"})
	if out := ansi.Strip(m.View()); !strings.Contains(out, "the server would refuse the save: forbidden: you may not") || !strings.Contains(out, "foo: mine") {
		t.Errorf("a refusal:\n%s", out)
	}
	_, cmd := m.Update(tea.KeyMsg{Type: tea.KeyEsc})
	if cmd == nil || cmd() != (CloseMsg{}) {
		t.Error("esc does not ask to close the preview")
	}
}
