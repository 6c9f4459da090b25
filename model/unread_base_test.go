package model

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/kedit/kedit/internal/testseed"
)

// An editor opened with no draft can come back with text that cannot be
// saved as it stands (a typo in the YAML or the JSON, a changed name)
// after another writer changed the object. The text cannot name its
// version, so the draft is based on the version the editor was opened on
// (DraftEdited.From names it): fixed later, the text holds that version's
// values, and a save based on the newer version would silently undo the
// other writer's change.
func TestUnreadDraftIsBasedOnTheVersionItsEditorOpenedOn(t *testing.T) {
	for _, tc := range []struct {
		name   string
		format Format
		break_ func(string) string
	}{
		{"a YAML typo", FormatYAML, func(s string) string { return strings.Replace(s, `foo: "1"`, `foo "mine"`, 1) }},
		{"a changed name", FormatYAML, func(s string) string { return strings.Replace(s, "name: testmap", "name: other", 1) }},
		{"a JSON typo", FormatJSON, func(s string) string { return strings.Replace(s, `"foo": "1"`, `"foo": "mine`, 1) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := opened(t, cmRef, cm("540", "foo", "1", "bar", "1"))
			s.SetFormat(tc.format)
			from, err := s.DraftText()
			if err != nil {
				t.Fatal(err)
			}
			must(t, s, LiveChanged{Type: LiveModified, Object: cm("541", "foo", "1", "bar", "theirs"), At: t0})
			broken := tc.break_(from)
			if broken == from {
				t.Fatal("the text was not broken")
			}
			if _, _, err := s.Handle(DraftEdited{Text: broken, From: from}); err == nil {
				t.Fatal("the broken text was taken without a word")
			}
			if got := s.Base().ResourceVersion; got != "540" {
				t.Fatalf("the unread draft is based on rv %s, want 540, the version its editor was opened on", got)
			}
			if ch, ok := s.ServerChange(); !ok || ch.FromRV != "540" || ch.ToRV != "541" {
				t.Errorf("no banner from 540 to 541: %+v, %v", ch, ok)
			}
			// Fixed, as the user would: the text of 540 with foo changed.
			fixed := strings.Replace(from, `foo: "1"`, "foo: mine", 1)
			if tc.format == FormatJSON {
				fixed = strings.Replace(from, `"foo": "1"`, `"foo": "mine"`, 1)
			}
			must(t, s, DraftEdited{Text: fixed, From: broken})
			if save := saveOf(t, must(t, s, SaveRequested{})); save.ResourceVersion != "540" {
				t.Errorf("the save is conditional on rv %s, want 540: it would undo bar: theirs", save.ResourceVersion)
			}
		})
	}
}

// TestUnreadDraftsLoseNothing: over random walks (writes while the editor
// is open, texts that come back broken in any of the ways above, fixed in
// one or more edits), a save is never sent conditional on a version whose
// change the draft would undo: the server (a map of versions, as the API
// server's optimistic concurrency keeps them) refuses a stale save, and
// what it stores holds every other writer's value of the keys the user did
// not edit.
func TestUnreadDraftsLoseNothing(t *testing.T) {
	walks := 300
	if testing.Short() {
		walks = 60
	}
	seed := testseed.Seed(t)
	for w := range walks {
		r := rand.New(rand.NewPCG(seed+uint64(w), 5))
		rv := 100
		server := cm(fmt.Sprint(rv), "foo", "1", "bar", "1", "baz", "1")
		s := opened(t, cmRef, server.DeepCopy())
		from, _ := s.DraftText()
		theirs := map[string]string{}
		write := func() {
			rv++
			key := []string{"bar", "baz"}[r.IntN(2)]
			val := fmt.Sprintf("t%d", rv)
			theirs[key] = val
			data := server.Object["data"].(map[string]any)
			next := cm(fmt.Sprint(rv), "foo", data["foo"].(string), "bar", data["bar"].(string), "baz", data["baz"].(string))
			next.Object["data"].(map[string]any)[key] = val
			server = next
			must(t, s, LiveChanged{Type: LiveModified, Object: server.DeepCopy(), At: t0})
		}
		for range r.IntN(3) {
			write()
		}
		broken := []string{
			strings.Replace(from, `foo: "1"`, `foo "mine"`, 1),
			strings.Replace(from, "name: testmap", "name: other", 1),
			strings.Replace(from, "data:", "data: [", 1),
		}[r.IntN(3)]
		_, _, _ = s.Handle(DraftEdited{Text: broken, From: from})
		prev := broken
		for range r.IntN(3) {
			if r.IntN(2) == 0 {
				write()
			}
			again := broken + strings.Repeat(" ", 1+r.IntN(3))
			_, _, _ = s.Handle(DraftEdited{Text: again, From: prev})
			prev = again
		}
		if r.IntN(2) == 0 {
			write()
		}
		must(t, s, DraftEdited{Text: strings.Replace(from, `foo: "1"`, "foo: mine", 1), From: prev})
		save := saveOf(t, must(t, s, SaveRequested{}))
		if save.ResourceVersion != server.GetResourceVersion() {
			continue // the server refuses it: 409, nothing overwritten
		}
		data := save.Object.Object["data"].(map[string]any)
		for k, v := range theirs {
			if data[k] != v && server.Object["data"].(map[string]any)[k] == v {
				t.Fatalf("walk %d (seed %d): the save over rv %s sets %s to %v, undoing the other writer's %q", w, seed, save.ResourceVersion, k, data[k], v)
			}
		}
	}
}
