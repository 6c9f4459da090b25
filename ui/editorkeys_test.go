package ui

import (
	"bytes"
	"encoding/base64"
	"strings"
	"sync"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// lockedBuffer is the terminal a command writes to off the UI's goroutine.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestEditorCopyReachesTheTerminalsClipboard: a selection cut in the
// in-app editor is said on the status line and written to the terminal as
// an OSC 52 sequence; ctrl+v pastes it from kedit's register.
func TestEditorCopyReachesTheTerminalsClipboard(t *testing.T) {
	term := &lockedBuffer{}
	m := drive(t, newApp(t, 80, 24, &fakeRunner{}, func(c *Config) { c.Clipboard = term }), keys("i")...)
	d := newDriver(t, m)
	d.send(tea.KeyMsg{Type: tea.KeyShiftDown})
	d.send(tea.KeyMsg{Type: tea.KeyCtrlX})
	m = d.settle()
	want := "\x1b]52;c;" + base64.StdEncoding.EncodeToString([]byte("apiVersion: v1\n")) + "\a"
	if term.String() != want || !strings.Contains(plain(m), "cut 1 line") {
		t.Fatalf("the terminal got %q, want %q; screen:\n%s", term.String(), want, plain(m))
	}
	d.send(tea.KeyMsg{Type: tea.KeyDown})
	d.send(tea.KeyMsg{Type: tea.KeyCtrlV})
	m = d.settle()
	if text := m.editor.Text(); !strings.HasPrefix(text, "data:\napiVersion: v1\n  bar: \"1\"\n") {
		t.Errorf("ctrl+v pasted:\n%s", text)
	}
	// A replace says how many it replaced: 1 in v1, "1" twice, 812 and
	// u-1.
	for _, k := range []tea.KeyMsg{{Type: tea.KeyCtrlR}, runes("1"), {Type: tea.KeyEnter}, runes("2"), {Type: tea.KeyCtrlA}} {
		d.send(k)
	}
	if m = d.settle(); !strings.Contains(plain(m), "replaced 5 occurrences") {
		t.Errorf("replace all does not say how many:\n%s", plain(m))
	}
}

// TestEditorCtrlCSaysWhatItKept: ctrl+c in the in-app editor says what it
// kept: nothing typed, a draft that cannot be saved yet, and on the merged
// result that the second one keeps it as the draft.
func TestEditorCtrlCSaysWhatItKept(t *testing.T) {
	m := drive(t, newApp(t, 80, 24, &fakeRunner{}), keys("i")...)
	if m = drive(t, m, tea.KeyMsg{Type: tea.KeyCtrlC}); m.screen != screenEditor || !strings.Contains(plain(m), "nothing typed to keep: ctrl+c again quits") {
		t.Errorf("ctrl+c, nothing typed:\n%s", plain(m))
	}
	m = drive(t, m, tea.KeyMsg{Type: tea.KeyCtrlHome}, runes(":"), tea.KeyMsg{Type: tea.KeyCtrlC})
	if m.Session().Draft() == nil || !strings.Contains(plain(m), "draft kept, not yet one that can be saved") {
		t.Errorf("ctrl+c on text that does not parse:\n%s", plain(m))
	}
	c, _ := conflicted(t, 120)
	c = drive(t, c, keys("i")...)
	if c = drive(t, c, tea.KeyMsg{Type: tea.KeyCtrlC}); c.screen != screenEditor || !strings.Contains(plain(c), "ctrl+c again quits and keeps it as the draft") {
		t.Errorf("ctrl+c on the merged result:\n%s", plain(c))
	}
}
