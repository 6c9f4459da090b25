package editor

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/key"

	"github.com/kedit/kedit/ui/common"
	"github.com/kedit/kedit/ui/textedit"
)

// TestREADMEEditorKeyTable checks the README's table of the in-app
// editor's keys against the keys it answers to: textedit's KeyMap, and the
// app's own in it (esc, ctrl+s, f1, ctrl+c).
func TestREADMEEditorKeyTable(t *testing.T) {
	b, err := os.ReadFile("../../docs/keys.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(b), "**In-app editor**")
	start := strings.Index(rest, "| key | action |")
	if !ok || start < 0 {
		t.Fatal("the README has no key table for the in-app editor")
	}
	table := rest[start:]
	if end := strings.Index(table, "\n\n"); end >= 0 {
		table = table[:end]
	}
	for _, b := range editorBindings() {
		for _, k := range b.Keys() {
			if s, ok := map[string]string{"up": "↑", "down": "↓", "left": "←", "right": "→", "pgdown": "pgdn"}[k]; ok {
				k = s
			}
			if !strings.Contains(table, "`"+k+"`") {
				t.Errorf("the README's in-app editor table does not list `%s` (%s)", k, b.Help().Desc)
			}
		}
	}
}

// editorBindings are every binding the in-app editor answers to.
func editorBindings() []key.Binding {
	var out []key.Binding
	te := reflect.ValueOf(textedit.DefaultKeyMap())
	for i := range te.NumField() {
		out = append(out, te.Field(i).Interface().(key.Binding))
	}
	own := reflect.ValueOf(DefaultKeyMap())
	for i := range own.NumField() {
		out = append(out, own.Field(i).Interface().(key.Binding))
	}
	return out
}

// TestEditorHelpListsEveryKey: the in-app help (f1 in the editor) lists
// every key the editor answers to.
func TestEditorHelpListsEveryKey(t *testing.T) {
	listed := map[string]bool{}
	for _, group := range New(DefaultKeyMap(), common.NewStyles()).FullHelp() {
		for _, b := range group {
			for _, k := range b.Keys() {
				listed[k] = true
			}
		}
	}
	for _, b := range editorBindings() {
		for _, k := range b.Keys() {
			if !listed[k] {
				t.Errorf("the editor's help does not list %s (%s)", k, b.Help().Desc)
			}
		}
	}
}
