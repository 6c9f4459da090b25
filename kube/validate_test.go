package kube

import (
	"context"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"

	"github.com/kedit/kedit/kube/kubetest"
	"github.com/kedit/kedit/model"
)

// withUnknownField is obj with a field no Deployment has in its first
// container, as a typo under imagePullPolicy makes it.
func withUnknownField(t *testing.T, obj *unstructured.Unstructured) *unstructured.Unstructured {
	t.Helper()
	out := obj.DeepCopy()
	cs, _, _ := unstructured.NestedSlice(out.Object, "spec", "template", "spec", "containers")
	if len(cs) == 0 {
		t.Fatal("no containers")
	}
	cs[0].(map[string]any)["imagePullPolicyy"] = "Always"
	if err := unstructured.SetNestedSlice(out.Object, cs, "spec", "template", "spec", "containers"); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestValidationOfUnknownFields holds --validate on every strategy against
// the real server: strict refuses an unknown field naming it by the
// container's name and leaves the server unchanged; warn saves and returns
// the server's warning with the save; ignore saves without a word, and the
// field is not on the server. A server-side apply is refused whatever the
// validation.
func TestValidationOfUnknownFields(t *testing.T) {
	for _, strategy := range Strategies {
		t.Run(string(strategy), func(t *testing.T) {
			ns := kubetest.Namespace(t)
			kubetest.MustKubectl(t, "-n", ns, "create", "deployment", "web1", "--image=nginx")
			target := resolveForTest(t, kubetest.Kubeconfig(t), ns, "deploy", "web1")
			dc, err := dynamic.NewForConfig(CollectWarnings(rest.CopyConfig(kubetest.RESTConfig(t)), nil))
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			r := &Runner{Client: dc, Target: target, Strategy: strategy}
			save := func(v Validation, dryRun bool) model.Event {
				t.Helper()
				r.Validation = v
				base := readBase(t, target)
				ev, err := r.Perform(ctx, model.Save{Object: withUnknownField(t, base), Base: base, ResourceVersion: base.GetResourceVersion(), DryRun: dryRun})
				if err != nil {
					t.Fatal(err)
				}
				return ev
			}
			const want = `.spec.template.spec.containers[name="nginx"].imagePullPolicyy`

			before := readBase(t, target).GetResourceVersion()
			for _, dryRun := range []bool{true, false} {
				var err error
				switch ev := save(ValidationStrict, dryRun).(type) {
				case model.SaveFailed:
					err = ev.Err
				case model.Previewed:
					err = ev.Err
				default:
					t.Fatalf("strict (dry run %v): %#v, want a refusal", dryRun, ev)
				}
				// An apply's refusal is the server's own 500 (kind refused).
				if k := model.KindOf(err); k != model.ErrorInvalid && (strategy != StrategyApply || k != model.ErrorRefused) {
					t.Errorf("strict (dry run %v): kind %v, want invalid: %v", dryRun, k, err)
				}
				causes := model.CausesOf(err)
				if len(causes) != 1 || causes[0].Field != want {
					t.Errorf("strict (dry run %v): causes %+v, want %s: %v", dryRun, causes, want, err)
				}
			}
			if now := readBase(t, target).GetResourceVersion(); now != before {
				t.Errorf("strict: the server moved from rv %s to %s", before, now)
			}

			if strategy == StrategyApply {
				// A server-side apply builds a typed object, which has no
				// room for an unknown field: the server refuses it whatever
				// the validation, and the refusal names it.
				for _, v := range []Validation{ValidationWarn, ValidationIgnore} {
					f, ok := save(v, false).(model.SaveFailed)
					if causes := model.CausesOf(f.Err); !ok || len(causes) != 1 || causes[0].Field != want {
						t.Errorf("apply, %s: %v, want a refusal naming %s", v, f.Err, want)
					}
				}
				return
			}
			ev := save(ValidationWarn, false)
			saved, ok := ev.(model.Saved)
			if !ok {
				t.Fatalf("warn: the save did not land: %#v", ev)
			}
			if len(saved.Warnings) == 0 || !strings.Contains(strings.Join(saved.Warnings, "\n"), "imagePullPolicyy") {
				t.Errorf("warn: warnings %q, want one naming imagePullPolicyy", saved.Warnings)
			}

			saved, ok = save(ValidationIgnore, false).(model.Saved)
			if !ok {
				t.Fatal("ignore: the save did not land")
			}
			if len(saved.Warnings) != 0 {
				t.Errorf("ignore: warnings %q, want none", saved.Warnings)
			}
			cs, _, _ := unstructured.NestedSlice(readBase(t, target).Object, "spec", "template", "spec", "containers")
			if _, there := cs[0].(map[string]any)["imagePullPolicyy"]; there {
				t.Error("ignore: the unknown field is on the server")
			}
		})
	}
}

// TestEngineIgnoredFieldIsNamedAfterSave: under --validate=ignore the
// server takes a save with an unknown field and drops it without a word;
// the session's report then names that field by itself as not on the
// server, not the list it is in.
func TestEngineIgnoredFieldIsNamedAfterSave(t *testing.T) {
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "deployment", "web1", "--image=nginx")
	e := newEngineFor(t, ns, "deploy", "web1", StrategyUpdate)
	e.runner.Validation = ValidationIgnore
	const line = "        imagePullPolicy: Always\n"
	e.editDraft(line, line+"        imagePullPolicyy: Always\n")
	if err := e.handle(model.SaveRequested{}); err != nil {
		t.Fatal(err)
	}
	r := e.session.LastSave()
	if r == nil {
		t.Fatalf("no save report; state %v, failure %+v", e.session.State(), e.session.Failure())
	}
	var paths []string
	for _, m := range r.NotStored {
		paths = append(paths, m.Path.String())
	}
	const want = `.spec.template.spec.containers[name="nginx"].imagePullPolicyy`
	if len(r.NotStored) != 1 || paths[0] != want || r.NotStored[0].Stored.Present {
		t.Errorf("not stored: %q, want only %s, absent on the server", paths, want)
	}
	if len(r.Warnings) != 0 {
		t.Errorf("warnings under ignore: %q", r.Warnings)
	}
}

// TestTooLongNamesTheObjectAndItsSize: a ConfigMap's data over 1 MiB is
// refused naming the object and the size of its data in words, not `[]`.
func TestTooLongNamesTheObjectAndItsSize(t *testing.T) {
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "big", "--from-literal=foo=1")
	target := resolveForTest(t, kubetest.Kubeconfig(t), ns, "cm", "big")
	for _, strategy := range Strategies {
		base := readBase(t, target)
		_, err := Save(context.Background(), kubetest.Dynamic(t), target, strategy, base, withData(base, "foo", strings.Repeat("x", 1100*1024)),
			SaveOptions{Force: strategy == StrategyApply}) // kubectl create owns foo
		causes := model.CausesOf(err)
		if len(causes) != 1 || causes[0].Field != target.String() ||
			!strings.HasPrefix(causes[0].Message, "its data is 1.1 MiB (1126403 bytes); Too long") {
			t.Errorf("%s: %v (causes %+v), want the object named and its data's size", strategy, err, causes)
		}
	}
}
