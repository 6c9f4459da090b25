package demo

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/kedit/kedit/internal/fsutil"
	"github.com/kedit/kedit/internal/testwait"
	"github.com/kedit/kedit/kube/kubetest"
)

// TestDemoStartAndClose runs kedit demo's setup and teardown against a
// cluster of the demo's own: the cluster comes up in a fresh directory, the
// objects are there, the demo writer writes as demo-writer and reports it,
// and Close leaves neither the process nor the directory.
func TestDemoStartAndClose(t *testing.T) {
	kubetest.Kubeconfig(t) // an integration test: not with -short
	bin, err := kubetest.Binary()
	if err != nil {
		t.Fatal(err)
	}
	parent := t.TempDir()
	ctx := context.Background()
	d, err := Open(ctx, bin, Options{Parent: parent})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = d.Close() })
	if filepath.Dir(d.Dir) != parent || !strings.HasPrefix(filepath.Base(d.Dir), "kedit-demo-") {
		t.Errorf("demo directory %s, want a kedit-demo-* under %s", d.Dir, parent)
	}
	pid := d.cluster.Pid()
	if pid == 0 || !fsutil.ProcessAlive(pid) {
		t.Fatalf("cluster pid %d is not running", pid)
	}
	if b, _ := os.ReadFile(filepath.Join(d.Dir, ClusterPIDFile)); string(b) != strconv.Itoa(pid) {
		t.Errorf("%s holds %q, want %d", ClusterPIDFile, b, pid)
	}

	cfg, err := clientcmd.BuildConfigFromFlags("", d.Kubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	dc, err := dynamic.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	data := func(name string) map[string]string {
		obj, err := dc.Resource(configMapsResource).Namespace(Namespace).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		m, _, _ := unstructured.NestedStringMap(obj.Object, "data")
		return m
	}
	if got := data("testmap"); len(got) != 1 || got["foo"] != "1" {
		t.Errorf("testmap data %v", got)
	}
	if got := data("nginx-conf"); got["nginx.conf"] != NginxConf {
		t.Errorf("nginx-conf data %v", got)
	}

	w := NewWriter(dc, configMapTarget("localcluster", Namespace, "testmap"), 0)
	w.Start(ctx)
	w.WriteNow()
	report := nextWrite(t, w)
	w.Stop()
	if !strings.HasPrefix(report.String(), `demo-writer set .data.foo = "2" (rv `) {
		t.Errorf("report %q", report)
	}
	if got := data("testmap"); got["foo"] != "2" {
		t.Errorf("testmap data after the write %v", got)
	}
	// The demo's cluster writes an audit log, with the writer's patch in it.
	testwait.Eventually(t, 30*time.Second, "a write of demo-writer in the demo's audit log "+d.AuditLog, func() bool {
		b, _ := os.ReadFile(d.AuditLog)
		return strings.Contains(string(b), "fieldManager="+WriterManager)
	})
	// A class: alice and bob may edit, anyone else gets a 403.
	checkClass(t, d.Kubeconfig)

	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	if fsutil.ProcessAlive(pid) {
		t.Errorf("cluster %d still runs after Close", pid)
	}
	if _, err := os.Stat(d.Dir); !os.IsNotExist(err) {
		t.Errorf("the demo directory is still there: %v", err)
	}
	if err := d.Close(); err != nil {
		t.Errorf("a second Close: %v", err)
	}
}

func TestAbandonedDemoDirectoriesAreRemoved(t *testing.T) {
	parent := t.TempDir()
	// A demo whose kedit is gone: a process that has exited.
	exited := exec.Command("true")
	if err := exited.Run(); err != nil {
		t.Fatal(err)
	}
	mk := func(name string, owner string) string {
		dir := filepath.Join(parent, name)
		if err := os.MkdirAll(filepath.Join(dir, "cluster"), 0o700); err != nil {
			t.Fatal(err)
		}
		if owner != "" {
			if err := os.WriteFile(filepath.Join(dir, ownerFile), []byte(owner), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		return dir
	}
	abandoned := mk("kedit-demo-1", strconv.Itoa(exited.Process.Pid))
	running := mk("kedit-demo-2", strconv.Itoa(os.Getpid()))
	unmarked := mk("kedit-demo-3", "")
	other := mk("not-a-demo", strconv.Itoa(exited.Process.Pid))
	kept := mk("kedit-demo-4", strconv.Itoa(exited.Process.Pid))
	if err := os.WriteFile(filepath.Join(kept, keptFile), []byte(keptNote), 0o600); err != nil {
		t.Fatal(err)
	}
	removeAbandonedDemos(parent)
	for dir, want := range map[string]bool{abandoned: false, running: true, unmarked: true, other: true, kept: true} {
		_, err := os.Stat(dir)
		if exists := err == nil; exists != want {
			t.Errorf("%s exists = %v, want %v", filepath.Base(dir), exists, want)
		}
	}
}

func TestFindLocalClusterSaysHowToBuildIt(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	_, err := FindLocalCluster()
	if err == nil {
		// The test binary's directory holds no localcluster, and PATH is
		// empty: nothing can be found.
		t.Fatal("found a localcluster in an empty PATH")
	}
	if !strings.Contains(err.Error(), "make localcluster") {
		t.Errorf("error %q does not say how to build one", err)
	}
	dir := t.TempDir()
	fake := filepath.Join(dir, "localcluster")
	if err := os.WriteFile(fake, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir)
	if got, err := FindLocalCluster(); err != nil || got != fake {
		t.Errorf("FindLocalCluster = %q, %v; want %s from PATH", got, err, fake)
	}
}
