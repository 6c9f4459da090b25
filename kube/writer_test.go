package kube

import (
	"context"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kedit/kedit/kube/kubetest"
	"github.com/kedit/kedit/model"
)

// TestWriterOfARemovalThatLeavesNoEntry: the API server keeps no
// managedFields entry for a JSON patch that only removes a field (dave
// owns nothing after it), and carol's entry keeps its time; the version's
// writer is unknown, never carol. A write that leaves an entry names it.
func TestWriterOfARemovalThatLeavesNoEntry(t *testing.T) {
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "team", "--from-literal=a=1", "--from-literal=b=1", "--field-manager=carol")
	get := func() *unstructured.Unstructured {
		t.Helper()
		obj, err := kubetest.Dynamic(t).Resource(corev1.SchemeGroupVersion.WithResource("configmaps")).Namespace(ns).
			Get(context.Background(), "team", metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return obj
	}
	v1 := get()
	kubetest.MustKubectl(t, "-n", ns, "patch", "configmap", "team", "--type=json", "-p", `[{"op":"remove","path":"/data/b"}]`, "--field-manager=dave")
	v2 := get()
	for _, e := range v2.GetManagedFields() {
		if e.Manager == "dave" {
			t.Fatalf("the server kept an entry for dave's removal: %+v", e)
		}
	}
	ch, err := model.Changes(v1, v2)
	if err != nil || len(ch) != 1 || ch[0].Path != ".data.b" {
		t.Fatalf("changes %v, %v", ch, err)
	}
	if w := model.WriterSince(v1, v2, ch); w.Manager != "" {
		t.Errorf("the removal is credited to %q", w.Manager)
	}
	kubetest.MustKubectl(t, "-n", ns, "patch", "configmap", "team", "--type=merge", "-p", `{"data":{"c":"1"}}`, "--field-manager=erin")
	v3 := get()
	ch, _ = model.Changes(v2, v3)
	if w := model.WriterSince(v2, v3, ch); w.Manager != "erin" {
		t.Errorf("erin's write is credited to %q", w.Manager)
	}
}
