package model

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kedit/kedit/internal/testseed"
)

// jsonSetTexts are JSON drafts as the set's edit renders them: as
// Format.Render writes them, one edited by hand (other indentation, a
// blank line) and one without a final newline.
func jsonSetTexts(t *testing.T) []string {
	t.Helper()
	a, err := FormatJSON.Render(named("a", "1", "x"))
	if err != nil {
		t.Fatal(err)
	}
	return []string{
		a,
		"{\n  \"apiVersion\": \"v1\",\n  \"kind\": \"ConfigMap\",\n\n  \"metadata\": {\"name\": \"b\", \"namespace\": \"ns\"},\n  \"data\": {\"foo\": \"1\"}\n}\n",
		`{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web", "namespace": "ns"}, "spec": {"replicas": 2}}`,
	}
}

// TestJSONSetTextRoundTrip: a JSON List left as it was rendered is JSON,
// a List of the objects, and splits back into the texts it was made of,
// byte for byte, each region as it was rendered.
func TestJSONSetTextRoundTrip(t *testing.T) {
	texts := jsonSetTexts(t)
	text := RenderJSONSetText(texts)
	if !strings.HasPrefix(text, "{\n    \"apiVersion\": \"v1\",\n    \"items\": [\n        {\n            \"apiVersion\": \"v1\",\n") ||
		!strings.HasSuffix(text, "\n    ],\n    \"kind\": \"List\"\n}\n") {
		t.Fatalf("rendered:\n%s", text)
	}
	list, err := FormatJSON.ParseDraft(text).obj, FormatJSON.ParseDraft(text).err
	if err != nil || !list.IsList() {
		t.Fatalf("the List does not parse as JSON: %v", err)
	}
	items, err := SplitJSONSetText(text)
	if err != nil {
		t.Fatal(err)
	}
	want := []Identity{{"v1", "ConfigMap", "ns", "a"}, {"v1", "ConfigMap", "ns", "b"}, {"apps/v1", "Deployment", "ns", "web"}}
	if len(items) != len(want) {
		t.Fatalf("%d items", len(items))
	}
	for i, it := range items {
		if it.Identity != want[i] {
			t.Errorf("item %d is %+v, want %+v", i, it.Identity, want[i])
		}
		if wantText := strings.TrimSpace(texts[i]) + "\n"; it.Text != wantText {
			t.Errorf("item %d's text:\n%q\nwant\n%q", i, it.Text, wantText)
		}
		if it.region != jsonItemRegion(texts[i]) {
			t.Errorf("item %d's region:\n%q\nwant\n%q", i, it.region, jsonItemRegion(texts[i]))
		}
	}
	if empty := RenderJSONSetText(nil); empty != "{\n    \"apiVersion\": \"v1\",\n    \"items\": [],\n    \"kind\": \"List\"\n}\n" {
		t.Errorf("no items: %q", empty)
	}
}

// TestSplitJSONSetTextEdited: items reordered, written on one line, with
// keys in another order and another indentation are read, each item's
// text parsing as its draft and keeping its layout, the indentation of
// the item's brace taken off.
func TestSplitJSONSetTextEdited(t *testing.T) {
	text := `{"kind": "List", "items": [{"kind": "ConfigMap", "apiVersion": "v1", "metadata": {"name": "b"}, "data": {"x": "y"}},
	  {
	    "apiVersion": "v1",
	    "kind": "ConfigMap",
	    "metadata": {"namespace": "ns", "name": "a"}
	  }
	], "apiVersion": "v1"}`
	items, err := SplitJSONSetText(text)
	if err != nil {
		t.Fatal(err)
	}
	if len(items) != 2 || items[0].Identity != (Identity{"v1", "ConfigMap", "", "b"}) || items[1].Identity != (Identity{"v1", "ConfigMap", "ns", "a"}) {
		t.Fatalf("items: %+v", items)
	}
	for _, it := range items {
		if p := FormatJSON.ParseDraft(it.Text); p.err != nil {
			t.Errorf("%s's text does not parse: %v\n%s", it.Identity, p.err, it.Text)
		}
	}
	if want := "{\n  \"apiVersion\": \"v1\",\n  \"kind\": \"ConfigMap\",\n  \"metadata\": {\"namespace\": \"ns\", \"name\": \"a\"}\n}\n"; items[1].Text != want {
		t.Errorf("the second item, indented back:\n%q\nwant\n%q", items[1].Text, want)
	}
}

// TestSplitJSONSetTextRefuses: each text that is not one JSON List of
// objects is refused with the line and column and what is wrong; a blank
// one calls the edit off; a List with no items (or null) removes every
// object.
func TestSplitJSONSetTextRefuses(t *testing.T) {
	good := RenderJSONSetText([]string{`{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a"}}`})
	for _, tc := range []struct {
		name, text, want string
	}{
		{"a trailing comma", strings.Replace(good, `"a"}}`, `"a"},}`, 1), `line 4, column 77: a comma before "}"`},
		{"a missing comma", strings.Replace(good, `"kind": "ConfigMap",`, `"kind": "ConfigMap"`, 1), "line 4, column 50: a comma is missing before this member"},
		{"the end cut", good[:len(good)-3], "a closing '}', ']' or '\"' is missing"},
		{"a second List", good + good, "line 8, column 1: more text after the object: the text is one JSON List"},
		{"not a List", strings.Replace(good, `"kind": "List"`, `"kind": "ConfigMapList"`, 1), `line 1, column 1: not a List ("kind": "List")`},
		{"not an object", `["x"]`, "line 1, column 1: not a List"},
		{"no items", `{"apiVersion": "v1", "kind": "List"}`, "the List has no items"},
		{"items not a list", `{"apiVersion": "v1", "kind": "List", "items": {}}`, `"items" is not a list`},
		{"an item not an object", `{"apiVersion": "v1", "kind": "List", "items": [` + "\n" + `  "x"]}`, "line 2, column 3: item 1 is not an object"},
		{"an item without a name", `{"apiVersion": "v1", "kind": "List", "items": [{"apiVersion": "v1", "kind": "ConfigMap"}]}`, `line 1, column 48: item 1 has no "apiVersion", "kind" or "metadata.name"`},
		{"a key twice", strings.Replace(good, `"kind": "ConfigMap",`, `"kind": "ConfigMap", "kind": "Secret",`, 1), `line 4, column 51: key "kind" is already defined on line 4 (.items[0].kind)`},
		{"a conflict block", strings.Replace(good, "        {", "<<<<<<< mine\n        {", 1) + "=======\n>>>>>>> theirs\n", "line 4: unresolved conflict block"},
		{"a byte that is not UTF-8", strings.Replace(good, `"a"`, "\"\xff\"", 1), "line 4: a byte that is not UTF-8 (0xFF)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := SplitJSONSetText(tc.text)
			var se *SetTextError
			if !errors.As(err, &se) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want a *SetTextError with %q", err, tc.want)
			}
		})
	}
	if _, err := SplitJSONSetText(" \n\t\n"); !errors.Is(err, ErrEmptySetText) {
		t.Errorf("blank: %v", err)
	}
	for _, none := range []string{`{"apiVersion": "v1", "kind": "List", "items": []}`, `{"apiVersion": "v1", "kind": "List", "items": null}`} {
		if items, err := SplitJSONSetText(none); err != nil || len(items) != 0 {
			t.Errorf("%s: %v, %v", none, items, err)
		}
	}
}

// TestSetEditJSON: a JSON set's edit is one JSON List of the members'
// JSON drafts; an item edited becomes its object's JSON draft, one left
// alone changes nothing, one removed keeps no draft; an object added is
// refused by name and a text that does not parse is refused with its line
// and column, both keeping every draft and the text for the next edit. A
// member whose text is YAML (a Secret; a draft kept in YAML) is left out.
func TestSetEditJSON(t *testing.T) {
	s := newTestSetIn(t, 4, FormatJSON)
	draftOf(t, s, 2, "old")
	// m3 holds a draft recovered in YAML: it keeps its format.
	yamlDraft := strings.Replace(text(t, named("m3", "1", "0")), `foo: "0"`, "foo: yaml", 1)
	if _, err := s.Handle(3, RecoverDraft{Draft: StoredDraft{Text: yamlDraft, BaseResourceVersion: "1", Format: FormatYAML}}); err != nil {
		t.Fatal(err)
	}
	e, err := s.Edit(nil)
	if err != nil {
		t.Fatal(err)
	}
	if e.Format != FormatJSON || fmt.Sprint(e.Members, e.Apart) != "[0 1 2] [3]" {
		t.Fatalf("members %v, apart %v, format %s", e.Members, e.Apart, e.Format)
	}
	if p := FormatJSON.ParseDraft(e.Text); p.err != nil || !strings.Contains(e.Text, `"foo": "old"`) {
		t.Fatalf("the List is not JSON, or not the drafts: %v\n%s", p.err, e.Text)
	}
	if effects, rep, err := s.TakeEdit(e, e.Text); err != nil || len(effects) != 0 || len(rep.Edited)+len(rep.Removed) != 0 {
		t.Fatalf("the text as it was: %v %+v %v", effects, rep, err)
	}
	before := s.Session(2).Draft().Text

	// An object added, and a text that does not parse: nothing changes.
	added := strings.Replace(e.Text, "\n    ],", `,
        {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "zzz", "namespace": "ns"}}
    ],`, 1)
	_, _, err = s.TakeEdit(e, strings.Replace(added, `"foo": "0"`, `"foo": "lost?"`, 1))
	var add *AddedError
	if !errors.As(err, &add) || !strings.Contains(err.Error(), "ConfigMap/zzz -n ns is not among the objects edited") {
		t.Fatalf("added: %v", err)
	}
	again, _ := s.Edit(nil)
	_, _, err = s.TakeEdit(again, strings.Replace(again.Text, `"foo": "lost?"`, `"foo": "lost?",`, 1))
	var te *SetTextError
	if !errors.As(err, &te) || te.Line == 0 || te.Column == 0 || !strings.Contains(err.Error(), `a comma before "}"`) {
		t.Fatalf("bad text: %v", err)
	}
	if s.Session(0).Draft() != nil || s.Session(2).Draft().Text != before || !s.Edited() {
		t.Fatal("a refused text changed a draft, or was not kept")
	}
	again, _ = s.Edit(nil)
	if !strings.Contains(again.Text, `"foo": "lost?",`) || again.Format != FormatJSON {
		t.Fatalf("the kept text is not given back:\n%s", again.Text)
	}

	// Fixed: m0 edited, m1 left alone, m2 removed.
	items, err := SplitJSONSetText(e.Text)
	if err != nil {
		t.Fatal(err)
	}
	fixed := strings.Replace(e.Text, items[0].region, strings.Replace(items[0].region, `"foo": "0"`, `"foo": "edited"`, 1), 1)
	fixed = strings.Replace(fixed, ",\n        "+items[2].region, "", 1)
	_, rep, err := s.TakeEdit(again, fixed)
	if err != nil || fmt.Sprint(rep.Edited, rep.Removed) != "[0] [2]" {
		t.Fatalf("edited %v, removed %v: %v", rep.Edited, rep.Removed, err)
	}
	d := s.Session(0).Draft()
	if d == nil || d.Err != nil || !strings.Contains(d.Text, `"foo": "edited"`) || !strings.HasPrefix(d.Text, "{\n    \"apiVersion\"") {
		t.Fatalf("m0's draft: %+v", d)
	}
	obj := FormatJSON.ParseDraft(d.Text).obj
	if v, _, _ := unstructured.NestedString(obj.Object, "data", "foo"); v != "edited" {
		t.Errorf("m0's draft holds foo %q", v)
	}
	if s.Session(1).Draft() != nil || s.Session(2).Draft() != nil || s.Session(3).Draft().Text != yamlDraft {
		t.Error("m1 (left alone) or m2 (removed) has a draft, or m3's YAML draft changed")
	}
}

// TestJSONSetEditLosesNothingOnRandomTexts: a JSON set's text broken at
// random (a character removed, one of JSON's put in, two lines swapped)
// either splits, every item's text then parsing as its object's JSON
// draft or saying why it cannot, or is refused with a *SetTextError or
// an *AddedError; a refused text changes no draft, and the next edit
// gives it back byte for byte.
func TestJSONSetEditLosesNothingOnRandomTexts(t *testing.T) {
	runs := 400
	if testing.Short() {
		runs = 100
	}
	seed := testseed.Seed(t)
	for run := range runs {
		r := rand.New(rand.NewPCG(seed+uint64(run), 3))
		s := newTestSetIn(t, 3, FormatJSON)
		draftOf(t, s, 1, "kept")
		before := make([]string, 3)
		for i := range before {
			if d := s.Session(i).Draft(); d != nil {
				before[i] = d.Text
			}
		}
		e, err := s.Edit(nil)
		if err != nil {
			t.Fatal(err)
		}
		text := e.Text
		for range 1 + r.IntN(3) {
			switch i := r.IntN(max(len(text), 1)); r.IntN(3) {
			case 0:
				text = text[:i] + text[min(i+1, len(text)):]
			case 1:
				text = text[:i] + string(`{}[],:"x `[r.IntN(9)]) + text[i:]
			default:
				lines := strings.Split(text, "\n")
				a, b := r.IntN(len(lines)), r.IntN(len(lines))
				lines[a], lines[b] = lines[b], lines[a]
				text = strings.Join(lines, "\n")
			}
		}
		where := fmt.Sprintf("run %d (KEDIT_SEED=%d): ", run, seed)
		_, rep, err := s.TakeEdit(e, text)
		var te *SetTextError
		var added *AddedError
		switch {
		case errors.Is(err, ErrEmptySetText):
		case errors.As(err, &te), errors.As(err, &added):
			for i := range before {
				if d := s.Session(i).Draft(); d == nil && before[i] != "" || d != nil && d.Text != before[i] {
					t.Fatalf("%sa refused text (%v) changed m%d's draft:\n%s", where, err, i, text)
				}
			}
			if again, _ := s.Edit(nil); again.Text != text {
				t.Fatalf("%sthe refused text is not given back", where)
			}
		case err != nil:
			t.Fatalf("%sTakeEdit: %v", where, err)
		default:
			for _, i := range rep.Edited {
				d := s.Session(i).Draft()
				if d == nil {
					continue // a text equal to base is no draft
				}
				if p := FormatJSON.ParseDraft(d.Text); (p.err == nil) != (d.Err == nil) {
					t.Fatalf("%sm%d's draft and its parse disagree: %v / %v", where, i, d.Err, p.err)
				}
			}
		}
	}
}
