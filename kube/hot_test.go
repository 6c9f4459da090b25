package kube

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kedit/kedit/kube/kubetest"
	"github.com/kedit/kedit/model"
)

// heartbeatEvery is how often the tests' kubectl writes a hot object's
// status, as a kubelet or a controller would.
const heartbeatEvery = 300 * time.Millisecond

// hotNode creates a Node of the test's own (localcluster runs no node
// controller, so a Node made by hand stays as it is) and writes its status
// with kubectl every heartbeatEvery until the test ends. It returns the
// node's name and a function that says how many heartbeats landed.
func hotNode(t *testing.T, kubeconfig string) (string, func() int) {
	t.Helper()
	b := make([]byte, 3)
	_, _ = rand.Read(b)
	name := "hot-" + hex.EncodeToString(b)
	manifest := fmt.Sprintf(`{"apiVersion":"v1","kind":"Node","metadata":{"name":%q}}`, name)
	if out, err := kubectlIn(t, kubeconfig, manifest, "create", "-f", "-"); err != nil {
		t.Fatalf("creating node %s: %v\n%s", name, err, out)
	}
	t.Cleanup(func() { _, _ = kubetest.KubectlAs(t, kubeconfig, "delete", "node", name, "--wait=false") })
	var mu sync.Mutex
	beats := 0
	done := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		for i := 0; ; i++ {
			patch := fmt.Sprintf(`{"status":{"conditions":[{"type":"Ready","status":"True","reason":"KubeletReady","message":"heartbeat %d"}]}}`, i)
			if _, err := kubetest.KubectlAs(t, kubeconfig, "patch", "node", name, "--subresource=status", "--type=merge", "-p", patch); err == nil {
				mu.Lock()
				beats++
				mu.Unlock()
			}
			select {
			case <-done:
				return
			case <-time.After(heartbeatEvery):
			}
		}
	}()
	t.Cleanup(func() { close(done); <-stopped })
	return name, func() int { mu.Lock(); defer mu.Unlock(); return beats }
}

// TestEngineHotObjectLabelLandsAtOnce: a label edit on a Node whose status
// kubectl writes every 300 ms lands within 5 seconds, rebased onto the
// heartbeats at once, and the conflict view (rebasing, resolving) is never
// entered.
func TestEngineHotObjectLabelLandsAtOnce(t *testing.T) {
	t.Parallel()
	kc := kubetest.Kubeconfig(t)
	name, beats := hotNode(t, kc)
	e := newEngineAt(t, sharedCluster(t), "", "node", name, engineOptions{})
	states := e.recordStates()
	e.editDraft("metadata:\n", "metadata:\n  labels:\n    kedit-test: edited\n")
	base := e.session.Base().ResourceVersion
	// A heartbeat after the draft was made: the save meets a conflict.
	e.awaitLive(func(obj *unstructured.Unstructured) bool {
		return model.NewerResourceVersion(obj.GetResourceVersion(), base)
	})

	start := time.Now()
	e.saveSettled(10 * time.Second)
	took := time.Since(start)
	if st := e.session.State(); st != model.StateSaved {
		t.Fatalf("state %s, want saved (failure %+v)", st, e.session.Failure())
	}
	if took > 5*time.Second {
		t.Errorf("the label landed after %s, want within 5s", took.Round(time.Millisecond))
	}
	r := e.session.LastSave()
	if r.ServerRebases == 0 {
		t.Errorf("report %+v: no rebase onto a heartbeat, so the test proved nothing", r)
	}
	for _, st := range *states {
		if st == model.StateRebasing || st == model.StateResolving {
			t.Fatalf("states %v: the conflict view opened for a status change", *states)
		}
	}
	obj := readBase(t, e.runner.Target)
	if obj.GetLabels()["kedit-test"] != "edited" {
		t.Errorf("labels %v on the server", obj.GetLabels())
	}
	t.Logf("landed in %s after %d rebases onto heartbeats (%d heartbeats so far)", took.Round(time.Millisecond), r.ServerRebases, beats())
}

// TestEngineHotObjectOtherChangeStillConflicts: the same Node, but someone
// also changed a label: that goes through the conflict view.
func TestEngineHotObjectOtherChangeStillConflicts(t *testing.T) {
	t.Parallel()
	kc := kubetest.Kubeconfig(t)
	name, _ := hotNode(t, kc)
	e := newEngineAt(t, sharedCluster(t), "", "node", name, engineOptions{})
	e.editDraft("metadata:\n", "metadata:\n  labels:\n    kedit-test: mine\n")
	kubetest.MustKubectl(t, "label", "node", name, "kedit-test=theirs")
	e.awaitLive(func(obj *unstructured.Unstructured) bool { return obj.GetLabels()["kedit-test"] == "theirs" })
	// The engine performs the effects in line: the outcome is there.
	e.handle(model.SaveRequested{})
	if st := e.session.State(); st != model.StateResolving {
		t.Fatalf("state %s, want the conflict view with the label's conflict", st)
	}
	if c := e.session.Conflicts(); len(c) != 1 || !strings.Contains(c[0].Path.String(), "kedit-test") {
		t.Errorf("conflicts %v", c)
	}
}

// kubectlIn runs kubectl with kubeconfig and stdin, as a user pipes a
// manifest to it.
func kubectlIn(t *testing.T, kubeconfig, stdin string, args ...string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "kubectl", append([]string{"--kubeconfig", kubeconfig}, args...)...)
	cmd.Env = append(os.Environ(), "KUBECACHEDIR="+filepath.Join(os.TempDir(), "kedit-test-kubecache"))
	cmd.Stdin = strings.NewReader(stdin)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.String(), err
}

// hotConfigMap creates ConfigMap ns/name with foo=1 and has kubectl patch
// its .data.heartbeat every heartbeatEvery, as field manager heartbeater,
// until the test ends. It returns how many heartbeats landed so far.
func hotConfigMap(t *testing.T, ns, name string) func() int {
	t.Helper()
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", name, "--from-literal=foo=1", "--from-literal=heartbeat=0")
	var mu sync.Mutex
	beats := 0
	done, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		for i := 1; ; i++ {
			patch := fmt.Sprintf(`{"data":{"heartbeat":"%d"}}`, i)
			if _, err := kubetest.Kubectl(t, "-n", ns, "patch", "configmap", name, "--field-manager=heartbeater", "--type=merge", "-p", patch); err == nil {
				mu.Lock()
				beats++
				mu.Unlock()
			}
			select {
			case <-done:
				return
			case <-time.After(heartbeatEvery):
			}
		}
	}()
	t.Cleanup(func() { close(done); <-stopped })
	return func() int { mu.Lock(); defer mu.Unlock(); return beats }
}

// TestEngineHotDataLandsAfterOneView: a ConfigMap whose .data.heartbeat
// kubectl patches every 300 ms. The first save meets a heartbeat: a clean
// rebase, which waits for the user (the conflict view, once). The user's
// resubmit meets more heartbeats; each is rebased and resubmitted at once,
// and the save lands within 5 s of it (the contract), the view never shown
// again, foo and the heartbeats both kept.
func TestEngineHotDataLandsAfterOneView(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	beats := hotConfigMap(t, ns, "hot")
	e := newEngineAt(t, sharedCluster(t), ns, "configmap", "hot", engineOptions{})
	e.editDraft(`foo: "1"`, `foo: mine`)
	base := e.session.Base().ResourceVersion
	e.awaitLive(func(obj *unstructured.Unstructured) bool {
		return model.NewerResourceVersion(obj.GetResourceVersion(), base)
	})
	e.saveSettled(10 * time.Second)
	if st := e.session.State(); st != model.StateRebasing {
		t.Fatalf("state %s after the first save, want the clean rebase shown to the user", st)
	}
	// The user reads the view while another heartbeat lands, so that the
	// resubmit surely meets one.
	theirs := e.session.Rebase().Theirs.ResourceVersion
	e.awaitLive(func(obj *unstructured.Unstructured) bool {
		return model.NewerResourceVersion(obj.GetResourceVersion(), theirs)
	})

	states := e.recordStates()
	start := time.Now()
	if err := e.handle(model.Resubmit{}); err != nil {
		t.Fatal(err)
	}
	for e.session.State() == model.StateFailed && e.session.Failure().Kind.Retryable() && time.Since(start) < 5*time.Second {
		e.handle(model.SaveRequested{})
	}
	took := time.Since(start)
	if st := e.session.State(); st != model.StateSaved {
		t.Fatalf("state %s %s after s (failure %+v), want saved within 5 s", st, took.Round(time.Millisecond), e.session.Failure())
	}
	if took > 5*time.Second {
		t.Errorf("landed %s after s, want within 5 s", took.Round(time.Millisecond))
	}
	for _, st := range *states {
		if st == model.StateRebasing || st == model.StateResolving {
			t.Fatalf("states %v: the conflict view came again", *states)
		}
	}
	r := e.session.LastSave()
	if r.RebasedAgain.Rounds == 0 || r.RebasedAgain.Manager != "heartbeater" || strings.Join(r.RebasedAgain.Changes, ",") != ".data.heartbeat" {
		t.Errorf("report %+v: want rebases onto heartbeater's .data.heartbeat", r.RebasedAgain)
	}
	data := dataOfAt(t, sharedCluster(t), e.runner.Target)
	if data["foo"] != "mine" || data["heartbeat"] == "" || data["heartbeat"] == "0" {
		t.Errorf("on the server: %v", data)
	}
	t.Logf("landed %s after s, after %d rebases again (the last onto rv %s); %d heartbeats so far",
		took.Round(time.Millisecond), r.RebasedAgain.Rounds, r.RebasedAgain.OntoRV, beats())
}

// TestEngineHotDataNewCollisionStops: after the user's resubmit, a writer
// that changes what the user changed stops the rule: the conflict view
// comes back with that conflict. Deterministic: kubectl writes once
// before each step.
func TestEngineHotDataNewCollisionStops(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=1", "--from-literal=heartbeat=0")
	e := newEngine(t, ns, "testmap")
	e.editDraft(`foo: "1"`, `foo: mine`)
	beat := func(v string) {
		kubetest.MustKubectl(t, "-n", ns, "patch", "configmap", "testmap", "--field-manager=heartbeater", "--type=merge", "-p", `{"data":{"heartbeat":"`+v+`"}}`)
	}
	beat("1")
	e.handle(model.SaveRequested{})
	if st := e.session.State(); st != model.StateRebasing {
		t.Fatalf("state %s, want the clean rebase", st)
	}
	// A heartbeat: rebased again at once, and landed.
	beat("2")
	e.handle(model.Resubmit{})
	if r := e.session.LastSave(); e.session.State() != model.StateSaved || r.RebasedAgain.Rounds != 1 {
		t.Fatalf("state %s, report %+v", e.session.State(), r)
	}

	// Again, but theirs changes foo, which the user changed.
	e.editDraft(`foo: mine`, `foo: mine2`)
	beat("3")
	e.handle(model.SaveRequested{})
	if st := e.session.State(); st != model.StateRebasing {
		t.Fatalf("state %s, want the clean rebase", st)
	}
	kubetest.MustKubectl(t, "-n", ns, "patch", "configmap", "testmap", "--type=merge", "-p", `{"data":{"foo":"theirs"}}`)
	e.handle(model.Resubmit{})
	if st := e.session.State(); st != model.StateResolving {
		t.Fatalf("state %s, want the conflict view with foo's conflict", st)
	}
	if c := e.session.Conflicts(); len(c) != 1 || c[0].Path.String() != ".data.foo" {
		t.Errorf("conflicts %v", c)
	}
	if data := dataOf(t, e.runner.Target); data["foo"] != "theirs" {
		t.Errorf("foo = %q on the server before the user resolved it", data["foo"])
	}
}
