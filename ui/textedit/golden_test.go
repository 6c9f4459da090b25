package textedit

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
)

// goldenConfigMap is a ConfigMap as kedit shows it, with a long line (a
// certificate) and a multi-line value.
func goldenConfigMap() string {
	var b strings.Builder
	b.WriteString("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: testmap\n  namespace: default\n")
	b.WriteString("data:\n  ca.crt: \"")
	for i := range 12 {
		b.WriteString(fmt.Sprintf("MIIC%02dzCCAbOgAwIBAgIUQ", i))
	}
	b.WriteString("\" # end of the certificate\n")
	b.WriteString("  replicas: \"3\"\n  config.yaml: |\n")
	for i := range 40 {
		b.WriteString(fmt.Sprintf("    key%02d: value %d # comment\n", i, i))
	}
	return b.String()
}

// TestGolden draws the editor at 80x24 and 120x40: a long line scrolled
// horizontally, the gutter's marks against base, a 422 cause under its
// line, escaped control characters, and the find prompt.
func TestGolden(t *testing.T) {
	cases := []struct {
		name  string
		build func(t *testing.T, w, h int) Model
	}{
		{"long_line_scrolled", func(t *testing.T, w, h int) Model {
			m := sized(goldenConfigMap(), w, h)
			return press(t, m, "down", "down", "down", "down", "down", "down", "end", "left", "left")
		}},
		{"gutter_marks", func(t *testing.T, w, h int) Model {
			base := goldenConfigMap()
			text := strings.Replace(base, "  namespace: default\n", "", 1)
			text = strings.Replace(text, `replicas: "3"`, `replicas: "5"`, 1)
			text = strings.Replace(text, "    key02: value 2 # comment\n", "    key02: value 2 # comment\n    added: yes\n    more: too\n", 1)
			m := sized(text, w, h)
			m, _ = settle(t, m, m.SetBase(base))
			return m
		}},
		{"note_422", func(t *testing.T, w, h int) Model {
			m := sized("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: -1\n  template:\n    spec:\n      containers:\n      - name: web\n        image: \"\"\n", w, h)
			m.SetNotes([]Note{
				{Line: 5, Text: `spec.replicas: Invalid value: -1: must be greater than or equal to 0`},
				{Line: 10, Text: "spec.template.spec.containers[0].image: Required value"},
			})
			return press(t, m, "down", "down", "down", "down", "down", "end")
		}},
		{"escapes", func(t *testing.T, w, h int) Model {
			m := sized("data:\n  esc: \"\x1b[2J\x1b]0;title\x07\"\n  c1: \"\u009b31m\"\n  bidi: \"\u202eevil\u202c\"\n  bad: \"\xff\xfe\"\n  tab: \"a\tb\"\n  crlf: x\r\n  wide: 日本語 😀 e\u0301\u200b\n", w, h)
			return press(t, m, "down", "right", "right", "right", "right", "right", "right", "right", "right")
		}},
		{"find", func(t *testing.T, w, h int) Model {
			m := sized(goldenConfigMap(), w, h)
			return press(t, m, "ctrl+f", "v", "a", "l", "u", "e", "enter")
		}},
	}
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		w, h := size[0], size[1]
		for _, c := range cases {
			t.Run(fmt.Sprintf("%s_%dx%d", c.name, w, h), func(t *testing.T) {
				view := c.build(t, w, h).View()
				checkScreen(t, c.name, view, w, h)
				golden.RequireEqual(t, []byte(ansi.Strip(view)))
			})
		}
	}
}

func sized(text string, w, h int) Model {
	m := New()
	m.Open(text)
	m.SetSize(w, h)
	return m
}
