package e2e

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/kedit/kedit/kube/kubetest"
)

// sgr is a Select Graphic Rendition sequence as tmux's capture-pane -e
// writes it.
var sgr = regexp.MustCompile(`\x1b\[([0-9;]*)m`)

// colours is the SGR sequences in styled that set a colour: a parameter
// from 30 to 48 or from 90 to 107 (a colour's first always is), other
// than 39, the default foreground, which tmux writes after each reset.
func colours(styled string) []string {
	var found []string
	for _, m := range sgr.FindAllStringSubmatch(styled, -1) {
		for _, p := range strings.Split(m[1], ";") {
			if n, err := strconv.Atoi(p); err == nil && n != 39 && (n >= 30 && n <= 48 || n >= 90 && n <= 107) {
				found = append(found, strconv.Quote(m[0]))
				break
			}
		}
	}
	return found
}

// TestE2ENoColorKeepsTheCursor: with NO_COLOR set (and CI, as in CI) the
// in-app editor's cursor is drawn reversed and the object view's header
// bold, with no colour anywhere: NO_COLOR takes the colours, not the
// marks that say where the cursor is.
func TestE2ENoColorKeepsTheCursor(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "plain", "--from-literal=foo=1")
	env := newKeditEnv(t, editorScript(t, "exit 1"))
	env.extra = []string{"NO_COLOR=1"}
	term := env.run(t, 100, 30, "-n", ns, "configmap/plain")
	term.waitFor(screenWait, "ConfigMap/plain", "apiVersion: ")
	term.send("i")
	term.waitFor(screenWait, "editing the draft")
	styled := term.tmux("capture-pane", "-e", "-p", "-t", term.name)
	if !strings.Contains(styled, "\x1b[7m") {
		t.Fatalf("under NO_COLOR the editor's cursor is not reversed:\n%q", styled)
	}
	if !strings.Contains(styled, "\x1b[1m") {
		t.Fatalf("under NO_COLOR nothing is bold:\n%q", styled)
	}
	if c := colours(styled); len(c) > 0 {
		t.Fatalf("under NO_COLOR the screen has colours %v:\n%q", c, styled)
	}
}
