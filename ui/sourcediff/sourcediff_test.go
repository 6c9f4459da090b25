package sourcediff

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/ui/common"
)

func TestViewDrawsTheDiffAndAnswersWithIntents(t *testing.T) {
	m := New(DefaultKeyMap(), common.NewStyles())
	m.SetSize(80, 12)
	m.SetContent(Content{Object: "ConfigMap/settings", Where: []escape.Text{".data.color -> overlays/prod/kustomization.yaml (generator literal)"},
		Notes: []escape.Text{"warning: # Warning: 'commonLabels' is deprecated."},
		Diff:  []escape.Text{"--- a/overlays/prod/kustomization.yaml", "+++ b/overlays/prod/kustomization.yaml", "@@ -3 +3 @@", "-  - color=blue # the color", "+  - color=green # the color"}})
	v := m.View()
	for _, want := range []string{"write ConfigMap/settings to its source (nothing written yet)", ".data.color -> overlays/prod", "+  - color=green # the color", "warning: # Warning: 'commonLabels' is deprecated."} {
		if !strings.Contains(v, want) {
			t.Errorf("the view lacks %q:\n%s", want, v)
		}
	}
	for k, want := range map[string]tea.Msg{"y": WriteMsg{}, "c": WriteMsg{Commit: true}, "esc": CloseMsg{}} {
		msg := tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)}
		if k == "esc" {
			msg = tea.KeyMsg{Type: tea.KeyEsc}
		}
		_, cmd := m.Update(msg)
		if cmd == nil || cmd() != want {
			t.Errorf("%s: %v, want %#v", k, cmd, want)
		}
	}
}
