package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/kedit/kedit/kube/kubetest"
)

// End to end, the schema's diagnostics in the real binary: a field's
// name mistyped in the in-app editor is marked as it is typed and named
// at the cursor, with the field it meant; s asks first, s again sends it
// and the server refuses it as the check said.

// note is the diagnostic of a mistyped imagePullPolicy.
const note = "imagePullPolicyy: unknown field, did you mean imagePullPolicy?"

// TestE2EEditorMarksAMistypedField: in i on a Deployment, imagePullPolicy
// becomes imagePullPolicyy; the note under the cursor's line says it is
// unknown and names imagePullPolicy, and goes while the cursor is on
// another line, where the line's number stays marked. Back in the object view, s says the schema refuses the
// draft and sends nothing; s again sends it, and the server refuses the
// same field.
func TestE2EEditorMarksAMistypedField(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "deployment", "web", "--image=nginx")
	term := openKeditOn(t, ns, "deployment/web", "Deployment/web", editorScript(t, "exit 1"), 160, 50)
	term.send("i")
	term.waitFor(screenWait, "editing the draft")
	term.send("C-f")
	term.typeKeys("y: Always")
	term.send("Right")
	term.typeKeys("y")
	term.waitFor(screenWait, "imagePullPolicyy: Always", note)
	term.send("Up")
	term.waitGone(screenWait, note)
	// The line stays marked: its number is underlined, as a line with a
	// note's is, and its neighbour's is not.
	styled := term.tmux("capture-pane", "-e", "-p", "-t", term.name)
	for _, row := range strings.Split(styled, "\n") {
		marked := strings.Contains(row, "\x1b[4m")
		switch {
		case strings.Contains(row, "imagePullPolicyy") && !marked:
			t.Fatalf("the refused line's number is not marked: %q", row)
		case strings.Contains(row, "- image: nginx") && marked:
			t.Fatalf("a line the schema takes is marked: %q", row)
		}
	}
	term.send("Down")
	term.waitFor(screenWait, note)

	term.send("Escape")
	term.waitFor(screenWait, "unsaved draft")
	term.send("s")
	term.waitFor(screenWait, "the schema refuses 1 field", "s again sends it")
	if out := kubetest.MustKubectl(t, "-n", ns, "get", "deployment", "web", "-o", "yaml"); strings.Contains(out, "imagePullPolicyy") {
		t.Fatalf("the first s sent the draft:\n%s", out)
	}
	term.send("s")
	term.waitGone(screenWait, "s again sends it")
	term.waitFor(screenWait, "the server refused the draft", "imagePullPolicyy: unknown field")
}

// TestE2EEditorDraftFromEditorIsChecked: a draft back from $EDITOR with
// a mistyped field is checked as one typed in the app: the status bar
// names the field, its line in the file and the field it meant.
func TestE2EEditorDraftFromEditorIsChecked(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "deployment", "web", "--image=nginx")
	term := openKeditOn(t, ns, "deployment/web", "Deployment/web", editorScript(t, `sed -i 's/imagePullPolicy:/imagePullPolicyy:/' "$1"`), 200, 50)
	screen := term.editAndWait("the schema refuses 1 field: line ", note)
	line := 0
	for i, l := range strings.Split(screen, "\n") {
		if strings.Contains(l, "imagePullPolicyy: Always") {
			// The view's header's two lines above the draft, counted
			// from 1; the file's schema line above it in the file.
			line = i - 1 + 1
		}
	}
	if !strings.Contains(screen, fmt.Sprintf("line %d: ", line)) {
		t.Fatalf("the status does not name line %d of the file:\n%s", line, screen)
	}
}
