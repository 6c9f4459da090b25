package e2e

import (
	"strings"
	"testing"

	"github.com/kedit/kedit/kube/kubetest"
)

// TestE2EBlameThenEditAndSave walks the README's tutorial from step 7 in
// kedit demo: with blame on, e leaves blame and opens $EDITOR (step 8
// presses it there), and s from blame saves. The demo's help names w and
// W; a kedit outside the demo does not.
func TestE2EBlameThenEditAndSave(t *testing.T) {
	term, demoDir := startDemo(t, 100, 30)

	if help := helpText(t, term, "object view"); !strings.Contains(help, "demo writer writes") || !strings.Contains(help, "demo kubectl edit") {
		t.Errorf("the demo's help does not name w and W:\n%s", help)
	}

	term.send("b")
	term.waitFor(screenWait, "blame of live rv", "line 1: ")
	screen := term.editAndWait("foo: mine")
	if strings.Contains(screen, "blame of live rv") || strings.Contains(screen, "line 1: ") {
		t.Errorf("e from blame left blame or its status line on the screen:\n%s", screen)
	}
	term.send("b")
	term.waitFor(screenWait, "blame of live rv")
	term.send("s")
	term.waitFor(screenWait, "saved rv")
	term.waitGone(screenWait, "blame of live rv")
	if data, err := configMapDataAt(t, demoDir+"/cluster/kubeconfig", "default", "testmap"); err != nil || data["foo"] != "mine" {
		t.Errorf("foo = %q on the demo's server (%v), want mine", data["foo"], err)
	}
	term.send("q")
	term.waitFor(screenWait, "EXIT=0")

	// Outside the demo, w and W are not in the help.
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=1")
	plain := openKedit(t, ns, "testmap", editorScript(t, `true`), 100, 30)
	plain.waitFor(screenWait, "live object")
	if help := helpText(t, plain, "object view"); !strings.Contains(help, "blame") || strings.Contains(help, "demo writer") ||
		strings.Contains(help, "demo kubectl edit") {
		t.Errorf("the help outside kedit demo names the demo's keys:\n%s", help)
	}
}

// TestE2ECleanRebaseAndMergedEdit: a save that meets a change to another
// field shows a clean rebase, titled so, with nothing to resolve in its
// footer; the merged result's in-app editor says the same of esc in its
// title and footer; the merged result edited in $EDITOR becomes the draft,
// rebased, and the status bar says that s resubmits it, which s does.
func TestE2ECleanRebaseAndMergedEdit(t *testing.T) {
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=1", "--from-literal=bar=1")
	term := openKedit(t, ns, "testmap", editorScript(t, `sed -i -e 's/foo: "1"/foo: mine/' -e 's/bar: theirs/bar: both/' "$1"`), 100, 30)

	term.editAndWait()
	kubetest.MustKubectl(t, "-n", ns, "patch", "configmap", "testmap", "--type=merge", "-p", `{"data":{"bar":"theirs"}}`)
	term.waitFor(screenWait, "changed on server")
	term.send("s")
	screen := term.waitFor(screenWait, "clean rebase: 2 changes merged onto theirs rv", ".data.bar", "s resubmits the merged draft")
	if strings.Contains(screen, "0 conflicts") || strings.Contains(screen, "conflict: base") || strings.Contains(screen, "m mine") {
		t.Errorf("a clean rebase is called a conflict, or offers to resolve:\n%s", screen)
	}

	term.send("i")
	screen = term.waitFor(screenWait, "editing the merged result")
	lines := strings.Split(strings.TrimRight(screen, "\n"), "\n")
	if said := "esc leave, edits become the rebased draft"; !strings.Contains(lines[0], said) || !strings.Contains(screen[strings.Index(screen, "\n"):], said) {
		t.Errorf("the merged editor's title and footer do not both say %q:\n%s", said, screen)
	}
	if strings.Contains(screen, "keep the draft") || strings.Contains(screen, "hands it to the rebase") {
		t.Errorf("the merged editor says two things of esc:\n%s", screen)
	}
	term.send("Escape")
	term.waitFor(screenWait, "clean rebase: 2 changes merged")

	term.editAndWait("rebased draft: s resubmits", "bar: both")
	term.send("s")
	term.waitFor(screenWait, "saved rv")
	if data, _ := configMapData(t, ns, "testmap"); data["foo"] != "mine" || data["bar"] != "both" {
		t.Errorf("data = %v, want foo=mine and bar=both", data)
	}
}
