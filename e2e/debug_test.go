package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/kedit/kedit/kube/kubetest"
)

// TestE2ESetDebugToStderrWithOutputPatch: kedit set --debug=/dev/stderr
// --output-patch with stderr sent to a file, as a shell sends it: the
// debug log's lines and the patch printed after them are all in the file,
// each on its own line, in the order written (the log, opened again on
// the same file, wrote at its own offset and was overwritten).
func TestE2ESetDebugToStderrWithOutputPatch(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=1")
	out := filepath.Join(t.TempDir(), "stderr")
	cmd := exec.Command("sh", "-c", `"$0" set configmap/testmap /data/foo=2 -n "$1" --debug=/dev/stderr --output-patch 2>"$2"`, keditBinary(t), ns, out)
	cmd.Env = append(os.Environ(), "KUBECONFIG="+kubetest.Kubeconfig(t))
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("kedit set: %v\n%s", err, b)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	lines := strings.Split(text, "\n")
	patch := -1
	for i, l := range lines {
		if strings.HasPrefix(l, "PATCH /api/v1/namespaces/"+ns+"/configmaps/testmap") {
			patch = i
		}
	}
	if patch < 1 || !regexp.MustCompile(`^kedit .* request PATCH \S+ 200 in \S+ \(rv sent none, returned \d+\)$`).MatchString(lines[patch-1]) ||
		!strings.Contains(text, "discovery: ") {
		t.Errorf("stderr does not hold the log's lines, each whole, then the patch:\n%s", text)
	}
}
