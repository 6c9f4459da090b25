package kube

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kedit/kedit/kube/kubetest"
)

// TestSaveAcrossServerRestart stops the API server in the middle of an
// edit: the save fails as unavailable (the draft is the caller's, untouched),
// and once the server is back the same save, with the same base, succeeds.
// It stops a cluster of its own, so that the tests sharing the binary's
// cluster run on meanwhile.
func TestSaveAcrossServerRestart(t *testing.T) {
	t.Parallel()
	c := kubetest.NewCluster(t)
	ns := "default"
	c.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=1")
	target := resolveForTest(t, c.Kubeconfig(), ns, "cm", "testmap")
	dc := c.Dynamic(t)
	obj, err := Get(t.Context(), dc, target)
	if err != nil {
		t.Fatal(err)
	}
	base := obj
	mine := withData(base, "foo", "mine")
	draft := mine.DeepCopy()

	c.Stop(t)

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	_, err = Save(ctx, dc, target, StrategyUpdate, base, mine, SaveOptions{})
	var unavailable *UnavailableError
	if !errors.As(err, &unavailable) {
		t.Fatalf("save with the server down: err = %v (%T), want *UnavailableError", err, err)
	}
	if !strings.Contains(err.Error(), "the API server is unavailable") {
		t.Errorf("message %q", err)
	}
	if !equalObjects(mine, draft) {
		t.Error("the failed save changed the draft")
	}

	c.Start(t)
	saved, err := Save(context.Background(), dc, target, StrategyUpdate, base, mine, SaveOptions{})
	if err != nil {
		t.Fatalf("save after the restart: %v", err)
	}
	if v, _, _ := unstructured.NestedString(saved.Object, "data", "foo"); v != "mine" {
		t.Errorf("foo = %q after the restart, want mine", v)
	}
}

func equalObjects(a, b *unstructured.Unstructured) bool {
	ja, _ := a.MarshalJSON()
	jb, _ := b.MarshalJSON()
	return string(ja) == string(jb)
}
