package kube

import (
	"errors"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kedit/kedit/kube/kubetest"
	"github.com/kedit/kedit/model"
)

// recreateConfigMap deletes ns/testmap and creates it again with kubectl,
// as `kubectl delete cm testmap && kubectl create cm testmap ...` does, and
// returns the new object's uid.
func recreateConfigMap(t *testing.T, ns string, literals ...string) string {
	t.Helper()
	kubetest.MustKubectl(t, "-n", ns, "delete", "configmap", "testmap")
	args := []string{"-n", ns, "create", "configmap", "testmap"}
	for _, l := range literals {
		args = append(args, "--from-literal="+l)
	}
	kubetest.MustKubectl(t, args...)
	return strings.TrimSpace(kubetest.MustKubectl(t, "-n", ns, "get", "configmap", "testmap", "-o", "jsonpath={.metadata.uid}"))
}

// TestEngineRecreatedUnderDraft: with a draft open, kubectl deletes the
// ConfigMap and creates it again. The watch's events make the banner say
// so with the new uid; a save without the user's yes is refused and sends
// nothing (the server object unchanged, the draft intact); the yes merges
// the draft onto the new object (a rebase that says theirs is a new
// object), and its resubmit lands on the new object, keeping its field.
func TestEngineRecreatedUnderDraft(t *testing.T) {
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=1")
	e := newEngine(t, ns, "testmap")
	old := string(e.session.Base().Object.GetUID())
	e.editDraft(`foo: "1"`, `foo: mine`)
	draft := e.session.Draft().Text

	uid := recreateConfigMap(t, ns, "foo=1", "newteam=x")
	e.awaitLive(func(obj *unstructured.Unstructured) bool { return string(obj.GetUID()) == uid })
	ch, ok := e.session.ServerChange()
	if !ok || !ch.Recreated || ch.UID != uid || ch.Manager != "kubectl-create" {
		t.Fatalf("banner %+v (%v), want created again as uid %s by kubectl-create (the old uid was %s)", ch, ok, uid, old)
	}
	before := readBase(t, e.runner.Target)

	var re *model.RecreatedError
	if err := e.handle(model.SaveRequested{}); !errors.As(err, &re) || re.UID != uid {
		t.Fatalf("save without the yes: %v, want a *RecreatedError naming uid %s", err, uid)
	}
	if got := readBase(t, e.runner.Target); got.GetResourceVersion() != before.GetResourceVersion() {
		t.Fatalf("the refused save wrote rv %s", got.GetResourceVersion())
	}
	if d := e.session.Draft(); d == nil || d.Text != draft {
		t.Fatal("the refused save changed the draft")
	}

	if err := e.handle(model.SaveRequested{OntoNewObject: true}); err != nil {
		t.Fatal(err)
	}
	rb := e.session.Rebase()
	if e.session.State() != model.StateRebasing || rb == nil || rb.CreatedAgain != before.GetResourceVersion() {
		t.Fatalf("state %s, rebase %+v: want a clean rebase onto the new object created at rv %s", e.session.State(), rb, before.GetResourceVersion())
	}
	if err := e.handle(model.Resubmit{}); err != nil {
		t.Fatal(err)
	}
	if st := e.session.State(); st != model.StateSaved {
		t.Fatalf("state %s (failure %+v)", st, e.session.Failure())
	}
	obj := readBase(t, e.runner.Target)
	data, _, _ := unstructured.NestedStringMap(obj.Object, "data")
	if string(obj.GetUID()) != uid || data["foo"] != "mine" || data["newteam"] != "x" {
		t.Errorf("on the server: uid %s, data %v", obj.GetUID(), data)
	}
	if r := e.session.LastSave(); r == nil || r.NewObject != uid {
		t.Errorf("report %+v, want it to name the new object", r)
	}
}

// TestEngineRecreatedFoundBySave: the session has not heard of the new
// object when the user saves. The API server refuses the save (the draft's
// resourceVersion and uid are the earlier object's), theirs is the new
// object, and the session stops there: nothing written, the draft as it
// was, the question asked. After the yes it lands on the new object. A
// relist that brings only the new uid (no delete) is the same to the
// session.
func TestEngineRecreatedFoundBySave(t *testing.T) {
	for _, relist := range []bool{false, true} {
		name := "save"
		if relist {
			name = "relist"
		}
		t.Run(name, func(t *testing.T) {
			ns := kubetest.Namespace(t)
			kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=1", "--from-literal=bar=1")
			e := newEngine(t, ns, "testmap")
			e.editDraft(`foo: "1"`, `foo: mine`)
			draft := e.session.Draft().Text
			// The engine hands the session no watch event from here on.
			uid := recreateConfigMap(t, ns, "foo=1", "bar=2")
			if relist {
				// What a watch that relisted after missing the delete and
				// the create delivers: the object, with another uid.
				e.handle(model.LiveChanged{Type: model.LiveModified, Object: readBase(t, e.runner.Target)})
				if ch, _ := e.session.ServerChange(); !ch.Recreated || ch.UID != uid {
					t.Fatalf("banner %+v", ch)
				}
				if err := e.handle(model.SaveRequested{}); model.KindOf(err) != model.ErrorRecreated {
					t.Fatalf("save: %v, want the question", err)
				}
			} else {
				e.handle(model.SaveRequested{})
				if f := e.session.Failure(); e.session.State() != model.StateFailed || f == nil || f.Kind != model.ErrorRecreated {
					t.Fatalf("state %s, failure %+v: want the save stopped at the new object", e.session.State(), f)
				}
			}
			if d := e.session.Draft(); d == nil || d.Text != draft {
				t.Fatal("the draft changed")
			}
			if data := dataOf(t, e.runner.Target); data["foo"] != "1" || data["bar"] != "2" {
				t.Fatalf("the server object was written: %v", data)
			}
			if err := e.handle(model.SaveRequested{OntoNewObject: true}); err != nil {
				t.Fatal(err)
			}
			if err := e.handle(model.Resubmit{}); err != nil {
				t.Fatal(err)
			}
			obj := readBase(t, e.runner.Target)
			if data, _, _ := unstructured.NestedStringMap(obj.Object, "data"); string(obj.GetUID()) != uid || data["foo"] != "mine" || data["bar"] != "2" {
				t.Errorf("on the server: uid %s, data %v", obj.GetUID(), data)
			}
		})
	}
}
