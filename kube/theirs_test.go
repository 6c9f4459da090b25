package kube

import (
	"context"
	"errors"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kedit/kedit/kube/kubetest"
)

// TestTheirsNeverOlderThanBase: after kedit's own save, the watch may still
// hold the version before it (while it reconnects). That copy is not
// theirs: Theirs reads the server instead, and never returns a version that
// is not newer than base.
func TestTheirsNeverOlderThanBase(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=1")
	target := resolveForTest(t, kubetest.Kubeconfig(t), ns, "configmap", "testmap")
	ctx := context.Background()
	dc := kubetest.Dynamic(t)

	before := readBase(t, target)
	base, err := Save(ctx, dc, target, StrategyUpdate, before, withData(before, "foo", "mine"), SaveOptions{})
	if err != nil {
		t.Fatal(err)
	}
	kubetest.MustKubectl(t, "-n", ns, "patch", "configmap", "testmap", "--type=merge", "-p", `{"data":{"bar":"theirs"}}`)

	// The cache holds the version before kedit's save: older than base.
	theirs, err := Theirs(ctx, dc, target, base, before)
	if err != nil {
		t.Fatal(err)
	}
	if theirs.GetResourceVersion() == before.GetResourceVersion() {
		t.Fatalf("Theirs took the cached copy at rv %s, older than base's %s", before.GetResourceVersion(), base.GetResourceVersion())
	}
	if got, _, _ := unstructured.NestedString(theirs.Object, "data", "bar"); got != "theirs" {
		t.Errorf("theirs has bar=%q, want the server's copy with bar=theirs", got)
	}

	// Nothing newer on the server than base: no theirs at all.
	current := readBase(t, target)
	var notNewer *TheirsNotNewerError
	if _, err := Theirs(ctx, dc, target, current, before); !errors.As(err, &notNewer) {
		t.Errorf("Theirs with base at the server's version = %v, want *TheirsNotNewerError", err)
	}
}
