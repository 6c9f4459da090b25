package kube

import (
	"context"
	"errors"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/kedit/kedit/diff"
	"github.com/kedit/kedit/kube/kubetest"
	"github.com/kedit/kedit/model"
)

// resolveForTest resolves TYPE NAME in ns the way kedit's flags do.
func resolveForTest(t *testing.T, kubeconfig, ns, typ, name string) *Target {
	t.Helper()
	// The flag rather than KUBECACHEDIR, so that tests may run in parallel.
	flags := &ConnFlags{KubeConfig: kubeconfig, Namespace: ns, CacheDir: t.TempDir()}
	target, err := Resolve(flags, typ, name)
	if err != nil {
		t.Fatalf("resolving %s/%s: %v", typ, name, err)
	}
	return target
}

// readBase reads the object as the user starts editing it.
func readBase(t *testing.T, target *Target) *unstructured.Unstructured {
	t.Helper()
	obj, err := target.Resource(kubetest.Dynamic(t)).Get(context.Background(), target.Name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return obj
}

func withData(obj *unstructured.Unstructured, key, value string) *unstructured.Unstructured {
	out := obj.DeepCopy()
	if err := unstructured.SetNestedField(out.Object, value, "data", key); err != nil {
		panic(err)
	}
	return out
}

func TestSaveStrategies(t *testing.T) {
	for _, strategy := range Strategies {
		t.Run(string(strategy), func(t *testing.T) {
			ns := kubetest.Namespace(t)
			if strategy == StrategyApply {
				// A non-forced apply may only change fields kedit manages
				// (TestApplyConflictNamesTheOtherManager covers the rest).
				manifest := `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"testmap"},"data":{"foo":"1","bar":"1"}}`
				_, err := kubetest.Dynamic(t).Resource(corev1.SchemeGroupVersion.WithResource("configmaps")).Namespace(ns).
					Patch(context.Background(), "testmap", types.ApplyPatchType, []byte(manifest), metav1.PatchOptions{FieldManager: FieldManager})
				if err != nil {
					t.Fatal(err)
				}
			} else {
				kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=1", "--from-literal=bar=1")
			}
			target := resolveForTest(t, kubetest.Kubeconfig(t), ns, "cm", "testmap")
			dc := kubetest.Dynamic(t)
			ctx := context.Background()

			base := readBase(t, target)
			mine := withData(base, "foo", "mine")

			// Dry run: the server's answer, nothing stored.
			preview, err := Save(ctx, dc, target, strategy, base, mine, SaveOptions{DryRun: true})
			if err != nil {
				t.Fatalf("dry run: %v", err)
			}
			if v, _, _ := unstructured.NestedString(preview.Object, "data", "foo"); v != "mine" {
				t.Errorf("dry run returned foo=%q, want mine", v)
			}
			if now := readBase(t, target); now.GetResourceVersion() != base.GetResourceVersion() {
				t.Fatalf("dry run stored the object: rv %s -> %s", base.GetResourceVersion(), now.GetResourceVersion())
			}

			saved, err := Save(ctx, dc, target, strategy, base, mine, SaveOptions{})
			if err != nil {
				t.Fatalf("save: %v", err)
			}
			if v, _, _ := unstructured.NestedString(saved.Object, "data", "foo"); v != "mine" || saved.GetResourceVersion() == base.GetResourceVersion() {
				t.Errorf("saved foo=%q rv %s, want foo=mine and a new rv", v, saved.GetResourceVersion())
			}

			// Someone else changes the object; a save from the old base must
			// be refused, not overwrite their change.
			kubetest.MustKubectl(t, "-n", ns, "patch", "configmap", "testmap", "--type=merge", "-p", `{"data":{"bar":"theirs"}}`)
			_, err = Save(ctx, dc, target, strategy, saved, withData(saved, "foo", "again"), SaveOptions{})
			var conflict *ConflictError
			if !errors.As(err, &conflict) {
				t.Fatalf("save from a stale base: err = %v, want *ConflictError", err)
			}
			if strategy != StrategyApply && !strings.Contains(err.Error(), "changed on the server") {
				t.Errorf("conflict message %q", err)
			}
			now := readBase(t, target)
			if v, _, _ := unstructured.NestedString(now.Object, "data", "bar"); v != "theirs" {
				t.Errorf("their change was lost: bar=%q", v)
			}
			if v, _, _ := unstructured.NestedString(now.Object, "data", "foo"); v != "mine" {
				t.Errorf("the refused save changed foo to %q", v)
			}

		})
	}
}

func TestApplyConflictNamesTheOtherManager(t *testing.T) {
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=1")
	kubetest.MustKubectl(t, "-n", ns, "patch", "configmap", "testmap", "--type=merge", "-p", `{"data":{"foo":"theirs"}}`)
	target := resolveForTest(t, kubetest.Kubeconfig(t), ns, "configmaps", "testmap")
	base := readBase(t, target)

	_, err := Save(context.Background(), kubetest.Dynamic(t), target, StrategyApply, base, withData(base, "foo", "mine"), SaveOptions{})
	var conflict *ConflictError
	if !errors.As(err, &conflict) || len(conflict.Managers) == 0 {
		t.Fatalf("err = %v, want a field-manager conflict", err)
	}
	if m := conflict.Managers[0]; m.Manager != "kubectl-patch" || m.Field != ".data.foo" {
		t.Errorf("conflict = %+v, want .data.foo owned by kubectl-patch", m)
	}
	if !strings.Contains(err.Error(), ".data.foo (owned by kubectl-patch)") {
		t.Errorf("message %q does not name the field and its manager", err)
	}
	if v, _, _ := unstructured.NestedString(readBase(t, target).Object, "data", "foo"); v != "theirs" {
		t.Errorf("foo = %q after the refused apply, want theirs", v)
	}
}

func TestSaveErrorsLeaveServerUnchanged(t *testing.T) {
	ns := kubetest.Namespace(t)
	ctx := context.Background()
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=1")
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "frozen", "--from-literal=foo=1")
	kubetest.MustKubectl(t, "-n", ns, "patch", "configmap", "frozen", "--type=merge", "-p", `{"immutable":true}`)
	admin := kubetest.Kubeconfig(t)
	target := resolveForTest(t, admin, ns, "configmap", "testmap")
	dc := kubetest.Dynamic(t)

	check := func(t *testing.T, target *Target, before *unstructured.Unstructured) {
		t.Helper()
		if now := readBase(t, target); now.GetResourceVersion() != before.GetResourceVersion() {
			t.Errorf("the failed save changed the object: rv %s -> %s", before.GetResourceVersion(), now.GetResourceVersion())
		}
	}

	t.Run("invalid label", func(t *testing.T) {
		base := readBase(t, target)
		mine := base.DeepCopy()
		mine.SetLabels(map[string]string{"bad key!": "x"})
		_, err := Save(ctx, dc, target, StrategyUpdate, base, mine, SaveOptions{})
		var invalid *InvalidError
		if !errors.As(err, &invalid) || len(invalid.Causes) == 0 || invalid.Causes[0].Field != "metadata.labels" {
			t.Fatalf("err = %#v, want *InvalidError with a metadata.labels cause", err)
		}
		if !strings.Contains(err.Error(), "configmaps/testmap is invalid: metadata.labels") {
			t.Errorf("message %q", err)
		}
		check(t, target, base)
	})

	t.Run("immutable", func(t *testing.T) {
		frozen := resolveForTest(t, admin, ns, "cm", "frozen")
		base := readBase(t, frozen)
		_, err := Save(ctx, dc, frozen, StrategyUpdate, base, withData(base, "foo", "2"), SaveOptions{})
		var immutable *ImmutableError
		if !errors.As(err, &immutable) {
			t.Fatalf("err = %v, want *ImmutableError", err)
		}
		if !strings.Contains(err.Error(), "configmaps/frozen cannot be changed: data: Forbidden: field is immutable") {
			t.Errorf("message %q", err)
		}
		check(t, frozen, base)
	})

	t.Run("forbidden", func(t *testing.T) {
		base := readBase(t, target)
		viewer := resolveForTest(t, kubetest.ViewerKubeconfig(t), ns, "configmaps", "testmap")
		vcfg, err := clientcmd.BuildConfigFromFlags("", kubetest.ViewerKubeconfig(t))
		if err != nil {
			t.Fatal(err)
		}
		vdc, err := dynamic.NewForConfig(vcfg)
		if err != nil {
			t.Fatal(err)
		}
		_, err = Save(ctx, vdc, viewer, StrategyUpdate, base, withData(base, "foo", "2"), SaveOptions{})
		var forbidden *ForbiddenError
		if !errors.As(err, &forbidden) {
			t.Fatalf("err = %v, want *ForbiddenError", err)
		}
		if !strings.Contains(err.Error(), `not allowed to update configmaps/testmap`) || !strings.Contains(err.Error(), `User "kedit-viewer" cannot update`) {
			t.Errorf("message %q does not name the verb, resource and user", err)
		}
		check(t, target, base)
	})

	t.Run("deleted while editing", func(t *testing.T) {
		kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "doomed", "--from-literal=foo=1")
		doomed := resolveForTest(t, admin, ns, "cm", "doomed")
		base := readBase(t, doomed)
		kubetest.MustKubectl(t, "-n", ns, "delete", "configmap", "doomed")
		for _, s := range Strategies {
			_, err := Save(ctx, dc, doomed, s, base, withData(base, "foo", "2"), SaveOptions{})
			var notFound *NotFoundError
			if !errors.As(err, &notFound) {
				t.Errorf("%s: err = %v, want *NotFoundError", s, err)
				continue
			}
			if !strings.Contains(err.Error(), `configmaps/doomed not found in namespace "`+ns+`"`) {
				t.Errorf("%s: message %q", s, err)
			}
		}
		if _, err := doomed.Resource(dc).Get(ctx, "doomed", metav1.GetOptions{}); err == nil {
			t.Error("a save recreated the deleted object without being asked")
		}
	})

	t.Run("no resourceVersion", func(t *testing.T) {
		base := readBase(t, target)
		blind := base.DeepCopy()
		blind.SetResourceVersion("")
		if _, err := Save(ctx, dc, target, StrategyPatch, blind, withData(base, "foo", "2"), SaveOptions{}); !errors.Is(err, model.ErrNoResourceVersion) {
			t.Errorf("err = %v, want model.ErrNoResourceVersion", err)
		}
		check(t, target, base)
	})

	t.Run("renamed draft", func(t *testing.T) {
		base := readBase(t, target)
		mine := base.DeepCopy()
		mine.SetName("other")
		_, err := Save(ctx, dc, target, StrategyUpdate, base, mine, SaveOptions{})
		var renamed *diff.IdentityError
		if !errors.As(err, &renamed) || renamed.Field != "metadata.name" || renamed.Side != "mine" {
			t.Fatalf("err = %v, want a *diff.IdentityError on mine's metadata.name", err)
		}
		if want := `the draft changes metadata.name from "` + base.GetName() + `" to "other": kedit saves the object it opened, not another one`; err.Error() != want {
			t.Errorf("err = %q, want %q", err, want)
		}
		check(t, target, base)
	})
}

func TestResolveForms(t *testing.T) {
	ns := kubetest.Namespace(t)
	admin := kubetest.Kubeconfig(t)
	for _, typ := range []string{"cm", "configmap", "configmaps", "ConfigMap", "configmaps.", "configmaps.v1."} {
		target := resolveForTest(t, admin, ns, typ, "x")
		if target.Mapping.Resource.Resource != "configmaps" || target.Namespace != ns || target.Context != "localcluster" {
			t.Errorf("%s: resolved to %v in %q (context %q)", typ, target.Mapping.Resource, target.Namespace, target.Context)
		}
	}
	for _, typ := range []string{"deploy", "deployments.apps", "deployment"} {
		if got := resolveForTest(t, admin, ns, typ, "x").Mapping.Resource; got.Group != "apps" || got.Resource != "deployments" {
			t.Errorf("%s: resolved to %v", typ, got)
		}
	}
	ns2 := resolveForTest(t, admin, ns, "ns", "default")
	if ns2.Namespaced() || ns2.Namespace != "" {
		t.Errorf("namespaces resolved as namespaced (%q)", ns2.Namespace)
	}

	// The flag rather than KUBECACHEDIR, so that tests may run in parallel.
	flags := &ConnFlags{KubeConfig: admin, CacheDir: t.TempDir()}
	_, err := Resolve(flags, "configmapz", "x")
	var unknown *UnknownTypeError
	if !errors.As(err, &unknown) || len(unknown.Suggestions) == 0 || unknown.Suggestions[0] != "configmaps" {
		t.Fatalf("err = %v, want an unknown type suggesting configmaps", err)
	}
}
