package ui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// TestC1ControlRendersAndEdits: one U+009B in
// an object once made the view and e fail with "control characters are not
// allowed", and nothing of the object could be edited. It renders escaped,
// the in-app editor opens on it, and an edit of another field keeps it byte
// for byte.
func TestC1ControlRendersAndEdits(t *testing.T) {
	r := &fakeRunner{}
	m := newAppWith(t, 100, 30, r, map[string]any{"csi": "a\u009b2Jb", "foo": "1"})
	screen := plain(m)
	if strings.Contains(screen, "cannot render") || !strings.Contains(screen, `csi: "a\u009b2Jb"`) {
		t.Fatalf("the object view:\n%s", screen)
	}
	text, err := m.Session().DraftText()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(text, "\u009b") {
		t.Fatalf("the draft text holds the raw C1 control:\n%q", text)
	}
	m = drive(t, m, keys("i")...)
	if m.screen != screenEditor {
		t.Fatalf("i did not open the editor: %s", m.status.Text())
	}
	m = drive(t, m, tea.KeyMsg{Type: tea.KeyEsc})
	m = edit(t, m, `foo: "1"`, `foo: "2"`)
	m = drive(t, m, keys("s")...)
	if v := dataOf(r.object(), "csi"); v != "a\u009b2Jb" {
		t.Errorf("saved csi = %q, want the C1 control kept byte for byte", v)
	}
	if v := dataOf(r.object(), "foo"); v != "2" {
		t.Errorf("saved foo = %q", v)
	}
}

// TestEscapesAreToldFromLookAlikes: a bidi control and the twelve letters
// that spell its escape are drawn differently, in the YAML (quoted with
// YAML's escape, against the letters with the backslash doubled) and in
// server text outside it (the status bar's saved message), with or without
// styles; ? explains the notation.
func TestEscapesAreToldFromLookAlikes(t *testing.T) {
	r := &fakeRunner{}
	m := newAppWith(t, 120, 40, r, map[string]any{"real": "abc\u202edef", "fake": `abc\u202edef`})
	screen := plain(m)
	for _, want := range []string{`real: "abc\u202edef"`, `fake: "abc\\u202edef"`} {
		if !strings.Contains(screen, want) {
			t.Errorf("no %s on screen:\n%s", want, screen)
		}
	}
	m = drive(t, m, keys("?")...)
	if screen := plain(m); !strings.Contains(screen, `escapes (reversed): \x1b \u009b \u202e`) || !strings.Contains(screen, `backslash of the object is drawn \\`) {
		t.Errorf("? has no legend of the escapes:\n%s", screen)
	}
}
