package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kedit/kedit/internal/testgit"
	"github.com/kedit/kedit/kube/kubetest"
)

// TestE2ESetWritesTwoObjectsOfOneFile: a set of two ConfigMaps that two
// generators of one kustomization make, both edited live; g shows both
// literals changed in the one file, y writes it once with both (each
// comment kept), and kubectl kustomize builds both new values. The live
// objects are not saved.
func TestE2ESetWritesTwoObjectsOfOneFile(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	dir := testgit.Commit(t, map[string]string{
		"apps/kustomization.yaml": "# the apps\nnamespace: " + ns + "\nconfigMapGenerator:\n- name: settings\n  literals:\n  - color=blue # the color\n" +
			"- name: limits\n  literals:\n  - size=1 # the size\n" +
			"labels:\n- pairs:\n    kustomize.toolkit.fluxcd.io/name: apps\n    kustomize.toolkit.fluxcd.io/namespace: flux-system\n",
	})
	build := func() string {
		out, err := exec.Command("kubectl", "kustomize", filepath.Join(dir, "apps")).Output()
		if err != nil {
			t.Fatalf("kubectl kustomize: %v", err)
		}
		return string(out)
	}
	kubetest.MustKubectlStdin(t, build(), "apply", "-f", "-")
	var cms []string
	for _, l := range strings.Fields(kubetest.MustKubectl(t, "-n", ns, "get", "cm", "-o", "name")) {
		if strings.HasPrefix(l, "configmap/settings-") || strings.HasPrefix(l, "configmap/limits-") {
			cms = append(cms, l)
		}
	}
	if len(cms) != 2 {
		t.Fatalf("the generated ConfigMaps: %v", cms)
	}
	editor := editorScript(t, `sed -i -e 's/color: blue/color: green/' -e 's/size: "1"/size: "2"/' "$1"`)
	term := newKeditEnv(t, editor).run(t, 220, 50, append([]string{"-n", ns, "--source", dir}, cms...)...)
	term.waitFor(screenWait, "2 objects", "connected")
	term.send("e")
	term.waitFor(screenWait, "2 drafts edited")
	term.send("s")
	term.waitFor(screenWait, "g writes them to the source instead, b does both)")
	term.send("g")
	term.waitFor(screenWait, "write 2 objects (ConfigMap/", "+  - color=green # the color", "+  - size=2 # the size")
	term.stillNot("not written")
	term.send("y")
	term.waitFor(screenWait, "wrote 1 file of the source")
	text, err := os.ReadFile(filepath.Join(dir, "apps/kustomization.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"  - color=green # the color\n", "  - size=2 # the size\n", "# the apps\n"} {
		if !strings.Contains(string(text), want) {
			t.Errorf("kustomization.yaml lacks %q:\n%s", want, text)
		}
	}
	if out := build(); !strings.Contains(out, "color: green") || !strings.Contains(out, `size: "2"`) {
		t.Errorf("kubectl kustomize builds:\n%s", out)
	}
	for _, cm := range cms {
		data := kubetest.MustKubectl(t, "-n", ns, "get", cm, "-o", "jsonpath={.data}")
		if strings.Contains(data, "green") || strings.Contains(data, `"2"`) {
			t.Errorf("%s was saved live: %s", cm, data)
		}
	}
}
