package demo

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kedit/kedit/diff"
	"github.com/kedit/kedit/internal/testwait"
	"github.com/kedit/kedit/kube"
	"github.com/kedit/kedit/kube/kubetest"
)

// configMapTarget names ConfigMap name in namespace ns as kube.Resolve
// would, without asking a server.
func configMapTarget(ctx, ns, name string) *kube.Target {
	return &kube.Target{
		Context:   ctx,
		Namespace: ns,
		Name:      name,
		Mapping: &meta.RESTMapping{
			Resource:         schema.GroupVersionResource{Version: "v1", Resource: "configmaps"},
			GroupVersionKind: schema.GroupVersionKind{Version: "v1", Kind: "ConfigMap"},
			Scope:            meta.RESTScopeNamespace,
		},
	}
}

func configMap(data map[string]any) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"name": "testmap", "namespace": "default"},
		"data":     data,
	}}
}

func TestDemoChangeAlternates(t *testing.T) {
	obj := configMap(map[string]any{"foo": "1"})
	var keys demoKeys
	var got []string
	for step := range 5 {
		got = append(got, demoChange(obj, step, &keys).String())
	}
	want := []string{
		`demo-writer set .data.foo = "2" (rv )`,
		`demo-writer set .data.bar = "1" (rv )`,
		`demo-writer set .data.foo = "3" (rv )`,
		`demo-writer set .data.bar = "2" (rv )`,
		`demo-writer set .data.foo = "4" (rv )`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("writes:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	// A config file: the user's line and a line far enough from it that
	// a line merge takes both.
	nginx := configMap(map[string]any{"nginx.conf": NginxConf})
	keys = demoKeys{}
	w0 := demoChange(nginx, 0, &keys)
	w1 := demoChange(nginx, 1, &keys)
	if w0.String() != `demo-writer set .data.nginx.conf line 7 = "worker_connections 2048;" (rv )` ||
		w1.String() != `demo-writer set .data.nginx.conf line 23 = "keepalive_timeout 66;" (rv )` {
		t.Errorf("nginx writes: %s; %s", w0, w1)
	}
	// The user changed worker_connections too: the writer's second write
	// merges cleanly with it, its first conflicts.
	conf, _, _ := unstructured.NestedString(nginx.Object, "data", "nginx.conf")
	mine := strings.Replace(NginxConf, "worker_connections 1024;", "worker_connections 4096;", 1)
	afterFirst := strings.Replace(NginxConf, "worker_connections 1024;", "worker_connections 2048;", 1)
	if m := diff.Merge3Text(mine, NginxConf, afterFirst, diff.TextOptions{}); m.Conflicts != 1 {
		t.Errorf("the first write does not collide with the user's line: %d conflicts", m.Conflicts)
	}
	afterSecond := strings.Replace(NginxConf, "keepalive_timeout 65;", "keepalive_timeout 66;", 1)
	if m := diff.Merge3Text(mine, NginxConf, afterSecond, diff.TextOptions{}); m.Conflicts != 0 {
		t.Errorf("the second write collides with the user's line: %d conflicts", m.Conflicts)
	}
	if strings.Count(NginxConf, "\n") != 60 || strings.Count(conf, "\n") != 60 {
		t.Errorf("nginx.conf has %d lines, want 60", strings.Count(NginxConf, "\n"))
	}

	// Another kind: annotations of the writer's own.
	sec := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "Secret", "metadata": map[string]any{"name": "s"}}}
	if w := demoChange(sec, 0, &demoKeys{}); w.Path != ".metadata.annotations.demo.kedit.io/write" || sec.GetAnnotations()["demo.kedit.io/write"] != "1" {
		t.Errorf("secret write %+v, annotations %v", w, sec.GetAnnotations())
	}
	if s := (Write{Path: ".data.foo", Err: errors.New("boom")}).String(); s != "demo-writer could not set .data.foo: boom" {
		t.Errorf("failed write says %q", s)
	}
}

// nextWrite waits for the writer's next report.
func nextWrite(t *testing.T, w *Writer) Write {
	t.Helper()
	select {
	case r, ok := <-w.Writes():
		if !ok {
			t.Fatal("the writer stopped")
		}
		if r.Err != nil {
			t.Fatalf("write failed: %v", r.Err)
		}
		return r
	case <-time.After(30 * time.Second):
		t.Fatal("no write within 30s")
	}
	return Write{}
}

func TestDemoWriterWritesAsDemoWriter(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	dc := kubetest.Dynamic(t)
	ctx := context.Background()
	if err := CreateObjects(ctx, dc, ns); err != nil {
		t.Fatal(err)
	}
	// Again: the objects are there, and left as they are.
	if err := CreateObjects(ctx, dc, ns); err != nil {
		t.Fatal(err)
	}

	for _, name := range []string{"testmap", "nginx-conf"} {
		target := configMapTarget("", ns, name)
		w := NewWriter(dc, target, 0)
		w.Start(ctx)
		w.WriteNow()
		first := nextWrite(t, w)
		w.WriteNow()
		second := nextWrite(t, w)
		w.Stop()
		w.Stop()
		if _, open := <-w.Writes(); open {
			t.Errorf("%s: Writes is open after Stop", name)
		}

		obj, err := target.Resource(dc).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if second.ResourceVersion != obj.GetResourceVersion() || first.ResourceVersion == second.ResourceVersion {
			t.Errorf("%s: writes at rv %s and %s, object at %s", name, first.ResourceVersion, second.ResourceVersion, obj.GetResourceVersion())
		}
		managers := map[string]bool{}
		for _, mf := range obj.GetManagedFields() {
			managers[mf.Manager] = true
		}
		if !managers[WriterManager] {
			t.Errorf("%s: managedFields %v lack %s", name, managers, WriterManager)
		}
		data, _, _ := unstructured.NestedStringMap(obj.Object, "data")
		switch name {
		case "testmap":
			if data["foo"] != "2" || data["bar"] != "1" || first.Path != ".data.foo" || second.Path != ".data.bar" {
				t.Errorf("testmap: data %v after %s; %s", data, first, second)
			}
		case "nginx-conf":
			want := strings.Replace(strings.Replace(NginxConf, "worker_connections 1024;", "worker_connections 2048;", 1), "keepalive_timeout 65;", "keepalive_timeout 66;", 1)
			if data["nginx.conf"] != want {
				t.Errorf("nginx.conf after the writes:\n%s", data["nginx.conf"])
			}
		}
	}

	// On a timer, with nobody asking.
	w := NewWriter(dc, configMapTarget("", ns, "testmap"), 50*time.Millisecond)
	w.Start(ctx)
	a, b := nextWrite(t, w), nextWrite(t, w)
	w.Stop()
	if a.Path != ".data.foo" || b.Path != ".data.bar" {
		t.Errorf("timed writes %s; %s", a, b)
	}

	// A writer nobody reads never stalls: the writes go on, the reports
	// beyond the buffer are dropped.
	w = NewWriter(dc, configMapTarget("", ns, "testmap"), time.Millisecond)
	w.Start(ctx)
	testwait.Until(30*time.Second, func() bool { return len(w.writes) >= demoWritesBuffered })
	before, _ := configMapTarget("", ns, "testmap").Resource(dc).Get(ctx, "testmap", metav1.GetOptions{})
	wrote := testwait.Until(30*time.Second, func() bool {
		now, _ := configMapTarget("", ns, "testmap").Resource(dc).Get(ctx, "testmap", metav1.GetOptions{})
		return now.GetResourceVersion() != before.GetResourceVersion()
	})
	w.Stop()
	if !wrote {
		t.Error("the writer stalled with its reports unread")
	}
}

// TestKubectlEditLosesWhatWasSavedMeanwhile plays the demo's W on a real
// API server: the kubectl edit reads foo, the user saves foo meanwhile,
// and the edit's patch, with no resourceVersion, as another user, puts
// foo back: the user's value is lost. Played again with nothing saved
// meanwhile, it writes foo back unchanged; asked twice, it writes once.
func TestKubectlEditLosesWhatWasSavedMeanwhile(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	dc := kubetest.Dynamic(t)
	ctx := context.Background()
	if err := CreateObjects(ctx, dc, ns); err != nil {
		t.Fatal(err)
	}
	// alice edits by RBAC's leave, as in the demo.
	if err := GrantEdit(ctx, dc, ns); err != nil {
		t.Fatal(err)
	}
	editor, err := EditorClient(kubetest.Kubeconfig(t))
	if err != nil {
		t.Fatal(err)
	}
	target := configMapTarget("", ns, "testmap")
	w := NewWriter(dc, target, 0).WithEditor(editor)
	w.Start(ctx)
	defer w.Stop()

	w.KubectlEdit()
	read := nextWrite(t, w)
	if read.Edit != EditRead || read.Path != ".data.foo" || read.Value != "1" ||
		!strings.HasPrefix(read.String(), `alice's kubectl edit read .data.foo = "1" (rv `) {
		t.Fatalf("read report %+v: %s", read, read)
	}
	w.KubectlEdit()
	if busy := nextWrite(t, w); busy.Edit != EditBusy || busy.String() != "alice's kubectl edit is still waiting to write .data.foo back" {
		t.Errorf("a second W while the first waits: %s", busy)
	}
	// The user's save, meanwhile.
	kubetest.MustKubectl(t, "-n", ns, "patch", "configmap", "testmap", "-p", `{"data":{"foo":"mine"}}`)
	wrote := nextWrite(t, w)
	obj, err := target.Resource(dc).Get(ctx, "testmap", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	foo, _, _ := unstructured.NestedString(obj.Object, "data", "foo")
	if wrote.Edit != EditWrote || wrote.Unchanged || foo != "1" || wrote.ResourceVersion != obj.GetResourceVersion() ||
		!strings.HasPrefix(wrote.String(), `alice's kubectl edit set .data.foo back to "1" (rv `) || !strings.HasSuffix(wrote.String(), "): a lost update; t shows it") {
		t.Errorf("the write back: %s; foo = %q at rv %s", wrote, foo, obj.GetResourceVersion())
	}
	managers := map[string]bool{}
	for _, mf := range obj.GetManagedFields() {
		managers[mf.Manager] = true
	}
	if !managers[EditorManager] {
		t.Errorf("managedFields %v lack %s", managers, EditorManager)
	}

	// Nothing saved meanwhile: foo written back as it was, no version.
	w.KubectlEdit()
	if r := nextWrite(t, w); r.Edit != EditRead || r.ResourceVersion != obj.GetResourceVersion() {
		t.Fatalf("second read %+v", r)
	}
	if r := nextWrite(t, w); !r.Unchanged || r.ResourceVersion != obj.GetResourceVersion() ||
		r.String() != `alice's kubectl edit wrote .data.foo = "1" back: unchanged since it read it, nothing lost` {
		t.Errorf("an edit with nothing between: %s (rv %s, object at %s)", r, r.ResourceVersion, obj.GetResourceVersion())
	}
}

// TestNextWritesChoosesTheField: NextWrites makes the next write the
// user's field or the other one, whatever the writes before it were, and
// the writes after it alternate from there (the tour's steps rely on it).
func TestNextWritesChoosesTheField(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	dc := kubetest.Dynamic(t)
	ctx := context.Background()
	if err := CreateObjects(ctx, dc, ns); err != nil {
		t.Fatal(err)
	}
	w := NewWriter(dc, configMapTarget("", ns, "testmap"), 0)
	w.Start(ctx)
	defer w.Stop()
	var paths []string
	for _, mine := range []bool{false, false, true, true} {
		w.NextWrites(mine)
		w.WriteNow()
		paths = append(paths, nextWrite(t, w).Path)
	}
	w.WriteNow()
	paths = append(paths, nextWrite(t, w).Path)
	if want := ".data.bar .data.bar .data.foo .data.foo .data.bar"; strings.Join(paths, " ") != want {
		t.Errorf("writes %v, want %s", paths, want)
	}
}
