package sourcediff

import (
	"slices"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/muesli/termenv"

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

// TestEveryRowCanBeReadAt80Columns: the rows above the diff (a warning,
// where each field goes, what is left out) wrap at words, the words each
// whole on some line of the view, none wider than the terminal.
func TestEveryRowCanBeReadAt80Columns(t *testing.T) {
	rows := []string{
		"warning: the path Argo CD Application argocd/guestbook builds is not known: the Application names no path under the checkout, so it was searched for",
		`.spec.template.spec.containers[name="guestbook-ui"].image -> guestbook-ui-deployment.yaml (resource)`,
	}
	notes := []string{"left out of the source, as the cluster sets them: .metadata.annotations.kubectl.kubernetes.io/last-applied-configuration (written by kubectl apply)"}
	m := New(DefaultKeyMap(), common.NewStyles())
	m.SetSize(80, 24)
	m.SetContent(Content{Object: "Deployment.apps/kustomize-guestbook-ui in namespace default",
		Where: []escape.Text{escape.Safe(rows[0]), escape.Safe(rows[1])}, Notes: []escape.Text{escape.Safe(notes[0])},
		Diff: []escape.Text{"--- a/guestbook-ui-deployment.yaml", "+++ b/guestbook-ui-deployment.yaml", "@@ -18 +18 @@", "-        image: gcr.io/heptio-images/ks-guestbook-demo:0.1", "+        image: gcr.io/heptio-images/ks-guestbook-demo:0.2"}})
	out := ansi.Strip(m.View())
	if n := strings.Count(out, "\n") + 1; n != 24 {
		t.Errorf("the view has %d lines, want 24", n)
	}
	var words []string
	for i, l := range strings.Split(out, "\n") {
		if w := ansi.StringWidth(l); w > 80 {
			t.Errorf("line %d is %d wide: %q", i+1, w, l)
		}
		words = append(words, strings.Fields(l)...)
	}
	for _, r := range append(append(rows, notes...), "write Deployment.apps/kustomize-guestbook-ui in namespace default to its source (nothing written yet)") {
		for _, w := range strings.Fields(r) {
			if !slices.Contains(words, w) {
				t.Errorf("the word %q of %q is not whole on any line:\n%s", w, r, out)
			}
		}
	}
	golden.RequireEqual(t, out)
}

func init() {
	// Golden files hold the text without colours.
	lipgloss.SetColorProfile(termenv.Ascii)
}
