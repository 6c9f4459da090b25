package e2e

import (
	"os"
	"strings"
	"testing"

	"github.com/kedit/kedit/internal/testwait"
	"github.com/kedit/kedit/kube/kubetest"
)

// TestE2EEditorSelectCutPaste: in the in-app editor of the real binary,
// shift+down selects a line, ctrl+x cuts it (into kedit's register, and
// through OSC 52 into tmux's buffer with set-clipboard on), ctrl+v pastes
// it two lines down, ctrl+s saves, and kubectl get shows the line moved;
// then a mouse drag selects a word, which typing replaces.
func TestE2EEditorSelectCutPaste(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	createConfigMap(t, ns, "moves", map[string]string{"conf": "first\nsecond\nthird\n"})
	term := openKedit(t, ns, "moves", editorScript(t, "exit 1"), 120, 40)
	term.tmux("set-option", "-s", "set-clipboard", "on")
	term.send("i")
	term.waitFor(screenWait, "editing the draft", "    first")
	term.send("C-f")
	term.send("first")
	term.waitFor(screenWait, "find: first")
	term.send("Escape")
	term.waitGone(screenWait, "esc: close")
	term.send("Home", "S-Down")
	// The footer names what a selection can do.
	term.waitFor(screenWait, "ctrl+x cut", "esc clear the selection")
	term.send("C-x")
	term.waitFor(screenWait, "cut 1 line")
	term.waitGone(screenWait, "    first")
	if !testwait.Until(screenWait, func() bool { return term.tmux("show-buffer") == "    first\n" }) {
		t.Errorf("tmux's buffer holds %q, not the line cut", term.tmux("show-buffer"))
	}
	term.send("Down", "Down", "C-v")
	term.waitFor(screenWait, "    third\n", "    first\n")
	term.send("C-s")
	term.waitFor(screenWait, "saved rv")
	out := kubetest.MustKubectl(t, "-n", ns, "get", "configmap", "moves", "-o", "jsonpath={.data.conf}")
	if out != "second\nthird\nfirst\n" {
		t.Fatalf("kubectl get shows conf %q, want the first line moved last", out)
	}

	// A drag of the mouse selects too: the button down at the start of
	// "second" (row 5 of the screen: the title, then the text from its
	// line 1; column 9 after the gutter and the indentation), moved to
	// the end of the word, up; then typing replaces what it selected.
	term.send("i")
	term.waitFor(screenWait, "editing the draft", "    second")
	term.sendBytes("\x1b[<0;9;5M")
	term.sendBytes("\x1b[<32;15;5M")
	term.sendBytes("\x1b[<0;15;5m")
	term.waitFor(screenWait, "ctrl+x cut")
	term.send("2nd")
	term.waitFor(screenWait, "    2nd\n")
	term.send("C-s")
	term.waitFor(screenWait, "saved rv")
	out = kubetest.MustKubectl(t, "-n", ns, "get", "configmap", "moves", "-o", "jsonpath={.data.conf}")
	if out != "2nd\nthird\nfirst\n" {
		t.Fatalf("after the drag, kubectl get shows conf %q", out)
	}
}

// TestE2EEditorCtrlCKeepsTheDraft: ctrl+c in the in-app editor keeps what
// was typed as the draft (the file on disk has it), says so and leaves the
// editor open; a second ctrl+c quits, and the next kedit offers the draft.
func TestE2EEditorCtrlCKeepsTheDraft(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	env, term := typeKeptLine(t, ns)
	term.waitFor(screenWait, "  typed: kept")
	term.send("C-c")
	term.waitFor(screenWait, "draft kept: ctrl+c again quits, esc leaves", "editing the draft")
	path := env.draft(ns, "configmaps", "testmap", 1)
	if !testwait.Until(screenWait, func() bool { b, _ := os.ReadFile(path); return strings.Contains(string(b), "  typed: kept\n") }) {
		b, _ := os.ReadFile(path)
		t.Fatalf("the draft file after ctrl+c: %q", b)
	}
	term.stillNot("EXIT=")
	term.send("C-c")
	term.waitFor(screenWait, "EXIT=0")
	offersKeptLine(t, env, ns)
}

// TestE2EEditorShiftClickSelects: a click at the start of "first" (row 5
// of the screen, column 9), then a click with shift at the end of
// "second" selects both words and the line break between them, which
// typing replaces; ctrl+s saves it.
func TestE2EEditorShiftClickSelects(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	createConfigMap(t, ns, "clicks", map[string]string{"conf": "first\nsecond\nthird\n"})
	term := openKedit(t, ns, "clicks", editorScript(t, "exit 1"), 120, 40)
	term.send("i")
	term.waitFor(screenWait, "editing the draft", "    first")
	term.sendBytes("\x1b[<0;9;5M")
	term.sendBytes("\x1b[<0;9;5m")
	// SGR's button 4 is the left button with shift.
	term.sendBytes("\x1b[<4;15;6M")
	term.sendBytes("\x1b[<4;15;6m")
	term.waitFor(screenWait, "ctrl+x cut")
	term.send("both")
	term.waitFor(screenWait, "    both")
	term.waitGone(screenWait, "second")
	term.send("C-s")
	term.waitFor(screenWait, "saved rv")
	if out := kubetest.MustKubectl(t, "-n", ns, "get", "configmap", "clicks", "-o", "jsonpath={.data.conf}"); out != "both\nthird\n" {
		t.Fatalf("kubectl get shows conf %q, want the two words replaced", out)
	}
}
