package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kedit/kedit/kube/kubetest"
)

// TestE2ESetDraftsSurviveACrash: the drafts of a set's objects are stored
// each in its own file, as one object's is; kedit drafts lists them; a
// second kedit on the same set says the first is editing and writes files
// of its own (the locks); after kill -9 the set, opened again, offers them
// once for all, y recovers each, and s saves them, leaving no draft.
func TestE2ESetDraftsSurviveACrash(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	for _, n := range []string{"a", "b"} {
		kubetest.MustKubectl(t, "-n", ns, "create", "configmap", n, "--from-literal=foo=1")
	}
	env := newKeditEnv(t, editorScript(t, `sed -i 's/foo: "1"/foo: mine/' "$1"`))
	term := env.run(t, 160, 30, "-n", ns, "cm", "a", "b")
	term.waitFor(screenWait, "set: cm a b", "configmaps/a", "configmaps/b")
	term.send("e")
	term.waitFor(screenWait, "2 drafts edited")
	for _, n := range []string{"a", "b"} {
		waitFile(t, env.draft(ns, "configmaps", n, 1), holds("foo: mine"))
	}
	cmd := exec.Command(keditBinary(t), "drafts")
	cmd.Env = append(os.Environ(), "XDG_STATE_HOME="+env.state)
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), env.draft(ns, "configmaps", "a", 1)) || !strings.Contains(string(out), env.draft(ns, "configmaps", "b", 1)) {
		t.Errorf("kedit drafts: %v\n%s", err, out)
	}

	second := env.run(t, 300, 30, "-n", ns, "cm", "a", "b")
	screen := second.waitFor(screenWait, "set: cm a b", "another kedit (pid", "a_2.yaml")
	if strings.Count(screen, "another kedit (pid") != 3 { // each row, and the selected row's note in full
		t.Errorf("each row of the second kedit says the first edits it:\n%s", screen)
	}
	second.send("q")
	second.waitFor(screenWait, "EXIT=0")

	term.signal("KILL")
	term.waitFor(screenWait, "EXIT=137")
	again := env.run(t, 160, 30, "-n", ns, "cm", "a", "b")
	again.waitForText(screenWait, "drafts an earlier kedit left of configmaps/a, configmaps/b are stored: recover them?")
	again.send("y")
	again.waitFor(screenWait, "2 drafts recovered", "2 objects · 2 drafts")
	again.send("s")
	again.waitFor(screenWait, "saved 2 of 2 drafts")
	for _, n := range []string{"a", "b"} {
		if data, _ := configMapData(t, ns, n); data["foo"] != "mine" {
			t.Errorf("%s = %v", n, data)
		}
		waitFile(t, env.draft(ns, "configmaps", n, 1), gone)
	}
}

// TestE2ESetSecretDraftInMemory: a Secret in a set keeps its draft in
// memory, as alone (its row says so, no file holds it), and quitting says
// that it will be lost before it is.
func TestE2ESetSecretDraftInMemory(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	createSecret(t, ns, "db")
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "app", "--from-literal=foo=1")
	env := newKeditEnv(t, editorScript(t, `sed -i -e 's/^    user: admin$/    user: root-e2e-user/' -e 's/foo: "1"/foo: mine/' "$1"`))
	term := env.run(t, 160, 30, "-n", ns, "secret/db", "cm/app")
	term.waitFor(screenWait, "set: secret/db cm/app", "secrets/db", "configmaps/app")
	term.send("e")
	screen := term.waitFor(screenWait, "2 drafts edited")
	if !strings.Contains(screen, "memory") || !strings.Contains(screen, "stored") {
		t.Errorf("the rows say where each draft is:\n%s", screen)
	}
	waitFile(t, env.draft(ns, "configmaps", "app", 1), holds("foo: mine"))
	// Its lock file is there, as for a Secret alone; no draft is.
	if files, _ := filepath.Glob(filepath.Join(env.state, "kedit", "drafts", "*", ns, "secrets", "*.yaml")); len(files) != 0 {
		t.Errorf("a Secret's draft reached the disk: %v", files)
	}
	term.send("q")
	term.waitForText(screenWait, "the draft of secrets/db exists only in memory and will be lost: quit anyway? (y/n)")
	term.send("y")
	term.waitFor(screenWait, "EXIT=0")
}
