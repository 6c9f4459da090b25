package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kedit/kedit/internal/testwait"
	"github.com/kedit/kedit/kube/kubetest"
	"github.com/kedit/kedit/model"
)

// Churn and faults through the real binary in tmux: what the
// user sees on a hot object and when the API server dies under an edit.
// The engine's tests in kube (hot_test.go, faults_test.go) count the
// requests; these check that the shipped kedit reaches the same ends.

// heartbeat writes node's status with kubectl every 300 ms, as a kubelet
// would, until the test ends.
func heartbeat(t *testing.T, node string) {
	t.Helper()
	done, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		for i := 0; ; i++ {
			patch := fmt.Sprintf(`{"status":{"conditions":[{"type":"Ready","status":"True","reason":"KubeletReady","message":"heartbeat %d"}]}}`, i)
			_, _ = kubetest.Kubectl(t, "patch", "node", node, "--subresource=status", "--type=merge", "-p", patch)
			select {
			case <-done:
				return
			case <-time.After(300 * time.Millisecond):
			}
		}
	}()
	t.Cleanup(func() { close(done); <-stopped })
}

// nodeRV is node's resourceVersion on the server.
func nodeRV(t *testing.T, node string) string {
	return strings.TrimSpace(kubetest.MustKubectl(t, "get", "node", node, "-o", "jsonpath={.metadata.resourceVersion}"))
}

// TestE2EHotNodeLabelLands: a label edit on a Node whose status kubectl
// writes every 300 ms lands within 5 seconds of s, the status line saying
// it was rebased at once, and the conflict view never shows.
func TestE2EHotNodeLabelLands(t *testing.T) {
	t.Parallel()
	node := "hot-e2e-" + randomSuffix()
	kubetest.MustKubectlStdin(t, fmt.Sprintf(`{"apiVersion":"v1","kind":"Node","metadata":{"name":%q}}`, node), "create", "-f", "-")
	t.Cleanup(func() { _, _ = kubetest.Kubectl(t, "delete", "node", node, "--wait=false") })
	heartbeat(t, node)

	env := newKeditEnv(t, editorScript(t, `sed -i 's/^metadata:$/metadata:\n  labels:\n    kedit-test: edited/' "$1"`))
	term := env.run(t, 300, 40, "node/"+node)
	term.waitFor(screenWait, "Node/"+node, "apiVersion: v1")
	term.editAndWait("kedit-test: edited")
	// A heartbeat after the draft was made, so that the save meets one.
	rv := nodeRV(t, node)
	testwait.Eventually(t, 10*time.Second, "a heartbeat after the draft", func() bool { return nodeRV(t, node) != rv })

	term.send("s")
	_, took := term.waitUntil(screenWait, "saved rv", func(screen string) bool {
		if strings.Contains(screen, "conflict: base rv") {
			t.Fatalf("the conflict view opened for a status change:\n%s", screen)
		}
		return strings.Contains(screen, "saved rv")
	})
	if took > 5*time.Second {
		t.Errorf("the label landed %s after s, want within 5s", took.Round(time.Millisecond))
	}
	term.waitForText(screenWait, "rebased at once onto rv", "only its status had changed on the server")
	if got := kubetest.MustKubectl(t, "get", "node", node, "-o", "jsonpath={.metadata.labels.kedit-test}"); got != "edited" {
		t.Errorf("label kedit-test = %q on the server", got)
	}
	term.send("q")
	term.waitFor(screenWait, "EXIT=0")
}

// TestE2EServerKilledMidEdit: the API server is killed with SIGKILL while
// a draft is open. The header says reconnecting within 2 seconds; the
// server is started again on the same directory; the header says connected
// (the watch is back), the draft is intact on screen and on disk, and the
// save goes through once: the timeline export holds one version by kedit.
func TestE2EServerKilledMidEdit(t *testing.T) {
	t.Parallel()
	c := kubetest.NewCluster(t)
	kc := c.Kubeconfig()
	if out, err := kubetest.KubectlAs(t, kc, "create", "configmap", "crashy", "--from-literal=foo=1"); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	env := newKeditEnv(t, editorScript(t, `sed -i 's/^  foo: "1"$/  foo: mine/' "$1"`))
	env.kubeconfig = kc
	timeline := filepath.Join(t.TempDir(), "timeline.jsonl")
	term := env.start(t, "default", "configmap/crashy", "--timeline-out", timeline)
	term.waitFor(screenWait, "connected")
	term.editAndWait("foo: mine")
	draft := env.draft("default", "configmaps", "crashy", 1)
	waitFile(t, draft, holds("foo: mine"))

	c.Kill(t)
	killed := time.Now()
	term.waitFor(screenWait, "reconnecting since")
	if took := time.Since(killed); took > 2*time.Second {
		t.Errorf("reconnecting shown %s after the kill, want within 2s", took.Round(time.Millisecond))
	}
	c.Start(t)
	term.waitUntil(time.Minute, "connected again", func(s string) bool {
		return strings.Contains(s, "connected") && !strings.Contains(s, "reconnecting")
	})
	screen := term.waitFor(screenWait, "unsaved draft", "foo: mine")
	if b, err := os.ReadFile(draft); err != nil || !strings.Contains(string(b), "foo: mine") {
		t.Fatalf("the draft on disk after the restart (%v):\n%s\nscreen:\n%s", err, b, screen)
	}

	term.send("s")
	term.waitFor(screenWait, "saved rv")
	if data, err := configMapDataAt(t, kc, "default", "crashy"); err != nil || data["foo"] != "mine" {
		t.Errorf("foo = %q on the server (%v), want mine", data["foo"], err)
	}
	term.send("q")
	term.waitFor(screenWait, "EXIT=0")
	// Once kedit has quit, the export holds every version it saw.
	b, _ := os.ReadFile(timeline)
	mine := 0
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var r model.TimelineRecord
		if json.Unmarshal([]byte(l), &r) == nil && r.Manager == model.FieldManager {
			mine++
		}
	}
	if mine != 1 {
		t.Errorf("%d versions by kedit in the timeline export, want exactly one:\n%s", mine, b)
	}
	if _, err := os.Stat(draft); !os.IsNotExist(err) {
		t.Errorf("the draft is still on disk after the save (%v)", err)
	}
}

// TestE2ESaveAnswerLost: the connection is cut once the save has reached
// the server, before its answer comes back. kedit does not send it again
// blindly, nor take it for a failure: it reads the object back, finds the
// draft there, and says so; the server has the draft, written once.
func TestE2ESaveAnswerLost(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	// A value large enough that the save's request is told from the
	// client's small HTTP/2 frames (loseOver).
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=1",
		"--from-literal=pad="+strings.Repeat("p", 2048))
	log := filepath.Join(t.TempDir(), "debug.log")
	term, proxy := startThroughSlowProxy(t, ns, "configmap/testmap", editorScript(t, `sed -i 's/foo: "1"/foo: mine/' "$1"`), "--debug="+log)
	term.editAndWait()
	// The server's check of the draft back from $EDITOR, a dry run, is as
	// large a request as the save: the proxy is to lose the save's answer,
	// so it waits until the dry run was answered (--debug's log has a
	// request's line once its answer came).
	term.waitUntil(screenWait, "the draft's dry run answered", func(string) bool {
		for _, r := range debugRequests(t, log, 0) {
			if strings.Contains(r, "dryRun=All") {
				return true
			}
		}
		return false
	})
	_, before := configMapData(t, ns, "testmap")
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("the requests --debug logged:\n%s", strings.Join(debugRequests(t, log, 0), "\n"))
		}
	})
	proxy.loseNext.Store(true)
	term.send("s")
	screen := term.waitForText(screenWait, "the server's answer was lost; read back, the object holds the draft, so nothing was sent again")
	if proxy.loseNext.Load() {
		t.Fatal("no request was cut")
	}
	data, rv := configMapData(t, ns, "testmap")
	if data["foo"] != "mine" {
		t.Errorf("the server has foo %q, want mine", data["foo"])
	}
	if got := savedRV.FindString(screen); got != "saved rv "+rv {
		t.Errorf("kedit says %q, the server is at rv %s (from %s): written again?\n%s", got, rv, before, screen)
	}
}
