package e2e

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/kedit/kedit/internal/testwait"
	"github.com/kedit/kedit/kube/kubetest"
	"github.com/kedit/kedit/model"
)

// An object deleted and created again under a draft, and an object whose
// data another writer patches every 300 ms, through the real binary in
// tmux with kubectl as the other writer.

// TestE2ERecreatedAsksBeforeSaving: with a draft open, `kubectl delete cm
// testmap && kubectl create cm testmap ...`. The banner says the object
// was deleted and created again, with the new uid's first 8 characters;
// s asks, with or without --auto-rebase; n keeps the draft (on screen and
// on disk) and writes nothing; y saves onto the new object, through the
// conflict view titled `theirs is a new object (created again at rv N)`
// (--auto-rebase resubmits that clean rebase without showing it).
func TestE2ERecreatedAsksBeforeSaving(t *testing.T) {
	for _, auto := range []bool{false, true} {
		t.Run(fmt.Sprintf("auto-rebase=%v", auto), func(t *testing.T) {
			t.Parallel()
			ns := kubetest.Namespace(t)
			kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=1")
			env := newKeditEnv(t, editorScript(t, `sed -i 's/foo: "1"/foo: mine/' "$1"`))
			var flags []string
			if auto {
				flags = append(flags, "--auto-rebase")
			}
			term := env.start(t, ns, "configmap/testmap", flags...)
			term.editAndWait("foo: mine")
			draft := env.draft(ns, "configmaps", "testmap", 1)
			waitFile(t, draft, holds("foo: mine"))

			kubetest.MustKubectl(t, "-n", ns, "delete", "configmap", "testmap")
			kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=1", "--from-literal=newteam=x")
			uid := strings.TrimSpace(kubetest.MustKubectl(t, "-n", ns, "get", "configmap", "testmap", "-o", "jsonpath={.metadata.uid}"))
			created := strings.TrimSpace(kubetest.MustKubectl(t, "-n", ns, "get", "configmap", "testmap", "-o", "jsonpath={.metadata.resourceVersion}"))
			screen := term.waitForText(screenWait, "deleted and created again on server", "a new object (uid "+uid[:8]+") at rv "+created+" by kubectl-create")
			if strings.Contains(screen, "changed on server") || strings.Contains(screen, uid) {
				t.Fatalf("the banner shows an ordinary change, or the whole uid:\n%s", screen)
			}

			term.send("s")
			term.waitForText(screenWait, "your draft was made on an earlier object of this name, deleted since; save it onto the new one? (y/n)")
			term.send("n")
			term.waitFor(screenWait, "not saved; the draft is kept", "foo: mine")
			waitFile(t, draft, holds("foo: mine"))
			if data, rv := configMapData(t, ns, "testmap"); data["foo"] != "1" || rv != created {
				t.Fatalf("after n the server holds %v at rv %s, want the new object untouched at rv %s", data, rv, created)
			}

			term.send("s")
			term.waitForText(screenWait, "save it onto the new one? (y/n)")
			term.send("y")
			if !auto {
				term.waitFor(screenWait, "clean rebase: theirs is a new object (created again at rv "+created+")", ".data.newteam")
				term.send("s")
			}
			screen = term.waitFor(screenWait, "saved rv", "onto the new object (uid "+uid[:8]+")")
			if auto && strings.Contains(screen, "conflict:") {
				t.Errorf("the conflict view shows with --auto-rebase:\n%s", screen)
			}
			data, _ := configMapData(t, ns, "testmap")
			got := strings.TrimSpace(kubetest.MustKubectl(t, "-n", ns, "get", "configmap", "testmap", "-o", "jsonpath={.metadata.uid}"))
			if data["foo"] != "mine" || data["newteam"] != "x" || got != uid {
				t.Errorf("on the server: uid %s, data %v; want the new object with foo=mine and its newteam", got, data)
			}
			term.send("q")
			term.waitFor(screenWait, "EXIT=0")
		})
	}
}

// TestE2EDeletedUnderDraftOffersToCreateIt: with a draft open, kubectl
// delete. The banner says what s does (create it again), never offers a
// rebase, which has nothing to rebase onto; s says so, s again creates the
// object from the draft.
func TestE2EDeletedUnderDraftOffersToCreateIt(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=1")
	env := newKeditEnv(t, editorScript(t, `sed -i 's/foo: "1"/foo: mine/' "$1"`))
	term := env.start(t, ns, "configmap/testmap")
	term.editAndWait("foo: mine")
	kubetest.MustKubectl(t, "-n", ns, "delete", "configmap", "testmap")
	term.waitFor(screenWait, "deleted on server: rv", "s offers to create it again from the draft")
	term.stillNot("rebase now")
	term.send("s")
	term.waitForText(screenWait, "the object was deleted on the server; s creates it again from the draft")
	term.send("s")
	term.waitFor(screenWait, "saved rv")
	if data, _ := configMapData(t, ns, "testmap"); data["foo"] != "mine" {
		t.Errorf("on the server: %v, want the object created again from the draft", data)
	}
	term.send("q")
	term.waitFor(screenWait, "EXIT=0")
}

// heartbeater patches ns/name's .data.heartbeat with kubectl every 300 ms
// as field manager heartbeater, until the test ends.
func heartbeater(t *testing.T, ns, name string) {
	t.Helper()
	done, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		for i := 1; ; i++ {
			_, _ = kubetest.Kubectl(t, "-n", ns, "patch", "configmap", name, "--field-manager=heartbeater", "--type=merge",
				"-p", fmt.Sprintf(`{"data":{"heartbeat":"%d"}}`, i))
			select {
			case <-done:
				return
			case <-time.After(300 * time.Millisecond):
			}
		}
	}()
	t.Cleanup(func() { close(done); <-stopped })
}

// configMapRV is ns/name's resourceVersion on the server.
func configMapRV(t *testing.T, ns, name string) string {
	return strings.TrimSpace(kubetest.MustKubectl(t, "-n", ns, "get", "configmap", name, "-o", "jsonpath={.metadata.resourceVersion}"))
}

var theirsRV = regexp.MustCompile(`theirs rv (\d+)`)

// TestE2EHotDataLands: a ConfigMap whose .data.heartbeat kubectl patches
// every 300 ms, a draft changing .data.foo. s shows the clean rebase (the
// conflict view, once); s there lands within 5 s (the contract, polled
// for), rebased again at once onto the heartbeats that came meanwhile and
// saying so, and the conflict view is not shown again. With --auto-rebase
// s lands with no view at all.
func TestE2EHotDataLands(t *testing.T) {
	for _, auto := range []bool{false, true} {
		t.Run(fmt.Sprintf("auto-rebase=%v", auto), func(t *testing.T) {
			t.Parallel()
			ns := kubetest.Namespace(t)
			kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "hot", "--from-literal=foo=1", "--from-literal=heartbeat=0")
			heartbeater(t, ns, "hot")
			env := newKeditEnv(t, editorScript(t, `sed -i 's/foo: "1"/foo: mine/' "$1"`))
			var flags []string
			if auto {
				flags = append(flags, "--auto-rebase")
			}
			term := env.start(t, ns, "configmap/hot", flags...)
			term.editAndWait("foo: mine")
			// A heartbeat after the draft was made, so that the save meets
			// one.
			term.waitFor(screenWait, "changed on server", "by heartbeater", ".data.heartbeat")

			var views []string
			start := time.Now()
			term.send("s")
			if !auto {
				screen := term.waitFor(screenWait, "clean rebase: ", ".data.heartbeat")
				m := theirsRV.FindStringSubmatch(screen)
				if m == nil {
					t.Fatalf("no theirs rv in the title:\n%s", screen)
				}
				views = append(views, m[1])
				// The user reads the view while another heartbeat lands, so
				// that the resubmit surely meets one.
				testwait.Eventually(t, screenWait, "a heartbeat after theirs", func() bool { return model.NewerResourceVersion(configMapRV(t, ns, "hot"), m[1]) })
				start = time.Now()
				term.send("s")
			}
			screen, _ := term.waitUntil(5*time.Second, "the save land within 5 s of s (the contract)", func(screen string) bool {
				if m := theirsRV.FindStringSubmatch(screen); m != nil && (len(views) == 0 || views[len(views)-1] != m[1]) {
					views = append(views, m[1])
				}
				return strings.Contains(screen, "saved rv")
			})
			took := time.Since(start)
			if n := len(views); !auto && n != 1 || auto && n != 0 {
				t.Errorf("the conflict view was shown with theirs at rvs %v, want at most once (none with --auto-rebase)", views)
			}
			switch {
			case !auto && !strings.Contains(screen, "(rebased again onto rv ") || !auto && !strings.Contains(screen, ".data.heartbeat by heartbeater"):
				t.Errorf("the status does not say what was rebased again:\n%s", screen)
			case auto && !strings.Contains(screen, ".data.heartbeat"):
				t.Errorf("the status does not say what was merged:\n%s", screen)
			}
			data, _ := configMapData(t, ns, "hot")
			if data["foo"] != "mine" || data["heartbeat"] == "0" {
				t.Errorf("on the server: %v", data)
			}
			t.Logf("landed %s after s", took.Round(time.Millisecond))
			term.send("q")
			term.waitFor(screenWait, "EXIT=0")
		})
	}
}
