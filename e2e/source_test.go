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

// gitOpsRepo writes a git repository whose overlay builds, in ns, a
// Deployment whose image the overlay's patch sets and a ConfigMap from the
// overlay's configMapGenerator, comments everywhere; and applies the build
// with origin annotations and Flux's labels, as Flux keeps them.
func gitOpsRepo(t *testing.T, ns string) string {
	t.Helper()
	files := map[string]string{
		"base/kustomization.yaml": "# the base\nresources:\n- deploy.yaml # the app\n",
		"base/deploy.yaml":        "# the web app\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web # its name\nspec:\n  selector:\n    matchLabels:\n      app: web\n  template:\n    metadata:\n      labels:\n        app: web\n    spec:\n      containers:\n      - name: app # the main container\n        image: nginx:1.25\n",
		"overlays/prod/kustomization.yaml": "# production\nnamespace: " + ns + "\nresources:\n- ../../base\npatches:\n- path: image.yaml # prod's image\nconfigMapGenerator:\n- name: settings\n  literals:\n  - color=blue # the color\n" +
			"labels:\n- pairs:\n    kustomize.toolkit.fluxcd.io/name: apps\n    kustomize.toolkit.fluxcd.io/namespace: flux-system\n",
		"overlays/prod/image.yaml": "# prod's image\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  template:\n    spec:\n      containers:\n      - name: app\n        image: nginx:1.26 # pinned\n",
	}
	dir := testgit.Commit(t, files)
	// Flux builds with origin annotations; so does this build, from a
	// copy of the overlay's kustomization that asks for them.
	kf := filepath.Join(dir, "overlays/prod/kustomization.yaml")
	orig, _ := os.ReadFile(kf)
	if err := os.WriteFile(kf, append(orig, "buildMetadata: [originAnnotations]\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("kubectl", "kustomize", filepath.Dir(kf)).Output()
	if werr := os.WriteFile(kf, orig, 0o644); werr != nil || err != nil {
		t.Fatalf("kubectl kustomize: %v %v", err, werr)
	}
	kubetest.MustKubectlStdin(t, string(out), "apply", "-f", "-")
	return dir
}

// TestE2EWriteTheDraftToTheSource: at the GitOps question, g shows the
// draft written to the object's source, y writes it (a generator's
// literal, its comment kept), c commits it on a new branch (a patch's
// image); the live objects are not saved.
func TestE2EWriteTheDraftToTheSource(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	dir := gitOpsRepo(t, ns)
	var cm string
	for _, l := range strings.Fields(kubetest.MustKubectl(t, "-n", ns, "get", "cm", "-o", "name")) {
		if strings.HasPrefix(l, "configmap/settings-") {
			cm = l
		}
	}
	const question = "save anyway? (y/n; g writes it to the source instead, b does both)"

	term := newKeditEnv(t, editorScript(t, `sed -i 's/color: blue/color: green/' "$1"`)).run(t, 200, 40, "-n", ns, "--source", dir, cm)
	term.waitFor(screenWait, "managed by Flux (kustomization flux-system/apps)")
	term.editAndWait()
	term.send("s")
	term.waitFor(screenWait, question)
	term.send("g")
	term.waitFor(screenWait, "to its source (nothing written yet)", ".data.color -> overlays/prod/kustomization.yaml (generator literal)",
		"+  - color=green # the color")
	term.send("y")
	term.waitFor(screenWait, "wrote 1 file of the source")
	diffOut, _, _ := testgit.Run(t, dir, "diff")
	if !strings.Contains(diffOut, "-  - color=blue # the color\n+  - color=green # the color\n") {
		t.Errorf("git diff:\n%s", diffOut)
	}
	if built, err := exec.Command("kubectl", "kustomize", filepath.Join(dir, "overlays/prod")).Output(); err != nil || !strings.Contains(string(built), "color: green") {
		t.Errorf("kubectl kustomize (%v):\n%s", err, built)
	}
	if out := kubetest.MustKubectl(t, "-n", ns, "get", cm, "-o", "jsonpath={.data.color}"); out != "blue" {
		t.Errorf("the live ConfigMap's color is %q: it was saved", out)
	}
	term.send("q")
	term.waitFor(screenWait, "quit with an unsaved draft?")
	term.send("y")
	term.waitFor(screenWait, "EXIT=0")

	term = newKeditEnv(t, editorScript(t, `sed -i 's/image: nginx:1.26/image: nginx:1.27/' "$1"`)).run(t, 200, 40, "-n", ns, "--source", dir, "deployment/web")
	term.waitFor(screenWait, "managed by Flux (kustomization flux-system/apps)")
	term.editAndWait()
	term.send("s")
	term.waitFor(screenWait, question)
	term.send("g")
	term.waitFor(screenWait, "-> overlays/prod/image.yaml (patch)", "+        image: nginx:1.27 # pinned")
	term.send("c")
	branch := "kedit/deployment-" + ns + "-web"
	term.waitFor(screenWait, "committed them on branch "+branch)
	log, _, _ := testgit.Run(t, dir, "log", "-1", "--format=%D%n%s", "--name-only")
	if !strings.Contains(log, branch) || !strings.Contains(log, "overlays/prod/image.yaml") {
		t.Errorf("the commit:\n%s", log)
	}
}

// TestE2ESaveAndWriteTheSourceBoth: b at the GitOps question saves the
// draft live and shows it written to the source; y writes the files.
func TestE2ESaveAndWriteTheSourceBoth(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	dir := gitOpsRepo(t, ns)
	term := newKeditEnv(t, editorScript(t, `sed -i 's/image: nginx:1.26/image: nginx:1.27/' "$1"`)).run(t, 200, 40, "-n", ns, "--source", dir, "deployment/web")
	term.waitFor(screenWait, "managed by Flux (kustomization flux-system/apps)")
	term.editAndWait()
	term.send("s")
	term.waitFor(screenWait, "b does both)")
	term.send("b")
	term.waitFor(screenWait, "-> overlays/prod/image.yaml (patch)", "+        image: nginx:1.27 # pinned")
	if out := kubetest.MustKubectl(t, "-n", ns, "get", "deployment/web", "-o", "jsonpath={.spec.template.spec.containers[0].image}"); out != "nginx:1.27" {
		t.Errorf("the live image is %q after b: not saved", out)
	}
	term.send("y")
	term.waitFor(screenWait, "wrote 1 file of the source")
	if diffOut, _, _ := testgit.Run(t, dir, "diff"); !strings.Contains(diffOut, "+        image: nginx:1.27 # pinned") {
		t.Errorf("git diff:\n%s", diffOut)
	}
}
