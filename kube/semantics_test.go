package kube

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kedit/kedit/kube/kubetest"
)

// These tests pin down the API server behaviour kedit is built on, against
// a real kube-apiserver: optimistic concurrency on update, atomic JSON Patch
// tests, and the lost update that a patch without resourceVersion allows.

func createTestmap(t *testing.T, ns string) *corev1.ConfigMap {
	t.Helper()
	cm := &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Name: "testmap", Namespace: ns},
		Data:       map[string]string{"foo": "1"},
	}
	created, err := kubetest.Clientset(t).CoreV1().ConfigMaps(ns).Create(context.Background(), cm, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("creating testmap: %v", err)
	}
	return created
}

func TestStaleUpdateGetsConflict(t *testing.T) {
	ns := kubetest.Namespace(t)
	createTestmap(t, ns)
	ctx := context.Background()
	// Two clients with their own connections, as two users would have.
	alice := kubetest.Clientset(t).CoreV1().ConfigMaps(ns)
	bob := kubetest.Clientset(t).CoreV1().ConfigMaps(ns)

	aliceCopy, err := alice.Get(ctx, "testmap", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	bobCopy, err := bob.Get(ctx, "testmap", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if aliceCopy.ResourceVersion != bobCopy.ResourceVersion {
		t.Fatalf("the two reads saw different versions: %s, %s", aliceCopy.ResourceVersion, bobCopy.ResourceVersion)
	}

	aliceCopy.Data["foo"] = "alice"
	bobCopy.Data["foo"] = "bob"
	_, errAlice := alice.Update(ctx, aliceCopy, metav1.UpdateOptions{})
	_, errBob := bob.Update(ctx, bobCopy, metav1.UpdateOptions{})

	if errAlice != nil {
		t.Fatalf("first update with a fresh resourceVersion failed: %v", errAlice)
	}
	if !apierrors.IsConflict(errBob) {
		t.Fatalf("second update with the same, now stale, resourceVersion: err = %v, want 409 Conflict", errBob)
	}
	var status apierrors.APIStatus
	if !errors.As(errBob, &status) || status.Status().Code != http.StatusConflict {
		t.Errorf("conflict status code = %v, want 409", errBob)
	}

	final, err := alice.Get(ctx, "testmap", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if final.Data["foo"] != "alice" {
		t.Errorf("foo = %q after the race, want the winner's value %q", final.Data["foo"], "alice")
	}
}

func TestJSONPatchTestOpOnStaleValueChangesNothing(t *testing.T) {
	ns := kubetest.Namespace(t)
	cms := kubetest.Clientset(t).CoreV1().ConfigMaps(ns)
	ctx := context.Background()
	createTestmap(t, ns)

	// Another writer moves foo from 1 to 5, as kubectl would.
	kubetest.MustKubectl(t, "-n", ns, "patch", "configmap", "testmap", "--type=merge", "-p", `{"data":{"foo":"5"}}`)
	before, err := cms.Get(ctx, "testmap", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}

	// "Set foo to 2, but only if it is still 1."
	patch := []byte(`[{"op":"test","path":"/data/foo","value":"1"},{"op":"replace","path":"/data/foo","value":"2"}]`)
	_, err = cms.Patch(ctx, "testmap", types.JSONPatchType, patch, metav1.PatchOptions{})
	var status apierrors.APIStatus
	if !errors.As(err, &status) || status.Status().Code != http.StatusUnprocessableEntity {
		t.Fatalf("JSON Patch with a failing test op: err = %v, want 422", err)
	}

	after, err := cms.Get(ctx, "testmap", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if after.Data["foo"] != "5" || after.ResourceVersion != before.ResourceVersion {
		t.Errorf("failed patch changed the object: foo=%q rv %s -> %s", after.Data["foo"], before.ResourceVersion, after.ResourceVersion)
	}

	// The same patch with the current value applies.
	patch = []byte(`[{"op":"test","path":"/data/foo","value":"5"},{"op":"replace","path":"/data/foo","value":"2"}]`)
	if _, err := cms.Patch(ctx, "testmap", types.JSONPatchType, patch, metav1.PatchOptions{}); err != nil {
		t.Fatalf("JSON Patch whose test holds: %v", err)
	}
}

func TestMergePatchWithoutResourceVersionLosesUpdate(t *testing.T) {
	ns := kubetest.Namespace(t)
	cms := kubetest.Clientset(t).CoreV1().ConfigMaps(ns)
	ctx := context.Background()
	createTestmap(t, ns)

	// Alice reads foo=1 and starts editing.
	read, err := cms.Get(ctx, "testmap", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// Meanwhile Bob changes the same field with kubectl.
	kubetest.MustKubectl(t, "-n", ns, "patch", "configmap", "testmap", "--type=merge", "-p", `{"data":{"foo":"bob"}}`)

	// Alice saves the way kubectl edit does: a patch with no resourceVersion.
	if _, err := cms.Patch(ctx, "testmap", types.MergePatchType, []byte(`{"data":{"foo":"alice"}}`), metav1.PatchOptions{}); err != nil {
		t.Fatalf("merge patch without resourceVersion: %v", err)
	}
	final, err := cms.Get(ctx, "testmap", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if final.Data["foo"] != "alice" {
		t.Fatalf("foo = %q, want alice: the server was expected to accept the blind patch", final.Data["foo"])
	}
	t.Logf("lost update: Bob's foo=bob (written after rv %s) was silently overwritten", read.ResourceVersion)

	// With the resourceVersion Alice read, the same patch is refused.
	guarded := []byte(`{"metadata":{"resourceVersion":"` + read.ResourceVersion + `"},"data":{"foo":"alice2"}}`)
	_, err = cms.Patch(ctx, "testmap", types.MergePatchType, guarded, metav1.PatchOptions{})
	if !apierrors.IsConflict(err) {
		t.Fatalf("merge patch carrying a stale resourceVersion: err = %v, want 409 Conflict", err)
	}
}

func TestViewerIsForbidden(t *testing.T) {
	ns := kubetest.Namespace(t)
	createTestmap(t, ns)
	out, err := kubetest.KubectlAs(t, kubetest.ViewerKubeconfig(t), "-n", ns, "get", "configmap", "testmap")
	if err == nil {
		t.Fatalf("the viewer read a ConfigMap:\n%s", out)
	}
	if want := `User "kedit-viewer" cannot get resource "configmaps"`; !strings.Contains(out, want) {
		t.Errorf("kubectl said %q, want it to contain %q", out, want)
	}
}
