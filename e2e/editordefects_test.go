package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/kedit/kedit/internal/testwait"
	"github.com/kedit/kedit/kube/kubetest"
)

// End to end, the in-app editor as an operator meets it: completion offers
// what a mapping lacks and is never open unseen, a mistake is marked where
// it is made and when the editor opens, and lines are named as the file
// the user edited has them.

// completionItems are the candidates of the completion list on screen,
// the rows under its help line down to the next row of the text.
func completionItems(screen string) []string {
	rows := strings.Split(screen, "\n")
	var items []string
	for i, r := range rows {
		if !strings.HasPrefix(r, "completion: ") {
			continue
		}
		for _, item := range rows[i+1:] {
			name := strings.TrimSpace(strings.TrimPrefix(item, "> "))
			if name == "" || strings.ContainsAny(name, " :") {
				break
			}
			items = append(items, name)
		}
	}
	return items
}

// waitCompletion presses ctrl+space until the list opens (the schema is
// read in the background as the editor opens) and returns the screen.
func waitCompletion(t *testing.T, term *terminal) string {
	t.Helper()
	var screen string
	if !testwait.Until(screenWait, func() bool {
		term.send("C-Space")
		return testwait.Until(2*screenWait/10, func() bool {
			screen = term.screen()
			return strings.Contains(screen, "completion: ")
		})
	}) {
		t.Fatalf("ctrl+space never opened the list:\n%s", term.screen())
	}
	return screen
}

// TestE2ECompletionOffersWhatSpecLacks: ctrl+space on an empty line put
// under a Deployment's spec: lists the fields spec does not have, none
// that it has; at 120x40 on the last lines of the text, the list is
// drawn, above the cursor, and enter takes what it shows selected.
func TestE2ECompletionOffersWhatSpecLacks(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "deployment", "web", "--image=nginx")
	term := openKeditOn(t, ns, "deployment/web", "Deployment/web", editorScript(t, "exit 1"), 120, 40)
	term.send("i")
	term.waitFor(screenWait, "editing the draft")
	// A new line under spec's first field, at its indentation: every
	// other field of spec is below it.
	term.send("C-f")
	term.typeKeys("progressDeadlineSeconds:")
	term.waitFor(screenWait, "progressDeadlineSeconds: 600")
	term.send("End")
	term.send("Enter")
	term.waitFor(screenWait, "(changed)")
	items := completionItems(waitCompletion(t, term))
	for _, present := range []string{"replicas", "selector", "strategy", "template", "progressDeadlineSeconds", "revisionHistoryLimit"} {
		if slices.Contains(items, present) {
			t.Errorf("offered %s, which spec has: %v", present, items)
		}
	}
	if !slices.Contains(items, "minReadySeconds") || !slices.Contains(items, "paused") {
		t.Errorf("not offered what spec lacks: %v", items)
	}
	term.send("Escape")
	term.waitGone(screenWait, "completion: ")

	// The text's last lines: the list does not fit below the cursor.
	term.send("C-End")
	term.send("Enter")
	term.typeKeys("    ")
	screen := waitCompletion(t, term)
	rows := strings.Split(screen, "\n")
	help, cursor := -1, -1
	for i, r := range rows {
		if strings.HasPrefix(r, "completion: ") {
			help = i
		}
		if strings.Contains(r, "editing the draft") {
			if m := regexp.MustCompile(`line (\d+)/`).FindStringSubmatch(r); m != nil {
				for j := i + 1; j < len(rows); j++ {
					// The gutter: a mark against base, the line's number.
					if n := strings.TrimLeft(rows[j], " +~-"); n == m[1] || strings.HasPrefix(n, m[1]+" ") {
						cursor = j
					}
				}
			}
		}
	}
	if help < 0 || cursor < 0 || help > cursor {
		t.Fatalf("the list is not drawn above the cursor's line (%d, list at %d):\n%s", cursor, help, screen)
	}
	selected := ""
	for _, r := range rows[help:cursor] {
		if strings.HasPrefix(r, "> ") {
			selected = strings.TrimSpace(r[2:])
		}
	}
	if selected == "" {
		t.Fatalf("no candidate is shown selected:\n%s", screen)
	}
	term.send("Enter")
	term.waitFor(screenWait, "    "+selected+":")
}

// underlined finds an underline among a row's styles (4, maybe after
// bold's 1).
var underlined = regexp.MustCompile(`\x1b\[(?:[0-9]+;)*4m`)

// TestE2EUnknownTopLevelFieldIsMarkedAsTyped: specc: 1 typed as the first
// line of a Deployment is marked and named as it is typed, as a field
// mistyped under spec is.
func TestE2EUnknownTopLevelFieldIsMarkedAsTyped(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "deployment", "web", "--image=nginx")
	term := openKeditOn(t, ns, "deployment/web", "Deployment/web", editorScript(t, "exit 1"), 120, 40)
	term.send("i")
	term.waitFor(screenWait, "editing the draft")
	term.typeKeys("specc: 1")
	term.send("Enter")
	// The cursor on the next line: specc's line's number is marked
	// (underlined, as a line with a note's is), its note said when the
	// cursor is back on it.
	term.waitUntil(screenWait, "specc's line marked", func(string) bool {
		styled := term.tmux("capture-pane", "-e", "-p", "-t", term.name)
		for _, row := range strings.Split(styled, "\n") {
			if strings.Contains(row, "specc") {
				return underlined.MatchString(row)
			}
		}
		return false
	})
	term.send("Up")
	term.waitFor(screenWait, "↑ the schema refuses: specc: unknown field, did you mean spec?")
}

// TestE2EUnparsableLineIsMarkedOnOpen: a draft back from $EDITOR with a
// tab-indented line, which cannot be parsed, opens in the in-app editor
// with that line's note, before any key.
func TestE2EUnparsableLineIsMarkedOnOpen(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "deployment", "web", "--image=nginx")
	term := openKeditOn(t, ns, "deployment/web", "Deployment/web", editorScript(t, `sed -i 's/^  replicas:/	replicas:/' "$1"`), 120, 40)
	term.editAndWait("replicas: 1")
	term.send("i")
	term.waitFor(screenWait, "editing the draft", "↑ cannot be saved: ")
}

// TestE2EEditorFileLinesAndLineEnds: the status bar names a refused
// field's line in the $EDITOR file, kedit's schema line counted; kedit's
// own lines never reach the draft, whatever line ends the editor saved
// with: CRLF, then LF again.
func TestE2EEditorFileLinesAndLineEnds(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "deployment", "web", "--image=nginx")
	seen := filepath.Join(t.TempDir(), "seen.yaml")
	script := editorScript(t, fmt.Sprintf(`if grep -q '^  replicas: 1' "$1"; then
  sed -i 's/^  replicas: 1/  replicas: 2/; s/$/\r/' "$1"
elif grep -q '^  replicas: 2' "$1"; then
  sed -i 's/^  replicas: 2/  replicas: 3/; s/\r$//' "$1"
else
  sed -i 's/imagePullPolicy:/imagePullPolicyy:/' "$1"
fi
cp "$1" %q`, seen))
	term := openKeditOn(t, ns, "deployment/web", "Deployment/web", script, 200, 50)
	term.editAndWait("replicas: 2")
	term.stillNot("yaml-language-server")
	term.editAndWait("replicas: 3")
	term.stillNot("yaml-language-server")

	screen := term.editAndWait("the schema refuses 1 field: line ", "imagePullPolicyy: unknown field")
	file, err := os.ReadFile(seen)
	if err != nil {
		t.Fatal(err)
	}
	line := 0
	for i, l := range strings.Split(string(file), "\n") {
		if strings.Contains(l, "imagePullPolicyy:") {
			line = i + 1
		}
	}
	if !strings.HasPrefix(string(file), "# yaml-language-server: $schema=") || line == 0 ||
		!strings.Contains(screen, fmt.Sprintf("the schema refuses 1 field: line %d: ", line)) {
		t.Fatalf("the status does not name line %d of the file:\n%s\nthe file:\n%s", line, screen, file)
	}
	term.stillNot("yaml-language-server")
}

// TestE2EDroppedFieldSaidAt80Columns: under --validate=warn, a mistyped
// field in the in-app editor at 80 columns is said whole: the server will
// drop it.
func TestE2EDroppedFieldSaidAt80Columns(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "deployment", "web", "--image=nginx")
	term := openKeditOn(t, ns, "deployment/web", "Deployment/web", editorScript(t, "exit 1"), 80, 24, "--validate=warn")
	term.send("i")
	term.waitFor(screenWait, "editing the draft")
	term.send("C-f")
	term.typeKeys("y: Always")
	term.send("Right")
	term.typeKeys("y")
	term.waitFor(screenWait, "imagePullPolicyy: Always", "↑ the server will drop imagePullPolicyy (--validate=warn)")
}
