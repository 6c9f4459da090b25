package fielddoc

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/ui/common"
)

func replicas() Content {
	return Content{Kind: "Deployment", Version: "apps/v1", Path: ".spec.template.spec.containers", Type: "[]Object", Required: true,
		Description: "List of containers belonging to the pod. Containers cannot currently be added or removed. There must be at least one container in a Pod. Cannot be updated.",
		Fields:      []Field{{Name: "image", Type: "string"}, {Name: "imagePullPolicy", Type: "string"}, {Name: "name", Type: "string", Required: true}}}
}

// TestDocsSayWhatKubectlExplainSays: the kind, the field's path and type,
// required, the description wrapped to the width, its fields aligned, and
// a field's values; why there is nothing to show when there is nothing.
func TestDocsSayWhatKubectlExplainSays(t *testing.T) {
	m := New(DefaultKeyMap(), common.NewStyles())
	m.SetSize(60, 40)
	m.SetContent(replicas())
	got := plain(m)
	for _, want := range []string{"docs of .spec.template.spec.containers", "KIND:     Deployment", "VERSION:  apps/v1",
		"FIELD:    .spec.template.spec.containers <[]Object>\n(required)", "    List of containers belonging to the pod.",
		"  image            <string>", "  name             <string> (required)"} {
		if !strings.Contains(got, want) {
			t.Errorf("no %q in\n%s", want, got)
		}
	}
	for _, l := range strings.Split(got, "\n") {
		if ansi.StringWidth(l) > 60 {
			t.Errorf("a line wider than the view: %q", l)
		}
	}
	c := Content{Kind: "Thing", Version: "v1", Path: ".spec.mode", Type: "string", Values: []escape.Text{"fast", "slow"}}
	m.SetContent(c)
	if got := plain(m); !strings.Contains(got, "VALUES:\n    fast, slow") || !strings.Contains(got, "(the schema does not describe it)") {
		t.Errorf("an enum without a description:\n%s", got)
	}
	m.SetContent(Content{Missing: "the schema of Deployment has no field .spec.replicaz"})
	if got := plain(m); !strings.Contains(got, "no docs") || !strings.Contains(got, "has no field .spec.replicaz") || strings.Contains(got, "KIND") {
		t.Errorf("nothing to show:\n%s", got)
	}
}

// TestDocsScrollAndClose: a small terminal scrolls the body; esc and q
// answer CloseMsg.
func TestDocsScrollAndClose(t *testing.T) {
	m := New(DefaultKeyMap(), common.NewStyles())
	m.SetSize(60, 6)
	m.SetContent(replicas())
	before := m.View()
	m, _ = m.Update(tea.KeyMsg{Type: tea.KeyDown})
	if m.View() == before {
		t.Error("down does not scroll")
	}
	for _, k := range []tea.KeyMsg{{Type: tea.KeyEsc}, {Type: tea.KeyRunes, Runes: []rune("q")}} {
		_, cmd := m.Update(k)
		if cmd == nil {
			t.Fatalf("%s answers nothing", k)
		}
		if _, ok := cmd().(CloseMsg); !ok {
			t.Errorf("%s answers %T", k, cmd())
		}
	}
}

// plain is the view without its styles, each line without the padding
// after it.
func plain(m Model) string {
	lines := strings.Split(ansi.Strip(m.View()), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n")
}
