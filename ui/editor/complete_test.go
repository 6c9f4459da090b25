package editor

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/kedit/kedit/ui/common"
	"github.com/kedit/kedit/ui/textedit"
)

// containerSchema is a schema of a Deployment's containers, enough for
// completion; the schema kedit reads from the server is tested in
// kube/schemacheck.
type containerSchema struct{}

func (containerSchema) FieldNames(path []string) []string {
	switch strings.Join(path, ".") {
	case "spec.template.spec.containers":
		return []string{"image", "imagePullPolicy", "name", "ports"}
	case "":
		return []string{"apiVersion", "kind", "metadata", "spec"}
	case "spec":
		return []string{"minReadySeconds", "replicas", "selector", "strategy", "template"}
	}
	return nil
}

func (containerSchema) Values(path []string) []string {
	if strings.Join(path, ".") == "spec.template.spec.containers.imagePullPolicy" {
		return []string{"Always", "IfNotPresent", "Never"}
	}
	return nil
}

const typing = `spec:
  template:
    spec:
      containers:
      - name: web
        imagePullP`

func typingEditor(t *testing.T, text string) Model {
	t.Helper()
	m := New(DefaultKeyMap(), common.NewStyles())
	m.SetSize(60, 15)
	m.SetSchema(containerSchema{})
	m.Open(text, false, nil)
	last := strings.Count(text, "\n")
	m.SetCursor(textedit.Pos{Line: last, Col: len(text) - strings.LastIndex(text, "\n") - 1})
	return m
}

func press(m Model, keys ...tea.KeyMsg) (Model, []tea.Msg) {
	var out []tea.Msg
	for _, k := range keys {
		var cmd tea.Cmd
		m, cmd = m.Update(k)
		if cmd != nil {
			if msg := cmd(); msg != nil {
				out = append(out, msg)
			}
		}
	}
	return m, out
}

var (
	tab       = tea.KeyMsg{Type: tea.KeyTab}
	ctrlSpace = tea.KeyMsg{Type: tea.KeyCtrlAt}
)

// TestTabCompletesAKeyAndCtrlSpaceItsValue: tab after part of a key only
// one field completes puts the field and its colon; ctrl+space after the
// colon lists the field's values, the arrows choose, enter takes; each is
// one undo step; esc closes the list and stays in the editor.
func TestTabCompletesAKeyAndCtrlSpaceItsValue(t *testing.T) {
	m := typingEditor(t, typing)
	m, _ = press(m, tab)
	if !strings.HasSuffix(m.Text(), "\n        imagePullPolicy: ") {
		t.Fatalf("tab after imagePullP:\n%s", m.Text())
	}
	m, _ = press(m, ctrlSpace)
	if m.completing == nil || len(m.completing.items) != 3 {
		t.Fatalf("ctrl+space after the colon: %+v", m.completing)
	}
	if v := ansi.Strip(m.View()); !strings.Contains(v, "> Always") || !strings.Contains(v, "  Never") {
		t.Errorf("the list is not drawn:\n%s", v)
	}
	m, _ = press(m, tea.KeyMsg{Type: tea.KeyDown}, tea.KeyMsg{Type: tea.KeyEnter})
	if !strings.HasSuffix(m.Text(), "imagePullPolicy: IfNotPresent") || m.completing != nil {
		t.Fatalf("down, enter:\n%s", m.Text())
	}
	m, _ = press(m, tea.KeyMsg{Type: tea.KeyCtrlZ})
	if !strings.HasSuffix(m.Text(), "imagePullPolicy: ") {
		t.Errorf("undo takes back more or less than the value:\n%s", m.Text())
	}
	m, _ = press(m, tea.KeyMsg{Type: tea.KeyCtrlZ})
	if m.Text() != typing {
		t.Errorf("a second undo does not give back what was typed:\n%s", m.Text())
	}

	// A key typed with nothing to complete is indented; ctrl+space on a
	// new line lists the fields the mapping does not have yet.
	m = typingEditor(t, strings.TrimSuffix(typing, "imagePullP")+"i")
	m, _ = press(m, tab)
	if !strings.HasSuffix(m.Text(), "        i  ") {
		t.Errorf("tab with two candidates does not indent:\n%q", m.Text())
	}
	m = typingEditor(t, strings.TrimSuffix(typing, "imagePullP"))
	m, _ = press(m, ctrlSpace)
	if m.completing == nil || strings.Join(m.completing.items, " ") != "image imagePullPolicy ports" {
		t.Fatalf("ctrl+space on an empty line: %+v", m.completing)
	}
	m, msgs := press(m, tea.KeyMsg{Type: tea.KeyEsc})
	if m.completing != nil || len(msgs) != 0 {
		t.Errorf("esc with the list open: %+v, %v", m.completing, msgs)
	}
	if _, msgs = press(m, tea.KeyMsg{Type: tea.KeyEsc}); len(msgs) != 1 {
		t.Errorf("esc after the list closed does not leave: %v", msgs)
	} else if _, ok := msgs[0].(LeaveMsg); !ok {
		t.Errorf("esc after the list closed answers %T", msgs[0])
	}
}

// TestDocsAndNoCompletionSayWhy: alt+k asks for the docs of the field at
// the cursor; ctrl+space without a schema says so (the app says why), and
// with nothing to offer says that.
func TestDocsAndNoCompletionSayWhy(t *testing.T) {
	m := typingEditor(t, typing+"olicy: Always")
	_, msgs := press(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("k"), Alt: true})
	if len(msgs) != 1 {
		t.Fatalf("alt+k: %v", msgs)
	}
	if d, ok := msgs[0].(DocsMsg); !ok || strings.Join(d.Path, ".") != "spec.template.spec.containers.imagePullPolicy" {
		t.Errorf("alt+k answers %#v", msgs[0])
	}
	m.SetSchema(nil)
	if _, msgs = press(m, ctrlSpace); len(msgs) != 1 || !msgs[0].(NoCompletionMsg).NoSchema {
		t.Errorf("ctrl+space without a schema: %v", msgs)
	}
	m = typingEditor(t, "spec:\n  zz")
	if _, msgs = press(m, ctrlSpace); len(msgs) != 1 || msgs[0].(NoCompletionMsg).Why != "nothing to complete here" {
		t.Errorf("ctrl+space with nothing to offer: %v", msgs)
	}
}

// TestCompletionOffersOnlyWhatTheMappingLacks: ctrl+space on an empty
// line put under a Deployment's spec: offers the fields spec has not,
// whether they are above the line or all below it.
func TestCompletionOffersOnlyWhatTheMappingLacks(t *testing.T) {
	const deploy = "apiVersion: apps/v1\nkind: Deployment\nspec:\n  replicas: 2\n  selector: {}\n  strategy: {}\n  template: {}\n"
	for _, at := range []int{3, 5, 7} {
		lines := strings.Split(deploy, "\n")
		text := strings.Join(append(append(append([]string(nil), lines[:at]...), "  "), lines[at:]...), "\n")
		m := New(DefaultKeyMap(), common.NewStyles())
		m.SetSize(60, 15)
		m.SetSchema(containerSchema{})
		m.Open(text, false, nil)
		m.SetCursor(textedit.Pos{Line: at, Col: 2})
		m, msgs := press(m, ctrlSpace)
		if m.completing != nil || !strings.HasSuffix(m.Text(), "\n  minReadySeconds: \n"+strings.Join(lines[at:], "\n")) {
			t.Errorf("an empty line at %d: %+v %v\n%s", at, m.completing, msgs, m.Text())
		}
	}
}

// TestCompletionListIsNeverUnseen: whatever the screen's height and the
// cursor's line, the open list shows its selected candidate, next to the
// cursor's line: under it when it fits, else above it, the cursor's line
// kept in sight.
func TestCompletionListIsNeverUnseen(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var b strings.Builder
	b.WriteString("spec:\n  template:\n    spec:\n      containers:\n      - name: web\n")
	for i := 0; i < 38; i++ {
		fmt.Fprintf(&b, "        # line %d\n", i+6)
	}
	b.WriteString("        ")
	text := b.String()
	last := strings.Count(text, "\n")
	for i := 0; i < 300; i++ {
		m := New(DefaultKeyMap(), common.NewStyles())
		height := 2 + rng.IntN(40)
		m.SetSize(60+rng.IntN(60), height)
		m.SetSchema(containerSchema{})
		m.Open(text, false, nil)
		line := 5 + rng.IntN(last-4)
		m.SetCursor(textedit.Pos{Line: line, Col: 8})
		m, _ = press(m, ctrlSpace)
		if m.completing == nil {
			t.Fatalf("line %d: no list", line)
		}
		if rng.IntN(2) == 0 {
			m, _ = press(m, tea.KeyMsg{Type: tea.KeyUp})
		}
		view := strings.Split(ansi.Strip(m.View()), "\n")
		sel := "> " + m.completing.items[m.completing.sel]
		selRow, cursorRow := -1, -1
		for r, l := range view {
			if strings.HasPrefix(l, sel) {
				selRow = r
			}
			if strings.HasPrefix(strings.TrimLeft(l, " "), fmt.Sprintf("%d ", line+1)) {
				cursorRow = r
			}
		}
		if selRow < 0 {
			t.Fatalf("height %d, cursor on line %d: the selected %q is not drawn:\n%s", height, line+1, sel, strings.Join(view, "\n"))
		}
		if height > 1+1+2 && cursorRow < 0 {
			t.Fatalf("height %d, cursor on line %d: the cursor's line is covered:\n%s", height, line+1, strings.Join(view, "\n"))
		}
		if cursorRow >= 0 && height >= 1+1+1+maxShown+1+1+maxShown && (selRow < cursorRow-maxShown-1 || selRow > cursorRow+maxShown+1) {
			t.Fatalf("height %d, cursor on line %d: the list is not at the cursor:\n%s", height, line+1, strings.Join(view, "\n"))
		}
	}
}
