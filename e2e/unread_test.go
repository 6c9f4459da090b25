package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kedit/kedit/kube/kubetest"
)

// TestE2EUnreadDraftLosesNothing: $EDITOR opened with no draft comes back
// with YAML that does not parse (a colon dropped), after a colleague's
// kubectl patch changed another key meanwhile and kedit's watch brought
// it. The draft is based on the version the editor was opened on, so the
// banner says what changed meanwhile; fixed in $EDITOR and saved, the
// save meets the colleague's version (409) and --auto-rebase resubmits the
// merge. The server keeps the colleague's value and takes the user's.
// Based on the newer version, the fixed text would have set bar back to
// "1" with a save the server took.
func TestE2EUnreadDraftLosesNothing(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "lost", "--from-literal=foo=1", "--from-literal=bar=1")
	sync := t.TempDir()
	// The first run waits for the colleague, then drops foo's colon; the
	// second fixes it.
	editor := editorScript(t, fmt.Sprintf(`if [ ! -e %[1]s/once ]; then
  touch %[1]s/once %[1]s/started
  while [ ! -e %[1]s/go ]; do sleep 0.05; done
  sed -i 's/foo: "1"/foo "mine"/' "$1"
else
  sed -i 's/foo "mine"/foo: mine/' "$1"
fi`, sync))
	log := filepath.Join(t.TempDir(), "debug.log")
	term := newKeditEnv(t, editor).start(t, ns, "configmap/lost", "--auto-rebase", "--debug="+log)
	term.waitFor(screenWait, "connected")
	term.send("e")
	waitFile(t, filepath.Join(sync, "started"), func(b []byte) bool { return b != nil })
	rv := strings.TrimSpace(kubetest.MustKubectl(t, "-n", ns, "patch", "configmap", "lost", "--type=merge",
		"-p", `{"data":{"bar":"colleague"}}`, "-o", "jsonpath={.metadata.resourceVersion}"))
	// kedit's watch has read the colleague's version before the editor
	// returns: the app takes it first, as the user would have it.
	waitFile(t, log, func(b []byte) bool {
		for _, l := range strings.Split(string(b), "\n") {
			if strings.Contains(l, " watch MODIFIED rv "+rv+" ") {
				return true
			}
		}
		return false
	})
	if err := os.WriteFile(filepath.Join(sync, "go"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	term.waitForText(screenWait, "changed on server", ".data.bar")
	term.editAndWait("foo: mine")
	term.saveExpecting("saved rv")
	data, _ := configMapData(t, ns, "lost")
	if data["bar"] != "colleague" || data["foo"] != "mine" {
		t.Errorf("the server holds %v, want foo mine and the colleague's bar", data)
	}
}
