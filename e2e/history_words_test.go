package e2e

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kedit/kedit/kube/kubetest"
)

// stagesPolicy is localcluster's policy, but that namespace received-only
// is logged at the RequestReceived stage alone (omitStages of the later
// ones), and request-level's writes at Request level (the bodies sent, not
// the objects stored).
const stagesPolicy = `apiVersion: audit.k8s.io/v1
kind: Policy
rules:
` + quietRules + `  - level: Metadata
    namespaces: ["received-only"]
    omitStages: ["ResponseStarted", "ResponseComplete", "Panic"]
  - level: Request
    namespaces: ["request-level"]
    verbs: ["create", "update", "patch", "delete"]
    omitStages: ["RequestReceived"]
  - level: RequestResponse
    verbs: ["create", "update", "patch", "delete", "deletecollection"]
    omitStages: ["RequestReceived"]
  - level: Metadata
    verbs: ["get", "list", "watch"]
    omitStages: ["RequestReceived"]
  - level: None
`

// TestHistorySaysWhatTheLogShows holds kedit history's words to what a
// real log shows, through the binary, each on a real kube-apiserver's log
// written by kubectl:
//   - a policy that logs only the RequestReceived stage: the object's
//     requests are counted, not their outcome; exit 3, never "no event";
//   - writes at Request level: their sent bodies are there, what was
//     stored is not;
//   - a value with quotes is its JSON, escaped once;
//   - a client-side apply that sets a value back says kubectl's
//     last-applied annotation in the same finding, not in one of its own;
//   - a writer built without version stamps (this test's own client) is
//     said to be one in --wide;
//   - with no cluster to ask, nothing is said of one.
func TestHistorySaysWhatTheLogShows(t *testing.T) {
	if testing.Short() {
		t.Skip("integration test: needs a real API server; not run with -short")
	}
	c := kubetest.NewCluster(t, kubetest.WithAuditLog(), kubetest.WithAuditPolicy(stagesPolicy))
	c.MustKubectl(t, "create", "clusterrolebinding", "writers", "--clusterrole=cluster-admin", "--user=alice", "--user=bob", "--user=carol")
	for _, ns := range []string{"received-only", "request-level"} {
		c.MustKubectl(t, "create", "namespace", ns)
	}
	received := &auditEnv{t: t, c: c, ns: "received-only"}
	received.editRace("race")
	request := &auditEnv{t: t, c: c, ns: "request-level"}
	request.editRace("race")
	whole := &auditEnv{t: t, c: c}
	log := c.AuditLog()

	t.Run("requests logged only as received", func(t *testing.T) {
		out, stderr, code := runBinary(t, "", "history", "cm/race", "-n", "received-only", "--kubeconfig", c.Kubeconfig(), "--audit-log", log)
		if code != 3 || !strings.Contains(out, "INCONCLUSIVE: ") || !strings.Contains(out, "requests of the object logged only as received (the RequestReceived stage, with no later one)") ||
			strings.Contains(out, "OK:") || strings.Contains(stderr, "no event") {
			t.Errorf("exit %d:\n%s%s", code, out, stderr)
		}
	})

	t.Run("writes at Request level", func(t *testing.T) {
		rep, _, code := historyRun(t, request, "cm/race", 3, "-n", "request-level", "--audit-log", log)
		if code != 3 || rep.Coverage.Level != "Request" || rep.Coverage.WithoutBodies != 3 {
			t.Errorf("exit %d, coverage %+v", code, rep.Coverage)
		}
		out, _, _ := runBinary(t, "", "history", "cm/race", "-n", "request-level", "--kubeconfig", c.Kubeconfig(), "--audit-log", log)
		if !strings.HasPrefix(out, "INCONCLUSIVE: 3 of 3 writes logged at Request level: the bodies they sent are there, the objects the server stored are not") {
			t.Errorf("text:\n%s", out)
		}
	})

	t.Run("a value with quotes, escaped once", func(t *testing.T) {
		whole.must("", "create", "configmap", "quoted", "--from-literal=foo=1")
		whole.must("alice", "get", "configmap", "quoted")
		whole.patchAfterRead("bob", "configmap", "quoted", "-p", `{"data":{"foo":"say \"hi\" C:\\dir"}}`)
		whole.must("alice", "patch", "configmap", "quoted", "-p", `{"data":{"foo":"alice"}}`)
		historyRun(t, whole, "cm/quoted", 3, "--audit-log", log)
		out, _, code := runBinary(t, "", "history", "cm/quoted", "--kubeconfig", c.Kubeconfig(), "--audit-log", log)
		if code != 1 || !strings.HasPrefix(out, `LOST .data.foo: bob's "say \"hi\" C:\\dir" (`) {
			t.Errorf("exit %d:\n%s", code, out)
		}
	})

	t.Run("kubectl's last-applied record goes with the finding", func(t *testing.T) {
		dir := t.TempDir()
		manifest := func(name, foo string) string {
			p := filepath.Join(dir, name+".yaml")
			os.WriteFile(p, []byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: applied\n  namespace: default\ndata:\n  foo: \""+foo+"\"\n"), 0o600)
			return p
		}
		carols, bobs := manifest("carol", "1"), manifest("bob", "bob")
		whole.must("carol", "apply", "-f", carols)
		whole.must("bob", "get", "configmap", "applied")
		whole.must("bob", "apply", "-f", bobs)
		whole.must("carol", "get", "configmap", "applied")
		whole.must("carol", "apply", "-f", carols)
		rep, _, code := historyRun(t, whole, "cm/applied", 3, "--audit-log", log)
		if code != 1 || len(rep.Reverted) != 1 || rep.Reverted[0].Path != ".data.foo" || len(rep.LostUpdates)+len(rep.BlindWrites) != 0 ||
			!strings.Contains(rep.Reverted[0].Evidence, "it also replaced bob's .metadata.annotations.kubectl.kubernetes.io/last-applied-configuration") {
			t.Errorf("exit %d, reverted %+v, lost %v, blind %v; want foo set back, the annotation in its evidence", code, rep.Reverted,
				lostPaths(rep.LostUpdates), lostPaths(rep.BlindWrites))
		}
	})

	t.Run("a build without version stamps", func(t *testing.T) {
		whole.must("", "create", "configmap", "unstamped", "--from-literal=foo=1")
		// This test's own client-go writes: its user agent is a build's
		// without version stamps (e2e.test/v0.0.0 ... kubernetes/$Format).
		if _, err := c.Clientset(t).CoreV1().ConfigMaps("default").Patch(context.Background(), "unstamped", types.MergePatchType,
			[]byte(`{"data":{"foo":"2"}}`), metav1.PatchOptions{}); err != nil {
			t.Fatal(err)
		}
		historyRun(t, whole, "cm/unstamped", 2, "--audit-log", log)
		out, _, _ := runBinary(t, "", "history", "cm/unstamped", "--kubeconfig", c.Kubeconfig(), "--audit-log", log, "--wide")
		if !strings.Contains(out, "e2e.test (linux/amd64), a build without version stamps") || strings.Contains(out, "$Format") {
			t.Errorf("--wide:\n%s", out)
		}
	})

	t.Run("no cluster to ask", func(t *testing.T) {
		// A kubeconfig of a server that does not answer, and none at all:
		// the log names the type.
		nowhere := filepath.Join(t.TempDir(), "kubeconfig")
		os.WriteFile(nowhere, []byte("apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n    server: https://127.0.0.1:1\n"+
			"contexts:\n- name: c\n  context:\n    cluster: c\n    user: u\ncurrent-context: c\nusers:\n- name: u\n  user: {}\n"), 0o600)
		for _, kc := range []string{nowhere, filepath.Join(t.TempDir(), "none")} {
			out, stderr, code := runBinary(t, "", "history", "cm/quoted", "--kubeconfig", kc, "--audit-log", log)
			if code != 1 || stderr != "" || !strings.HasPrefix(out, "LOST .data.foo") {
				t.Errorf("%s: exit %d, stderr %q:\n%s", kc, code, stderr, out)
			}
		}
	})
}
