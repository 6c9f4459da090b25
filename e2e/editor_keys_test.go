package e2e

import (
	"testing"

	"github.com/kedit/kedit/kube/kubetest"
)

// TestE2EEditorKeys: every key of the in-app editor's contract,
// as a terminal under tmux sends it to the real binary: ctrl+home/end,
// pgup/pgdn, find and go to line, alt+left/right, a mouse click, tab and
// shift+tab, enter keeping the indentation, ctrl+k with undo and redo,
// delete and backspace; ctrl+s then saves exactly the text they made.
func TestE2EEditorKeys(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	createConfigMap(t, ns, "keys", map[string]string{"a": "one", "conf": "alpha beta gamma\ndelta\n"})
	term := openKedit(t, ns, "keys", editorScript(t, "exit 1"), 120, 40)
	term.send("i")
	// The draft's text: apiVersion, data:, a, conf, alpha, delta, kind ...
	term.waitFor(screenWait, "editing the draft", "    alpha beta gamma", "line 1/")

	term.send("C-End")
	term.waitForLine(0)
	term.send("C-Home")
	term.waitForLine(1)
	term.send("NPage")
	term.waitForLine(0)
	term.send("PPage")
	term.waitForLine(1)

	// Find, then a word right twice (the end of "beta"), a word left.
	term.send("C-f")
	term.send("alpha")
	term.waitForLine(5)
	// An esc read together with what follows would be alt+ it.
	term.send("Escape")
	term.waitGone(screenWait, "esc: close")
	term.send("M-Right", "M-Right", "X", "M-Left", "Y")
	term.waitFor(screenWait, "    alpha YbetaX gamma")

	// A click right of delta's line (row 7 of the screen: the title, then
	// the text from its line 1) puts the cursor at its end. SGR mouse
	// report: button 0 pressed at column 100, row 7.
	term.sendBytes("\x1b[<0;100;7M")
	term.sendBytes("\x1b[<0;100;7m")
	term.waitForLine(6)
	term.send("M")
	term.waitFor(screenWait, "    deltaM")

	// Tab twice and shift+tab once at the line's start: two spaces more.
	term.send("Home", "Tab", "Tab")
	term.waitFor(screenWait, "        deltaM")
	term.send("BTab")
	term.waitGone(screenWait, "        deltaM")
	term.waitFor(screenWait, "      deltaM")
	// Enter keeps the indentation.
	term.send("End", "Enter", "new")
	term.waitFor(screenWait, "      new")

	// Go to line 3 (a: one), delete it, undo, redo.
	term.send("C-g")
	term.send("3")
	term.send("Enter")
	term.waitForLine(3)
	term.send("C-k")
	term.waitGone(screenWait, "a: one")
	term.send("C-z")
	term.waitFor(screenWait, "  a: one")
	term.send("C-y")
	term.waitGone(screenWait, "a: one")

	// Delete the g of gamma, backspace the space before it.
	term.send("C-f")
	term.send("gamma")
	term.waitFor(screenWait, "find: gamma")
	term.send("Escape")
	term.waitGone(screenWait, "esc: close")
	term.send("DC", "BSpace")
	term.waitFor(screenWait, "    alpha YbetaXamma")

	term.send("C-s")
	term.waitFor(screenWait, "saved rv")
	data, _ := configMapData(t, ns, "keys")
	if want := "alpha YbetaXamma\n  deltaM\n  new\n"; data["conf"] != want || len(data) != 1 {
		t.Fatalf("the server has %q, want only conf: %q", data, want)
	}
}
