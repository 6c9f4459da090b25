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
