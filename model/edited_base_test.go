package model

import (
	"strings"
	"testing"
)

// An editor opened with no draft works on base's text. If the object
// changes meanwhile, base follows live (there is no draft yet), so when
// the text comes back it was made from an older version than base: it is
// based on the version it names, or a save would silently undo the change
// made meanwhile, the lost update of `kubectl edit`.
func TestDraftIsBasedOnTheVersionItsTextWasMadeFrom(t *testing.T) {
	s := opened(t, cmRef, cm("540", "foo", "1"))
	edited := strings.Replace(text(t, cm("540", "foo", "1")), `foo: "1"`, "foo: mine", 1)
	// The change lands while the editor is open.
	must(t, s, LiveChanged{Type: LiveModified, Object: cm("541", "foo", "theirs"), At: t0})
	if s.Base().ResourceVersion != "541" {
		t.Fatalf("with no draft base is rv %s, want live's 541", s.Base().ResourceVersion)
	}
	must(t, s, DraftEdited{Text: edited})
	if got := s.Base().ResourceVersion; got != "540" {
		t.Fatalf("the draft is based on rv %s, want 540, the version its text was made from", got)
	}
	if ch, ok := s.ServerChange(); !ok || ch.FromRV != "540" || ch.ToRV != "541" {
		t.Errorf("no banner from 540 to 541: %+v, %v", ch, ok)
	}
	effects := must(t, s, SaveRequested{})
	var save *Save
	for _, e := range effects {
		if sv, ok := e.(Save); ok {
			save = &sv
		}
	}
	if save == nil || save.ResourceVersion != "540" {
		t.Fatalf("the save is not conditional on rv 540: %+v", effects)
	}
}

func TestDraftBaseStaysWhenTheTextNamesNoOlderVersion(t *testing.T) {
	for _, tc := range []struct{ name, rv string }{
		{"no resourceVersion", ""},
		{"one never seen", "7"},
		{"base's own", "541"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := opened(t, cmRef, cm("540", "foo", "1"))
			must(t, s, LiveChanged{Type: LiveModified, Object: cm("541", "foo", "theirs"), At: t0})
			obj := cm(tc.rv, "foo", "mine")
			if tc.rv == "" {
				delete(obj.Object["metadata"].(map[string]any), "resourceVersion")
			}
			must(t, s, DraftEdited{Text: text(t, obj)})
			if got := s.Base().ResourceVersion; got != "541" {
				t.Errorf("base is rv %s, want 541", got)
			}
		})
	}
	// A draft that exists already keeps its base, whatever its text says.
	s := opened(t, cmRef, cm("540", "foo", "1"))
	must(t, s, DraftEdited{Text: text(t, cm("540", "foo", "mine"))})
	must(t, s, LiveChanged{Type: LiveModified, Object: cm("541", "foo", "theirs"), At: t0})
	must(t, s, DraftEdited{Text: text(t, cm("541", "foo", "again"))})
	if got := s.Base().ResourceVersion; got != "540" {
		t.Errorf("an edited draft's base moved to rv %s", got)
	}
}
