package model

import (
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
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

// An editor reopened on the draft while its save is in flight works on
// text that names the version the save was sent against (540). Once the
// save lands as 541 the draft is gone, and the text comes back naming 540;
// but it holds the save's changes, so it is based on 541: the next save is
// no conflict against kedit itself. The editor says which text it was
// opened on (From), which tells even when the same field is edited again;
// without From, a text holding every change from 540 to 541 tells by its
// content.
func TestDraftReopenedDuringItsSaveIsBasedOnTheSavedVersion(t *testing.T) {
	for _, tc := range []struct {
		name     string
		old, new string
		from     bool
	}{
		{"the same field again, from the draft", "foo: mine", "foo: mine2", true},
		{"another field, from the draft", `bar: "1"`, "bar: again", true},
		{"another field, no From", `bar: "1"`, "bar: again", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := opened(t, cmRef, cm("540", "foo", "1", "bar", "1"))
			must(t, s, DraftEdited{Text: text(t, cm("540", "foo", "mine", "bar", "1"))})
			must(t, s, SaveRequested{})
			wantState(t, s, StateSaving)
			reopened, err := s.DraftText()
			if err != nil {
				t.Fatal(err)
			}
			must(t, s, Saved{Object: cm("541", "foo", "mine", "bar", "1"), At: t0})
			wantState(t, s, StateSaved)
			ev := DraftEdited{Text: strings.Replace(reopened, tc.old, tc.new, 1)}
			if tc.from {
				ev.From = reopened
			}
			must(t, s, ev)
			if got := s.Base().ResourceVersion; got != "541" {
				t.Fatalf("the draft is based on rv %s, want 541, the save its text already holds", got)
			}
			if ch, ok := s.ServerChange(); ok {
				t.Errorf("a banner for kedit's own save: %+v", ch)
			}
			var save *Save
			for _, e := range must(t, s, SaveRequested{}) {
				if sv, ok := e.(Save); ok {
					save = &sv
				}
			}
			if save == nil || save.ResourceVersion != "541" {
				t.Fatalf("the save is not conditional on rv 541: %+v", save)
			}
		})
	}
	// From names a text the landed save did not send: the text's own
	// version counts.
	s := opened(t, cmRef, cm("540", "foo", "1", "bar", "1"))
	must(t, s, DraftEdited{Text: text(t, cm("540", "foo", "mine", "bar", "1"))})
	must(t, s, SaveRequested{})
	must(t, s, Saved{Object: cm("541", "foo", "mine", "bar", "1"), At: t0})
	other := text(t, cm("540", "foo", "1", "bar", "1"))
	must(t, s, DraftEdited{Text: strings.Replace(other, `foo: "1"`, "foo: other", 1), From: other})
	if got := s.Base().ResourceVersion; got != "540" {
		t.Errorf("a text opened on rv 540 itself is based on rv %s, want 540", got)
	}
}

// The same rule holds for anyone's change: text that already holds every
// change made since the version it names loses nothing on the newer one.
// Text that misses any of them stays on the version it names.
func TestDraftHoldingEveryChangeSinceItsVersionIsBasedOnTheNewest(t *testing.T) {
	for _, tc := range []struct {
		name   string
		mine   *unstructured.Unstructured
		wantRV string
	}{
		{"holds theirs and more", cm("540", "foo", "theirs", "bar", "mine"), "541"},
		{"misses theirs", cm("540", "foo", "1", "bar", "mine"), "540"},
		{"undoes theirs", cm("540", "foo", "mine", "bar", "1"), "540"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := opened(t, cmRef, cm("540", "foo", "1", "bar", "1"))
			must(t, s, LiveChanged{Type: LiveModified, Object: cm("541", "foo", "theirs", "bar", "1"), At: t0})
			must(t, s, DraftEdited{Text: text(t, tc.mine)})
			if got := s.Base().ResourceVersion; got != tc.wantRV {
				t.Errorf("the draft is based on rv %s, want %s", got, tc.wantRV)
			}
		})
	}
}

// TestTextBasedOnlyOnItsObjectsVersion: the version a text names is its
// base only when it is base's object's: not when it was the earlier
// object's (another uid), nor when one uid is unknown and the other not.
func TestTextBasedOnlyOnItsObjectsVersion(t *testing.T) {
	withUID := func(obj *unstructured.Unstructured, uid string) *unstructured.Unstructured {
		obj.SetUID(types.UID(uid))
		return obj
	}
	for _, tc := range []struct {
		name, old, now string
		based          bool
	}{
		{"the same object", "1234", "1234", true},
		{"an earlier object", "0001", "1234", false},
		{"unknown, then known", "", "1234", false},
		{"known, then unknown", "1234", "", false},
		{"both unknown", "", "", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := opened(t, cmRef, withUID(cm("540", "foo", "1"), tc.old))
			edited := strings.Replace(text(t, cm("540", "foo", "1")), `foo: "1"`, "foo: mine", 1)
			must(t, s, LiveChanged{Type: LiveModified, Object: withUID(cm("541", "foo", "theirs"), tc.now), At: t0})
			must(t, s, DraftEdited{Text: edited})
			if got := s.Base().ResourceVersion == "540"; got != tc.based {
				t.Errorf("based on rv %s; want the text's 540: %v", s.Base().ResourceVersion, tc.based)
			}
		})
	}
}
