package e2e

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kedit/kedit/kube/kubetest"
)

// End to end, the flags of kubectl edit that kedit keeps conflict-safe:
// -o json, --subresource, --field-manager and --output-patch, through the
// real binary in tmux against localcluster, kubectl as the other writer.

// webDeployment is Deployment web with replicas replicas.
func webDeployment(replicas string) string {
	return `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","labels":{"app":"web"}},
"spec":{"replicas":` + replicas + `,"selector":{"matchLabels":{"app":"web"}},
"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"app","image":"nginx:1.27"}]}}}}`
}

// TestE2EJSONConflict: with -o json, $EDITOR gets a .json file of JSON,
// the object view shows JSON, and a save that meets another writer's
// change of the same field and of another goes through the conflict view:
// resolved to mine, saved, the other writer's other change kept.
func TestE2EJSONConflict(t *testing.T) {
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=1", "--from-literal=bar=1")
	// The editor refuses a file that is not .json, or not JSON.
	editor := editorScript(t, `case "$1" in *.json) ;; *) exit 3;; esac
grep -q '^    "apiVersion": "v1",$' "$1"
sed -i 's/"foo": "1"/"foo": "mine"/' "$1"`)
	term := newKeditEnv(t, editor).run(t, 120, 40, "-n", ns, "-o", "json", "configmap/testmap")
	term.waitFor(screenWait, "ConfigMap/testmap", `"apiVersion": "v1",`, "JSON")

	term.editAndWait(`"foo": "mine"`)
	kubetest.MustKubectl(t, "-n", ns, "patch", "configmap", "testmap", "--type=merge", "-p", `{"data":{"foo":"theirs","bar":"theirs"}}`)
	term.waitFor(screenWait, "changed on server", ".data.bar", ".data.foo")

	term.send("d")
	term.waitFor(screenWait, `-         "foo": "1"`, `+         "foo": "mine"`)
	term.send("s")
	term.waitFor(screenWait, "conflict: base rv", "1 conflict,", ".data.foo")
	if data, _ := configMapData(t, ns, "testmap"); data["foo"] != "theirs" {
		t.Fatalf("foo = %q before the conflict was resolved", data["foo"])
	}
	term.send("m")
	term.send("s")
	term.waitFor(screenWait, "saved rv")
	if data, _ := configMapData(t, ns, "testmap"); data["foo"] != "mine" || data["bar"] != "theirs" {
		t.Errorf("data = %v, want foo=mine and the other writer's bar=theirs", data)
	}
}

// TestE2EJSONDraftThatDoesNotParse: a JSON draft with a trailing comma is
// kept and said with its line and column; s sends nothing, and the server
// is unchanged.
func TestE2EJSONDraftThatDoesNotParse(t *testing.T) {
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=1")
	_, before := configMapData(t, ns, "testmap")
	term := newKeditEnv(t, editorScript(t, `sed -i 's/"foo": "1"/"foo": "2",/' "$1"`)).run(t, 160, 40, "-n", ns, "-o", "json", "configmap/testmap")
	term.waitFor(screenWait, `"apiVersion": "v1",`)

	term.editAndWait(`cannot be saved: draft, line 5, column 5: a comma before "}"`, `"foo": "2",`)
	term.send("s")
	term.waitFor(screenWait, "the draft is kept but cannot be saved: draft, line 5, column 5")
	if data, rv := configMapData(t, ns, "testmap"); rv != before || data["foo"] != "1" {
		t.Errorf("the broken draft changed the server: foo=%q rv %s -> %s", data["foo"], before, rv)
	}
	term.waitFor(screenWait, "unsaved draft", `"foo": "2",`)
}

// TestE2EScaleRacingKubectlScale: kedit --subresource scale edits the
// Deployment's Scale while `kubectl scale` writes it, named as the
// writer of the change on the server: the save meets the
// conflict, shown in the conflict view, resolved to mine and resubmitted
// with the newer resourceVersion; the Deployment has kedit's replicas.
func TestE2EScaleRacingKubectlScale(t *testing.T) {
	ns := kubetest.Namespace(t)
	kubetest.MustKubectlStdin(t, webDeployment("2"), "-n", ns, "create", "-f", "-")
	term := newKeditEnv(t, editorScript(t, `sed -i 's/^  replicas: 2$/  replicas: 5/' "$1"`)).run(t, 120, 40, "-n", ns, "--subresource", "scale", "deploy/web")
	term.waitFor(screenWait, "Deployment/web --subresource scale", "kind: Scale", "replicas: 2")

	term.editAndWait("replicas: 5")
	kubetest.MustKubectl(t, "-n", ns, "scale", "deploy/web", "--replicas=3")
	// The Scale has no managedFields of its own: kubectl is named from the
	// Deployment's entry with subresource scale.
	term.waitFor(screenWait, "changed on server", "by kubectl: .spec.replicas")
	term.send("t")
	screen, _ := term.waitUntil(screenWait, "the timeline's newest row naming kubectl", func(s string) bool {
		row := regexp.MustCompile(`(?m)^> .*$`).FindString(s)
		return strings.Contains(row, " kubectl ") && strings.Contains(row, ".spec.replicas")
	})
	if strings.Contains(screen, "unknown writer") {
		t.Errorf("the timeline names an unknown writer:\n%s", screen)
	}
	term.send("t")
	term.waitFor(screenWait, "unsaved draft", "replicas: 5")

	term.send("s")
	term.waitFor(screenWait, "conflict: base rv", "1 conflict,", ".spec.replicas")
	if got := replicasOf(t, ns); got != "3" {
		t.Fatalf("replicas %s before the conflict was resolved, want kubectl scale's 3", got)
	}
	term.send("m")
	term.send("s")
	term.waitFor(screenWait, "saved rv")
	if got := replicasOf(t, ns); got != "5" {
		t.Errorf("replicas %s, want kedit's 5", got)
	}
}

func replicasOf(t *testing.T, ns string) string {
	t.Helper()
	return strings.TrimSpace(kubetest.MustKubectl(t, "-n", ns, "get", "deploy/web", "-o", "jsonpath={.spec.replicas}"))
}

// TestE2ESubresourceRefused: a type without the subresource is refused
// before the UI starts, naming the types that have one; nothing is
// written.
func TestE2ESubresourceRefused(t *testing.T) {
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=1")
	_, before := configMapData(t, ns, "testmap")
	term := newKeditEnv(t, "true").run(t, 300, 20, "-n", ns, "--subresource", "scale", "configmap/testmap")
	term.waitFor(screenWait, "kedit: configmaps has no scale subresource; the types that have one: deployments.apps", "EXIT=1")
	if _, rv := configMapData(t, ns, "testmap"); rv != before {
		t.Errorf("the refused start wrote: rv %s -> %s", before, rv)
	}
}

// TestE2EFieldManagerInManagedFields: with --field-manager the save is
// the named manager's in managedFields, and kedit's own name is nowhere.
func TestE2EFieldManagerInManagedFields(t *testing.T) {
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=1")
	term := newKeditEnv(t, editorScript(t, `sed -i 's/foo: "1"/foo: mine/' "$1"`)).run(t, 120, 40, "-n", ns, "--field-manager", "ops-team", "configmap/testmap")
	term.waitFor(screenWait, "apiVersion: v1")
	term.editAndWait()
	term.send("s")
	term.waitFor(screenWait, "saved rv")
	out := kubetest.MustKubectl(t, "-n", ns, "get", "configmap", "testmap", "-o", "yaml", "--show-managed-fields")
	if !strings.Contains(out, "manager: ops-team") || strings.Contains(out, "manager: kedit") {
		t.Errorf("managedFields after the save:\n%s", out)
	}
}

// TestE2EOutputPatchMasksSecret: --output-patch prints the save's request
// after the UI closes, on stderr: the method, the Secret's path with the
// field manager, the body with its values masked, and the answer; neither
// value, decoded nor base64, shows. -o json leaves the Secret in YAML, and
// says why.
func TestE2EOutputPatchMasksSecret(t *testing.T) {
	const old, mine = "old-value-plaintext", "new-value-plaintext"
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "secret", "generic", "creds", "--from-literal=password="+old)
	term := newKeditEnv(t, editorScript(t, `sed -i 's/password: `+old+`/password: `+mine+`/' "$1"`)).run(t, 300, 40,
		"-n", ns, "--output-patch", "-o", "json", "secret/creds")
	term.waitFor(screenWait, "Secret/creds", "values hidden", "kind: Secret", "a Secret is edited as YAML")
	term.editAndWait()
	term.send("s")
	term.waitFor(screenWait, "saved rv")
	term.send("q")
	screen := term.waitFor(screenWait, "PUT /api/v1/namespaces/"+ns+"/secrets/creds?fieldManager=kedit", `"password":"••••"`, "-> 200 OK", "EXIT=0")
	for _, leak := range []string{old, mine, base64.StdEncoding.EncodeToString([]byte(old)), base64.StdEncoding.EncodeToString([]byte(mine))} {
		if strings.Contains(screen, leak) {
			t.Errorf("--output-patch printed a Secret's value %q:\n%s", leak, screen)
		}
	}
	s, err := kubetest.Clientset(t).CoreV1().Secrets(ns).Get(context.Background(), "creds", metav1.GetOptions{})
	if err != nil || string(s.Data["password"]) != mine {
		t.Errorf("the Secret holds %q (%v), want the draft's value", s.Data["password"], err)
	}
}

// TestE2EEditFlagsNeedATerminal: the binary with its stdout a pipe and
// any of the four flags exits 2 naming them, and reads nothing.
func TestE2EEditFlagsNeedATerminal(t *testing.T) {
	for _, flags := range [][]string{{"-o", "json"}, {"--subresource", "status"}, {"--field-manager", "x"}, {"--output-patch"}} {
		cmd := exec.Command(keditBinary(t), append(flags, "--kubeconfig", "/nonexistent", "cm/x")...)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != 2 || !strings.Contains(stderr.String(), "stdout is not a terminal") || stdout.Len() > 0 {
			t.Errorf("%q: %v, stderr %q, stdout %q; want exit 2 naming the terminal", flags, err, stderr.String(), stdout.String())
		}
	}
}

// TestE2EOutputPatchToDebugLog: with --debug, --output-patch writes each
// request to the debug log as it is sent, and nothing on stderr.
func TestE2EOutputPatchToDebugLog(t *testing.T) {
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=1")
	logFile := filepath.Join(t.TempDir(), "debug.log")
	term := newKeditEnv(t, editorScript(t, `sed -i 's/foo: "1"/foo: mine/' "$1"`)).run(t, 200, 40,
		"-n", ns, "--output-patch", "--strategy", "patch", "--debug="+logFile, "configmap/testmap")
	term.waitFor(screenWait, "apiVersion: v1")
	term.editAndWait()
	term.send("s")
	term.waitFor(screenWait, "saved rv")
	waitFile(t, logFile, holds(`--output-patch: PATCH /api/v1/namespaces/`+ns+`/configmaps/testmap?fieldManager=kedit`))
	waitFile(t, logFile, holds(`{"data":{"foo":"mine"},"metadata":{"resourceVersion":`))
	term.send("q")
	screen := term.waitFor(screenWait, "EXIT=0")
	if strings.Contains(screen, "PATCH /api") {
		t.Errorf("with --debug the record went to stderr too:\n%s", screen)
	}
}

// TestE2EJSONDraftRecoveredAsJSON: a JSON draft left by a killed kedit -o
// json is offered to a kedit started without -o json, and opens as JSON:
// shown, saved.
func TestE2EJSONDraftRecoveredAsJSON(t *testing.T) {
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=1")
	env := newKeditEnv(t, editorScript(t, `sed -i 's/"foo": "1"/"foo": "mine"/' "$1"`))
	term := env.run(t, 160, 40, "-n", ns, "-o", "json", "configmap/testmap")
	term.waitFor(screenWait, `"apiVersion": "v1",`)
	term.editAndWait()
	path := env.draft(ns, "configmaps", "testmap", 1)
	waitFile(t, path, holds("# format: json\n"))
	term.signal("KILL")
	term.waitFor(screenWait, "EXIT=137")

	// Wide, so that the question naming the draft's file is on one line.
	term = env.run(t, 300, 40, "-n", ns, "configmap/testmap")
	term.waitFor(screenWait, "a draft of this object from rv", "recover it?")
	term.send("y")
	term.waitFor(screenWait, "draft recovered", `"foo": "mine"`, "JSON")
	term.send("s")
	term.waitFor(screenWait, "saved rv")
	if data, _ := configMapData(t, ns, "testmap"); data["foo"] != "mine" {
		t.Errorf("foo = %q, want the recovered draft's", data["foo"])
	}
	waitFile(t, path, gone)
}
