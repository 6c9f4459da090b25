package kube

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/dynamic"

	"github.com/kedit/kedit/diff"
	"github.com/kedit/kedit/internal/drafts"
	"github.com/kedit/kedit/kube/kubetest"
	"github.com/kedit/kedit/model"
)

// These tests drive the whole engine the UI sits on, with no terminal: a
// model.Session fed by the Watch, its effects performed by the Runner
// against the real API server, kubectl as the other writer.

type engine struct {
	t       *testing.T
	ctx     context.Context
	session *model.Session
	runner  *Runner
	watch   *Watch
	store   *drafts.Store
	// performErr receives what Perform reports for the user; nil fails
	// the test on it.
	performErr func(model.Effect, error)
	// onState, when set, sees the session's state after every event.
	onState func(model.State)
}

func newEngine(t *testing.T, ns, name string) *engine {
	t.Helper()
	target := resolveForTest(t, kubetest.Kubeconfig(t), ns, "configmap", name)
	dc := kubetest.Dynamic(t)
	ctx, w := engineWatch(t, dc, target)
	store := &drafts.Store{Dir: filepath.Join(t.TempDir(), "kedit", "drafts")}
	od := store.Open(DraftKey(target), "")
	t.Cleanup(od.Close)
	e := &engine{t: t, ctx: ctx, watch: w, session: model.NewSession(target.Ref()), store: store,
		runner: &Runner{Client: dc, Target: target, Strategy: StrategyUpdate, Cached: w.Latest, Drafts: od}}
	e.awaitLive(func(obj *unstructured.Unstructured) bool { return true })
	if e.session.State() != model.StateViewing {
		t.Fatalf("after the first event the session is %v, want viewing", e.session.State())
	}
	return e
}

// newEngineFor is an engine on any type that saves with strategy and
// merges with the server's schema of the type's group-version, as kedit
// runs. It keeps drafts in memory and sets no environment, so that its
// tests can run in parallel.
func newEngineFor(t *testing.T, ns, typ, name string, strategy Strategy) *engine {
	t.Helper()
	kc := kubetest.Kubeconfig(t)
	cacheDir := t.TempDir()
	flags := &ConnFlags{KubeConfig: kc, Namespace: ns, CacheDir: cacheDir}
	target, err := Resolve(flags, typ, name)
	if err != nil {
		t.Fatalf("resolving %s/%s: %v", typ, name, err)
	}
	schemas, err := LoadSchemas(flags, target)
	if err != nil {
		t.Fatalf("LoadSchemas: %v", err)
	}
	opts := []diff.Option{diff.WithSchemas(schemas)}
	dc := kubetest.Dynamic(t)
	ctx, w := engineWatch(t, dc, target)
	e := &engine{t: t, ctx: ctx, watch: w, session: model.NewSession(target.Ref(), opts...),
		runner: &Runner{Client: dc, Target: target, Strategy: strategy, Cached: w.Latest, MergeOptions: opts}}
	e.awaitLive(func(obj *unstructured.Unstructured) bool { return true })
	return e
}

// engineWatch starts a watch of target through dc for an engine, and
// returns it with the context the engine's requests run in.
func engineWatch(t *testing.T, dc dynamic.Interface, target *Target) (context.Context, *Watch) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	w := NewWatch(dc, target)
	if err := w.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Stop)
	return ctx, w
}

// awaitLive feeds watch events to the session until one satisfies ok.
func (e *engine) awaitLive(ok func(*unstructured.Unstructured) bool) {
	e.t.Helper()
	timeout := time.After(30 * time.Second)
	for {
		select {
		case ev := <-e.watch.Events():
			if !ev.Type.IsObject() {
				continue
			}
			typ := map[WatchEventType]model.LiveType{ObjectAdded: model.LiveAdded, ObjectModified: model.LiveModified, ObjectDeleted: model.LiveDeleted}[ev.Type]
			e.handle(model.LiveChanged{Type: typ, Object: ev.Object, At: time.Now()})
			if ok(ev.Object) {
				return
			}
		case <-timeout:
			e.t.Fatal("the watch delivered no matching event in 30s")
		}
	}
}

// handle gives the session an event and performs the effects it asks for,
// feeding their outcomes back, until nothing is left to do.
func (e *engine) handle(ev model.Event) error {
	e.t.Helper()
	queue := []model.Event{ev}
	var first error
	for len(queue) > 0 {
		ev, queue = queue[0], queue[1:]
		st, effects, err := e.session.Handle(ev)
		if err != nil && first == nil {
			first = err
		}
		if e.onState != nil {
			e.onState(st)
		}
		for _, eff := range effects {
			next, err := e.runner.Perform(e.ctx, eff)
			switch {
			case err != nil && e.performErr != nil:
				e.performErr(eff, err)
			case err != nil:
				e.t.Errorf("performing %T: %v", eff, err)
			}
			if next != nil {
				queue = append(queue, next)
			}
		}
	}
	return first
}

// editDraft replaces old with new in the draft's text, as the user would.
func (e *engine) editDraft(old, new string) {
	e.t.Helper()
	text, err := e.session.DraftText()
	if err != nil {
		e.t.Fatal(err)
	}
	if !strings.Contains(text, old) {
		e.t.Fatalf("draft has no %q:\n%s", old, text)
	}
	if err := e.handle(model.DraftEdited{Text: strings.Replace(text, old, new, 1)}); err != nil {
		e.t.Fatalf("DraftEdited: %v", err)
	}
}

func liveData(key, want string) func(*unstructured.Unstructured) bool {
	return func(obj *unstructured.Unstructured) bool {
		v, _, _ := unstructured.NestedString(obj.Object, "data", key)
		return v == want
	}
}

func TestEngineSameFieldConflict(t *testing.T) {
	for _, tc := range []struct {
		name   string
		choice diff.Choice
		want   string
	}{{"mine", diff.TakeMine, "mine"}, {"theirs", diff.TakeTheirs, "theirs"}} {
		t.Run(tc.name, func(t *testing.T) {
			ns := kubetest.Namespace(t)
			kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=1")
			e := newEngine(t, ns, "testmap")
			e.editDraft(`foo: "1"`, `foo: mine`)

			kubetest.MustKubectl(t, "-n", ns, "patch", "configmap", "testmap", "--type=merge", "-p", `{"data":{"foo":"theirs"}}`)
			e.awaitLive(liveData("foo", "theirs"))
			if ch, ok := e.session.ServerChange(); !ok || len(ch.Changes) == 0 || ch.Manager != "kubectl-patch" {
				t.Errorf("banner = %+v (%v), want a change by kubectl-patch", ch, ok)
			}

			e.handle(model.SaveRequested{})
			if e.session.State() != model.StateResolving || len(e.session.Conflicts()) != 1 {
				t.Fatalf("after the save: state %v, %d conflicts; want resolving with 1", e.session.State(), len(e.session.Conflicts()))
			}
			if p := e.session.Conflicts()[0].Path.String(); p != ".data.foo" {
				t.Errorf("conflict at %s, want .data.foo", p)
			}
			if err := e.handle(model.Resubmit{}); err == nil {
				t.Fatal("resubmit with an open conflict was accepted")
			}
			e.handle(model.Resolve{Index: 0, Resolution: diff.Resolution{Choice: tc.choice}})
			if err := e.handle(model.Resubmit{}); err != nil {
				t.Fatalf("resubmit: %v", err)
			}
			if e.session.State() != model.StateSaved {
				t.Fatalf("state %v after resubmit, want saved (failure: %+v)", e.session.State(), e.session.Failure())
			}
			if got := dataOf(t, e.runner.Target)["foo"]; got != tc.want {
				t.Errorf("foo = %q on the server, want exactly %q", got, tc.want)
			}
		})
	}
}

func TestEngineDisjointChangeRebasesCleanly(t *testing.T) {
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=1", "--from-literal=bar=1")
	e := newEngine(t, ns, "testmap")
	e.editDraft(`foo: "1"`, `foo: mine`)
	kubetest.MustKubectl(t, "-n", ns, "patch", "configmap", "testmap", "--type=merge", "-p", `{"data":{"bar":"theirs"}}`)
	e.awaitLive(liveData("bar", "theirs"))

	e.handle(model.SaveRequested{})
	// A clean rebase stops to be seen before it is resubmitted.
	if e.session.State() != model.StateRebasing || len(e.session.Conflicts()) != 0 {
		t.Fatalf("state %v with %d conflicts, want a clean rebase", e.session.State(), len(e.session.Conflicts()))
	}
	if err := e.handle(model.Resubmit{}); err != nil {
		t.Fatal(err)
	}
	if got := dataOf(t, e.runner.Target); got["foo"] != "mine" || got["bar"] != "theirs" {
		t.Errorf("data = %v, want both changes", got)
	}
}

func TestEngineDeletedWhileEditingThenRecreated(t *testing.T) {
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=1")
	e := newEngine(t, ns, "testmap")
	e.editDraft(`foo: "1"`, `foo: mine`)
	kubetest.MustKubectl(t, "-n", ns, "delete", "configmap", "testmap")
	e.awaitLive(func(*unstructured.Unstructured) bool { return true })

	e.handle(model.SaveRequested{})
	f := e.session.Failure()
	if f == nil || f.Kind != model.ErrorNotFound {
		t.Fatalf("failure %+v, want not found", f)
	}
	if e.session.Draft() == nil || !strings.Contains(e.session.Draft().Text, "foo: mine") {
		t.Fatal("the draft was lost")
	}
	if err := e.handle(model.Recreate{}); err != nil {
		t.Fatalf("recreate: %v", err)
	}
	if got := dataOf(t, e.runner.Target)["foo"]; got != "mine" {
		t.Errorf("recreated foo = %q, want mine", got)
	}
}

func TestEngineInvalidSaveKeepsDraft(t *testing.T) {
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=1")
	e := newEngine(t, ns, "testmap")
	before := readBase(t, e.runner.Target)
	e.editDraft("  name: testmap\n", "  name: testmap\n  labels:\n    \"bad key!\": x\n")
	draft := e.session.Draft().Text

	e.handle(model.SaveRequested{})
	f := e.session.Failure()
	if f == nil || f.Kind != model.ErrorInvalid || len(f.Causes) == 0 || f.Causes[0].Field != "metadata.labels" {
		t.Fatalf("failure %+v, want invalid with a metadata.labels cause", f)
	}
	if e.session.Draft().Text != draft {
		t.Error("the draft changed after the refused save")
	}
	if now := readBase(t, e.runner.Target); now.GetResourceVersion() != before.GetResourceVersion() {
		t.Error("the refused save changed the object")
	}
	// The draft is on disk too, to survive a crash.
	stored, err := drafts.Read(e.runner.Drafts.Path())
	if err != nil || string(stored.Text) != draft {
		t.Errorf("stored draft = %v, %v; want the draft text", stored, err)
	}
}

// TestEngineRecoversStaleDraft quits with a draft on disk, lets someone
// else change the object, then opens it again: the recovered draft is
// rebased onto the new version with both changes kept.
func TestEngineRecoversStaleDraft(t *testing.T) {
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=1", "--from-literal=bar=1")
	e := newEngine(t, ns, "testmap")
	e.editDraft(`foo: "1"`, `foo: mine`)
	target := e.runner.Target

	kubetest.MustKubectl(t, "-n", ns, "patch", "configmap", "testmap", "--type=merge", "-p", `{"data":{"bar":"theirs"}}`)
	e.awaitLive(liveData("bar", "theirs"))

	// A new session, as after kedit was killed and started again.
	e.runner.Drafts.Close() // as a killed kedit, the next one takes the draft over
	next := e.store.Open(DraftKey(target), "")
	t.Cleanup(next.Close)
	if len(next.Stored()) != 1 {
		t.Fatalf("%d stored drafts, want 1", len(next.Stored()))
	}
	stored := next.Stored()[0]
	if StoredDraft(stored).Base == nil {
		t.Fatal("the draft's base was not stored with it")
	}
	if _, err := next.Adopt(stored.Path); err != nil {
		t.Fatal(err)
	}
	e.runner.Drafts = next
	latest, _ := e.watch.Latest()
	e.session = model.NewSession(target.Ref())
	if err := e.handle(model.Opened{Object: latest, At: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if err := e.handle(model.RecoverDraft{Draft: StoredDraft(stored)}); err != nil {
		t.Fatalf("recovering a draft whose object moved on: %v", err)
	}
	e.handle(model.SaveRequested{})
	if st := e.session.State(); st == model.StateRebasing || st == model.StateResolving {
		if err := e.handle(model.Resubmit{}); err != nil {
			t.Fatalf("resubmit: %v", err)
		}
	}
	if got := dataOf(t, target); got["foo"] != "mine" || got["bar"] != "theirs" {
		t.Errorf("data = %v, want foo=mine (the recovered draft) and bar=theirs", got)
	}
	// Saved: the draft and its base are gone from disk.
	if _, err := os.Stat(stored.Path); !os.IsNotExist(err) {
		t.Error("the draft is still on disk after it was saved")
	}
	if _, err := os.Stat(stored.Path + ".base.json"); !os.IsNotExist(err) {
		t.Errorf("the draft's base is still on disk: %v", err)
	}
}
