package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/kedit/kedit/internal/testwait"
	"github.com/kedit/kedit/kube/kubetest"
)

// lineIndex returns the index of the screen's line that shows name as a
// row, -1 for none.
func lineIndex(screen, name string) int {
	for i, l := range strings.Split(screen, "\n") {
		if f := strings.Fields(strings.TrimPrefix(l, ">")); len(f) > 0 && f[0] == name {
			return i
		}
	}
	return -1
}

// TestE2EBrowserFromAnObject: kedit TYPE/NAME, then esc, is the list of
// the object's type and namespace with the object selected and its draft
// marked; o orders by last change, then by age; the mouse wheel moves
// the selection; tab completes :TYPE; :ns NAME switches
// at once; :drafts opens the draft without the recovery question; an
// unknown type gets the closest matches and one that cannot be edited is
// said so; ? shows every key.
func TestE2EBrowserFromAnObject(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	other := kubetest.Namespace(t)
	for _, name := range []string{"aaa-old", "mmm-mid", "zzz-new"} {
		kubetest.MustKubectl(t, "-n", ns, "create", "configmap", name, "--from-literal=foo=1")
	}
	created := time.Now()
	kubetest.MustKubectl(t, "-n", other, "create", "deployment", "api", "--image=nginx")
	term := newKeditEnv(t, editorScript(t, `sed -i 's/foo: "1"/foo: mine/' "$1"`)).run(t, 120, 40, "-n", ns, "configmap/mmm-mid")
	term.waitFor(screenWait, "ConfigMap/mmm-mid", "apiVersion: ", "esc list")
	term.editAndWait("foo: mine")

	// esc: the list of ConfigMaps in ns, mmm-mid selected and marked.
	term.send("Escape")
	screen := term.waitFor(screenWait, "configmaps  namespace "+ns, "3 objects", "order: name",
		"the draft of configmaps/mmm-mid stays on disk")
	if row := rowOf(screen, "mmm-mid"); !strings.HasPrefix(row, ">") || !strings.Contains(row, "stored") {
		t.Errorf("mmm-mid's row is not selected with its mark: %q\n%s", row, screen)
	}
	if a, m, z := lineIndex(screen, "aaa-old"), lineIndex(screen, "mmm-mid"), lineIndex(screen, "zzz-new"); !(a < m && m < z) {
		t.Errorf("ordered by name:\n%s", screen)
	}

	// A change to zzz-new, in a later second than the three were created
	// (managedFields times have whole seconds, and an order by last change
	// cannot tell two in one second apart): its CHANGED and BY follow, and
	// o orders by last change, newest first; the selection stays on mmm-mid.
	testwait.NextSecond(created)
	kubetest.MustKubectl(t, "-n", ns, "label", "configmap", "zzz-new", "touched=yes")
	term.waitUntil(screenWait, "zzz-new changed by kubectl-label", func(s string) bool {
		return strings.Contains(rowOf(s, "zzz-new"), "kubectl-label")
	})
	term.send("o")
	screen = term.waitFor(screenWait, "order: last change")
	if a, m, z := lineIndex(screen, "aaa-old"), lineIndex(screen, "mmm-mid"), lineIndex(screen, "zzz-new"); !(z < a && z < m) {
		t.Errorf("ordered by last change, zzz-new is not first:\n%s", screen)
	}
	if row := rowOf(screen, "mmm-mid"); !strings.HasPrefix(row, ">") {
		t.Errorf("the selection left mmm-mid: %q\n%s", row, screen)
	}

	// o again orders by age, newest first: ccc-late, created in a later
	// second than the others (creationTimestamp has whole seconds), is
	// first. The mouse wheel moves the selection three rows at a time.
	testwait.NextSecond(created)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "ccc-late", "--from-literal=foo=1")
	term.waitFor(screenWait, "4 objects")
	term.send("o")
	screen = term.waitFor(screenWait, "order: age")
	if c, a, m, z := lineIndex(screen, "ccc-late"), lineIndex(screen, "aaa-old"), lineIndex(screen, "mmm-mid"), lineIndex(screen, "zzz-new"); !(c < a && c < m && c < z) {
		t.Errorf("ordered by age, ccc-late is not first:\n%s", screen)
	}
	term.sendBytes("\x1b[<64;10;10M") // wheel up: to the first row
	term.waitUntil(screenWait, "ccc-late selected by the wheel", func(s string) bool {
		return strings.HasPrefix(rowOf(s, "ccc-late"), ">")
	})
	term.sendBytes("\x1b[<65;10;10M") // wheel down: three rows on, the last
	screen, _ = term.waitUntil(screenWait, "the last row selected by the wheel", func(s string) bool {
		return !strings.HasPrefix(rowOf(s, "ccc-late"), ">") && strings.Contains(s, "\n>")
	})
	last := ""
	for _, name := range []string{"aaa-old", "mmm-mid", "zzz-new"} {
		if i := lineIndex(screen, name); last == "" || i > lineIndex(screen, last) {
			last = name
		}
	}
	if row := rowOf(screen, last); !strings.HasPrefix(row, ">") {
		t.Errorf("after the wheel down the last row, %s, is not selected:\n%s", last, screen)
	}
	term.send("o")
	term.waitFor(screenWait, "order: name")

	// ?: every key, then back.
	term.send("?")
	term.waitFor(screenWait, "clear filter", "pgup", "home")
	term.send("?")
	term.waitUntil(screenWait, "the short help", func(s string) bool { return !strings.Contains(s, "clear filter") })

	// : with tab: the type completed from discovery, then listed.
	term.send(":")
	term.typeKeys("deploym")
	term.send("Tab")
	term.waitFor(screenWait, ":deployments")
	term.send("Enter")
	term.waitFor(screenWait, "deployments.apps  namespace "+ns, "0 objects")

	// :ns NAME switches at once.
	term.send(":")
	term.typeKeys("ns " + other)
	term.send("Enter")
	screen = term.waitFor(screenWait, "deployments.apps  namespace "+other, "1 object ")
	if rowOf(screen, "api") == "" {
		t.Errorf(":ns %s shows:\n%s", other, screen)
	}

	// An unknown type: the closest matches; one that cannot be edited: so.
	term.send(":")
	term.typeKeys("deploymnts")
	term.send("Enter")
	term.waitFor(screenWait, `the server doesn't have a resource type "deploymnts"; did you mean deployments`)
	term.send(":")
	term.typeKeys("tokenreviews")
	term.send("Enter")
	term.waitFor(screenWait, "tokenreviews.authentication.k8s.io cannot be edited")
	term.waitFor(screenWait, "deployments.apps  namespace "+other)

	// :drafts lists mmm-mid's draft; enter brings it back, no question.
	term.send(":")
	term.typeKeys("drafts")
	term.send("Enter")
	term.waitFor(screenWait, "configmaps  "+ns+"/mmm-mid")
	term.send("Enter")
	screen = term.waitFor(screenWait, "ConfigMap/mmm-mid", "unsaved draft", "foo: mine")
	if strings.Contains(screen, "recover it?") || strings.Contains(screen, "drafts of this object are stored") {
		t.Errorf("the draft came back with the recovery question:\n%s", screen)
	}
	term.send("Escape")
	term.waitFor(screenWait, "configmaps  namespace "+ns)
	term.send("q")
	term.waitFor(screenWait, "EXIT=0")
}
