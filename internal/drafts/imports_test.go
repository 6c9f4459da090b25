package drafts

import (
	"os/exec"
	"strings"
	"testing"
)

// TestImportsNoKubernetes: the draft store knows files, not Kubernetes;
// kube names the object and reads what is stored into the session's terms.
func TestImportsNoKubernetes(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, pkg := range strings.Fields(string(out)) {
		if strings.Contains(pkg, "k8s.io") || strings.HasPrefix(pkg, "github.com/kedit/kedit/") && !strings.HasPrefix(pkg, "github.com/kedit/kedit/internal/") {
			t.Errorf("the draft store imports %s", pkg)
		}
	}
}
