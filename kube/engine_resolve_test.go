package kube

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"

	"github.com/kedit/kedit/diff"
	"github.com/kedit/kedit/internal/fixture"
	"github.com/kedit/kedit/kube/kubetest"
	"github.com/kedit/kedit/model"
)

// Reproductions of resolutions that once dropped a change, each as the session engine against the
// real API server: no resolution drops a change that did not collide, and
// server-side apply does what the draft says or says why not.

// writeTemp writes body to a file of the test's own.
func writeTemp(t *testing.T, name, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// setDraftData sets data keys in the draft (a value "" removes the key).
func (e *engine) setDraftData(kv map[string]string) {
	e.t.Helper()
	text, err := e.session.DraftText()
	if err != nil {
		e.t.Fatal(err)
	}
	obj, err := diff.DecodeObject([]byte(text))
	if err != nil {
		e.t.Fatal(err)
	}
	for k, v := range kv {
		if v == "" {
			unstructured.RemoveNestedField(obj.Object, "data", k)
		} else if err := unstructured.SetNestedField(obj.Object, v, "data", k); err != nil {
			e.t.Fatal(err)
		}
	}
	out, err := model.RenderYAML(obj)
	if err != nil {
		e.t.Fatal(err)
	}
	if err := e.handle(model.DraftEdited{Text: out}); err != nil {
		e.t.Fatalf("DraftEdited: %v", err)
	}
}

// TestEngineTakeMineKeepsTheirsCleanLines: taking mine for a conflict in
// a multi-line value takes only the lines that collide. The draft changes
// lines 5 and 10 of app.conf, theirs lines 10 and 30. Only line 10
// collides; after m and s the server has mine's 5 and 10 and theirs' 30.
func TestEngineTakeMineKeepsTheirsCleanLines(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "app", "--from-file=app.conf="+writeTemp(t, "app.conf", fixture.AppConfBase))
	e := newEngineFor(t, ns, "configmap", "app", StrategyUpdate)
	e.setDraftData(map[string]string{"app.conf": fixture.AppConfMine})
	theirs := fixture.AppConfTheirs
	kubetest.MustKubectl(t, "-n", ns, "patch", "configmap", "app", "--type=merge", "-p",
		fmt.Sprintf(`{"data":{"app.conf":%q}}`, theirs))
	e.awaitLive(liveData("app.conf", theirs))

	e.handle(model.SaveRequested{})
	cs := e.session.Conflicts()
	if e.session.State() != model.StateResolving || len(cs) != 1 || cs[0].Where() != ".data.app.conf line 10" {
		t.Fatalf("state %v, conflicts %v; want one at .data.app.conf line 10", e.session.State(), cs)
	}
	var merged []string
	for _, c := range e.session.Rebase().Merge.Changes {
		merged = append(merged, c.Where()+" ("+c.Side.String()+")")
	}
	if got := strings.Join(merged, ", "); got != ".data.app.conf line 5 (mine), .data.app.conf line 30 (theirs)" {
		t.Errorf("merged changes: %s", got)
	}
	e.handle(model.Resolve{Index: 0, Resolution: diff.Resolution{Choice: diff.TakeMine}})
	if err := e.handle(model.Resubmit{}); err != nil {
		t.Fatal(err)
	}
	if e.session.State() != model.StateSaved {
		t.Fatalf("state %v after the resubmit (failure %+v)", e.session.State(), e.session.Failure())
	}
	want := fixture.AppConfMineAt10
	if got := dataOf(t, e.runner.Target)["app.conf"]; got != want {
		t.Errorf("app.conf on the server:\n%s\nwant\n%s", got, want)
	}
}

// TestEngineCustomResourceListMergesByItem: a custom resource's list is
// merged by item as its schema says. A CRD's list of type map, mine edits
// item a, theirs item b. With the server's schema the rebase is clean and
// both edits land.
func TestEngineCustomResourceListMergesByItem(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.CreateCustom(t, ns, kubetest.WidgetCRDs, kubetest.Widget("w", "a=1", "b=1"))
	e := newEngineFor(t, ns, "widgets.kedit.example.com", "w", StrategyUpdate)
	text, _ := e.session.DraftText()
	e.editDraftText(strings.Replace(text, "name: a\n    size: 1", "name: a\n    size: 2", 1))
	kubetest.MustKubectl(t, "-n", ns, "patch", "widget", "w", "--type=json", "-p", `[{"op":"replace","path":"/spec/parts/1/size","value":5}]`)
	e.awaitLive(func(o *unstructured.Unstructured) bool {
		parts, _, _ := unstructured.NestedSlice(o.Object, "spec", "parts")
		return len(parts) == 2 && parts[1].(map[string]any)["size"] == int64(5)
	})

	e.handle(model.SaveRequested{})
	rb := e.session.Rebase()
	if e.session.State() != model.StateRebasing || rb == nil || rb.Merge.Schema != diff.SchemaGiven || len(rb.Merge.Conflicts) != 0 {
		t.Fatalf("state %v, rebase %+v: want a clean rebase by the server's schema", e.session.State(), rb)
	}
	if err := e.handle(model.Resubmit{}); err != nil {
		t.Fatal(err)
	}
	parts, _, _ := unstructured.NestedSlice(readBase(t, e.runner.Target).Object, "spec", "parts")
	if len(parts) != 2 || parts[0].(map[string]any)["size"] != int64(2) || parts[1].(map[string]any)["size"] != int64(5) {
		t.Errorf("parts = %v, want a's size 2 (mine) and b's 5 (theirs)", parts)
	}
}

// editDraftText replaces the whole draft.
func (e *engine) editDraftText(text string) {
	e.t.Helper()
	if err := e.handle(model.DraftEdited{Text: text}); err != nil {
		e.t.Fatalf("DraftEdited: %v", err)
	}
}

// TestEngineRefusedMergedTextKeepsTheRebase: a diff3 block
// left in the merged text is refused, and the rebase, its resolutions and
// the draft stay.
func TestEngineRefusedMergedTextKeepsTheRebase(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=1", "--from-literal=bar=1")
	e := newEngineFor(t, ns, "configmap", "testmap", StrategyUpdate)
	e.setDraftData(map[string]string{"foo": "mine", "bar": "mine"})
	draft := e.session.Draft().Text
	kubetest.MustKubectl(t, "-n", ns, "patch", "configmap", "testmap", "--type=merge", "-p", `{"data":{"foo":"theirs","bar":"theirs"}}`)
	e.awaitLive(liveData("bar", "theirs"))
	e.handle(model.SaveRequested{})
	if len(e.session.Conflicts()) != 2 {
		t.Fatalf("conflicts %v", e.session.Conflicts())
	}
	e.handle(model.Resolve{Index: 0, Resolution: diff.Resolution{Choice: diff.TakeTheirs}})
	merged, err := e.session.MergedText()
	if err != nil {
		t.Fatal(err)
	}
	var de *model.DraftError
	if err := e.handle(model.MergedEdited{Text: merged}); !errors.As(err, &de) || de.Field != ".data.foo" {
		t.Fatalf("a block left in: err = %v, want a DraftError on .data.foo", err)
	}
	if e.session.State() != model.StateResolving || e.session.Draft().Text != draft || e.session.Resolutions()[0].Choice != diff.TakeTheirs {
		t.Fatalf("state %v, resolutions %v: the refusal lost the rebase", e.session.State(), e.session.Resolutions())
	}
	if again, _ := e.session.MergedText(); again != merged {
		t.Error("the refused text is not offered again")
	}
	if strings.Contains(e.session.Draft().Text, "managedFields") {
		t.Error("managedFields showed up in the draft")
	}
	e.handle(model.Resolve{Index: 1, Resolution: diff.Resolution{Choice: diff.TakeMine}})
	if err := e.handle(model.Resubmit{}); err != nil {
		t.Fatal(err)
	}
	if got := dataOf(t, e.runner.Target); got["bar"] != "theirs" || got["foo"] != "mine" {
		t.Errorf("data %v, want bar theirs and foo mine", got)
	}
}

// createApplied creates configmap testmap with data kv as kedit's own
// server-side apply, so that kedit owns every field of it.
func createApplied(t *testing.T, ns string, kv map[string]string) {
	t.Helper()
	obj := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "testmap"},
	}}
	data := map[string]any{}
	for k, v := range kv {
		data[k] = v
	}
	obj.Object["data"] = data
	body, err := obj.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	_, err = kubetest.Dynamic(t).Resource(corev1.SchemeGroupVersion.WithResource("configmaps")).Namespace(ns).
		Patch(context.Background(), "testmap", types.ApplyPatchType, body, metav1.PatchOptions{FieldManager: FieldManager})
	if err != nil {
		t.Fatal(err)
	}
}

// owners returns the managers (manager/operation) owning data.key.
func owners(t *testing.T, obj *unstructured.Unstructured, key string) []string {
	t.Helper()
	var out []string
	want := fieldpath.MakePathOrDie("data", key)
	for _, e := range obj.GetManagedFields() {
		if s, ok := model.OwnedFields(&e); ok && s.Has(want) {
			out = append(out, e.Manager+"/"+string(e.Operation))
		}
	}
	return out
}

// applyOwnershipConflict: kedit applied the object, kubectl patch took
// foo; the draft changes foo and bar, and the apply conflicts on foo.
func applyOwnershipConflict(t *testing.T) *engine {
	t.Helper()
	ns := kubetest.Namespace(t)
	createApplied(t, ns, map[string]string{"foo": "1", "bar": "1"})
	kubetest.MustKubectl(t, "-n", ns, "patch", "configmap", "testmap", "--type=merge", "-p", `{"data":{"foo":"theirs"}}`)
	e := newEngineFor(t, ns, "configmap", "testmap", StrategyApply)
	e.setDraftData(map[string]string{"foo": "mine", "bar": "mine"})
	e.handle(model.SaveRequested{})
	rb := e.session.Rebase()
	if e.session.State() != model.StateResolving || rb == nil || !rb.Ownership {
		t.Fatalf("after the apply: state %v, failure %+v; want the ownership conflicts", e.session.State(), e.session.Failure())
	}
	cs := e.session.Conflicts()
	if len(cs) != 1 || cs[0].Where() != ".data.foo" || cs[0].Owner != "kubectl-patch" || cs[0].Mine.Value != "mine" || cs[0].Theirs.Value != "theirs" {
		t.Fatalf("conflicts %+v, want .data.foo owned by kubectl-patch", cs)
	}
	return e
}

func TestEngineApplyConflictResolvedToMineLandsWithForce(t *testing.T) {
	t.Parallel()
	e := applyOwnershipConflict(t)
	e.handle(model.Resolve{Index: 0, Resolution: diff.Resolution{Choice: diff.TakeMine}})
	if err := e.handle(model.Resubmit{}); err != nil {
		t.Fatal(err)
	}
	if e.session.State() != model.StateSaved {
		t.Fatalf("state %v (failure %+v)", e.session.State(), e.session.Failure())
	}
	obj := readBase(t, e.runner.Target)
	if got := dataOf(t, e.runner.Target); got["foo"] != "mine" || got["bar"] != "mine" {
		t.Errorf("data %v, want foo and bar mine", got)
	}
	if got := owners(t, obj, "foo"); strings.Join(got, ",") != "kedit/Apply" {
		t.Errorf(".data.foo owned by %v, want kedit's apply alone", got)
	}
	if r := e.session.LastSave(); r == nil || len(r.Forced) != 1 || r.Forced[0].Manager != "kubectl-patch" || len(r.NotStored) != 0 {
		t.Errorf("report %+v, want foo forced from kubectl-patch", r)
	}
}

func TestEngineApplyConflictResolvedToTheirsLeavesTheField(t *testing.T) {
	t.Parallel()
	e := applyOwnershipConflict(t)
	e.handle(model.Resolve{Index: 0, Resolution: diff.Resolution{Choice: diff.TakeTheirs}})
	if err := e.handle(model.Resubmit{}); err != nil {
		t.Fatal(err)
	}
	if e.session.State() != model.StateSaved {
		t.Fatalf("state %v (failure %+v)", e.session.State(), e.session.Failure())
	}
	obj := readBase(t, e.runner.Target)
	if got := dataOf(t, e.runner.Target); got["foo"] != "theirs" || got["bar"] != "mine" {
		t.Errorf("data %v, want foo theirs and bar mine", got)
	}
	if got := owners(t, obj, "foo"); strings.Join(got, ",") != "kubectl-patch/Update" {
		t.Errorf(".data.foo owned by %v, want kubectl-patch alone (kedit stopped claiming it)", got)
	}
	if r := e.session.LastSave(); r == nil || len(r.Forced) != 0 || len(r.NotStored) != 0 {
		t.Errorf("report %+v", r)
	}
}

// TestEngineApplyOwnUpdateFieldsDoNotConflict: fields kedit wrote with an
// update are its own when it applies.
func TestEngineApplyOwnUpdateFieldsDoNotConflict(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=1")
	e := newEngineFor(t, ns, "configmap", "testmap", StrategyUpdate)
	e.setDraftData(map[string]string{"foo": "by-update"})
	e.handle(model.SaveRequested{})
	if got := owners(t, readBase(t, e.runner.Target), "foo"); strings.Join(got, ",") != "kedit/Update" {
		t.Fatalf("after the update .data.foo is owned by %v", got)
	}
	e.runner.Strategy = StrategyApply
	e.setDraftData(map[string]string{"foo": "by-apply"})
	e.handle(model.SaveRequested{})
	if e.session.State() != model.StateSaved {
		t.Fatalf("state %v, failure %+v, conflicts %v: kedit's apply conflicts with its own update", e.session.State(), e.session.Failure(), e.session.Conflicts())
	}
	obj := readBase(t, e.runner.Target)
	if got := owners(t, obj, "foo"); strings.Join(got, ",") != "kedit/Apply" || dataOf(t, e.runner.Target)["foo"] != "by-apply" {
		t.Errorf(".data.foo = %q owned by %v, want by-apply owned by kedit's apply", dataOf(t, e.runner.Target)["foo"], got)
	}
	for _, m := range obj.GetManagedFields() {
		if m.Manager == FieldManager && m.Operation == metav1.ManagedFieldsOperationUpdate {
			t.Errorf("kedit's update entry is still there: %+v", m)
		}
	}
}

// TestEngineApplyRemovalOfOwnedFieldOffersUpdate: a draft that removes a key kubectl patch owns is not sent by apply (it
// would be reported saved with the key still there); sent as an update it
// removes the key.
func TestEngineApplyRemovalOfOwnedFieldOffersUpdate(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	createApplied(t, ns, map[string]string{"foo": "1"})
	kubetest.MustKubectl(t, "-n", ns, "patch", "configmap", "testmap", "--type=merge", "-p", `{"data":{"baz":"theirs"}}`)
	e := newEngineFor(t, ns, "configmap", "testmap", StrategyApply)
	before := readBase(t, e.runner.Target).GetResourceVersion()
	e.setDraftData(map[string]string{"baz": "", "foo": "2"})
	e.handle(model.SaveRequested{})
	f := e.session.Failure()
	if e.session.State() != model.StateFailed || f == nil || f.Kind != model.ErrorApplyCannotRemove ||
		len(f.Causes) != 1 || f.Causes[0].Field != ".data.baz" || f.Causes[0].Message != "owned by kubectl-patch" {
		t.Fatalf("state %v, failure %+v; want apply refusing to remove .data.baz", e.session.State(), f)
	}
	if now := readBase(t, e.runner.Target).GetResourceVersion(); now != before {
		t.Fatal("the refused apply was sent")
	}
	if err := e.handle(model.SaveRequested{AsUpdate: true}); err != nil {
		t.Fatal(err)
	}
	if e.session.State() != model.StateSaved {
		t.Fatalf("state %v (failure %+v)", e.session.State(), e.session.Failure())
	}
	if got := dataOf(t, e.runner.Target); got["foo"] != "2" || got["baz"] != "" {
		t.Errorf("data %v, want foo 2 and no baz", got)
	}
	if r := e.session.LastSave(); r == nil || !r.AsUpdate || len(r.NotStored) != 0 {
		t.Errorf("report %+v", r)
	}
}

// TestEngineApplyConcurrentChangeIsAConflict: an apply's change meanwhile
// is a conflict, not an ownership refusal alone. The draft changes a field another manager owns while someone else changed
// the object. The apply's ownership check comes first on the server, but
// the change made meanwhile goes through the rebase, then the ownership.
func TestEngineApplyConcurrentChangeIsAConflict(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=1", "--from-literal=bar=1")
	e := newEngineFor(t, ns, "configmap", "testmap", StrategyApply)
	e.setDraftData(map[string]string{"foo": "mine"})
	kubetest.MustKubectl(t, "-n", ns, "patch", "configmap", "testmap", "--type=merge", "-p", `{"data":{"bar":"theirs"}}`)
	e.awaitLive(liveData("bar", "theirs"))
	e.handle(model.SaveRequested{})
	if rb := e.session.Rebase(); e.session.State() != model.StateRebasing || rb == nil || rb.Ownership {
		t.Fatalf("state %v, failure %+v: want the clean rebase of the change made meanwhile", e.session.State(), e.session.Failure())
	}
	e.handle(model.Resubmit{})
	// Now on theirs' version, the apply conflicts for ownership alone:
	// kubectl create owns foo.
	cs := e.session.Conflicts()
	if rb := e.session.Rebase(); rb == nil || !rb.Ownership || len(cs) != 1 || cs[0].Owner != "kubectl-create" {
		t.Fatalf("state %v, conflicts %+v; want foo owned by kubectl-create", e.session.State(), cs)
	}
	e.handle(model.ResolveAll{Choice: diff.TakeMine})
	if err := e.handle(model.Resubmit{}); err != nil {
		t.Fatal(err)
	}
	if got := dataOf(t, e.runner.Target); got["foo"] != "mine" || got["bar"] != "theirs" {
		t.Errorf("data %v, want foo mine and bar theirs", got)
	}
}

// TestEngineSaveReportsWhatTheServerChanged: after a save the session
// compares the server's answer with the draft; a value the server stored
// otherwise is named.
func TestEngineSaveReportsWhatTheServerChanged(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "deployment", "web", "--image=nginx:1")
	e := newEngineFor(t, ns, "deployment", "web", StrategyUpdate)
	text, _ := e.session.DraftText()
	// The server keeps a quantity in its canonical form.
	edited := strings.Replace(text, "        resources: {}\n", "        resources:\n          limits:\n            cpu: \"0.5\"\n", 1)
	if edited == text {
		t.Fatalf("no resources in\n%s", text)
	}
	e.editDraftText(edited)
	e.handle(model.SaveRequested{})
	r := e.session.LastSave()
	if e.session.State() != model.StateSaved || r == nil || len(r.NotStored) != 1 {
		t.Fatalf("state %v, report %+v", e.session.State(), r)
	}
	m := r.NotStored[0]
	if !strings.HasSuffix(m.Path.String(), ".resources.limits.cpu") || m.Sent.Value != "0.5" || m.Stored.Value != "500m" {
		t.Errorf("not stored: %s sent %v stored %v", m.Path, m.Sent.Value, m.Stored.Value)
	}
}
