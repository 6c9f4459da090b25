package kube

import (
	"context"
	"errors"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kedit/kedit/diff"
	"github.com/kedit/kedit/kube/kubetest"
	"github.com/kedit/kedit/model"
)

// webDeployment is Deployment web with replicas replicas.
func webDeployment(replicas string) string {
	return `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","labels":{"app":"web"}},
"spec":{"replicas":` + replicas + `,"selector":{"matchLabels":{"app":"web"}},
"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"app","image":"nginx:1.27"}]}}}}`
}

// newSubresourceEngine is an engine on deployment web's sub in ns, its
// texts in format, as kedit --subresource runs it.
func newSubresourceEngine(t *testing.T, ns string, sub Subresource, format model.Format) *engine {
	t.Helper()
	flags := &ConnFlags{KubeConfig: kubetest.Kubeconfig(t), Namespace: ns, CacheDir: t.TempDir()}
	target, err := Resolve(flags, "deploy", "web")
	if err != nil {
		t.Fatal(err)
	}
	if err := WithSubresource(flags, target, sub); err != nil {
		t.Fatal(err)
	}
	dc := kubetest.Dynamic(t)
	ctx, w := engineWatch(t, dc, target)
	sess := model.NewSession(target.Ref(), target.MergeOptions()...)
	sess.SetFormat(format)
	e := &engine{t: t, ctx: ctx, watch: w, session: sess,
		runner: &Runner{Client: dc, Target: target, Strategy: StrategyUpdate, Cached: w.Latest, MergeOptions: target.MergeOptions()}}
	e.awaitLive(func(*unstructured.Unstructured) bool { return true })
	return e
}

func specReplicas(want int64) func(*unstructured.Unstructured) bool {
	return func(obj *unstructured.Unstructured) bool {
		v, _, _ := unstructured.NestedInt64(obj.Object, "spec", "replicas")
		return v == want
	}
}

// TestScaleRacingKubectlScale: kedit edits a Deployment's Scale (in JSON)
// while `kubectl scale` writes it: the save meets a conflict on
// spec.replicas, resolved to mine and resubmitted with the Scale's newer
// resourceVersion, and the Deployment has kedit's replicas.
func TestScaleRacingKubectlScale(t *testing.T) {
	ns := kubetest.Namespace(t)
	kubetest.MustKubectlStdin(t, webDeployment("2"), "-n", ns, "create", "-f", "-")
	e := newSubresourceEngine(t, ns, SubresourceScale, model.FormatJSON)
	base := e.session.Base().Object
	if base.GetKind() != "Scale" || base.GetAPIVersion() != "autoscaling/v1" {
		t.Fatalf("the scale subresource's object is %s %s", base.GetAPIVersion(), base.GetKind())
	}
	if ref := e.session.Ref().String(); !strings.HasSuffix(ref, "--subresource scale") {
		t.Errorf("the object is named %q, without its subresource", ref)
	}
	e.editDraft(`"replicas": 2`, `"replicas": 5`)

	kubetest.MustKubectl(t, "-n", ns, "scale", "deploy/web", "--replicas=3")
	e.awaitLive(specReplicas(3))

	e.handle(model.SaveRequested{})
	if e.session.State() != model.StateResolving || len(e.session.Conflicts()) != 1 {
		t.Fatalf("after the save: %v with %d conflicts (failure %+v), want resolving with 1", e.session.State(), len(e.session.Conflicts()), e.session.Failure())
	}
	if p := e.session.Conflicts()[0].Path.String(); p != ".spec.replicas" {
		t.Errorf("conflict at %s, want .spec.replicas", p)
	}
	merged, _ := e.session.MergedText()
	if !strings.Contains(merged, "<<<<<<< mine\n        \"replicas\": 5") {
		t.Errorf("the merged text is not the Scale's JSON with a block:\n%s", merged)
	}
	e.handle(model.Resolve{Index: 0, Resolution: diff.Resolution{Choice: diff.TakeMine}})
	if err := e.handle(model.Resubmit{}); err != nil || e.session.State() != model.StateSaved {
		t.Fatalf("resubmit: %v, state %v (failure %+v)", err, e.session.State(), e.session.Failure())
	}
	deploy, err := kubetest.Dynamic(t).Resource(e.runner.Target.Mapping.Resource).Namespace(ns).Get(context.Background(), "web", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if v, _, _ := unstructured.NestedInt64(deploy.Object, "spec", "replicas"); v != 5 {
		t.Errorf("the Deployment has %d replicas, want kedit's 5", v)
	}
}

// TestScaleWriterIsNamed: a Scale has no managedFields of its own; kedit
// reads them from its object, so `kubectl scale` (an entry with
// subresource scale) is named as the writer of the new replicas, in the
// banner's change and on the timeline, never an unknown writer.
func TestScaleWriterIsNamed(t *testing.T) {
	ns := kubetest.Namespace(t)
	kubetest.MustKubectlStdin(t, webDeployment("2"), "-n", ns, "create", "-f", "-")
	e := newSubresourceEngine(t, ns, SubresourceScale, model.FormatYAML)
	base := e.session.Base().Object
	if len(base.GetManagedFields()) == 0 {
		t.Fatal("the Scale read at the start has no managedFields of its object")
	}
	e.editDraft("replicas: 2", "replicas: 5")
	kubetest.MustKubectl(t, "-n", ns, "scale", "deploy/web", "--replicas=3")
	e.awaitLive(specReplicas(3))
	ch, ok := e.session.ServerChange()
	if !ok || ch.Manager != "kubectl" {
		t.Errorf("the change to replicas 3 is credited to %q (%v), want kubectl", ch.Manager, ok)
	}
	es := e.session.Timeline()
	last := es[len(es)-1]
	if last.Manager != "kubectl" || last.Subresource != "scale" {
		t.Errorf("the timeline credits rv %s to %q through %q, want kubectl through scale", last.ResourceVersion, last.Manager, last.Subresource)
	}
	got, err := Get(context.Background(), kubetest.Dynamic(t), e.runner.Target)
	if err != nil {
		t.Fatal(err)
	}
	ch2, err := model.Changes(base, got)
	if err != nil {
		t.Fatal(err)
	}
	if w := model.WriterSince(base, got, ch2); w.Manager != "kubectl" || w.Subresource != "scale" {
		t.Errorf("a Scale read again names %+v as the writer since the first, want kubectl through scale", w)
	}
}

// TestStatusEditKeepsTheOtherWritersChange: kedit edits a Deployment's
// status (the object view: apiVersion, kind, metadata, status; no spec)
// while a controller writes another field of it: the conflict rebases
// cleanly, both changes are stored, and the spec is as it was.
func TestStatusEditKeepsTheOtherWritersChange(t *testing.T) {
	ns := kubetest.Namespace(t)
	kubetest.MustKubectlStdin(t, webDeployment("2"), "-n", ns, "create", "-f", "-")
	kubetest.MustKubectl(t, "-n", ns, "patch", "deploy/web", "--subresource=status", "--type=merge", "-p", `{"status":{"observedGeneration":1}}`)
	e := newSubresourceEngine(t, ns, SubresourceStatus, model.FormatYAML)
	if _, has := e.session.Base().Object.Object["spec"]; has {
		t.Fatal("a status edit offers the spec")
	}
	e.editDraft("observedGeneration: 1", "observedGeneration: 1\n  collisionCount: 4")

	kubetest.MustKubectl(t, "-n", ns, "patch", "deploy/web", "--subresource=status", "--type=merge", "-p", `{"status":{"observedGeneration":2}}`)
	e.awaitLive(func(obj *unstructured.Unstructured) bool {
		v, _, _ := unstructured.NestedInt64(obj.Object, "status", "observedGeneration")
		return v == 2
	})
	e.handle(model.SaveRequested{})
	if e.session.State() == model.StateRebasing {
		e.handle(model.Resubmit{})
	}
	if e.session.State() != model.StateSaved {
		t.Fatalf("state %v, failure %+v; want saved", e.session.State(), e.session.Failure())
	}
	deploy, err := kubetest.Dynamic(t).Resource(e.runner.Target.Mapping.Resource).Namespace(ns).Get(context.Background(), "web", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	og, _, _ := unstructured.NestedInt64(deploy.Object, "status", "observedGeneration")
	cc, _, _ := unstructured.NestedInt64(deploy.Object, "status", "collisionCount")
	replicas, _, _ := unstructured.NestedInt64(deploy.Object, "spec", "replicas")
	if og != 2 || cc != 4 || replicas != 2 {
		t.Errorf("status observedGeneration %d collisionCount %d, spec.replicas %d; want the other writer's 2, kedit's 4, the spec's 2", og, cc, replicas)
	}
}

// TestSubresourceEveryStrategy: update, merge patch and server-side apply
// each write the Scale with its resourceVersion, and each refuses a save
// over a change made meanwhile with a conflict.
func TestSubresourceEveryStrategy(t *testing.T) {
	for _, strategy := range Strategies {
		t.Run(string(strategy), func(t *testing.T) {
			ns := kubetest.Namespace(t)
			kubetest.MustKubectlStdin(t, webDeployment("1"), "-n", ns, "create", "-f", "-")
			flags := &ConnFlags{KubeConfig: kubetest.Kubeconfig(t), Namespace: ns, CacheDir: t.TempDir()}
			target, err := Resolve(flags, "deployments.apps", "web")
			if err != nil {
				t.Fatal(err)
			}
			if err := WithSubresource(flags, target, SubresourceScale); err != nil {
				t.Fatal(err)
			}
			dc, ctx := kubetest.Dynamic(t), context.Background()
			base, err := Get(ctx, dc, target)
			if err != nil {
				t.Fatal(err)
			}
			mine := base.DeepCopy()
			_ = unstructured.SetNestedField(mine.Object, int64(4), "spec", "replicas")
			// kubectl create owns spec.replicas: an apply takes it with
			// force, as the user's resolution of the ownership conflict
			// does.
			force := strategy == StrategyApply
			saved, err := Save(ctx, dc, target, strategy, base, mine, SaveOptions{FieldManager: "scaler", Force: force})
			if err != nil {
				t.Fatalf("save: %v", err)
			}
			if saved.GetKind() != "Scale" || !specReplicas(4)(saved) {
				t.Fatalf("saved %s %v", saved.GetKind(), saved.Object["spec"])
			}
			// base is stale now: a conflict, nothing written.
			again := base.DeepCopy()
			_ = unstructured.SetNestedField(again.Object, int64(7), "spec", "replicas")
			_, err = Save(ctx, dc, target, strategy, base, again, SaveOptions{Force: force})
			var ce *ConflictError
			if !errors.As(err, &ce) {
				t.Fatalf("a save over a newer version: %v, want a conflict", err)
			}
			if now, _ := Get(ctx, dc, target); !specReplicas(4)(now) {
				t.Errorf("the refused save changed the Scale: %v", now.Object["spec"])
			}
		})
	}
}

// TestSubresourceRefusedForATypeWithout: a ConfigMap has neither status
// nor scale; the error names the types that have one, and the target is
// left as it was.
func TestSubresourceRefusedForATypeWithout(t *testing.T) {
	ns := kubetest.Namespace(t)
	flags := &ConnFlags{KubeConfig: kubetest.Kubeconfig(t), Namespace: ns, CacheDir: t.TempDir()}
	target, err := Resolve(flags, "cm", "x")
	if err != nil {
		t.Fatal(err)
	}
	err = WithSubresource(flags, target, SubresourceScale)
	var se *SubresourceError
	if !errors.As(err, &se) {
		t.Fatalf("WithSubresource: %v, want a *SubresourceError", err)
	}
	msg := err.Error()
	for _, want := range []string{"configmaps has no scale subresource", "deployments.apps", "replicasets.apps", "statefulsets.apps", "replicationcontrollers"} {
		if !strings.Contains(msg, want) {
			t.Errorf("%q lacks %q", msg, want)
		}
	}
	if strings.Contains(msg, "pods") {
		t.Errorf("%q names pods, which have no scale", msg)
	}
	if target.Subresource != "" {
		t.Errorf("the target edits %q after the refusal", target.Subresource)
	}
	if _, err := ParseSubresource("spec"); err == nil || !strings.Contains(err.Error(), "status or scale") {
		t.Errorf("ParseSubresource(spec): %v", err)
	}
}
