package ui

import (
	"strings"
	"testing"

	"github.com/kedit/kedit/model"
	"github.com/kedit/kedit/ui/common"
)

// jsonApp is newApp with the session in JSON (-o json).
func jsonApp(t *testing.T, w, h int, r *fakeRunner) App {
	t.Helper()
	return newApp(t, w, h, r, func(c *Config) { c.Object.Session.SetFormat(model.FormatJSON) })
}

// TestJSONObjectViewDiffAndConflict: with -o json the object view shows
// the live object as JSON and says so, d diffs the JSON draft against base
// rendered as JSON, and the conflict view's merged text is JSON with a
// block.
func TestJSONObjectViewDiffAndConflict(t *testing.T) {
	r := &fakeRunner{}
	m := jsonApp(t, 100, 30, r)
	view := plain(m)
	if !strings.Contains(view, `"apiVersion": "v1",`) || !strings.Contains(view, "JSON") {
		t.Fatalf("the object view is not JSON:\n%s", view)
	}
	m = edit(t, m, `"foo": "1"`, `"foo": "mine"`)
	m = drive(t, m, keys("d")...)
	view = plain(m)
	if !strings.Contains(view, `-         "foo": "1"`) || !strings.Contains(view, `+         "foo": "mine"`) {
		t.Fatalf("d does not diff the JSON:\n%s", view)
	}
	m = theirsWrite(t, m, r, "foo", "theirs")
	m = drive(t, m, keys("s")...)
	if m.screen != screenConflict {
		t.Fatalf("screen %v after the conflicting save", m.screen)
	}
	merged, err := m.Session().MergedText()
	if err != nil || !strings.Contains(merged, "<<<<<<< mine\n        \"foo\": \"mine\"\n") {
		t.Fatalf("merged text %v:\n%s", err, merged)
	}
	m = drive(t, m, keys("m", "ctrl+s")...)
	if m.Session().State() != model.StateSaved || dataOf(r.server, "foo") != "mine" {
		t.Fatalf("after resolving: %v, foo %q", m.Session().State(), dataOf(r.server, "foo"))
	}
}

// TestJSONDraftErrorNamesLineAndColumn: a JSON draft from $EDITOR that
// does not parse is kept, and the object view says where it breaks.
func TestJSONDraftErrorNamesLineAndColumn(t *testing.T) {
	r := &fakeRunner{}
	m := edit(t, jsonApp(t, 160, 30, r), `"foo": "1"`, `"foo": "2",`)
	d := m.Session().Draft()
	if d == nil || d.Err == nil {
		t.Fatal("the broken draft was not kept")
	}
	if view := plain(m); !strings.Contains(view, "column") || !strings.Contains(view, `a comma before "}"`) {
		t.Errorf("the object view does not name the column:\n%s", view)
	}
	drive(t, m, keys("s")...)
	if r.saves != 0 {
		t.Errorf("%d saves of a draft that does not parse", r.saves)
	}
}

// TestObjectViewNamesTheSubresource: the header says which subresource is
// edited, next to the name, where 60 columns keep it.
func TestObjectViewNamesTheSubresource(t *testing.T) {
	r := &fakeRunner{}
	m := newApp(t, 60, 15, r, func(c *Config) {
		scaled := ref
		scaled.Subresource = "status"
		sess := model.NewSession(scaled)
		if _, _, err := sess.Handle(model.Opened{Object: configMap("812", map[string]any{"foo": "1"}, "kubectl-create", 0), At: t0}); err != nil {
			t.Fatal(err)
		}
		c.Object.Session = sess
	})
	first := strings.SplitN(plain(m), "\n", 2)[0]
	if !strings.Contains(first, "--subresource status") {
		t.Errorf("the header does not name the subresource: %q", first)
	}
	if view := plain(m); strings.Contains(view, "status hidden") {
		t.Errorf("a status edit hides the status:\n%s", view)
	}
}

// TestCauseLineFindsJSONFields: a refused save's causes go under their
// fields' lines in JSON as in YAML.
func TestCauseLineFindsJSONFields(t *testing.T) {
	text, err := model.FormatJSON.Render(configMap("812", map[string]any{"foo": "1", "bar": "2"}, "kubectl-create", 0))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(text, "\n")
	for _, field := range []string{"data.bar", "metadata.name"} {
		at := common.CauseLine(lines, field)
		key := field[strings.LastIndex(field, ".")+1:]
		if at < 0 || !strings.Contains(lines[at], `"`+key+`":`) {
			t.Errorf("CauseLine(%s) = %d in\n%s", field, at, text)
		}
	}
}

// TestJSONInAppEditor: i opens the JSON text in the in-app editor; what is
// typed there is checked as JSON (the column named under its line) and
// saved.
func TestJSONInAppEditor(t *testing.T) {
	r := &fakeRunner{}
	m := drive(t, jsonApp(t, 100, 30, r), keys("i")...)
	if m.screen != screenEditor || !strings.HasPrefix(m.editor.Text(), "{\n    \"apiVersion\": \"v1\",") {
		t.Fatalf("i opened %v on %q", m.screen, m.editor.Text())
	}
	text := strings.Replace(m.editor.Text(), `"foo": "1"`, `"foo": "typed",`, 1)
	m = replaceText(t, m, text)
	m = newDriver(t, m).until(func(m App) bool { return strings.Contains(plain(m), "column 5") })
	if view := plain(m); !strings.Contains(view, `cannot be saved: column 5: a comma before "}"`) {
		t.Errorf("the editor does not say where the JSON breaks:\n%s", view)
	}
	m = replaceText(t, m, strings.Replace(text, `"typed",`, `"typed"`, 1))
	m = drive(t, m, keys("ctrl+s")...)
	m = newDriver(t, m).until(func(m App) bool { return m.Session().State() == model.StateSaved })
	if got := dataOf(r.server, "foo"); got != "typed" {
		t.Errorf("foo = %q on the server, want typed", got)
	}
}
