package kube

import (
	"context"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kedit/kedit/kube/kubetest"
	"github.com/kedit/kedit/model"
)

// TestTheirsComesFromTheCacheUnlessFresh: a conflict's theirs is the
// informer's copy when there is one, whatever its age (the session judges
// it), and the server's when the session asks for a fresh one or there is
// no copy.
func TestTheirsComesFromTheCacheUnlessFresh(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=1")
	target := resolveForTest(t, kubetest.Kubeconfig(t), ns, "configmap", "testmap")
	ctx := context.Background()
	dc := kubetest.Dynamic(t)
	server := readBase(t, target)
	cached := server.DeepCopy()
	cached.SetAnnotations(map[string]string{"from": "cache"})

	r := &Runner{Client: dc, Target: target, Cached: func() (*unstructured.Unstructured, bool) { return cached, true }}
	theirs := func(fresh bool) *unstructured.Unstructured {
		t.Helper()
		ev, err := r.Perform(ctx, model.FetchTheirs{Ref: target.Ref(), NotRV: server.GetResourceVersion(), Fresh: fresh})
		c, ok := ev.(model.Conflicted)
		if err != nil || !ok {
			t.Fatalf("FetchTheirs (fresh %v) = %#v, %v", fresh, ev, err)
		}
		return c.Theirs
	}
	if got := theirs(false); got.GetAnnotations()["from"] != "cache" {
		t.Error("the informer's copy was not taken")
	}
	if got := theirs(true); got.GetAnnotations()["from"] == "cache" || got.GetResourceVersion() != server.GetResourceVersion() {
		t.Errorf("a fresh theirs came from the cache, or is not the server's: %v", got.GetAnnotations())
	}
	r.Cached = nil
	if got := theirs(false); got.GetAnnotations()["from"] == "cache" || got.GetResourceVersion() != server.GetResourceVersion() {
		t.Errorf("without a cache theirs is not the server's: %v", got.GetAnnotations())
	}
}

// TestTheirsNeverOlderThanBase: after kedit's own save, the watch may still
// hold the version before it (while it reconnects). That copy is not
// theirs: the session asks for the server's and rebases onto it. (A
// server's copy that is not newer either fails the save: model's
// TestTheirsNotNewerOnTheServerFailsTheSave.)
func TestTheirsNeverOlderThanBase(t *testing.T) {
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=1", "--from-literal=bar=1")
	e := newEngine(t, ns, "testmap")
	before, _ := e.watch.Latest()
	before = before.DeepCopy()
	// The watch's copy stays the version before kedit's save.
	fetches := 0
	e.runner.Cached = func() (*unstructured.Unstructured, bool) { fetches++; return before, true }

	e.editDraft(`foo: "1"`, `foo: mine`)
	e.handle(model.SaveRequested{})
	if st := e.session.State(); st != model.StateSaved {
		t.Fatalf("first save: state %s (failure %+v)", st, e.session.Failure())
	}
	kubetest.MustKubectl(t, "-n", ns, "patch", "configmap", "testmap", "--type=merge", "-p", `{"data":{"bar":"theirs"}}`)
	e.editDraft(`foo: mine`, `foo: again`)
	e.handle(model.SaveRequested{})
	rb := e.session.Rebase()
	if rb == nil || rb.Theirs.ResourceVersion == before.GetResourceVersion() {
		t.Fatalf("state %s, rebase %+v: want a rebase onto the server's copy", e.session.State(), rb)
	}
	if got, _, _ := unstructured.NestedString(rb.Theirs.Object.Object, "data", "bar"); got != "theirs" {
		t.Errorf("theirs has bar=%q, want the server's copy with bar=theirs", got)
	}
	if fetches != 2 {
		t.Errorf("theirs was fetched %d times, want twice: the watch's copy, then the server's", fetches)
	}
}
