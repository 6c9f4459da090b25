package model

import "testing"

// TestSaveKeepsTheDraftWhatTheServerDidNotStore: a save the server took
// deletes the draft when it holds what the user wrote, in the user's form
// or another (a value made canonical is named, not kept); when it dropped
// a value the user wrote, the draft keeps the user's text, made from the
// saved version, until discarded.
func TestSaveKeepsTheDraftWhatTheServerDidNotStore(t *testing.T) {
	for _, tc := range []struct {
		name   string
		stored []string // the data the server stored
		kept   bool
	}{
		{"stored whole", []string{"foo", "2", "bar", "1"}, false},
		{"foo stored in another form", []string{"foo", "normalized", "bar", "1"}, false},
		{"foo dropped by the server", []string{"bar", "1"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := editing(t, "2")
			written := s.Draft().Text
			must(t, s, SaveRequested{})
			effects := must(t, s, Saved{Object: cm("2", tc.stored...)})
			r, kept := s.KeptAfterSave()
			if kept != tc.kept {
				t.Fatalf("kept after save %v, want %v", kept, tc.kept)
			}
			if !tc.kept {
				wantState(t, s, StateSaved)
				if len(effectsOf[DeleteDraft](effects)) != 1 || s.Draft() != nil {
					t.Fatalf("effects %s: the draft stored whole was not deleted", describe(effects))
				}
				return
			}
			wantState(t, s, StateEditing)
			if len(r.NotStored) != 1 || r.NotStored[0].Path.String() != ".data.foo" || r.ResourceVersion != "2" {
				t.Fatalf("report %+v", r)
			}
			w := effectsOf[WriteDraft](effects)
			if len(effectsOf[DeleteDraft](effects)) != 0 || len(w) != 1 || w[0].Text != written || w[0].BaseResourceVersion != "2" {
				t.Fatalf("effects %s: want the user's text stored again on base rv 2", describe(effects))
			}
			if s.Draft().Text != written || s.Base().ResourceVersion != "2" {
				t.Fatalf("draft %q on rv %s", s.Draft().Text, s.Base().ResourceVersion)
			}
			must(t, s, DiscardDraft{})
			if _, still := s.KeptAfterSave(); still || s.Draft() != nil {
				t.Fatal("the kept draft outlived its discard")
			}
		})
	}
}
