package e2e

import (
	"strings"
	"testing"

	"github.com/kedit/kedit/kube/kubetest"
)

// TestE2ECtrlZSuspendsTheObjectView: kedit started from an interactive
// shell, with a draft open; ctrl+z in the object view stops it and gives
// the shell the terminal, as terminal programs do, and fg brings it back
// where it was, the draft as it was and saved after. (In the in-app
// editor ctrl+z is undo: TestE2EEditorKeys.)
func TestE2ECtrlZSuspendsTheObjectView(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=1")
	env := newKeditEnv(t, editorScript(t, `sed -i 's/foo: "1"/foo: mine/' "$1"`))
	term := startTerminal(t, 100, 30, append(env.vars(t), "PS1=shell$ "), "bash", "--norc", "--noprofile", "-i")
	term.waitFor(screenWait, "shell$")
	term.typeKeys(shellJoin(env.argv(t, []string{"-n", ns, "configmap/testmap"})))
	term.send("Enter")
	term.waitFor(screenWait, "ConfigMap/testmap", "apiVersion: v1")
	term.editAndWait("foo: mine")

	term.send("C-z")
	term.waitUntil(screenWait, "the shell, kedit stopped", func(s string) bool {
		return strings.Contains(s, "Stopped") && strings.HasSuffix(strings.TrimSpace(s), "shell$") && !strings.Contains(s, "unsaved draft")
	})
	term.typeKeys("fg")
	term.send("Enter")
	term.waitFor(screenWait, "ConfigMap/testmap", "unsaved draft", "foo: mine")
	term.send("s")
	term.waitFor(screenWait, "saved rv")
	if data, _ := configMapData(t, ns, "testmap"); data["foo"] != "mine" {
		t.Errorf("foo = %q after the save that followed fg", data["foo"])
	}
}
