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
// image) and leaves the checkout as it was; the live objects are not
// saved.
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
	checkout, _, _ := testgit.Run(t, dir, "rev-parse", "--abbrev-ref", "HEAD")
	term.send("c")
	branch := "kedit/deployment-" + ns + "-web"
	term.waitFor(screenWait, "committed 1 file of the source on branch "+branch+" (not pushed; your checkout is as it was)")
	log, _, _ := testgit.Run(t, dir, "log", "-1", "--format=%D%n%s", "--name-only", branch)
	if !strings.Contains(log, branch) || !strings.Contains(log, "overlays/prod/image.yaml") {
		t.Errorf("the commit:\n%s", log)
	}
	if now, _, _ := testgit.Run(t, dir, "rev-parse", "--abbrev-ref", "HEAD"); now != checkout {
		t.Errorf("the checkout moved from %s to %s", checkout, now)
	}
	if diffOut, _, _ := testgit.Run(t, dir, "diff", "--", "overlays/prod/image.yaml"); diffOut != "" {
		t.Errorf("c wrote into the work tree:\n%s", diffOut)
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

// twoOverlaysRepo writes a git repository whose two overlays, prod and
// staging, build the same ConfigMap settings in ns from a shared base, and
// applies staging's build without origin annotations, with Flux's labels
// naming the Kustomization apps in ns: only the path that Kustomization
// builds tells the two apart. The Kustomization is created with path.
func twoOverlaysRepo(t *testing.T, ns, path string) string {
	t.Helper()
	overlay := "namespace: " + ns + "\nresources:\n- ../../base\nlabels:\n- pairs:\n    kustomize.toolkit.fluxcd.io/name: apps\n    kustomize.toolkit.fluxcd.io/namespace: " + ns + "\n"
	files := map[string]string{
		"base/kustomization.yaml":             "resources:\n- settings.yaml\n",
		"base/settings.yaml":                  "# shared settings\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  color: blue # the color\n",
		"overlays/prod/kustomization.yaml":    "# production\n" + overlay,
		"overlays/staging/kustomization.yaml": "# staging\n" + overlay,
	}
	dir := testgit.Commit(t, files)
	out, err := exec.Command("kubectl", "kustomize", filepath.Join(dir, "overlays/staging")).Output()
	if err != nil {
		t.Fatalf("kubectl kustomize: %v", err)
	}
	kubetest.MustKubectlStdin(t, string(out), "apply", "-f", "-")
	kubetest.CreateCustom(t, ns, kubetest.FluxKustomizationCRD, kubetest.FluxKustomization("apps", path))
	return dir
}

// TestE2ESourceFollowsTheFluxPath: the object view names the source
// before any save, and g finds it, where the object's Flux Kustomization
// says it is built (overlays/staging, of two overlays that both build it),
// read from the cluster as kedit source does; a user
// a real Role lets edit the ConfigMap but not read the Kustomization is
// told what is missing, and nothing is written.
func TestE2ESourceFollowsTheFluxPath(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	dir := twoOverlaysRepo(t, ns, "./overlays/staging")
	const question = "g writes it to the source instead, b does both)"
	editor := editorScript(t, `sed -i 's/color: blue/color: green/' "$1"`)

	term := newKeditEnv(t, editor).run(t, 250, 40, "-n", ns, "--source", dir, "cm/settings")
	term.waitFor(screenWait, "managed by Flux (kustomization "+ns+"/apps)",
		"source: built by overlays/staging, from base/settings.yaml (found by Flux Kustomization "+ns+"/apps's path)")
	term.send("e")
	term.waitFor(screenWait, "unsaved draft")
	term.send("s")
	term.waitFor(screenWait, question)
	term.send("g")
	term.waitFor(screenWait, "to its source (nothing written yet)", "built by overlays/staging", "(found by Flux Kustomization "+ns+"/apps's path)",
		".data.color -> overlays/staging/")
	term.send("Escape")
	term.waitFor(screenWait, "nothing written; the draft is kept")
	term.send("q")
	term.waitFor(screenWait, "quit with an unsaved draft?")
	term.send("y")
	term.waitFor(screenWait, "EXIT=0")

	kubetest.MustKubectl(t, "-n", ns, "create", "role", "cm-editor", "--verb=get,list,watch,update,patch", "--resource=configmaps")
	kubetest.MustKubectl(t, "-n", ns, "create", "rolebinding", "cm-editor", "--role=cm-editor", "--user=kedit-viewer")
	env := newKeditEnv(t, editor)
	env.kubeconfig = kubetest.ViewerKubeconfig(t)
	term = env.run(t, 250, 40, "-n", ns, "--source", dir, "cm/settings")
	term.waitFor(screenWait, "managed by Flux (kustomization "+ns+"/apps)", "source: none found under "+dir+
		": the path Flux Kustomization "+ns+"/apps builds is not known: you may not get kustomizations.kustomize.toolkit.fluxcd.io in namespace",
		"overlays/prod, overlays/staging all build it")
	term.send("e")
	term.waitFor(screenWait, "unsaved draft")
	term.send("s")
	term.waitFor(screenWait, question)
	term.send("g")
	term.waitFor(screenWait, "not written to the source: the path Flux Kustomization "+ns+"/apps builds is not known: you may not get kustomizations.kustomize.toolkit.fluxcd.io in namespace "+ns)
	if diffOut, _, _ := testgit.Run(t, dir, "status", "--porcelain"); diffOut != "" {
		t.Errorf("git status after a refused g:\n%s", diffOut)
	}
}

// TestE2ESetWritesItsGitOpsObjectsToTheSource: a set of two objects Flux
// reconciles and one it does not, edited in one $EDITOR file: s asks, g
// saves the other object and shows both GitOps objects' edits in the
// source diff (a generator's literal, a patch's image), c commits them in
// one commit on a new branch; their live objects are not saved.
func TestE2ESetWritesItsGitOpsObjectsToTheSource(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	dir := gitOpsRepo(t, ns)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "plain", "--from-literal=foo=1")
	var cm string
	for _, l := range strings.Fields(kubetest.MustKubectl(t, "-n", ns, "get", "cm", "-o", "name")) {
		if strings.HasPrefix(l, "configmap/settings-") {
			cm = l
		}
	}
	editor := editorScript(t, `sed -i -e 's/color: blue/color: green/' -e 's/image: nginx:1.26/image: nginx:1.27/' -e 's/foo: "1"/foo: mine/' "$1"`)
	term := newKeditEnv(t, editor).run(t, 220, 50, "-n", ns, "--source", dir, cm, "deployment/web", "cm/plain")
	term.waitFor(screenWait, "3 objects", "connected")
	term.send("e")
	term.waitFor(screenWait, "3 drafts edited")
	term.send("s")
	term.waitFor(screenWait, "g writes them to the source instead, b does both)")
	term.send("g")
	term.waitFor(screenWait, "write 2 objects (ConfigMap/settings-", ".data.color -> overlays/prod/kustomization.yaml (generator literal)",
		"-> overlays/prod/image.yaml (patch)", "+  - color=green # the color", "+        image: nginx:1.27 # pinned")
	if out := kubetest.MustKubectl(t, "-n", ns, "get", "cm/plain", "-o", "jsonpath={.data.foo}"); out != "mine" {
		t.Errorf("the plain ConfigMap's foo is %q after g: not saved", out)
	}
	term.send("c")
	term.waitFor(screenWait, "committed 2 files of the source on branch kedit/configmap-"+ns+"-settings-")
	branch, _, _ := testgit.Run(t, dir, "for-each-ref", "--format=%(refname:short)", "refs/heads/kedit/")
	log, _, _ := testgit.Run(t, dir, "log", "-1", "--format=%D%n%B", "--name-only", strings.TrimSpace(branch))
	if !strings.Contains(log, "-and-1-more") || !strings.Contains(log, "overlays/prod/image.yaml") || !strings.Contains(log, "overlays/prod/kustomization.yaml") {
		t.Errorf("the commit:\n%s", log)
	}
	if out := kubetest.MustKubectl(t, "-n", ns, "get", cm, "-o", "jsonpath={.data.color}"); out != "blue" {
		t.Errorf("the live ConfigMap's color is %q: it was saved", out)
	}
	if out := kubetest.MustKubectl(t, "-n", ns, "get", "deployment/web", "-o", "jsonpath={.spec.template.spec.containers[0].image}"); out != "nginx:1.26" {
		t.Errorf("the live image is %q: it was saved", out)
	}
}

// TestE2ERemovedListItemOfASharedBaseIsDeletedInTheOverlay: an env item
// the shared base sets, removed live from prod's Deployment, becomes a
// $patch: delete in prod's patch: after y, prod's build has no such item
// and staging's, built on the same base, still has it.
func TestE2ERemovedListItemOfASharedBaseIsDeletedInTheOverlay(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	overlay := func(name string) string {
		return "# " + name + "\nnamespace: " + ns + "\nnamePrefix: " + name + "-\nresources:\n- ../../base\nlabels:\n- pairs:\n    kustomize.toolkit.fluxcd.io/name: apps\n    kustomize.toolkit.fluxcd.io/namespace: flux-system\n"
	}
	files := map[string]string{
		"base/kustomization.yaml":             "resources:\n- deploy.yaml\n",
		"base/deploy.yaml":                    "# the web app\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  selector:\n    matchLabels:\n      app: web\n  template:\n    metadata:\n      labels:\n        app: web\n    spec:\n      containers:\n      - name: app\n        image: nginx:1.25\n        env:\n        - name: LOG\n          value: info # the log level\n        - name: MODE\n          value: debug\n",
		"overlays/prod/kustomization.yaml":    overlay("prod"),
		"overlays/staging/kustomization.yaml": overlay("staging"),
	}
	dir := testgit.Commit(t, files)
	out, err := exec.Command("kubectl", "kustomize", filepath.Join(dir, "overlays/prod")).Output()
	if err != nil {
		t.Fatalf("kubectl kustomize: %v", err)
	}
	kubetest.MustKubectlStdin(t, string(out), "apply", "-f", "-")

	term := newKeditEnv(t, editorScript(t, `sed -i '/- name: MODE/,+1d' "$1"`)).run(t, 200, 50, "-n", ns, "--source", dir, "deployment/prod-web")
	term.waitFor(screenWait, "source: built by overlays/prod, from base/deploy.yaml")
	term.send("e")
	term.waitFor(screenWait, "unsaved draft")
	term.send("s")
	term.waitFor(screenWait, "b does both)")
	term.send("g")
	term.waitFor(screenWait, "-> overlays/prod/deployment-web-patch.yaml (new patch, $patch: delete): base/deploy.yaml sets it, and base is shared with overlays/staging", "+        - name: MODE", "+          $patch: delete")
	term.send("y")
	term.waitFor(screenWait, "wrote 2 files of the source")
	for overlay, want := range map[string]bool{"prod": false, "staging": true} {
		built, err := exec.Command("kubectl", "kustomize", filepath.Join(dir, "overlays", overlay)).Output()
		if err != nil || strings.Contains(string(built), "MODE") != want {
			t.Errorf("overlays/%s's build (%v), MODE wanted %v:\n%s", overlay, err, want, built)
		}
	}
	if base, _ := os.ReadFile(filepath.Join(dir, "base/deploy.yaml")); string(base) != files["base/deploy.yaml"] {
		t.Errorf("the shared base changed:\n%s", base)
	}
}

// TestE2ESourceDiffRowsWrapAt80Columns: at 80x24 the source diff's rows
// above the diff (its title, the file each field goes into) wrap at words
// instead of being cut at the terminal's edge.
func TestE2ESourceDiffRowsWrapAt80Columns(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	dir := gitOpsRepo(t, ns)
	term := newKeditEnv(t, editorScript(t, `sed -i 's/image: nginx:1.26/image: nginx:1.27/' "$1"`)).run(t, 80, 24, "-n", ns, "--source", dir, "deployment/web")
	term.waitFor(screenWait, "managed by Flux")
	term.editAndWait()
	term.send("s")
	term.waitFor(screenWait, "g writes it to the source")
	term.send("g")
	screen := term.waitFor(screenWait, `.spec.template.spec.containers[name="app"].image -> overlays/prod/image.yaml`, "\n  (patch)",
		"+        image: nginx:1.27 # pinned")
	for i, l := range strings.Split(screen, "\n") {
		if w := len([]rune(l)); w > 80 {
			t.Errorf("row %d is %d wide: %q", i+1, w, l)
		}
	}
	term.send("esc")
}
