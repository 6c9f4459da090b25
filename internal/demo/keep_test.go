package demo

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/kedit/kedit/internal/fsutil"
	"github.com/kedit/kedit/kube/kubetest"
)

// TestKeptDemoStartsAgain: a demo made with Keep leaves its directory,
// audit log included, when it ends; one opened on it again (Dir) has the
// objects as they were, with the same history, and its log goes on.
// While one runs on the directory, another is refused.
func TestKeptDemoStartsAgain(t *testing.T) {
	kubetest.Kubeconfig(t) // an integration test: not with -short
	bin, err := kubetest.Binary()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "class")
	d, err := Open(ctx, bin, Options{Keep: dir})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = d.Close() })
	cms := configMaps(t, d.Kubeconfig)
	kept, err := cms.Patch(ctx, "testmap", types.MergePatchType, []byte(`{"data":{"foo":"kept"}}`), metav1.PatchOptions{FieldManager: "class"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Open(ctx, bin, Options{Dir: dir}); !errors.As(err, new(*InUseError)) || !strings.Contains(err.Error(), "in use") {
		t.Errorf("a second demo on the running one's directory: %v; want InUseError", err)
	}
	pid := d.cluster.Pid()
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	if fsutil.ProcessAlive(pid) {
		t.Errorf("cluster %d still runs after Close", pid)
	}
	log, err := os.ReadFile(filepath.Join(dir, "audit.log"))
	if err != nil || !strings.Contains(string(log), "fieldManager=class") {
		t.Fatalf("the kept audit log (%v) lacks the patch", err)
	}

	again, err := Open(ctx, bin, Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = again.Close() })
	if again.Dir != dir || !again.Kept || again.AuditLog != filepath.Join(dir, "audit.log") {
		t.Errorf("opened again: dir %s kept %v log %s", again.Dir, again.Kept, again.AuditLog)
	}
	obj, err := configMaps(t, again.Kubeconfig).Get(ctx, "testmap", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if foo, _, _ := unstructured.NestedString(obj.Object, "data", "foo"); foo != "kept" || obj.GetResourceVersion() != kept.GetResourceVersion() {
		t.Errorf("testmap after the restart: foo %q rv %s; want kept at rv %s", foo, obj.GetResourceVersion(), kept.GetResourceVersion())
	}
	checkClass(t, again.Kubeconfig)
	if err := again.Close(); err != nil {
		t.Fatal(err)
	}
	if log2, _ := os.ReadFile(filepath.Join(dir, "audit.log")); !strings.HasPrefix(string(log2), string(log)) || len(log2) <= len(log) {
		t.Errorf("the audit log did not go on from the kept one (%d bytes, then %d)", len(log), len(log2))
	}
}

// TestKeptDirectoryRefusals: --dir on what is not a kept demo, and
// --keep on a directory with something in it, are refused before
// anything starts, each saying what to do.
func TestKeptDirectoryRefusals(t *testing.T) {
	ctx := context.Background()
	empty, full, kept := t.TempDir(), t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(full, "notes"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := keptDir(Options{Keep: kept}); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(kept, "cluster"), 0o700); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		o    Options
		want string
	}{
		{Options{Dir: empty}, "is not a kept demo directory (no kedit-demo file in it); kedit demo --keep"},
		{Options{Dir: filepath.Join(empty, "none")}, "is not a kept demo directory (no such directory)"},
		{Options{Keep: full}, "is not empty; --keep makes a demo in a new or empty directory"},
		{Options{Keep: kept}, "holds a kept demo already; kedit demo --dir " + kept + " starts again on it"},
		{Options{Keep: empty, Dir: kept}, "give one of them"},
	} {
		if _, err := Open(ctx, "/nonexistent/localcluster", c.o); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Open(%+v): %v; want %q", c.o, err, c.want)
		}
	}
	if entries, _ := os.ReadDir(empty); len(entries) != 0 {
		t.Errorf("a refusal left %v in %s", entries, empty)
	}
}

// configMaps is the admin's client of the demo's ConfigMaps.
func configMaps(t *testing.T, kubeconfig string) dynamic.ResourceInterface {
	t.Helper()
	cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	dc, err := dynamic.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return dc.Resource(configMapsResource).Namespace(Namespace)
}
