package ui

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/key"

	"github.com/kedit/kedit/ui/browser"
	"github.com/kedit/kedit/ui/common"
	"github.com/kedit/kedit/ui/conflict"
	"github.com/kedit/kedit/ui/objectset"
)

// TestREADMEListsEveryKey checks the README's key tables against
// DefaultKeyMap: the keys are a contract, and the README is where users
// read it.
func TestREADMEListsEveryKey(t *testing.T) {
	readme, err := os.ReadFile("../docs/keys.md")
	if err != nil {
		t.Fatal(err)
	}
	shown := map[string]string{"up": "↑", "down": "↓", "left": "←", "right": "→", "pgdown": "pgdn", " ": "space"}
	for name, b := range everyBinding(DefaultKeyMap()) {
		for _, k := range b.Keys() {
			if s, ok := shown[k]; ok {
				k = s
			}
			if !strings.Contains(string(readme), "`"+k+"`") {
				t.Errorf("docs/keys.md does not list `%s` (%s)", k, name)
			}
		}
	}
}

// everyBinding returns every binding of km, each view's key map's, named
// View.Binding.
func everyBinding(km KeyMap) map[string]key.Binding {
	out := map[string]key.Binding{}
	views := reflect.ValueOf(km)
	for i := range views.NumField() {
		for name, b := range bindingsOf(views.Field(i).Interface()) {
			out[views.Type().Field(i).Name+"."+name] = b
		}
	}
	return out
}

// bindingsOf returns the bindings of a view's key map, by field name.
func bindingsOf(viewKeys any) map[string]key.Binding {
	out := map[string]key.Binding{}
	v := reflect.ValueOf(viewKeys)
	for i := range v.NumField() {
		out[v.Type().Field(i).Name] = v.Field(i).Interface().(key.Binding)
	}
	return out
}

// TestREADMEKeyTables checks the README's tables of the browser's and the
// object view's keys against the keys the views answer to.
func TestREADMEKeyTables(t *testing.T) {
	readme, err := os.ReadFile("../docs/keys.md")
	if err != nil {
		t.Fatal(err)
	}
	k := DefaultKeyMap()
	var browserKeys []key.Binding
	for _, g := range browser.New(k.Browser, common.NewStyles()).FullHelp() {
		browserKeys = append(browserKeys, g...)
	}
	var set []key.Binding
	for _, g := range objectset.New(k.Set, common.NewStyles()).FullHelp() {
		set = append(set, g...)
	}
	for _, tc := range []struct {
		table string // text just before the table
		keys  []key.Binding
	}{
		{"**Browser**", append(browserKeys, k.Browser.ForceQuit, k.Browser.Back)},
		{"| `e` | edit the draft in", []key.Binding{k.Object.BackToList, k.Object.Edit, k.Object.Save, k.Object.Quit, k.Object.ForceQuit,
			k.Object.Help, k.Object.DemoKubectlEdit, k.Object.Suspend, k.Requests.Open, k.Requests.OpenInEditor}},
		{"**With an audit log**", []key.Binding{k.Timeline.Diff, k.Timeline.Undo, k.Timeline.Take, k.Timeline.Close}},
		{"<a id=\"lost-updates\">", lostBindings()},
		{"## Sets: several objects in one session", set},
		{"<a id=\"request-pane\">", []key.Binding{k.Requests.Show, k.Requests.Back, k.Requests.Close, k.Requests.Up, k.Requests.Down,
			k.Requests.PageUp, k.Requests.PageDown, k.Requests.HalfPageUp, k.Requests.HalfPageDown, k.Requests.Home, k.Requests.End,
			k.Requests.Left, k.Requests.Right}},
	} {
		table := readmeTable(t, string(readme), tc.table)
		shown := map[string]string{"up": "↑", "down": "↓", "left": "←", "right": "→", "pgdown": "pgdn", " ": "space"}
		for _, b := range tc.keys {
			for _, kk := range b.Keys() {
				if s, ok := shown[kk]; ok {
					kk = s
				}
				if !strings.Contains(table, "`"+kk+"`") {
					t.Errorf("the README's table after %q does not list `%s` (%s)", tc.table, kk, b.Help().Desc)
				}
			}
		}
	}
}

// readmeTable returns the first key table at or after the text at.
func readmeTable(t *testing.T, readme, at string) string {
	t.Helper()
	i := strings.Index(readme, at)
	if i < 0 {
		t.Fatalf("the README has no %q", at)
	}
	rest := readme[i:]
	if !strings.HasPrefix(at, "|") {
		j := strings.Index(rest, "| key | action |")
		if j < 0 {
			t.Fatalf("no key table after %q", at)
		}
		rest = rest[j:]
	}
	if end := strings.Index(rest, "\n\n"); end >= 0 {
		rest = rest[:end]
	}
	return rest
}

// lostBindings are the lost updates' view's keys but those every view
// has (?, q, ctrl+c).
func lostBindings() []key.Binding {
	k := conflict.DefaultLostKeyMap()
	return []key.Binding{k.Next, k.Prev, k.Home, k.End, k.PageDown, k.PageUp, k.Layout, k.Reveal, k.Undo, k.Back}
}
