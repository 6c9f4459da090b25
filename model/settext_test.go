package model

import (
	"errors"
	"strings"
	"testing"
)

// setTexts are drafts as the set's edit renders them: a block scalar with
// an empty line and a line of spaces in it, a comment, and a text without
// a final newline.
var setTexts = []string{
	"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  namespace: ns\ndata:\n  app.conf: |\n    one\n\n      \n    two\n",
	"# mine\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b\n  namespace: ns\ndata:\n  foo: \"1\"\n",
	"apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  namespace: ns\nspec:\n  replicas: 2",
}

// TestSetTextRoundTrip: a List left as it was rendered splits back into
// the texts it was made of, item by item, each region as it was rendered.
func TestSetTextRoundTrip(t *testing.T) {
	text := RenderSetText(setTexts)
	if !strings.HasPrefix(text, "# kedit:") || !strings.Contains(text, "kind: List\nitems:\n- apiVersion: v1\n") {
		t.Fatalf("rendered:\n%s", text)
	}
	items, err := SplitSetText(text)
	if err != nil {
		t.Fatal(err)
	}
	if len(items) != len(setTexts) {
		t.Fatalf("%d items, want %d", len(items), len(setTexts))
	}
	want := []Identity{{"v1", "ConfigMap", "ns", "a"}, {"v1", "ConfigMap", "ns", "b"}, {"apps/v1", "Deployment", "ns", "web"}}
	for i, it := range items {
		if it.Identity != want[i] {
			t.Errorf("item %d is %+v, want %+v", i, it.Identity, want[i])
		}
		wantText := setTexts[i]
		if !strings.HasSuffix(wantText, "\n") {
			wantText += "\n"
		}
		if it.Text != wantText {
			t.Errorf("item %d's text:\n%q\nwant\n%q", i, it.Text, wantText)
		}
		if it.region != itemRegion(setTexts[i]) {
			t.Errorf("item %d's region:\n%q\nwant\n%q", i, it.region, itemRegion(setTexts[i]))
		}
	}
}

// TestSplitSetTextEdited: an item edited keeps its comments and layout;
// the dash on a line of its own, items reordered, and an item in flow
// style are all read.
func TestSplitSetTextEdited(t *testing.T) {
	text := "items:\n-\n  # a comment kept\n  apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: b, namespace: ns}\n  data:\n    foo: \"2\"\n" +
		"- {apiVersion: v1, kind: ConfigMap, metadata: {name: a}, data: {x: y}}\n" +
		"kind: List\napiVersion: v1\n"
	items, err := SplitSetText(text)
	if err != nil {
		t.Fatal(err)
	}
	if len(items) != 2 {
		t.Fatalf("%d items", len(items))
	}
	if want := "# a comment kept\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: b, namespace: ns}\ndata:\n  foo: \"2\"\n"; items[0].Text != want {
		t.Errorf("first item:\n%q\nwant\n%q", items[0].Text, want)
	}
	if items[1].Identity != (Identity{"v1", "ConfigMap", "", "a"}) || !strings.Contains(items[1].Text, "x: y") {
		t.Errorf("flow item: %+v %q", items[1].Identity, items[1].Text)
	}
	if !items[1].Identity.Names(Identity{"v1", "ConfigMap", "ns", "a"}) || items[1].Identity.Names(Identity{"v1", "ConfigMap", "ns", "b"}) {
		t.Error("an item without a namespace names the object of its namespace, and no other")
	}
}

// TestSplitSetTextRefuses: each text that is not one List of objects is
// refused with the line and what is wrong; an empty one calls the edit
// off; a List without items removes every object.
func TestSplitSetTextRefuses(t *testing.T) {
	for _, tc := range []struct {
		name, text, want string
		line             int
	}{
		{"syntax", "kind: List\nitems:\n- apiVersion: v1\n  kind: [\n", "", 5},
		{"not a List", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n", "not a List", 1},
		{"a scalar", "hello\n", "not a List", 1},
		{"second document", "kind: List\nitems: []\n---\nkind: List\n", "a second document", 3},
		{"item not an object", "kind: List\nitems:\n- 3\n", "item 1 is not an object", 3},
		{"item without a name", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n", "item 1 has no apiVersion, kind or metadata.name", 3},
		{"no items", "kind: List\nitems: 3\n", "has no items", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := SplitSetText(tc.text)
			var se *SetTextError
			if !errors.As(err, &se) {
				t.Fatalf("err = %v, want a *SetTextError", err)
			}
			if !strings.Contains(se.Msg, tc.want) || se.Line != tc.line {
				t.Errorf("err = %v (line %d), want %q at line %d", err, se.Line, tc.want, tc.line)
			}
		})
	}
	for _, empty := range []string{"", "# only a comment\n\n"} {
		if _, err := SplitSetText(empty); !errors.Is(err, ErrEmptySetText) {
			t.Errorf("%q: err = %v, want ErrEmptySetText", empty, err)
		}
	}
	for _, none := range []string{"kind: List\nitems: []\n", "kind: List\nitems:\n"} {
		if items, err := SplitSetText(none); err != nil || len(items) != 0 {
			t.Errorf("%q: %d items, err %v; want none", none, len(items), err)
		}
	}
}

// TestSetItemLineIsWhereItsTextIs: each line n of an item's text is the
// List's line Line+n-1, indented (the first behind its dash), in YAML
// rendered or edited (the dash alone on its line) and in JSON; an edit
// knows the line of each member's item.
func TestSetItemLineIsWhereItsTextIs(t *testing.T) {
	edited := "items:\n-\n  # a comment kept\n  apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: b, namespace: ns}\n  data:\n    foo: \"2\"\n" +
		"kind: List\napiVersion: v1\n"
	for _, c := range []struct {
		name, text string
		split      func(string) ([]SetItem, error)
	}{
		{"yaml", RenderSetText(setTexts), SplitSetText},
		{"yaml edited", edited, SplitSetText},
		{"json", RenderJSONSetText(jsonSetTexts(t)), SplitJSONSetText},
	} {
		items, err := c.split(c.text)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		list := strings.Split(c.text, "\n")
		for i, it := range items {
			for n, l := range strings.Split(strings.TrimSuffix(it.Text, "\n"), "\n") {
				got := strings.TrimLeft(list[it.Line+n-1], " ")
				if n == 0 {
					got = strings.TrimPrefix(got, "- ")
				}
				if c.name == "json" && !strings.HasSuffix(l, ",") {
					got = strings.TrimSuffix(got, ",") // the List's comma after the item
				}
				if got != strings.TrimLeft(l, " ") {
					t.Errorf("%s: item %d's line %d is %q, the List's line %d is %q", c.name, i, n+1, l, it.Line+n, got)
				}
			}
		}
	}
	s := newTestSet(t, 3)
	e, err := s.Edit(nil)
	if err != nil {
		t.Fatal(err)
	}
	items, _ := SplitSetText(e.Text)
	if len(e.Lines) != 3 || e.Lines[1] != items[1].Line {
		t.Errorf("the edit's lines %v, the items' %+v", e.Lines, items)
	}
}
