package kube

import (
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kedit/kedit/kube/kubetest"
	"github.com/kedit/kedit/model"
)

// getObject reads TYPE/NAME from the real server with kubectl, its
// managedFields as the server keeps them.
func getObject(t *testing.T, ns, typ, name string) *unstructured.Unstructured {
	t.Helper()
	out := kubetest.MustKubectl(t, "-n", ns, "get", typ, name, "-o", "json", "--show-managed-fields")
	var u unstructured.Unstructured
	if err := u.UnmarshalJSON([]byte(out)); err != nil {
		t.Fatal(err)
	}
	return &u
}

// TestWritersOfFieldsAsTheServerKeepsThem: two writers change two fields
// between the versions a banner compares; each field is credited to the
// writer the server's managedFields say changed it, never both to the
// later one: kubectl patch then kubectl label, and kubectl scale (through
// the scale subresource, whose entry the server keeps) then kubectl set
// env.
func TestWritersOfFieldsAsTheServerKeepsThem(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=1", "--from-literal=bar=1")
	before := getObject(t, ns, "configmap", "testmap")
	kubetest.MustKubectl(t, "-n", ns, "patch", "configmap", "testmap", "-p", `{"data":{"bar":"patched"}}`)
	kubetest.MustKubectl(t, "-n", ns, "label", "configmap", "testmap", "tier=web")
	after := getObject(t, ns, "configmap", "testmap")
	changes, err := model.Changes(before, after)
	if err != nil {
		t.Fatal(err)
	}
	by, several := model.FieldWriters(before, after, changes)
	if several || len(by) != len(changes) {
		t.Fatalf("changes %+v: writers %v (several %v), want one each", changes, by, several)
	}
	for i, c := range changes {
		want := "kubectl-label"
		if c.Path == ".data.bar" {
			want = "kubectl-patch"
		}
		if by[i] != want {
			t.Errorf("%s by %q, want %q", c.Path, by[i], want)
		}
	}

	kubetest.MustKubectl(t, "-n", ns, "create", "deployment", "web", "--image=nginx")
	before = getObject(t, ns, "deployment", "web")
	kubetest.MustKubectl(t, "-n", ns, "scale", "deployment", "web", "--replicas=3")
	kubetest.MustKubectl(t, "-n", ns, "set", "env", "deployment/web", "MODE=on")
	after = getObject(t, ns, "deployment", "web")
	scaler := ""
	for _, e := range after.GetManagedFields() {
		if e.Subresource == "scale" {
			scaler = e.Manager
		}
	}
	if scaler == "" {
		t.Fatalf("the server kept no entry of the scale subresource: %+v", after.GetManagedFields())
	}
	if got := model.WriterSince(before, after, []model.FieldChange{{Path: ".spec.replicas"}}).Manager; got != scaler {
		t.Errorf(".spec.replicas by %q, want %q, the scale subresource's manager", got, scaler)
	}
	env := `.spec.template.spec.containers[name="nginx"].env`
	if got := model.WriterSince(before, after, []model.FieldChange{{Path: env}}).Manager; !strings.HasPrefix(got, "kubectl-set") {
		t.Errorf("%s by %q, want kubectl-set", env, got)
	}
}
