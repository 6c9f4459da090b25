package e2e

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/kedit/kedit/internal/testwait"
	"github.com/kedit/kedit/kube/kubetest"
	"github.com/kedit/kedit/model/history"
)

// The history tests read the audit log of a real kube-apiserver
// (localcluster --audit-log) in which real kubectl processes, run as
// different users with --as as in a real incident, wrote the object; and
// they read it through the real kedit binary.

// auditEnv is a cluster of the test's own that writes an audit log, with
// users alice, bob and carol allowed to do anything.
type auditEnv struct {
	t *testing.T
	c *kubetest.Cluster
	// ns is the namespace kubectl writes in; empty for the kubeconfig's.
	ns string
}

func newAuditEnv(t *testing.T) *auditEnv {
	t.Helper()
	c := kubetest.NewCluster(t, kubetest.WithAuditLog())
	c.MustKubectl(t, "create", "clusterrolebinding", "incident-writers", "--clusterrole=cluster-admin",
		"--user=alice", "--user=bob", "--user=carol")
	return &auditEnv{t: t, c: c}
}

// kubectl runs kubectl as user (impersonated; "" for the admin) with env.
func (e *auditEnv) kubectl(user string, env []string, args ...string) *exec.Cmd {
	if user != "" {
		args = append([]string{"--as", user}, args...)
	}
	if e.ns != "" {
		args = append([]string{"-n", e.ns}, args...)
	}
	cmd := exec.Command("kubectl", append([]string{"--kubeconfig", e.c.Kubeconfig()}, args...)...)
	cmd.Env = append(append(os.Environ(), "KUBECACHEDIR="+filepath.Join(os.TempDir(), "kedit-test-kubecache")), env...)
	return cmd
}

// patchAfterRead is user's kubectl get of obj, then their kubectl patch of
// it with args: a person who looks before they change (kubectl patch's own
// get is no look of theirs).
func (e *auditEnv) patchAfterRead(user, typ, name string, args ...string) {
	e.t.Helper()
	e.must(user, "get", typ, name)
	e.must(user, append([]string{"patch", typ, name}, args...)...)
}

func (e *auditEnv) must(user string, args ...string) string {
	e.t.Helper()
	out, err := e.kubectl(user, nil, args...).CombinedOutput()
	if err != nil {
		e.t.Fatalf("kubectl --as %s %s: %v\n%s", user, strings.Join(args, " "), err, out)
	}
	return string(out)
}

// slowEdit starts `kubectl edit` of obj as user, with an editor that
// waits for the returned release function before it runs sedArgs on the
// file: the race of an engineer who takes a while to edit. It returns once
// the editor holds the file (kubectl has read the object), and wait waits
// for kubectl to end.
func (e *auditEnv) slowEdit(user, obj string, sedArgs ...string) (release func(), wait func() string) {
	e.t.Helper()
	dir := e.t.TempDir()
	started, gate := filepath.Join(dir, "started"), filepath.Join(dir, "go")
	script := filepath.Join(dir, "editor.sh")
	body := fmt.Sprintf("#!/bin/sh\ntouch %q\nwhile [ ! -f %q ]; do sleep 0.05; done\nsed -i %s \"$1\"\n", started, gate, shellJoin(sedArgs))
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		e.t.Fatal(err)
	}
	cmd := e.kubectl(user, []string{"KUBE_EDITOR=" + script}, "edit", obj)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		e.t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	waitEditorStarted(e.t, started, done, &out)
	release = func() {
		if err := os.WriteFile(gate, nil, 0o600); err != nil {
			e.t.Fatal(err)
		}
	}
	wait = func() string {
		e.t.Helper()
		select {
		case err := <-done:
			if err != nil {
				e.t.Fatalf("kubectl edit %s as %s: %v\n%s", obj, user, err, out.String())
			}
		case <-time.After(time.Minute):
			_ = cmd.Process.Kill()
			e.t.Fatalf("kubectl edit %s as %s did not end\n%s", obj, user, out.String())
		}
		return out.String()
	}
	return release, wait
}

// editRace plays the incident on ConfigMap name (foo "1", bar "1"):
// alice's kubectl edit of foo waits in her editor while bob's kubectl
// patch sets foo to bob; her edit then writes foo: alice over it.
func (e *auditEnv) editRace(name string) {
	e.t.Helper()
	e.must("", "create", "configmap", name, "--from-literal=foo=1", "--from-literal=bar=1")
	release, wait := e.slowEdit("alice", "configmap/"+name, "-e", `s/foo: "1"/foo: alice/`)
	e.patchAfterRead("bob", "configmap", name, "-p", `{"data":{"foo":"bob"}}`)
	release()
	wait()
}

// sequentialEdits writes ConfigMap name (foo "1") in turn, each writer
// having read the latest: alice's kubectl edit, bob's kubectl patch,
// alice's kubectl edit again (foo: alice-again).
func (e *auditEnv) sequentialEdits(name string) {
	e.t.Helper()
	e.must("", "create", "configmap", name, "--from-literal=foo=1")
	release, wait := e.slowEdit("alice", "configmap/"+name, "-e", `s/foo: "1"/foo: alice/`)
	release()
	wait()
	e.patchAfterRead("bob", "configmap", name, "-p", `{"data":{"foo":"bob"}}`)
	release, wait = e.slowEdit("alice", "configmap/"+name, "-e", `s/foo: bob/foo: alice-again/`)
	release()
	wait()
}

func waitEditorStarted(t *testing.T, path string, done <-chan error, out *bytes.Buffer) {
	t.Helper()
	if !testwait.Until(time.Minute, func() bool {
		select {
		case err := <-done:
			t.Fatalf("kubectl edit ended before its editor started: %v\n%s", err, out.String())
		default:
		}
		_, err := os.Stat(path)
		return err == nil
	}) {
		t.Fatalf("the editor did not start within a minute\n%s", out.String())
	}
}

// history runs the real kedit binary's history command on the cluster's
// audit log, until the log holds at least versions versions of obj (the
// log is written as requests end), and returns its report and exit status.
func (e *auditEnv) history(obj string, versions int, extra ...string) (history.Report, int) {
	e.t.Helper()
	var rep history.Report
	var out, stderr string
	var code int
	if !testwait.Until(30*time.Second, func() bool {
		out, stderr, code = runBinary(e.t, "", append([]string{"history", obj, "--kubeconfig", e.c.Kubeconfig(), "--audit-log", e.c.AuditLog(), "--json"}, extra...)...)
		rep = history.Report{}
		if code != 0 && code != 1 && code != 3 {
			return false
		}
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			e.t.Fatalf("kedit history --json printed no JSON: %v\n%s", err, out)
		}
		return len(rep.Versions) >= versions
	}) {
		e.t.Fatalf("kedit history %s: exit %d, %d versions after 30 s (want %d)\n%s\n%s", obj, code, len(rep.Versions), versions, out, stderr)
	}
	return rep, code
}

func lostPaths(ls []history.ReportLoss) []string {
	var out []string
	for _, l := range ls {
		out = append(out, fmt.Sprintf("%s %v by %s over %s", l.Path, l.LostValue, l.OverwrittenBy.User, l.LostAt.User))
	}
	return out
}

// TestHistoryFindsLostUpdatesInARealLog plays the incidents the history
// command is for on a real API server, and one that is no incident:
//   - a kubectl edit race: alice's editor waits while bob's kubectl patch
//     changes the same field; alice's edit then writes hers over it;
//   - a stale kubectl apply: carol read the object, bob changed it, and
//     carol's server-side apply of what she had read put the old value back;
//   - a JSON merge patch of a custom resource (kubectl edit of one) that
//     replaced a whole list, and with it the item bob had added;
//   - a Secret's edit race, whose values never appear;
//   - sequential edits, each writer having read the latest: nothing.
func TestHistoryFindsLostUpdatesInARealLog(t *testing.T) {
	if testing.Short() {
		t.Skip("integration test: needs a real API server; not run with -short")
	}
	e := newAuditEnv(t)

	t.Run("kubectl edit race", func(t *testing.T) {
		e.t = t
		e.editRace("race")
		rep, code := e.history("cm/race", 3)
		if code != 1 || len(rep.LostUpdates) != 1 {
			t.Fatalf("exit %d, lost updates %v; want exit 1 and bob's foo lost by alice", code, lostPaths(rep.LostUpdates))
		}
		l := rep.LostUpdates[0]
		if l.Path != ".data.foo" || l.LostValue != "bob" || l.LostAt.User != "bob" || l.OverwrittenBy.User != "alice" ||
			l.OverwrittenBy.Manager != "kubectl-edit" || l.LostAt.Manager != "kubectl-patch" || l.Base == nil || *l.Base != rep.Versions[0].ResourceVersion {
			t.Errorf("lost update %+v", l)
		}
		if len(rep.BlindWrites) != 0 || len(rep.Fights) != 0 {
			t.Errorf("blind writes %v, fights %v", lostPaths(rep.BlindWrites), rep.Fights)
		}
		// The table, in a terminal, as the on-call engineer reads it.
		env := newKeditEnv(t, "true")
		env.kubeconfig = e.c.Kubeconfig()
		term := env.run(t, 200, 30, "history", "cm/race", "--audit-log", e.c.AuditLog())
		term.waitFor(30*time.Second, "configmaps/race in namespace default: 3 versions", "kubectl-edit", "LOST UPDATES: 1",
			`.data.foo: "bob" set by bob (kubectl-patch)`, "lost by alice (kubectl-edit)", "BLIND WRITES: none", "FIGHTS: none", "EXIT=1")
	})

	t.Run("the same log as EKS, AKS, rotated, gzip and stdin give the same report", func(t *testing.T) {
		e.t = t
		want, _ := e.history("cm/race", 3)
		for name, files := range cloudExports(t, e.c.AuditLog()) {
			args := []string{"history", "cm/race", "--kubeconfig", e.c.Kubeconfig(), "--json"}
			stdin := ""
			for _, f := range files {
				if strings.HasPrefix(f, "stdin:") {
					stdin = strings.TrimPrefix(f, "stdin:")
					f = "-"
				}
				args = append(args, "--audit-log", f)
			}
			out, stderr, code := runBinary(t, stdin, args...)
			var got history.Report
			if err := json.Unmarshal([]byte(out), &got); err != nil || code != 1 {
				t.Errorf("%s: exit %d, %v\n%s", name, code, err, stderr)
				continue
			}
			if !reflect.DeepEqual(got.LostUpdates, want.LostUpdates) || len(got.Versions) != len(want.Versions) {
				t.Errorf("%s: lost updates %v, %d versions; the plain log: %v, %d versions", name,
					lostPaths(got.LostUpdates), len(got.Versions), lostPaths(want.LostUpdates), len(want.Versions))
			}
		}
		// Not an audit log, and no such file: exit 2 naming the file.
		notes := filepath.Join(t.TempDir(), "notes.yaml")
		os.WriteFile(notes, []byte("apiVersion: v1\nkind: ConfigMap\n"), 0o600)
		for _, f := range []string{notes, filepath.Join(t.TempDir(), "missing.log")} {
			_, stderr, code := runBinary(t, "", "history", "cm/race", "--kubeconfig", e.c.Kubeconfig(), "--audit-log", f)
			if code != 2 || !strings.Contains(stderr, f) {
				t.Errorf("%s: exit %d, stderr %q; want 2 naming the file", f, code, stderr)
			}
		}
		_, stderr, code := runBinary(t, "", "history", "cm/nothing-here", "--kubeconfig", e.c.Kubeconfig(), "--audit-log", e.c.AuditLog())
		if code != 2 || !strings.Contains(stderr, "no event of configmaps/nothing-here") {
			t.Errorf("an object with no event: exit %d, stderr %q", code, stderr)
		}
	})

	t.Run("stale server-side apply", func(t *testing.T) {
		e.t = t
		e.must("", "create", "configmap", "stale", "--from-literal=foo=1", "--from-literal=bar=1")
		e.must("carol", "get", "configmap", "stale", "-o", "yaml")
		manifest := filepath.Join(t.TempDir(), "stale.yaml")
		// What carol had read, kept in a file as she last saw it.
		if err := os.WriteFile(manifest, []byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: stale\n  namespace: default\ndata:\n  foo: \"1\"\n  bar: carol\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		e.patchAfterRead("bob", "configmap", "stale", "-p", `{"data":{"foo":"bob"}}`)
		e.must("carol", "apply", "--server-side", "--force-conflicts", "-f", manifest)
		rep, code := e.history("configmap/stale", 3)
		if code != 1 || len(rep.LostUpdates) != 1 || rep.LostUpdates[0].Path != ".data.foo" || rep.LostUpdates[0].LostValue != "bob" ||
			rep.LostUpdates[0].OverwrittenBy.User != "carol" || rep.LostUpdates[0].OverwrittenBy.Verb != "patch" {
			t.Fatalf("exit %d, lost updates %v; want bob's foo lost by carol's apply", code, lostPaths(rep.LostUpdates))
		}
	})

	t.Run("merge patch of a custom resource replaces a list", func(t *testing.T) {
		e.t = t
		crd := filepath.Join(t.TempDir(), "crd.yaml")
		if err := os.WriteFile(crd, []byte(widgetCRD), 0o600); err != nil {
			t.Fatal(err)
		}
		e.must("", "apply", "-f", crd)
		e.must("", "wait", "--for=condition=Established", "crd/widgets.example.com", "--timeout=60s")
		w := filepath.Join(t.TempDir(), "w.yaml")
		if err := os.WriteFile(w, []byte("apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: gadget\n  namespace: default\nspec:\n  items:\n  - name: first\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		e.must("", "create", "-f", w)
		release, wait := e.slowEdit("alice", "widget/gadget", "-e", `s/^  - name: first$/  - name: first\n  - name: alice/`)
		e.patchAfterRead("bob", "widget", "gadget", "--type", "merge", "-p", `{"spec":{"items":[{"name":"first"},{"name":"bob"}]}}`)
		release()
		wait()
		rep, code := e.history("widgets.example.com/gadget", 3)
		if code != 1 || len(rep.LostUpdates) != 1 {
			t.Fatalf("exit %d, lost updates %v; want bob's item lost with the list", code, lostPaths(rep.LostUpdates))
		}
		l := rep.LostUpdates[0]
		items, _ := l.LostValue.([]any)
		if l.Path != ".spec.items" || len(items) != 2 || !strings.Contains(fmt.Sprint(items[1]), "bob") || l.OverwrittenBy.User != "alice" {
			t.Errorf("lost update %+v", l)
		}
	})

	t.Run("secret edit race", func(t *testing.T) {
		e.t = t
		e.must("", "create", "secret", "generic", "creds", "--from-literal=password=first-secret-value")
		// base64 of first-secret-value, bobs-secret-value, alices-secret-value
		release, wait := e.slowEdit("alice", "secret/creds", "-e", `s/password: .*/password: YWxpY2VzLXNlY3JldC12YWx1ZQ==/`)
		e.patchAfterRead("bob", "secret", "creds", "-p", `{"stringData":{"password":"bobs-secret-value"}}`)
		release()
		wait()
		rep, code := e.history("secret/creds", 3)
		if code != 1 || len(rep.LostUpdates) != 1 || rep.LostUpdates[0].LostValue != history.SecretValue || rep.LostUpdates[0].Path != ".data.password" {
			t.Fatalf("exit %d, lost updates %+v; want .data.password lost, its value (secret)", code, rep.LostUpdates)
		}
		for _, asJSON := range []bool{false, true} {
			args := []string{"history", "secret/creds", "--kubeconfig", e.c.Kubeconfig(), "--audit-log", e.c.AuditLog()}
			if asJSON {
				args = append(args, "--json")
			}
			out, stderr, _ := runBinary(t, "", args...)
			for _, v := range []string{"first-secret-value", "bobs-secret-value", "alices-secret-value",
				"Zmlyc3Qtc2VjcmV0LXZhbHVl", "Ym9icy1zZWNyZXQtdmFsdWU=", "YWxpY2VzLXNlY3JldC12YWx1ZQ=="} {
				if strings.Contains(out+stderr, v) {
					t.Errorf("a secret value %q appears in kedit history's output (json %v):\n%s", v, asJSON, out)
				}
			}
		}
	})

	t.Run("deleted and created again", func(t *testing.T) {
		e.t = t
		e.must("", "create", "configmap", "phoenix", "--from-literal=foo=1")
		release, wait := e.slowEdit("alice", "configmap/phoenix", "-e", `s/foo: "1"/foo: alice/`)
		e.must("carol", "delete", "configmap", "phoenix")
		e.must("carol", "create", "configmap", "phoenix", "--from-literal=foo=carol")
		release()
		out := wait()
		rep, code := e.history("configmap/phoenix", 4)
		if len(rep.Object.UIDs) != 2 || rep.Versions[1].Verb != "delete" || rep.Versions[2].Verb != "create" {
			t.Fatalf("uids %v, versions %+v; want two objects under the name, a deletion between", rep.Object.UIDs, rep.Versions)
		}
		// alice's edit, read from the first object, patched the second:
		// carol's value, set when she created it, is lost.
		if code != 1 || len(rep.LostUpdates) != 1 || rep.LostUpdates[0].LostValue != "carol" || rep.LostUpdates[0].LostAt.Verb != "create" {
			t.Fatalf("exit %d, lost updates %v (kubectl edit said %q)", code, lostPaths(rep.LostUpdates), out)
		}
		// The new object's row says so, and the evidence names alice's
		// read of the deleted one.
		if v := rep.Versions[2]; !v.CreatedAgain || v.UID != rep.Object.UIDs[1] {
			t.Errorf("the re-creation %+v; want createdAgain with uid %s", v, rep.Object.UIDs[1])
		}
		if ev := rep.LostUpdates[0].Evidence; !strings.Contains(ev, "that read was of the deleted object (uid "+rep.Object.UIDs[0]+")") ||
			!strings.Contains(ev, "created again (uid "+rep.Object.UIDs[1]+") by carol") {
			t.Errorf("evidence %q does not name alice's read of the deleted object", ev)
		}
		text, _, _ := runBinary(t, "", "history", "configmap/phoenix", "--kubeconfig", e.c.Kubeconfig(), "--audit-log", e.c.AuditLog())
		if !strings.Contains(text, "created again (uid "+rep.Object.UIDs[1]+")") {
			t.Errorf("the table has no created again row:\n%s", text)
		}
	})

	t.Run("sequential edits report nothing", func(t *testing.T) {
		e.t = t
		e.sequentialEdits("calm")
		rep, code := e.history("configmap/calm", 4)
		if code != 0 || len(rep.LostUpdates) != 0 || len(rep.BlindWrites) != 0 {
			t.Fatalf("exit %d, lost updates %v, blind writes %v; want none", code, lostPaths(rep.LostUpdates), lostPaths(rep.BlindWrites))
		}
	})
}

// cloudExports makes, from a real audit log, the files kedit is given in
// other ways: split in two rotated files, one gzip, read in reverse order;
// on stdin; as EKS's CloudWatch exports (an S3 export's "TIMESTAMP LINE",
// filter-log-events' {"message": LINE} through jq -c); as AKS's (an
// archive's {"properties": {"log": LINE}}, the AzureDiagnostics table's
// log_s, the AKSAudit table's columns with dynamic ones as JSON strings).
func cloudExports(t *testing.T, log string) map[string][]string {
	t.Helper()
	data, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	file := func(name string, f func(line string, ev map[string]any) any) string {
		var b strings.Builder
		for _, l := range lines {
			var ev map[string]any
			if err := json.Unmarshal([]byte(l), &ev); err != nil {
				t.Fatal(err)
			}
			switch v := f(l, ev).(type) {
			case string:
				b.WriteString(v)
			default:
				j, _ := json.Marshal(v)
				b.Write(j)
			}
			b.WriteByte('\n')
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(b.String()), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	half := len(lines) / 2
	older := filepath.Join(dir, "audit-2025-03-01T10-00-00.000.log.gz")
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(strings.Join(lines[:half], "\n") + "\n"))
	zw.Close()
	os.WriteFile(older, gz.Bytes(), 0o600)
	newer := filepath.Join(dir, "audit.log")
	os.WriteFile(newer, []byte(strings.Join(lines[half:], "\n")+"\n"), 0o600)
	return map[string][]string{
		"rotated, gzip, newest first": {newer, older},
		"stdin":                       {"stdin:" + string(data)},
		"EKS S3 export": {file("eks-s3.log", func(l string, ev map[string]any) any {
			return ev["stageTimestamp"].(string) + " " + l
		})},
		"EKS filter-log-events": {file("eks-events.jsonl", func(l string, ev map[string]any) any {
			return map[string]any{"logStreamName": "kube-apiserver-audit-0123", "timestamp": 1740823200000, "message": l, "eventId": "1"}
		})},
		"AKS archive": {file("aks-archive.jsonl", func(l string, ev map[string]any) any {
			return map[string]any{"category": "kube-audit", "operationName": "Microsoft.ContainerService/managedClusters/diagnosticLogs/Read",
				"time": ev["stageTimestamp"], "properties": map[string]any{"log": l, "stream": "stdout", "pod": "kube-apiserver-1"}}
		})},
		"AKS AzureDiagnostics": {file("aks-diagnostics.jsonl", func(l string, ev map[string]any) any {
			return map[string]any{"Category": "kube-audit", "log_s": l}
		})},
		"AKS AKSAudit columns": {file("aks-audit.jsonl", func(l string, ev map[string]any) any {
			str := func(v any) any {
				if v == nil {
					return nil
				}
				j, _ := json.Marshal(v)
				return string(j)
			}
			return map[string]any{"AuditId": ev["auditID"], "Level": ev["level"], "Stage": ev["stage"], "RequestUri": ev["requestURI"],
				"Verb": ev["verb"], "User": str(ev["user"]), "ImpersonatedUser": str(ev["impersonatedUser"]), "UserAgent": ev["userAgent"],
				"ObjectRef": str(ev["objectRef"]), "ResponseStatus": str(ev["responseStatus"]), "RequestObject": str(ev["requestObject"]),
				"ResponseObject": str(ev["responseObject"]), "RequestReceivedTime": ev["requestReceivedTimestamp"],
				"StageReceivedTime": ev["stageTimestamp"], "Category": "kube-audit"}
		})},
	}
}

// widgetCRD is a Widget whose spec.items is a plain list (no keys).
var widgetCRD = kubetest.CRD("example.com", "widgets", "widget", "Widget", `properties:
  items:
    type: array
    items:
      type: object
      properties:
        name: {type: string}
`)
