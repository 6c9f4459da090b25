package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/kedit/kedit/kube/kubetest"
	"github.com/kedit/kedit/model"
)

// poll waits until ok holds, failing with what after timeout.
func poll(t *testing.T, timeout time.Duration, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %s", what, timeout)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// TestE2EDemo runs `kedit demo` with the real binaries, localcluster next
// to kedit as make builds them: the object view opens on testmap, the demo
// writer's writes show, and after q the cluster process and the demo's
// directory are gone.
func TestE2EDemo(t *testing.T) {
	// An integration test, left out by -short like the others, though
	// the demo runs a cluster of its own.
	kubetest.Kubeconfig(t)
	kedit := keditBinary(t)
	lc, err := kubetest.Binary()
	if err != nil {
		t.Fatal(err)
	}
	// Next to kedit, where `make demo` puts it. kedit finds itself
	// through /proc/self/exe, which a symbolic link would not change:
	// this kedit is a hard link.
	dir := t.TempDir()
	bin := filepath.Join(dir, "kedit")
	if err := os.Link(kedit, bin); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(lc, filepath.Join(dir, "localcluster")); err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	env := []string{"TMPDIR=" + tmp, "TERM=xterm-256color", "PATH=/usr/bin:/bin"}
	term := startTerminal(t, 100, 30, env, bin, "demo", "--demo-interval", "1s")
	term.waitFor(2*time.Minute, "ConfigMap/testmap", "namespace default", "foo:")

	dirs, _ := filepath.Glob(filepath.Join(tmp, "kedit-demo-*"))
	if len(dirs) != 1 {
		t.Fatalf("demo directories %v, want one", dirs)
	}
	b, err := os.ReadFile(filepath.Join(dirs[0], "localcluster.pid"))
	if err != nil {
		t.Fatal(err)
	}
	var pid int
	if err := json.Unmarshal(b, &pid); err != nil || pid <= 0 {
		t.Fatalf("localcluster.pid holds %q", b)
	}
	// The demo writer at work: the live object changes under the view.
	term.waitFor(screenWait, `bar: "1"`)

	term.send("q")
	term.waitFor(screenWait, "EXIT=0")
	poll(t, 30*time.Second, "the cluster process exits", func() bool { return syscall.Kill(pid, 0) != nil })
	poll(t, 30*time.Second, "the demo directory goes", func() bool {
		_, err := os.Stat(dirs[0])
		return os.IsNotExist(err)
	})
}

// TestE2ETimelineOut runs kedit with --timeline-out while kubectl writes:
// each version becomes one JSON line with its writer and changed paths.
func TestE2ETimelineOut(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=1")
	out := filepath.Join(t.TempDir(), "incident.jsonl")
	env := []string{"XDG_STATE_HOME=" + t.TempDir(), "KUBECACHEDIR=" + t.TempDir(), "TERM=xterm-256color"}
	term := startTerminal(t, 100, 30, env, keditBinary(t), "--kubeconfig", kubetest.Kubeconfig(t), "-n", ns,
		"--timeline-out", out, "configmap/testmap")
	term.waitFor(screenWait, "ConfigMap/testmap")
	kubetest.MustKubectl(t, "-n", ns, "patch", "configmap", "testmap", "--type=merge", "-p", `{"data":{"foo":"2"}}`)
	kubetest.MustKubectl(t, "-n", ns, "patch", "configmap", "testmap", "--type=merge", "-p", `{"data":{"bar":"x"}}`)

	var recs []model.TimelineRecord
	poll(t, screenWait, "three timeline lines", func() bool {
		b, _ := os.ReadFile(out)
		recs = nil
		for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			var r model.TimelineRecord
			if json.Unmarshal([]byte(l), &r) == nil {
				recs = append(recs, r)
			}
		}
		return len(recs) >= 3
	})
	term.send("q")
	term.waitFor(screenWait, "EXIT=0")
	if len(recs) != 3 {
		t.Fatalf("%d lines: %+v", len(recs), recs)
	}
	paths := func(r model.TimelineRecord) string {
		var ps []string
		for _, c := range r.Changes {
			ps = append(ps, c.Kind+" "+c.Path)
		}
		return strings.Join(ps, ",")
	}
	if recs[0].Manager != "kubectl-create" || recs[1].Manager != "kubectl-patch" || paths(recs[1]) != "modified .data.foo" ||
		paths(recs[2]) != "added .data.bar" || recs[2].Object != "configmaps/testmap -n "+ns {
		t.Errorf("timeline lines: %+v", recs)
	}
}
