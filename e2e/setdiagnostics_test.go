package e2e

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/kedit/kedit/kube/kubetest"
)

// TestE2ESetListFileDiagnostics: two Deployments edited in one $EDITOR
// file, a field of one mistyped: its row and the status bar name the
// field with its line in the List; s asks first, s again sends both and
// the server refuses the mistyped one; e opens the List with the reason
// at its top, the field listed once (the server's cause and the schema's
// word together) on its line of the file; fixed, s saves it.
func TestE2ESetListFileDiagnostics(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	for _, n := range []string{"a", "b"} {
		kubetest.MustKubectl(t, "-n", ns, "create", "deployment", n, "--image=nginx")
	}
	editor, set := switchableEditor(t)
	first := filepath.Join(t.TempDir(), "first.yaml")
	set(`sed -i -e 's/replicas: 1$/replicas: 2/' -e '/^    name: b$/,$ s/imagePullPolicy:/imagePullPolicyy:/' "$1"
cp "$1" '` + first + `'`)
	term := newKeditEnv(t, editor).run(t, 220, 40, "-n", ns, "deployment/a", "deployment/b")
	term.waitFor(screenWait, "set: deployment/a deployment/b", "2 objects", "connected")

	term.send("e")
	file := string(waitFile(t, first, holds("imagePullPolicyy")))
	at := itoa(lineWith(file, "imagePullPolicyy:"))
	screen := term.waitFor(screenWait, "the schema refuses 1 field of deployments.apps/b: line "+at+" of the List: imagePullPolicyy")
	if !strings.Contains(screen, "the schema refuses 1 field: line "+at+" of the List: imagePullPolicyy") {
		t.Fatalf("b's row does not name the field on its line %s:\n%s", at, screen)
	}
	term.send("s")
	term.waitFor(screenWait, "s again sends it")
	term.send("s")
	term.waitFor(screenWait, "saved 1 of 2 drafts", "1 refused")

	seen := filepath.Join(t.TempDir(), "seen.yaml")
	set(`cp "$1" '` + seen + `'
sed -i 's/^\( *\)imagePullPolicyy:/\1imagePullPolicy:/' "$1"`)
	term.send("e")
	file = string(waitFile(t, seen, func(b []byte) bool { return len(b) > 0 }))
	t.Logf("the List the editor saw:\n%s", strings.Join(strings.SplitN(file, "\n", 4)[:3], "\n"))
	if !strings.HasPrefix(file, "# kedit: drafts were refused") {
		t.Fatalf("the List has no reasons at its top:\n%s", file)
	}
	head := regexp.MustCompile(`(?m)^# line (\d+): deployments\.apps/b: .*imagePullPolicyy.*$`).FindAllStringSubmatch(file, -1)
	if len(head) != 1 || head[0][1] != itoa(lineWith(file, "imagePullPolicyy: ")) || !strings.Contains(head[0][0], "the schema:") {
		t.Fatalf("the head names the field %d times, or not on its line %d, or without the schema's word:\n%s", len(head), lineWith(file, "imagePullPolicyy: "), file)
	}
	// The fixed List is taken back before s: the editor has ended and
	// kedit says what it edited.
	term.waitFor(screenWait, "1 draft edited")
	term.send("s")
	term.waitFor(screenWait, "saved 1 of 1 draft")
	out := kubetest.MustKubectl(t, "-n", ns, "get", "deployment", "b", "-o", "yaml")
	if strings.Contains(out, "kedit:") || !strings.Contains(out, "replicas: 2") {
		t.Fatalf("the server holds:\n%s", out)
	}
}

// lineWith is the 1-based line of text that holds sub, 0 for none.
func lineWith(text, sub string) int {
	for i, l := range strings.Split(text, "\n") {
		if strings.Contains(l, sub) && !strings.HasPrefix(l, "#") {
			return i + 1
		}
	}
	return 0
}
