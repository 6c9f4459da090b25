package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kedit/kedit/internal/testgit"
	"github.com/kedit/kedit/internal/testwait"
	"github.com/kedit/kedit/kube/kubetest"
)

// fleet writes a git repository of manifests for namespace ns: a base
// (a Deployment, comments everywhere) that two overlays share, prod's
// patch setting the image, and prod's configMapGenerator with a literal
// and an env file. It returns the repository's directory.
func fleet(t *testing.T, ns string) string {
	t.Helper()
	files := map[string]string{
		"base/kustomization.yaml": "# the base\nresources:\n- deploy.yaml # the app\n",
		"base/deploy.yaml": `# the web app
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web # its name
spec:
  replicas: 1
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - name: app # the main container
        image: nginx:1.25
`,
		"overlays/prod/kustomization.yaml": `# production
namespace: ` + ns + `
resources:
- ../../base
patches:
- path: image.yaml # prod's image
configMapGenerator:
- name: settings
  literals:
  - color=blue # the color
  envs:
  - prod.env
`,
		"overlays/prod/image.yaml": `# prod's image
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  template:
    spec:
      containers:
      - name: app
        image: nginx:1.26 # pinned
`,
		"overlays/prod/prod.env":          "# prod\nTIMEOUT=30\n",
		"overlays/dev/kustomization.yaml": "# development\nnamespace: dev-" + ns + "\nresources:\n- ../../base\n",
	}
	dir := testgit.Commit(t, files)
	return dir
}

// applyAsFlux builds the overlay with origin annotations, as Flux's
// kustomize-controller applies it, and applies it with kubectl.
func applyAsFlux(t *testing.T, dir, overlay string) {
	t.Helper()
	kf := filepath.Join(dir, overlay, "kustomization.yaml")
	orig, err := os.ReadFile(kf)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(kf, append(orig, "buildMetadata: [originAnnotations]\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("kubectl", "kustomize", filepath.Join(dir, overlay)).Output()
	if err := os.WriteFile(kf, orig, 0o644); err != nil {
		t.Fatal(err)
	}
	if err != nil {
		t.Fatalf("kubectl kustomize: %v", err)
	}
	kubetest.MustKubectlStdin(t, string(out), "apply", "-f", "-")
}

// liveYAML is the object as kubectl get -o yaml prints it.
func liveYAML(t *testing.T, ns, obj string) string {
	return kubetest.MustKubectl(t, "-n", ns, "get", obj, "-o", "yaml")
}

func TestSourceSaysWhereTheObjectComesFrom(t *testing.T) {
	ns, flags := setEnv(t)
	dir := fleet(t, ns)
	applyAsFlux(t, dir, "overlays/prod")
	stdout, stderr, code := runKedit(t, append([]string{"source", "deploy/web", "--source", dir}, flags...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"Deployment.apps/web in namespace " + ns, "found by origin annotation", "kustomization  overlays/prod", "file           base/deploy.yaml"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	cm := strings.TrimSpace(kubetest.MustKubectl(t, "-n", ns, "get", "cm", "-o", "name"))
	var settings string
	for _, l := range strings.Split(cm, "\n") {
		if strings.HasPrefix(l, "configmap/settings-") {
			settings = l
		}
	}
	stdout, stderr, code = runKedit(t, append([]string{"source", settings, "--source", dir, "--json"}, flags...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rep struct {
		Source struct{ Kustomization, Generator, GeneratorIn, Via string }
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("%v: %s", err, stdout)
	}
	if rep.Source.Generator != "configMapGenerator" || rep.Source.GeneratorIn != "overlays/prod/kustomization.yaml" || rep.Source.Via != "origin annotation" {
		t.Errorf("the generated ConfigMap: %+v", rep.Source)
	}
	// An object no manifest holds.
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "stray", "--from-literal=a=1")
	_, stderr, code = runKedit(t, append([]string{"source", "cm/stray", "--source", dir}, flags...)...)
	if code != 2 || !strings.Contains(stderr, "no source of ConfigMap/stray") {
		t.Errorf("a stray object: exit %d, %s", code, stderr)
	}
	// With --json the error is a JSON document too.
	stdout, _, code = runKedit(t, append([]string{"source", "cm/stray", "--source", dir, "--json"}, flags...)...)
	var failed struct{ Error string }
	if err := json.Unmarshal([]byte(stdout), &failed); code != 2 || err != nil || !strings.Contains(failed.Error, "no source of ConfigMap/stray") {
		t.Errorf("a stray object with --json: exit %d, %v:\n%s", code, err, stdout)
	}
	// An object a Helm chart made: named, and refused.
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "charted", "--from-literal=a=1")
	kubetest.MustKubectl(t, "-n", ns, "label", "configmap", "charted", "helm.sh/chart=redis-18.1.0", "app.kubernetes.io/managed-by=Helm")
	_, stderr, code = runKedit(t, append([]string{"source", "cm/charted", "--source", dir}, flags...)...)
	if want := "comes from a Helm chart redis-18.1.0: kedit does not write templates"; code != 2 || !strings.Contains(stderr, want) || strings.Contains(stderr, "builds is not known") {
		t.Errorf("a chart's object: exit %d, %s, want %q", code, stderr, want)
	}
}

func TestSourceWritesTheEditIntoThePatchAndTheGenerator(t *testing.T) {
	ns, flags := setEnv(t)
	dir := fleet(t, ns)
	applyAsFlux(t, dir, "overlays/prod")
	draft := filepath.Join(t.TempDir(), "web.yaml")
	text := strings.Replace(liveYAML(t, ns, "deploy/web"), "image: nginx:1.26", "image: nginx:1.27", 1)
	if err := os.WriteFile(draft, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	// The diff first, nothing written.
	stdout, stderr, code := runKedit(t, append([]string{"source", "deploy/web", "--source", dir, "-f", draft}, flags...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "-        image: nginx:1.26 # pinned\n+        image: nginx:1.27 # pinned\n") || !strings.Contains(stdout, "nothing written") {
		t.Errorf("the diff:\n%s", stdout)
	}
	if st, _, _ := testgit.Run(t, dir, "status", "--porcelain"); st != "" {
		t.Errorf("written without --write: %s", st)
	}
	// --commit: a branch named after the object, the patch changed there,
	// the checkout left on its branch and its files as they were.
	stdout, stderr, code = runKedit(t, append([]string{"source", "deploy/web", "--source", dir, "-f", draft, "--commit"}, flags...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	branch := "kedit/deployment-" + ns + "-web"
	if !strings.Contains(stdout, "committed on branch "+branch) {
		t.Errorf("stdout:\n%s", stdout)
	}
	out, _, _ := testgit.Run(t, dir, "log", "-1", "--format=%D%n%s%n%b", "--name-only", branch)
	if !strings.Contains(out, branch) || !strings.Contains(out, `.spec.template.spec.containers[name="app"].image in overlays/prod/image.yaml`) {
		t.Errorf("the commit:\n%s", out)
	}
	if head, _, _ := testgit.Run(t, dir, "rev-parse", "--abbrev-ref", "HEAD"); strings.TrimSpace(head) == branch {
		t.Errorf("the checkout was switched to %s", branch)
	}
	if st, _, _ := testgit.Run(t, dir, "status", "--porcelain"); st != "" {
		t.Errorf("--commit changed the work tree: %s", st)
	}
	wt := filepath.Join(t.TempDir(), "wt")
	testgit.Run(t, dir, "worktree", "add", "--detach", wt, branch)
	built, err := exec.Command("kubectl", "kustomize", filepath.Join(wt, "overlays/prod")).Output()
	if err != nil || !strings.Contains(string(built), "image: nginx:1.27") {
		t.Errorf("kubectl kustomize of the branch (%v):\n%s", err, built)
	}

	// The generated ConfigMap: the literal, its comment kept.
	var settings string
	for _, l := range strings.Split(kubetest.MustKubectl(t, "-n", ns, "get", "cm", "-o", "name"), "\n") {
		if strings.HasPrefix(l, "configmap/settings-") {
			settings = strings.TrimSpace(l)
		}
	}
	text = strings.Replace(liveYAML(t, ns, settings), "color: blue", "color: green", 1)
	text = strings.Replace(text, `TIMEOUT: "30"`, `TIMEOUT: "60"`, 1)
	if err := os.WriteFile(draft, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	_, stderr, code = runKedit(t, append([]string{"source", settings, "--source", dir, "-f", draft, "--write"}, flags...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	diffOut, _, _ := testgit.Run(t, dir, "diff")
	for _, want := range []string{"+  - color=green # the color", "+TIMEOUT=60"} {
		if !strings.Contains(diffOut, want) {
			t.Errorf("git diff lacks %q:\n%s", want, diffOut)
		}
	}
	// The same draft again: the files hold it now, and kedit says so.
	stdout, stderr, code = runKedit(t, append([]string{"source", settings, "--source", dir, "-f", draft, "--write"}, flags...)...)
	if code != 0 || !strings.Contains(stdout, "the source already holds it") || strings.Contains(stdout+stderr, "uncommitted") {
		t.Errorf("a draft the files hold: exit %d, %s%s", code, stdout, stderr)
	}
	// Another change written over the uncommitted one: refused, named.
	if err := os.WriteFile(draft, []byte(strings.Replace(text, "color: green", "color: red", 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	_, stderr, code = runKedit(t, append([]string{"source", settings, "--source", dir, "-f", draft, "--write"}, flags...)...)
	if code != 2 || !strings.Contains(stderr, "uncommitted changes") {
		t.Errorf("over uncommitted changes: exit %d, %s", code, stderr)
	}
}

// fluxCRD is the part of Flux's Kustomization type kedit reads.
var fluxCRD = kubetest.AnyFieldsCRD("kustomize.toolkit.fluxcd.io", "v1", "kustomizations", "kustomization", "Kustomization")

func TestSourceFollowsTheFluxKustomizationsPath(t *testing.T) {
	ns, flags := setEnv(t)
	dir := fleet(t, ns)
	kubetest.CreateCustom(t, ns, fluxCRD, "apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata:\n  name: apps\nspec:\n  path: ./overlays/prod\n")
	// The objects as Flux labels them, with no origin annotation.
	out, err := exec.Command("kubectl", "kustomize", filepath.Join(dir, "overlays/prod")).Output()
	if err != nil {
		t.Fatal(err)
	}
	kubetest.MustKubectlStdin(t, string(out), "apply", "-f", "-")
	kubetest.MustKubectl(t, "-n", ns, "label", "deploy/web", "kustomize.toolkit.fluxcd.io/name=apps", "kustomize.toolkit.fluxcd.io/namespace="+ns)
	stdout, stderr, code := runKedit(t, append([]string{"source", "deploy/web", "--source", dir}, flags...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "found by Flux Kustomization "+ns+"/apps's path") || !strings.Contains(stdout, "kustomization  overlays/prod") {
		t.Errorf("stdout:\n%s", stdout)
	}
	// A user who may not read the Kustomization is told what is missing,
	// and the manifests are searched.
	kubetest.MustKubectl(t, "-n", ns, "create", "role", "deploy-reader", "--verb=get", "--resource=deployments")
	kubetest.MustKubectl(t, "-n", ns, "create", "rolebinding", "deploy-reader", "--role=deploy-reader", "--user=kedit-viewer")
	if !testwait.Until(30*time.Second, func() bool {
		out, _ := kubetest.Kubectl(t, "-n", ns, "auth", "can-i", "get", "deployments", "--as", "kedit-viewer")
		return strings.TrimSpace(out) == "yes"
	}) {
		t.Fatal("the viewer's role never took")
	}
	viewer := []string{"--kubeconfig", kubetest.ViewerKubeconfig(t), "-n", ns}
	stdout, stderr, code = runKedit(t, append([]string{"source", "deploy/web", "--source", dir}, viewer...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, "you may not get kustomizations.kustomize.toolkit.fluxcd.io in namespace "+ns) {
		t.Errorf("stderr does not say what is missing:\n%s", stderr)
	}
	if !strings.Contains(stdout, "found by search") || !strings.Contains(stdout, "kustomization  overlays/prod") {
		t.Errorf("stdout:\n%s", stdout)
	}
}

// argoCRD is the part of Argo CD's Application type kedit reads.
var argoCRD = kubetest.AnyFieldsCRD("argoproj.io", "v1alpha1", "applications", "application", "Application")

func TestSourceFollowsTheArgoApplicationsPath(t *testing.T) {
	ns, flags := setEnv(t)
	dir := fleet(t, ns)
	kubetest.CreateCustom(t, ns, argoCRD, "apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata:\n  name: shop\nspec:\n  source:\n    repoURL: https://git.example.com/fleet\n    path: overlays/prod\n")
	out, err := exec.Command("kubectl", "kustomize", filepath.Join(dir, "overlays/prod")).Output()
	if err != nil {
		t.Fatal(err)
	}
	kubetest.MustKubectlStdin(t, string(out), "apply", "-f", "-")
	// An application outside Argo CD's namespace is tracked as NS_NAME.
	kubetest.MustKubectl(t, "-n", ns, "annotate", "deploy/web", "argocd.argoproj.io/tracking-id="+ns+"_shop:apps/Deployment:"+ns+"/web")
	stdout, stderr, code := runKedit(t, append([]string{"source", "deploy/web", "--source", dir}, flags...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "found by Argo CD Application "+ns+"/shop's path") || !strings.Contains(stdout, "kustomization  overlays/prod") {
		t.Errorf("stdout:\n%s", stdout)
	}
}

// TestSourcePrintsADiffGitApplies: the diff kedit source prints of a
// plain file with no newline at its end is a patch git apply takes: diff's own "\ No newline at end of file" line
// is printed as git writes it.
func TestSourcePrintsADiffGitApplies(t *testing.T) {
	ns, flags := setEnv(t)
	text := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: extra\n  namespace: " + ns + "\ndata:\n  greeting: hello"
	dir := testgit.Commit(t, map[string]string{"kustomization.yaml": "resources: []\n", "extra.yaml": text})
	kubetest.MustKubectlStdin(t, text, "apply", "-f", "-")
	draft := filepath.Join(t.TempDir(), "extra.yaml")
	if err := os.WriteFile(draft, []byte(strings.Replace(liveYAML(t, ns, "cm/extra"), "greeting: hello", "greeting: hi", 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := runKedit(t, append([]string{"source", "cm/extra", "--source", dir, "-f", draft}, flags...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	patch := stdout[strings.Index(stdout, "--- a/"):strings.Index(stdout, "\nnothing written")]
	if !strings.Contains(patch, "\n\\ No newline at end of file\n") {
		t.Errorf("the diff:\n%s", patch)
	}
	p := filepath.Join(t.TempDir(), "extra.patch")
	if err := os.WriteFile(p, []byte(patch), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, errOut, code := testgit.Run(t, dir, "apply", "--check", p); code != 0 {
		t.Errorf("git apply --check: exit %d %s\n%s", code, errOut, patch)
	}
}
