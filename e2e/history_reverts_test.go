package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHistoryRevertsTestsAndToolsInARealLog plays, on a real API server
// with real kubectl and kedit writers, what the detector must judge by
// what each writer read:
//   - kedit set --if, whose JSON Patch tests the field it sets, in turn
//     with bob's kubectl get and patch: no lost update, no blind write, no
//     fight, exit 0;
//   - values set back to what they were before bob's change by writers
//     that never read the object (the get kubectl replace and a
//     client-side kubectl apply make themselves is none of theirs): a
//     kubectl replace of a file without a resourceVersion, a client-side
//     kubectl apply of a stale file, and a pipeline's kubectl apply
//     --server-side --force-conflicts: each a blind write that says it set
//     the value back, exit 3 (inconclusive), never OK;
//   - in the timeline, a value set back by a writer who read the object
//     after the change is REVERTED;
//   - one user with two tools (kubectl edit and kubectl patch from one
//     kubeconfig): the loss between them is not seen, and a note says so.
func TestHistoryRevertsTestsAndToolsInARealLog(t *testing.T) {
	if testing.Short() {
		t.Skip("integration test: needs a real API server; not run with -short")
	}
	e := newAuditEnv(t)
	e.must("", "create", "clusterrolebinding", "pipeline-writers", "--clusterrole=cluster-admin", "--user=deployer")

	t.Run("kedit set --if", func(t *testing.T) {
		e.t = t
		e.must("", "create", "configmap", "guarded", "--from-literal=foo=1")
		// A condition that does not hold: kedit reads the object to say
		// the value now, so that alice's later writes have a read before
		// bob's changes and would count as lost updates without their tests.
		if out, stderr, code := runBinary(t, "", "set", "--kubeconfig", e.c.Kubeconfig(), "--as", "alice", "configmap/guarded",
			"/data/foo=x", "--if", "/data/foo=nope"); code != 3 {
			t.Fatalf("kedit set --if a condition that does not hold: exit %d\n%s%s", code, out, stderr)
		}
		prev := "1"
		for i := 1; i <= 3; i++ {
			v := fmt.Sprintf("alice-%d", i)
			out, stderr, code := runBinary(t, "", "set", "--kubeconfig", e.c.Kubeconfig(), "--as", "alice", "configmap/guarded",
				"/data/foo="+v, "--if", "/data/foo="+prev)
			if code != 0 {
				t.Fatalf("kedit set --if: exit %d\n%s%s", code, out, stderr)
			}
			prev = v
			if i < 3 {
				prev = fmt.Sprintf("bob-%d", i)
				e.patchAfterRead("bob", "configmap", "guarded", "-p", `{"data":{"foo":"`+prev+`"}}`)
			}
		}
		rep, code := e.history("configmap/guarded", 6)
		if code != 0 || len(rep.LostUpdates) != 0 || len(rep.BlindWrites) != 0 || len(rep.Fights) != 0 || len(rep.Reverted) != 0 {
			t.Fatalf("exit %d, lost %v, blind %v, reverted %v, fights %+v; want nothing: each kedit set tested the value it replaced",
				code, lostPaths(rep.LostUpdates), lostPaths(rep.BlindWrites), lostPaths(rep.Reverted), rep.Fights)
		}
	})

	// file writes a ConfigMap's manifest with foo "1" and no
	// resourceVersion: what its writer keeps in a repository.
	file := func(t *testing.T, name string) string {
		p := filepath.Join(t.TempDir(), name+".yaml")
		if err := os.WriteFile(p, []byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: "+name+"\n  namespace: default\ndata:\n  foo: \"1\"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	// blindRevert holds that user's write, made with no read of theirs
	// (the command's own get is none), set bob's foo back blind: BLIND,
	// its evidence saying so, exit 3 (whether they had seen it is
	// unknown), never OK nor REVERTED (which says they may have read it).
	blindRevert := func(t *testing.T, name, user, command string) {
		t.Helper()
		rep, code := e.history("configmap/"+name, 3)
		if code != 3 || len(rep.LostUpdates) != 0 || len(rep.BlindWrites) != 1 || len(rep.Reverted) != 0 {
			t.Fatalf("exit %d, lost %v, blind %v, reverted %v; want bob's foo set back blind by %s, exit 3", code,
				lostPaths(rep.LostUpdates), lostPaths(rep.BlindWrites), lostPaths(rep.Reverted), user)
		}
		l := rep.BlindWrites[0]
		if l.Path != ".data.foo" || l.LostValue != "bob" || l.LostAt.User != "bob" || l.OverwrittenBy.User != user ||
			l.OverwrittenBy.Command != command || !strings.Contains(l.Evidence, "the log has no read of the object by "+user+" before it") ||
			!strings.Contains(l.Evidence, "and it set .data.foo back to the value it held before that change") {
			t.Errorf("blind write %+v", l)
		}
	}
	t.Run("kubectl replace without a resourceVersion", func(t *testing.T) {
		e.t = t
		f := file(t, "replaced")
		e.must("", "create", "-f", f)
		e.patchAfterRead("bob", "configmap", "replaced", "-p", `{"data":{"foo":"bob"}}`)
		e.must("carol", "replace", "-f", f)
		blindRevert(t, "replaced", "carol", "kubectl replace")
	})
	t.Run("client-side kubectl apply of a stale file", func(t *testing.T) {
		e.t = t
		f := file(t, "applied")
		e.must("carol", "apply", "-f", f)
		e.patchAfterRead("bob", "configmap", "applied", "-p", `{"data":{"foo":"bob"}}`)
		e.must("carol", "apply", "-f", f)
		blindRevert(t, "applied", "carol", "kubectl client-side-apply")
	})
	t.Run("a pipeline's server-side apply that never reads", func(t *testing.T) {
		e.t = t
		f := file(t, "pipelined")
		e.must("deployer", "apply", "--server-side", "-f", f)
		e.patchAfterRead("bob", "configmap", "pipelined", "-p", `{"data":{"foo":"bob"}}`)
		e.must("deployer", "apply", "--server-side", "--force-conflicts", "-f", f)
		blindRevert(t, "pipelined", "deployer", "kubectl")
		out, _, code := runBinary(t, "", "history", "configmap/pipelined", "--kubeconfig", e.c.Kubeconfig(), "--audit-log", e.c.AuditLog())
		if code != 3 || !strings.Contains(out, "BLIND WRITES: 1") || !strings.Contains(out, `.data.foo: "bob" set by bob (kubectl-patch)`) ||
			!strings.Contains(out, "replaced by deployer (kubectl)") || strings.Contains(out, "OK:") {
			t.Errorf("exit %d; the table:\n%s", code, out)
		}
	})

	// In kedit's timeline, through the binary in tmux: the object deleted
	// and created again names the new uid, carol's kubectl replace (she
	// read the object after bob's change) is marked REVERTED, and enter
	// says what it set back.
	t.Run("the timeline marks REVERTED and created again", func(t *testing.T) {
		e.t = t
		f := file(t, "reborn")
		e.must("", "create", "-f", f)
		e.must("", "delete", "configmap", "reborn")
		e.must("", "create", "-f", f)
		e.patchAfterRead("bob", "configmap", "reborn", "-p", `{"data":{"foo":"bob"}}`)
		e.must("carol", "get", "configmap", "reborn")
		e.must("carol", "replace", "-f", f)
		rep, _ := e.history("configmap/reborn", 5)
		env := newKeditEnv(t, "true")
		env.kubeconfig = e.c.Kubeconfig()
		term := env.run(t, 200, 40, "configmap/reborn", "--audit-log", e.c.AuditLog())
		term.waitFor(screenWait, "ConfigMap/reborn")
		term.send("t")
		term.waitFor(screenWait, "audit log: 0 lost updates, 1 reverted value, 0 fights", "REVERTED",
			"created again (uid "+rep.Object.UIDs[1]+")")
		term.send("Enter")
		term.waitFor(screenWait, "REVERTED: carol's kubectl replace set .data.foo back to the value it held before bob changed it", "as carol may have read")
	})

	t.Run("one user with two tools", func(t *testing.T) {
		e.t = t
		e.must("", "create", "configmap", "twotools", "--from-literal=foo=1")
		release, wait := e.slowEdit("alice", "configmap/twotools", "-e", `s/foo: "1"/foo: alice-edit/`)
		e.must("alice", "patch", "configmap", "twotools", "-p", `{"data":{"foo":"alice-patch"}}`)
		release()
		wait()
		rep, code := e.history("configmap/twotools", 3)
		if code != 0 || len(rep.LostUpdates) != 0 || len(rep.ToolChanges) != 1 || rep.ToolChanges[0].Before.Manager != "kubectl-patch" ||
			rep.ToolChanges[0].Write.Manager != "kubectl-edit" || rep.ToolChanges[0].Write.User != "alice" {
			t.Fatalf("exit %d, lost %v, tool changes %+v; want no loss seen, and the change of tool named", code, lostPaths(rep.LostUpdates), rep.ToolChanges)
		}
		out, _, _ := runBinary(t, "", "history", "configmap/twotools", "--kubeconfig", e.c.Kubeconfig(), "--audit-log", e.c.AuditLog())
		if !strings.Contains(out, "note: alice (kubectl/") || !strings.Contains(out, "wrote under 2 field managers (kubectl-patch, kubectl-edit)") ||
			!strings.Contains(out, "is not seen") {
			t.Errorf("the table does not say that alice's two tools are one client:\n%s", out)
		}
	})
}
