package e2e

import (
	"bytes"
	"fmt"
	"os"
)

// editorRunsTrap is the line editorScript starts its editor with: when the
// editor ends, it adds a line to the file beside it (editorRuns).
const editorRunsTrap = `trap 'echo >> "$0.runs"' EXIT`

// editorRuns is how many times the terminal's $EDITOR has ended, and
// whether it counts its runs at all (an editorScript does).
func (term *terminal) editorRuns() (int, bool) {
	if term.editor == "" {
		return 0, false
	}
	script, err := os.ReadFile(term.editor)
	if err != nil || !bytes.Contains(script, []byte(editorRunsTrap)) {
		return 0, false
	}
	b, _ := os.ReadFile(term.editor + ".runs")
	return bytes.Count(b, []byte("\n")), true
}

// editAndWait presses e and waits for the draft $EDITOR leaves: for the
// editor to have ended (when it counts its runs) and for the screen to
// show "unsaved draft" with every one of want. want must be text only the
// new draft puts on the screen (its content, or what kedit says of it)
// where an earlier draft is already shown: "unsaved draft" alone matches
// at once then, and the next key would reach kedit before the draft does.
// It returns the screen.
func (term *terminal) editAndWait(want ...string) string {
	term.t.Helper()
	before, counts := term.editorRuns()
	term.send("e")
	if counts {
		term.waitUntil(screenWait, fmt.Sprintf("$EDITOR run %d ended", before+1), func(string) bool {
			n, _ := term.editorRuns()
			return n > before
		})
	}
	return term.waitFor(screenWait, append([]string{"unsaved draft"}, want...)...)
}
