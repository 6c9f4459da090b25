package model

import (
	"errors"
	"strings"
	"testing"

	"github.com/kedit/kedit/diff"
)

func TestParseFormat(t *testing.T) {
	for in, want := range map[string]Format{"": FormatYAML, "yaml": FormatYAML, "json": FormatJSON} {
		if got, err := ParseFormat(in); err != nil || got != want {
			t.Errorf("ParseFormat(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"JSON", "wide", "name", "jsonpath={.x}"} {
		if _, err := ParseFormat(bad); err == nil || !strings.Contains(err.Error(), "use yaml or json") {
			t.Errorf("ParseFormat(%q): %v, want the formats named", bad, err)
		}
	}
}

// TestJSONSessionFromEditToResubmit: with -o json the editor opens JSON,
// a JSON draft saves, a conflict's merged text is JSON with a block, and
// the resubmit's draft is JSON again; the stored draft records JSON.
func TestJSONSessionFromEditToResubmit(t *testing.T) {
	s := opened(t, cmRef, cm("1", "foo", "1", "bar", "1"))
	s.SetFormat(FormatJSON)
	start, err := s.DraftText()
	if err != nil || !strings.HasPrefix(start, "{\n    \"apiVersion\": \"v1\",") {
		t.Fatalf("DraftText = %q, %v; want JSON", start, err)
	}
	mine := strings.Replace(start, `"foo": "1"`, `"foo": "mine"`, 1)
	effects := must(t, s, DraftEdited{Text: mine})
	if wd := effectsOf[WriteDraft](effects); len(wd) != 1 || wd[0].Format != FormatJSON || wd[0].Text != mine {
		t.Fatalf("effects %s: want the JSON draft stored as JSON", describe(effects))
	}
	if v, _ := dataOf(saveOf(t, must(t, s, SaveRequested{})).Object, "foo"); v != "mine" {
		t.Fatalf("saved foo = %q, want mine", v)
	}
	must(t, s, SaveFailed{Err: conflictErr()})
	must(t, s, Conflicted{Theirs: cm("5", "foo", "theirs", "bar", "9"), At: at(2)})
	wantState(t, s, StateResolving)
	merged, err := s.MergedText()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"<<<<<<< mine\n        \"foo\": \"mine\"", "=======\n        \"foo\": \"theirs\"", `"bar": "9"`} {
		if !strings.Contains(merged, want) {
			t.Errorf("merged text lacks %q:\n%s", want, merged)
		}
	}
	must(t, s, Resolve{Index: 0, Resolution: diff.Resolution{Choice: diff.TakeMine}})
	effects = must(t, s, Resubmit{})
	save := saveOf(t, effects)
	if v, _ := dataOf(save.Object, "bar"); v != "9" {
		t.Errorf("resubmitted bar = %q, want theirs' 9", v)
	}
	d := s.Draft()
	if d == nil || !strings.HasPrefix(d.Text, "{\n") || !strings.Contains(d.Text, `"foo": "mine"`) {
		t.Fatalf("the resubmit's draft is not JSON: %+v", d)
	}
}

// TestJSONDraftThatDoesNotParse: a JSON draft that does not parse is
// refused with its line and column; the text is kept, and stored, and
// nothing is sent.
func TestJSONDraftThatDoesNotParse(t *testing.T) {
	for _, tc := range []struct {
		name, edit string
		line, col  int
		msg        string
	}{
		{"trailing comma", `"foo": "2",` + "\n    }", 5, 5, `a comma before "}"`},
		{"single quotes", `'foo': "2"`, 4, 9, "single quotes"},
		{"duplicate key", `"foo": "2", "foo": "3"`, 4, 21, `key "foo" is already defined on line 4`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := opened(t, cmRef, cm("1", "foo", "1"))
			s.SetFormat(FormatJSON)
			start, _ := s.DraftText()
			bad := strings.Replace(start, `"foo": "1"`, tc.edit, 1)
			_, effects, err := s.Handle(DraftEdited{Text: bad})
			var de *DraftError
			if !errors.As(err, &de) {
				t.Fatalf("DraftEdited: %v, want a *DraftError\n%s", err, bad)
			}
			if de.Line != tc.line || de.Column != tc.col || !strings.Contains(de.Error(), tc.msg) {
				t.Errorf("refusal %q (line %d, column %d), want line %d, column %d: …%s…\n%s", de, de.Line, de.Column, tc.line, tc.col, tc.msg, bad)
			}
			if d := s.Draft(); d == nil || d.Text != bad || d.Err == nil {
				t.Fatalf("the draft is not kept as typed: %+v", d)
			}
			if wd := effectsOf[WriteDraft](effects); len(wd) != 1 || wd[0].Text != bad {
				t.Errorf("the refused text is not stored: %s", describe(effects))
			}
			_, effects, err = s.Handle(SaveRequested{})
			if err == nil || len(effectsOf[Save](effects)) > 0 {
				t.Errorf("a save of the refused text: %v, %s", err, describe(effects))
			}
		})
	}
}

// TestSecretStaysYAML: -o json leaves a Secret in YAML, whose decoded
// values JSON could not mark.
func TestSecretStaysYAML(t *testing.T) {
	s := opened(t, secretRef, secret("1", "password", "hunter2"))
	s.SetFormat(FormatJSON)
	if s.Format() != FormatYAML {
		t.Fatalf("a Secret's format is %s", s.Format())
	}
	text, err := s.DraftText()
	if err != nil || !strings.HasPrefix(text, SecretHeader) || !strings.Contains(text, "password: hunter2") {
		t.Fatalf("DraftText = %q, %v", text, err)
	}
}

// TestRecoveredDraftOpensInItsFormat: a draft written in JSON opens in
// JSON in a kedit started without -o json, and a YAML draft in YAML in
// one started with it; what the session writes next follows.
func TestRecoveredDraftOpensInItsFormat(t *testing.T) {
	for _, tc := range []struct{ session, stored Format }{{FormatYAML, FormatJSON}, {FormatJSON, FormatYAML}} {
		s := opened(t, cmRef, cm("1", "foo", "1"))
		s.SetFormat(tc.session)
		stored, err := tc.stored.Render(cm("1", "foo", "2"))
		if err != nil {
			t.Fatal(err)
		}
		effects := must(t, s, RecoverDraft{Draft: StoredDraft{Text: stored, Format: tc.stored, BaseResourceVersion: "1"}})
		if s.Format() != tc.stored {
			t.Errorf("a %s draft recovered into a %s session: the session writes %s", tc.stored, tc.session, s.Format())
		}
		if d := s.Draft(); d == nil || d.Err != nil || d.Text != stored {
			t.Fatalf("recovered draft %+v", d)
		}
		if wd := effectsOf[WriteDraft](effects); len(wd) != 1 || wd[0].Format != tc.stored {
			t.Errorf("stored again as %s", describe(effects))
		}
		// Discarded, the object is shown and edited in that format still.
		must(t, s, DiscardDraft{})
		if text, _ := s.DraftText(); (tc.stored == FormatJSON) != strings.HasPrefix(text, "{") {
			t.Errorf("after the recovered %s draft, the editor opens %q", tc.stored, text)
		}
	}
}

// TestBlameReadsJSON: the blame gutter attributes the lines of the JSON
// text as it does YAML's, line by line.
func TestBlameReadsJSON(t *testing.T) {
	obj := mustYAML(t, twoManagerDeployment)
	text, err := FormatJSON.Render(obj)
	if err != nil {
		t.Fatal(err)
	}
	lines, err := Blame(obj, text)
	if err != nil {
		t.Fatal(err)
	}
	if len(lines) != strings.Count(text, "\n") {
		t.Fatalf("%d blame lines for %d lines", len(lines), strings.Count(text, "\n"))
	}
	for _, tc := range []struct{ line, want string }{
		{`"image": "nginx:1.27"`, "alice"},
		{`"image": "envoy:1.31"`, "bob"},
		{`"value": "from-alice"`, "alice"},
		{`"value": "from-bob"`, "bob"},
		{`"replicas": 2`, "alice"},
		{`"resourceVersion":`, ""},
	} {
		if got := owner(blameFor(t, text, lines, tc.line)); got != tc.want {
			t.Errorf("%q blamed on %q, want %q", tc.line, got, tc.want)
		}
	}
}
