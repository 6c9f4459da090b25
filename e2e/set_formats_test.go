package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kedit/kedit/kube/kubetest"
)

// A set with the flags of kubectl edit that edit one object the same way:
// -o json, --subresource, -f DIR -R; the GitOps question answered n; and
// the drafts of a subresource, through the real binary in tmux.

// deploymentNamed is Deployment name with replicas replicas.
func deploymentNamed(name, replicas string) string {
	return strings.ReplaceAll(webDeployment(replicas), `"web"`, `"`+name+`"`)
}

// TestE2ESetJSONConflict: two objects in one JSON file (a .json List)
// while kubectl changes one of them: the drafts are stored as JSON, s
// saves the other and says the conflict, n opens it, m takes mine where
// both changed .data.foo, s resubmits, and both are saved, the other
// writer's change to .data.bar kept.
func TestE2ESetJSONConflict(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	for _, n := range []string{"a", "b"} {
		kubetest.MustKubectl(t, "-n", ns, "create", "configmap", n, "--from-literal=foo=1", "--from-literal=bar=1")
	}
	seen := filepath.Join(t.TempDir(), "seen.json")
	// The editor refuses a file that is not .json, or not the JSON List.
	editor := editorScript(t, `case "$1" in *.json) ;; *) exit 3;; esac
grep -q '^    "kind": "List"$' "$1"
cp "$1" `+seen+`
sed -i 's/"foo": "1"/"foo": "mine"/' "$1"
kubectl --kubeconfig `+kubetest.Kubeconfig(t)+` -n `+ns+` patch configmap a --type=merge -p '{"data":{"foo":"theirs","bar":"theirs"}}' >/dev/null`)
	env := newKeditEnv(t, editor)
	term := env.run(t, 120, 30, "-n", ns, "-o", "json", "cm/a", "cm/b")
	term.waitFor(screenWait, "set: cm/a cm/b", "configmaps/a", "configmaps/b", "connected")

	term.send("e")
	term.waitFor(screenWait, "2 drafts edited (configmaps/a, configmaps/b)")
	if b, err := os.ReadFile(seen); err != nil || strings.Count(string(b), `"foo": "1"`) != 2 || !strings.HasPrefix(string(b), "{\n") {
		t.Errorf("the $EDITOR file (%v):\n%s", err, b)
	}
	for _, n := range []string{"a", "b"} {
		waitFile(t, env.draft(ns, "configmaps", n, 1), holds("# format: json"))
	}
	term.send("s")
	term.waitFor(screenWait, "saved 1 of 2 drafts; 1 conflict: n opens the next")
	if data, _ := configMapData(t, ns, "b"); data["foo"] != "mine" {
		t.Errorf("b = %v", data)
	}
	term.send("n")
	term.waitFor(screenWait, "conflict: base rv", "1 conflict,", ".data.foo")
	term.send("m")
	term.send("s")
	screen := term.waitFor(screenWait, "saved configmaps/a rv", "set: cm/a cm/b")
	if strings.Count(screen, "saved rv") != 2 {
		t.Errorf("both rows should say saved:\n%s", screen)
	}
	data, _ := configMapData(t, ns, "a")
	if data["foo"] != "mine" || data["bar"] != "theirs" {
		t.Errorf("a = %v, want foo mine, bar theirs (the other writer's)", data)
	}
	// Enter shows an object of the set in JSON, as one object.
	term.send("Enter")
	term.waitFor(screenWait, "ConfigMap/a", `"apiVersion": "v1",`, "JSON")
}

// TestE2ESetJSONLeavesOutASecret: with -o json a Secret of the set stays
// out of the JSON file (its text stays YAML), and once $EDITOR is back the
// status bar says so, beside what the edit did: the words said while
// $EDITOR held the terminal are not lost. No value of the Secret is in the
// file.
func TestE2ESetJSONLeavesOutASecret(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "a", "--from-literal=foo=1")
	kubetest.MustKubectl(t, "-n", ns, "create", "secret", "generic", "s", "--from-literal=pw=hunter2")
	seen := filepath.Join(t.TempDir(), "seen.json")
	editor := editorScript(t, `cp "$1" `+seen+`
sed -i 's/"foo": "1"/"foo": "mine"/' "$1"`)
	term := newKeditEnv(t, editor).run(t, 200, 30, "-n", ns, "-o", "json", "cm/a", "secret/s")
	term.waitFor(screenWait, "set: cm/a secret/s", "configmaps/a", "secrets/s", "connected")

	term.send("e")
	term.waitFor(screenWait, "1 draft edited (configmaps/a); left out of the JSON file, its text in another format: secrets/s (a Secret stays YAML); enter edits it")
	b, err := os.ReadFile(seen)
	if err != nil || !strings.Contains(string(b), `"name": "a"`) || strings.Contains(string(b), `"name": "s"`) ||
		strings.Contains(string(b), "hunter2") || strings.Contains(string(b), "aHVudGVyMg") {
		t.Errorf("the $EDITOR file (%v):\n%s", err, b)
	}
}

// TestE2ESetScaleRacingKubectlScale: a set of two Deployments with
// --subresource scale edits their Scales in one $EDITOR file while
// `kubectl scale` writes one of them: s saves the other's Scale and meets
// the conflict on the first, which is resolved to mine and resubmitted
// with the newer resourceVersion; both Deployments have kedit's replicas.
func TestE2ESetScaleRacingKubectlScale(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	for _, n := range []string{"web-a", "web-b"} {
		kubetest.MustKubectlStdin(t, deploymentNamed(n, "2"), "-n", ns, "create", "-f", "-")
	}
	editor := editorScript(t, `grep -q '^  kind: Scale$' "$1"
sed -i 's/^    replicas: 2$/    replicas: 5/' "$1"
kubectl --kubeconfig `+kubetest.Kubeconfig(t)+` -n `+ns+` scale deploy/web-a --replicas=3 >/dev/null`)
	term := newKeditEnv(t, editor).run(t, 120, 30, "-n", ns, "--subresource", "scale", "deploy/web-a", "deploy/web-b")
	term.waitFor(screenWait, "set: deploy/web-a deploy/web-b --subresource scale", "deployments.apps/web-a", "deployments.apps/web-b", "connected")

	term.send("e")
	term.waitFor(screenWait, "2 drafts edited")
	term.send("s")
	term.waitFor(screenWait, "saved 1 of 2 drafts; 1 conflict: n opens the next")
	if got := replicasOfDeploy(t, ns, "web-a"); got != "3" {
		t.Fatalf("web-a has %s replicas before the conflict was resolved, want kubectl scale's 3", got)
	}
	if got := replicasOfDeploy(t, ns, "web-b"); got != "5" {
		t.Errorf("web-b has %s replicas, want kedit's 5", got)
	}
	term.send("n")
	term.waitFor(screenWait, "conflict: base rv", "1 conflict,", ".spec.replicas")
	term.send("m")
	term.send("s")
	term.waitFor(screenWait, "saved deployments.apps/web-a rv", "set: deploy/web-a")
	if got := replicasOfDeploy(t, ns, "web-a"); got != "5" {
		t.Errorf("web-a has %s replicas, want kedit's 5", got)
	}
	term.send("Enter")
	term.waitFor(screenWait, "Deployment/web-a --subresource scale", "kind: Scale", "replicas: 5")
}

func replicasOfDeploy(t *testing.T, ns, name string) string {
	t.Helper()
	return strings.TrimSpace(kubetest.MustKubectl(t, "-n", ns, "get", "deploy/"+name, "-o", "jsonpath={.spec.replicas}"))
}

// TestE2ESetSubresourceRefused: a set with types that lack the
// subresource is refused before the UI starts, naming them.
func TestE2ESetSubresourceRefused(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "a", "--from-literal=foo=1")
	kubetest.MustKubectlStdin(t, deploymentNamed("web", "1"), "-n", ns, "create", "-f", "-")
	term := newKeditEnv(t, "true").run(t, 300, 20, "-n", ns, "--subresource", "scale", "cm/a", "deploy/web")
	term.waitFor(screenWait, "kedit: configmaps has no scale subresource; the types that have one: deployments.apps", "EXIT=1")
}

// TestE2ESetFromDirRecursive: -f DIR opens the objects of DIR's own
// manifests; with -R those of every directory below it too.
func TestE2ESetFromDirRecursive(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	for _, n := range []string{"top", "mid", "deep"} {
		kubetest.MustKubectl(t, "-n", ns, "create", "configmap", n, "--from-literal=foo=1")
	}
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "team", "deeper"), 0o700); err != nil {
		t.Fatal(err)
	}
	for path, name := range map[string]string{"app.yaml": "top", "team/mid.yml": "mid", "team/deeper/deep.json": "deep"} {
		doc := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: " + name + "\n"
		if err := os.WriteFile(filepath.Join(dir, path), []byte(doc), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	env := newKeditEnv(t, editorScript(t, `sed -i 's/foo: "1"/foo: mine/' "$1"`))
	flat := env.run(t, 160, 30, "-n", ns, "-f", dir)
	screen := flat.waitFor(screenWait, "set: -f "+dir, "1 object", "configmaps/top")
	if strings.Contains(screen, "configmaps/mid") {
		t.Errorf("-f DIR without -R read a subdirectory:\n%s", screen)
	}
	flat.send("q")
	flat.waitFor(screenWait, "EXIT=0")

	term := env.run(t, 160, 30, "-n", ns, "-f", dir, "-R")
	term.waitFor(screenWait, "set: -f "+dir+" -R", "3 objects", "configmaps/top", "configmaps/mid", "configmaps/deep")
	term.send("e")
	term.waitFor(screenWait, "3 drafts edited")
	term.send("s")
	term.waitFor(screenWait, "saved 3 of 3 drafts")
	for _, n := range []string{"top", "mid", "deep"} {
		if data, _ := configMapData(t, ns, n); data["foo"] != "mine" {
			t.Errorf("%s = %v", n, data)
		}
	}
}

// TestE2ESetGitOpsDeclined: n to the GitOps question saves every other
// draft, and leaves the reconciled object's draft as it is, its row
// saying why.
func TestE2ESetGitOpsDeclined(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	for _, n := range []string{"a", "b"} {
		kubetest.MustKubectl(t, "-n", ns, "create", "configmap", n, "--from-literal=foo=1")
	}
	kubetest.MustKubectl(t, "-n", ns, "label", "configmap", "a", "kustomize.toolkit.fluxcd.io/name=web", "kustomize.toolkit.fluxcd.io/namespace=apps")
	term := newKeditEnv(t, editorScript(t, `sed -i 's/foo: "1"/foo: mine/' "$1"`)).run(t, 200, 30, "-n", ns, "cm/a", "cm/b")
	term.waitFor(screenWait, "set: cm/a cm/b", "connected")
	term.send("e")
	term.waitFor(screenWait, "2 drafts edited")
	term.send("s")
	term.waitFor(screenWait, "configmaps/a is managed by Flux (kustomization apps/web): a save may be reverted. Save it too?")
	term.send("n")
	screen := term.waitFor(screenWait, "saved 1 of 1 draft; 1 not saved, as you answered (a GitOps tool reconciles it), the draft kept")
	if !strings.Contains(screen, "not saved: you declined, as Flux reconciles it; the draft is kept (s asks again)") {
		t.Errorf("a's row does not say why it was not saved:\n%s", screen)
	}
	if data, _ := configMapData(t, ns, "a"); data["foo"] != "1" {
		t.Errorf("a, declined, was saved: %v", data)
	}
	if data, _ := configMapData(t, ns, "b"); data["foo"] != "mine" {
		t.Errorf("b = %v", data)
	}
}

// TestE2EDraftsNamesAScaleDraft: a draft of a Deployment's Scale left by a
// killed kedit --subresource scale is listed by kedit drafts and by the
// browser's :drafts, named with its subresource; the browser without
// --subresource says how to open it; kedit drafts rm ... --subresource
// scale removes it.
func TestE2EDraftsNamesAScaleDraft(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.MustKubectlStdin(t, webDeployment("2"), "-n", ns, "create", "-f", "-")
	env := newKeditEnv(t, editorScript(t, `sed -i 's/^  replicas: 2$/  replicas: 5/' "$1"`))
	term := env.run(t, 160, 30, "-n", ns, "--subresource", "scale", "deploy/web")
	term.waitFor(screenWait, "Deployment/web --subresource scale", "replicas: 2")
	term.editAndWait("replicas: 5")
	path := filepath.Join(env.state, "kedit", "drafts", "localcluster", ns, "deployments.apps%2Fscale", "web.yaml")
	waitFile(t, path, holds("replicas: 5"))
	term.signal("KILL")
	term.waitFor(screenWait, "EXIT=137")

	drafts := func(args ...string) (string, error) {
		cmd := exec.Command(keditBinary(t), args...)
		cmd.Env = append(os.Environ(), "XDG_STATE_HOME="+env.state, "KUBECACHEDIR="+t.TempDir())
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	out, err := drafts("drafts")
	if err != nil || !strings.Contains(out, "deployments.apps/web --subresource scale") || !strings.Contains(out, path) {
		t.Fatalf("kedit drafts: %v\n%s", err, out)
	}

	browser := env.run(t, 160, 30, "-n", ns, "deploy")
	browser.waitFor(screenWait, "deployments.apps", "web")
	browser.typeKeys(":drafts")
	browser.send("Enter")
	browser.waitFor(screenWait, ns+"/web --subresource scale  stored")
	browser.send("Enter")
	browser.waitFor(screenWait, "a draft of deployments.apps/web's scale subresource: open it with kedit deployments.apps/web -n "+ns+" --subresource scale")
	browser.send("q")
	browser.waitFor(screenWait, "EXIT=0")

	out, err = drafts("drafts", "rm", "--yes", "--kubeconfig", kubetest.Kubeconfig(t), "-n", ns, "deployment/web", "--subresource", "scale")
	if err != nil || !strings.Contains(out, "removed "+path) {
		t.Fatalf("kedit drafts rm --subresource scale: %v\n%s", err, out)
	}
	waitFile(t, path, gone)
}
