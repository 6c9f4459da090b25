package kube

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kedit/kedit/internal/testwait"
	"github.com/kedit/kedit/kube/kubetest"
)

// deployment is Deployment name labelled app=web, with replicas replicas.
func deployment(name string, replicas int) string {
	return fmt.Sprintf(`{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":%q,"labels":{"app":"web"}},
"spec":{"replicas":%d,"selector":{"matchLabels":{"app":%q}},
"template":{"metadata":{"labels":{"app":%q}},"spec":{"containers":[{"name":"app","image":"nginx:1.27"}]}}}}`, name, replicas, name, name)
}

// TestSetSubresource: a set of Deployments, named one by one or listed by
// a selector, with --subresource scale or status: each object is read as
// it edits it (its Scale, its status view), watched so (a Scale by a Watch
// of its own, the status views by the selector's one watch), each change
// another writer makes (kubectl scale, a status patch) comes as the
// subresource, the latest is kept for a conflict's theirs, and a save with
// the resourceVersion read before that change is a conflict at the
// subresource's endpoint.
func TestSetSubresource(t *testing.T) {
	t.Parallel()
	for _, sub := range Subresources {
		for _, selector := range []string{"", "app=web"} {
			t.Run(string(sub)+" selector "+selector, func(t *testing.T) {
				t.Parallel()
				ns := kubetest.Namespace(t)
				for _, n := range []string{"web-a", "web-b"} {
					kubetest.MustKubectlStdin(t, deployment(n, 2), "-n", ns, "create", "-f", "-")
				}
				c := connectForTest(t, kubetest.Kubeconfig(t), ns)
				src := SetSource{Args: []string{"deploy/web-a", "deploy/web-b"}, Subresource: sub}
				if selector != "" {
					src = SetSource{Args: []string{"deploy"}, Selector: selector, Subresource: sub}
				}
				objs, err := c.ReadSet(context.Background(), src)
				if err != nil {
					t.Fatal(err)
				}
				if len(objs) != 2 {
					t.Fatalf("%d objects", len(objs))
				}
				for _, o := range objs {
					if o.Target.Subresource != sub || !isView(sub, o.Object) {
						t.Fatalf("%s read as %s %v for %s", o.Target, o.Object.GetKind(), o.Object.Object, sub)
					}
				}
				w, err := NewSetWatch(kubetest.RESTConfig(t), objs)
				if err != nil {
					t.Fatal(err)
				}
				if want := map[bool]int{true: 1, false: 0}[selector != "" && sub == SubresourceStatus]; len(w.groups) != want {
					t.Fatalf("%d groups, want %d", len(w.groups), want)
				}
				if err := w.Start(context.Background()); err != nil {
					t.Fatal(err)
				}
				r := recordSet(t, w)
				testwait.Eventually(t, 30*time.Second, "connected", func() bool { return r.state() == Connected })

				if sub == SubresourceScale {
					kubetest.MustKubectl(t, "-n", ns, "scale", "deploy/web-b", "--replicas=5")
				} else {
					kubetest.MustKubectl(t, "-n", ns, "patch", "deploy/web-b", "--subresource=status", "--type=merge", "-p", `{"status":{"observedGeneration":7}}`)
				}
				changed := func(u *unstructured.Unstructured) bool {
					if !isView(sub, u) {
						return false
					}
					if sub == SubresourceScale {
						v, _, _ := unstructured.NestedInt64(u.Object, "spec", "replicas")
						return v == 5
					}
					v, _, _ := unstructured.NestedInt64(u.Object, "status", "observedGeneration")
					return v == 7
				}
				testwait.Eventually(t, 30*time.Second, "web-b's change, as its "+string(sub), func() bool {
					r.mu.Lock()
					defer r.mu.Unlock()
					for _, ev := range r.evs {
						if ev.Member == 1 && ev.Event.Object != nil && changed(ev.Event.Object) {
							return true
						}
					}
					return false
				})
				testwait.Eventually(t, 30*time.Second, "web-b's latest", func() bool {
					got, ok := w.Latest(1)
					return ok && changed(got)
				})
				r.mu.Lock()
				for _, ev := range r.evs {
					if ev.Event.Object != nil && !isView(sub, ev.Event.Object) {
						t.Errorf("member %d's event is no %s view: %v", ev.Member, sub, ev.Event.Object.Object)
					}
				}
				r.mu.Unlock()

				// A save made from what was read before the change meets a
				// conflict at the subresource's endpoint.
				base := objs[1].Object
				mine := base.DeepCopy()
				if sub == SubresourceScale {
					_ = unstructured.SetNestedField(mine.Object, int64(9), "spec", "replicas")
				} else {
					_ = unstructured.SetNestedField(mine.Object, int64(9), "status", "observedGeneration")
				}
				_, err = Save(context.Background(), kubetest.Dynamic(t), objs[1].Target, StrategyUpdate, base, mine, SaveOptions{})
				var ce *ConflictError
				if !errors.As(err, &ce) {
					t.Errorf("a save with the old resourceVersion: %v, want a conflict", err)
				}
			})
		}
	}
}

// isView reports whether u is what editing sub shows: a Scale, or the
// object with no spec.
func isView(sub Subresource, u *unstructured.Unstructured) bool {
	if sub == SubresourceScale {
		return u.GetKind() == "Scale"
	}
	_, hasSpec := u.Object["spec"]
	return u.GetKind() == "Deployment" && !hasSpec
}

// TestSetSubresourceRefused: a set whose types lack the subresource is
// refused before anything is read, naming every such type and those that
// have it.
func TestSetSubresourceRefused(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "a", "--from-literal=foo=1")
	kubetest.MustKubectl(t, "-n", ns, "create", "secret", "generic", "s", "--from-literal=k=v")
	kubetest.MustKubectlStdin(t, deployment("web", 1), "-n", ns, "create", "-f", "-")
	c := connectForTest(t, kubetest.Kubeconfig(t), ns)
	for _, tc := range []struct {
		src  SetSource
		want string
	}{
		{SetSource{Args: []string{"cm/a", "deploy/web", "secret/s"}, Subresource: SubresourceScale},
			"configmaps, secrets have no scale subresource; the types that have one: deployments.apps"},
		{SetSource{Args: []string{"cm,deploy"}, Selector: "app", Subresource: SubresourceStatus}, "configmaps has no status subresource; the types that have one:"},
	} {
		_, err := c.ReadSet(context.Background(), tc.src)
		var se *SubresourceError
		if !errors.As(err, &se) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: %v, want a *SubresourceError with %q", tc.src.Args, err, tc.want)
		}
	}
}
