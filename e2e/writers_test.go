package e2e

import (
	"testing"

	"github.com/kedit/kedit/kube/kubetest"
)

// TestE2EBannerNamesEachFieldsWriter: two colleagues change two fields
// while a draft is open, kubectl patch then kubectl label; the banner
// names each field's writer, not the later one for both.
func TestE2EBannerNamesEachFieldsWriter(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=1", "--from-literal=bar=1")
	term := newKeditEnv(t, editorScript(t, `sed -i 's/foo: "1"/foo: mine/' "$1"`)).run(t, 200, 30, "-n", ns, "configmap/testmap")
	term.waitFor(screenWait, "connected")
	term.editAndWait("foo: mine")
	kubetest.MustKubectl(t, "-n", ns, "patch", "configmap", "testmap", "-p", `{"data":{"bar":"patched"}}`)
	term.waitForText(screenWait, "by kubectl-patch: .data.bar")
	kubetest.MustKubectl(t, "-n", ns, "label", "configmap", "testmap", "tier=web")
	term.waitForText(screenWait, ".data.bar by kubectl-patch, .metadata.labels", "by kubectl-label")
}
