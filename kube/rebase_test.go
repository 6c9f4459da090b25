package kube

import (
	"context"
	"errors"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/discovery"

	"github.com/kedit/kedit/diff"
	"github.com/kedit/kedit/kube/kubetest"
)

// These tests run the whole conflict cycle against the real server: save
// from base, 409, theirs, MergeObjects, resolutions, resubmit with theirs'
// resourceVersion, and check what the server holds at the end.

// saveOrRebase saves mine over base; on a conflict it fetches theirs and
// merges, returning the merge for the caller to resolve.
func saveOrRebase(t *testing.T, target *Target, base, mine *unstructured.Unstructured, opts ...diff.Option) (*unstructured.Unstructured, *diff.ObjectMerge, *unstructured.Unstructured) {
	t.Helper()
	ctx := context.Background()
	dc := kubetest.Dynamic(t)
	saved, err := Save(ctx, dc, target, StrategyUpdate, base, mine, SaveOptions{})
	if err == nil {
		return saved, nil, nil
	}
	var conflict *ConflictError
	if !errors.As(err, &conflict) {
		t.Fatalf("save: %v", err)
	}
	theirs, err := Get(ctx, dc, target)
	if err != nil {
		t.Fatal(err)
	}
	m, err := diff.MergeObjects(base, mine, theirs, opts...)
	if err != nil {
		t.Fatalf("MergeObjects: %v", err)
	}
	return nil, m, theirs
}

// resubmit saves the merge's final object with theirs as the new base.
func resubmit(t *testing.T, target *Target, theirs *unstructured.Unstructured, m *diff.ObjectMerge) *unstructured.Unstructured {
	t.Helper()
	final, err := m.Final()
	if err != nil {
		t.Fatalf("Final: %v", err)
	}
	if final.GetResourceVersion() != theirs.GetResourceVersion() {
		t.Fatalf("merged object carries rv %s, want theirs' %s", final.GetResourceVersion(), theirs.GetResourceVersion())
	}
	saved, err := Save(context.Background(), kubetest.Dynamic(t), target, StrategyUpdate, theirs, final, SaveOptions{})
	if err != nil {
		t.Fatalf("resubmit: %v", err)
	}
	return saved
}

func dataOf(t *testing.T, target *Target) map[string]string {
	t.Helper()
	m, _, _ := unstructured.NestedStringMap(readBase(t, target).Object, "data")
	return m
}

func TestRebaseDisjointChangeKeepsBoth(t *testing.T) {
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=1", "--from-literal=bar=1")
	target := resolveForTest(t, kubetest.Kubeconfig(t), ns, "cm", "testmap")
	base := readBase(t, target)
	mine := withData(base, "foo", "mine")
	kubetest.MustKubectl(t, "-n", ns, "patch", "configmap", "testmap", "--type=merge", "-p", `{"data":{"bar":"theirs"}}`)

	_, m, theirs := saveOrRebase(t, target, base, mine)
	if m == nil {
		t.Fatal("the save from a stale base went through")
	}
	if len(m.Conflicts) != 0 {
		t.Fatalf("disjoint edits gave %d conflicts: %+v", len(m.Conflicts), m.Conflicts)
	}
	resubmit(t, target, theirs, m)
	if got := dataOf(t, target); got["foo"] != "mine" || got["bar"] != "theirs" {
		t.Errorf("data = %v, want foo=mine (mine) and bar=theirs (theirs)", got)
	}
}

func TestRebaseSameFieldResolvedEachWay(t *testing.T) {
	for _, tc := range []struct {
		name   string
		choice diff.Choice
		want   string
	}{
		{"mine", diff.TakeMine, "mine"},
		{"theirs", diff.TakeTheirs, "theirs"},
		{"base", diff.TakeBase, "1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ns := kubetest.Namespace(t)
			kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=1")
			target := resolveForTest(t, kubetest.Kubeconfig(t), ns, "cm", "testmap")
			base := readBase(t, target)
			kubetest.MustKubectl(t, "-n", ns, "patch", "configmap", "testmap", "--type=merge", "-p", `{"data":{"foo":"theirs"}}`)

			_, m, theirs := saveOrRebase(t, target, base, withData(base, "foo", "mine"))
			if m == nil || len(m.Conflicts) != 1 {
				t.Fatalf("want one conflict, got merge %+v", m)
			}
			c := m.Conflicts[0]
			if c.Path.String() != ".data.foo" {
				t.Errorf("conflict path %s, want .data.foo", c.Path)
			}
			if _, err := m.Final(); err == nil {
				t.Fatal("Final succeeded with a conflict open")
			}
			if open, err := m.Resolve(0, diff.Resolution{Choice: tc.choice}); err != nil || open != 0 {
				t.Fatalf("Resolve: open %d, err %v", open, err)
			}
			resubmit(t, target, theirs, m)
			if got := dataOf(t, target)["foo"]; got != tc.want {
				t.Errorf("foo = %q on the server, want exactly %q", got, tc.want)
			}
		})
	}
}

func TestRebaseAgainWhenTheirsMovesDuringResolve(t *testing.T) {
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=1", "--from-literal=bar=1")
	target := resolveForTest(t, kubetest.Kubeconfig(t), ns, "cm", "testmap")
	base := readBase(t, target)
	mine := withData(base, "foo", "mine")
	kubetest.MustKubectl(t, "-n", ns, "patch", "configmap", "testmap", "--type=merge", "-p", `{"data":{"foo":"theirs1"}}`)
	_, m, theirs := saveOrRebase(t, target, base, mine)
	if _, err := m.Resolve(0, diff.Resolution{Choice: diff.TakeMine}); err != nil {
		t.Fatal(err)
	}
	final, _ := m.Final()

	// While the user resolved, the object moved again: the resubmit must be
	// refused, and a new cycle starts from the newer theirs.
	kubetest.MustKubectl(t, "-n", ns, "patch", "configmap", "testmap", "--type=merge", "-p", `{"data":{"bar":"theirs2"}}`)
	_, m2, theirs2 := saveOrRebase(t, target, theirs, final)
	if m2 == nil {
		t.Fatal("a resubmit over a newer change went through")
	}
	if len(m2.Conflicts) != 0 {
		t.Fatalf("second cycle: %d conflicts, want 0", len(m2.Conflicts))
	}
	resubmit(t, target, theirs2, m2)
	if got := dataOf(t, target); got["foo"] != "mine" || got["bar"] != "theirs2" {
		t.Errorf("data = %v, want foo=mine, bar=theirs2", got)
	}
}

func TestRebaseCustomResourceBySchema(t *testing.T) {
	ns := kubetest.Namespace(t)
	kubetest.CreateCustom(t, ns, kubetest.WidgetCRDs, kubetest.Widget("w", "a=1")+"---\n"+
		"apiVersion: kedit.example.com/v1\nkind: Gadget\nmetadata:\n  name: g\nspec:\n  anything: [1, 2]\n")
	target := resolveForTest(t, kubetest.Kubeconfig(t), ns, "wdg", "w")
	if target.Mapping.GroupVersionKind.Kind != "Widget" {
		t.Fatalf("wdg resolved to %v", target.Mapping.GroupVersionKind)
	}

	base := readBase(t, target)
	mine := base.DeepCopy()
	parts, _, _ := unstructured.NestedSlice(mine.Object, "spec", "parts")
	parts[0].(map[string]any)["size"] = int64(2)
	_ = unstructured.SetNestedSlice(mine.Object, parts, "spec", "parts")
	// Theirs adds another part to the same list.
	kubetest.MustKubectl(t, "-n", ns, "patch", "widget", "w", "--type=json", "-p", `[{"op":"add","path":"/spec/parts/-","value":{"name":"b","size":5}}]`)

	cs, err := discovery.NewDiscoveryClientForConfig(kubetest.RESTConfig(t))
	if err != nil {
		t.Fatal(err)
	}
	schemas, err := ServerSchemas(cs, target.Mapping.GroupVersionKind.GroupVersion())
	if err != nil {
		t.Fatalf("ServerSchemas: %v", err)
	}

	// With no schema the list is atomic: both sides changed it, a conflict.
	theirs, err := Get(context.Background(), kubetest.Dynamic(t), target)
	if err != nil {
		t.Fatal(err)
	}
	deduced, err := diff.MergeObjects(base, mine, theirs)
	if err != nil {
		t.Fatal(err)
	}
	if len(deduced.Conflicts) == 0 {
		t.Error("without the CRD's schema the list should merge as a whole and conflict")
	}

	// With the server's schema the list merges item by item by name.
	_, m, theirs := saveOrRebase(t, target, base, mine, diff.WithSchemas(schemas))
	if m == nil {
		t.Fatal("the stale save went through")
	}
	if m.Schema != diff.SchemaGiven || len(m.Conflicts) != 0 {
		t.Fatalf("schema %s, %d conflicts (%+v): want the server's schema and none", m.Schema, len(m.Conflicts), m.Conflicts)
	}
	resubmit(t, target, theirs, m)
	got, _, _ := unstructured.NestedSlice(readBase(t, target).Object, "spec", "parts")
	if len(got) != 2 || got[0].(map[string]any)["size"] != int64(2) || got[1].(map[string]any)["name"] != "b" {
		t.Errorf("parts = %v, want a with size 2 (mine) and b (theirs)", got)
	}

	// A custom resource without a structural schema still merges, by a
	// schema deduced from the objects.
	gadget := resolveForTest(t, kubetest.Kubeconfig(t), ns, "gadgets.kedit.example.com", "g")
	base2 := readBase(t, gadget)
	mine2 := base2.DeepCopy()
	_ = unstructured.SetNestedField(mine2.Object, "mine", "spec", "note")
	kubetest.MustKubectl(t, "-n", ns, "patch", "gadget", "g", "--type=merge", "-p", `{"metadata":{"labels":{"by":"theirs"}}}`)
	var opts []diff.Option
	if schemas2, err := ServerSchemas(cs, gadget.Mapping.GroupVersionKind.GroupVersion()); err == nil {
		opts = append(opts, diff.WithSchemas(schemas2))
	}
	_, m2, theirs2 := saveOrRebase(t, gadget, base2, mine2, opts...)
	if m2 == nil || len(m2.Conflicts) != 0 {
		t.Fatalf("schemaless custom resource: merge %+v, want a clean rebase", m2)
	}
	resubmit(t, gadget, theirs2, m2)
	final := readBase(t, gadget)
	if note, _, _ := unstructured.NestedString(final.Object, "spec", "note"); note != "mine" || final.GetLabels()["by"] != "theirs" {
		t.Errorf("gadget: note=%q labels=%v, want both changes", note, final.GetLabels())
	}
}
