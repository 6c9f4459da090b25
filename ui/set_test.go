package ui

import (
	"context"
	"os"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kedit/kedit/kube"
	"github.com/kedit/kedit/model"
	"github.com/kedit/kedit/ui/internal/effect"
	"github.com/kedit/kedit/ui/objectset"
)

// fakeSetWatch is a set's watch whose events the test hands the app
// (effect.SetWatched), as the fake watches of single objects do.
type fakeSetWatch struct{ stopped bool }

func (w *fakeSetWatch) Events() <-chan kube.SetEvent { return nil }
func (w *fakeSetWatch) Stop()                        { w.stopped = true }

// setApp starts the app on a set of ConfigMaps of the fake cluster, as
// kedit cm/a cm/b does: each object opened, watched by the set.
func setApp(t testing.TB, c *fakeCluster, w, h int, names ...string) App {
	t.Helper()
	return setAppWith(t, c, w, h, Config{}, names...)
}

// setAppWith is setApp with cfg's options (its Cluster and Set are the
// test's).
func setAppWith(t testing.TB, c *fakeCluster, w, h int, cfg Config, names ...string) App {
	t.Helper()
	var objs []*Object
	for _, n := range names {
		c.add("configmaps", "default", n)
		o, err := c.Open(context.Background(), c.collection("configmaps", "default", false).Target("default", n))
		if err != nil {
			t.Fatal(err)
		}
		o.Watch = nil
		objs = append(objs, o)
	}
	set := &Set{Objects: objs, Title: "configmaps " + strings.Join(names, " "), Format: c.format,
		Watch: func(context.Context) (SetWatcher, error) { return &fakeSetWatch{}, nil }}
	cfg.Cluster, cfg.Set = c, set
	return drive(t, New(cfg), tea.WindowSizeMsg{Width: w, Height: h})
}

// setEdit answers the set's $EDITOR with what change makes of its text.
func setEdit(t testing.TB, m App, change func(string) string) App {
	t.Helper()
	m = pressE(t, m)
	text := m.set.edit.Text
	return drive(t, m, effect.EditorFinished{Original: text, Text: change(text)})
}

// pressE presses e on the set; the $EDITOR it starts is the test's to
// answer (effect.EditorFinished), so its command is not run.
func pressE(t testing.TB, m App) App {
	t.Helper()
	next, cmd := m.Update(keyMsg("e"))
	if cmd == nil {
		t.Fatal("e asks for nothing")
	}
	m = next.(App)
	if m.set.edit == nil || !m.life.editorOpen {
		t.Fatalf("e did not start $EDITOR:\n%s", plain(m))
	}
	return m
}

// rowOf returns the set's row of the object named name.
func rowOf(t testing.TB, m App, name string) objectset.Row {
	t.Helper()
	for _, r := range m.setView.Rows() {
		if string(r.Name) == "configmaps/"+name {
			return r
		}
	}
	t.Fatalf("no row of %s", name)
	return objectset.Row{}
}

// theirsOnServer writes on the server of object name as another writer
// would, without the watch telling the app.
func theirsOnServer(t testing.TB, c *fakeCluster, name, key, value string) {
	t.Helper()
	r := c.runners[DraftKey{Resource: fakeMapping("configmaps").Resource.GroupResource(), Namespace: "default", Name: name}]
	r.mu.Lock()
	defer r.mu.Unlock()
	obj := r.server.DeepCopy()
	_ = unstructured.SetNestedField(obj.Object, value, "data", key)
	obj.SetResourceVersion("13")
	r.server = obj
}

// TestSetEditSaveConflictResolved: two objects edited in one $EDITOR
// file while another writer changes one: s saves the other, the one
// changed meets a conflict that its row says; n opens it (its title
// naming the object), s there
// resubmits the merge, and the app comes back to the set with both saved
// and the other writer's change kept.
func TestSetEditSaveConflictResolved(t *testing.T) {
	c := newFakeCluster(t)
	m := setApp(t, c, 120, 30, "a", "b")
	if m.screen != screenSet || !strings.Contains(plain(m), "set: configmaps a b") {
		t.Fatalf("not the set:\n%s", plain(m))
	}
	m = setEdit(t, m, func(s string) string { return strings.ReplaceAll(s, `foo: "1"`, `foo: mine`) })
	if rowOf(t, m, "a").Status.State != model.MemberDraft || rowOf(t, m, "b").Status.State != model.MemberDraft {
		t.Fatalf("after the edit:\n%s", plain(m))
	}
	theirsOnServer(t, c, "a", "other", "theirs")
	d := newDriver(t, m)
	d.send(keyMsg("s"))
	m = d.settle()
	if st := rowOf(t, m, "b").Status; st.State != model.MemberSaved || st.ResourceVersion != "11" {
		t.Errorf("b: %+v", st)
	}
	if r := rowOf(t, m, "a"); r.Status.State != model.MemberConflict || !strings.Contains(string(r.Note), "n opens it") {
		t.Errorf("a: %+v", r)
	}
	if s := plain(m); !strings.Contains(s, "saved 1 of 2 drafts; 1 conflict: n opens the next") {
		t.Errorf("the round's summary:\n%s", s)
	}
	m = drive(t, m, keys("n")...)
	if m.screen != screenConflict || m.target.Name != "a" {
		t.Fatalf("n shows %v of %v", m.screen, m.target)
	}
	if s := plain(m); !strings.HasPrefix(s, "configmaps/a · clean rebase: 2 changes merged onto theirs rv 13 (base rv 10)") {
		t.Errorf("the conflict view does not name the object:\n%s", s)
	}
	m = drive(t, m, keys("s")...)
	if m.screen != screenSet || !strings.Contains(plain(m), "saved configmaps/a rv 14") {
		t.Fatalf("after the resubmit:\n%s", plain(m))
	}
	for _, name := range []string{"a", "b"} {
		if st := rowOf(t, m, name).Status; st.State != model.MemberSaved {
			t.Errorf("%s: %+v", name, st)
		}
	}
	server := c.runners[DraftKey{Resource: fakeMapping("configmaps").Resource.GroupResource(), Namespace: "default", Name: "a"}].object()
	if dataOf(server, "foo") != "mine" || dataOf(server, "other") != "theirs" {
		t.Errorf("a on the server: %v", server.Object["data"])
	}
}

// TestSetJSONEditSaveConflictResolved: with -o json, e edits one JSON
// List of the objects' JSON texts, and leaves out (saying why) one whose
// text is YAML; the drafts it splits back are JSON; a save that meets a
// conflict shows it in JSON, resolved and resubmitted, both saved, the
// other writer's change kept.
func TestSetJSONEditSaveConflictResolved(t *testing.T) {
	c := newFakeCluster(t)
	c.format = model.FormatJSON
	m := setApp(t, c, 200, 40, "a", "b", "c")
	// c's text is YAML (as a draft recovered in YAML keeps it).
	m.set.model.Session(2).SetFormat(model.FormatYAML)
	m = pressE(t, m)
	e := m.set.edit
	if e.Format != model.FormatJSON || !strings.HasPrefix(e.Text, "{\n    \"apiVersion\": \"v1\",\n    \"items\": [") ||
		strings.Count(e.Text, `"foo": "1"`) != 2 || strings.Contains(e.Text, `"name": "c"`) {
		t.Fatalf("the $EDITOR file:\n%s", e.Text)
	}
	if s := plain(m); !strings.Contains(s, "left out of the JSON file, its text in another format: configmaps/c (edited in YAML); enter edits it") {
		t.Errorf("the status does not say c was left out:\n%s", s)
	}
	m = drive(t, m, effect.EditorFinished{Original: e.Text, Text: strings.ReplaceAll(e.Text, `"foo": "1"`, `"foo": "mine"`)})
	// $EDITOR hid the status bar: what was left out is said again.
	if s := plain(m); !strings.Contains(s, "2 drafts edited (configmaps/a, configmaps/b); left out of the JSON file, its text in another format: configmaps/c") {
		t.Errorf("back from $EDITOR, the status does not say c was left out:\n%s", s)
	}
	for i, name := range []string{"a", "b"} {
		d := m.set.model.Session(i).Draft()
		if d == nil || d.Err != nil || !strings.HasPrefix(d.Text, "{\n") || !strings.Contains(d.Text, `"foo": "mine"`) {
			t.Fatalf("%s's draft: %+v", name, d)
		}
	}
	theirsOnServer(t, c, "a", "other", "theirs")
	theirsOnServer(t, c, "a", "foo", "theirs")
	d := newDriver(t, m)
	d.send(keyMsg("s"))
	m = d.settle()
	if s := plain(m); !strings.Contains(s, "saved 1 of 2 drafts; 1 conflict: n opens the next") {
		t.Fatalf("the round's summary:\n%s", s)
	}
	m = drive(t, m, keys("n")...)
	if s := plain(m); m.screen != screenConflict || !strings.Contains(s, ".data.foo") || m.sess.Format() != model.FormatJSON {
		t.Fatalf("the conflict view, in %s:\n%s", m.sess.Format(), s)
	}
	if merged, err := m.sess.Format().MergedText(m.sess.Rebase().Merge); err != nil || !strings.HasPrefix(merged, "{\n") {
		t.Errorf("the merged text is not JSON (%v):\n%s", err, merged)
	}
	m = drive(t, m, keys("m", "s")...)
	if m.screen != screenSet || !strings.Contains(plain(m), "saved configmaps/a rv") {
		t.Fatalf("after the resubmit:\n%s", plain(m))
	}
	server := runnerOf(c, "a").object()
	if dataOf(server, "foo") != "mine" || dataOf(server, "other") != "theirs" {
		t.Errorf("a on the server: %v", server.Object["data"])
	}
	if dataOf(runnerOf(c, "b").object(), "foo") != "mine" || dataOf(runnerOf(c, "c").object(), "foo") != "1" {
		t.Errorf("b or c on the server: %v %v", runnerOf(c, "b").object().Object["data"], runnerOf(c, "c").object().Object["data"])
	}
}

// TestSetEditLeftOutSaidAfterEditor: $EDITOR hides the status bar, so
// what an edit left out is said again when it is back, also when the
// file was left as it was.
func TestSetEditLeftOutSaidAfterEditor(t *testing.T) {
	c := newFakeCluster(t)
	c.format = model.FormatJSON
	m := setApp(t, c, 200, 30, "a", "b")
	m.set.model.Session(1).SetFormat(model.FormatYAML)
	m = pressE(t, m)
	text := m.set.edit.Text
	m = drive(t, m, effect.EditorFinished{Original: text, Text: text})
	if s := plain(m); !strings.Contains(s, "no change; left out of the JSON file, its text in another format: configmaps/b (edited in YAML); enter edits it") {
		t.Errorf("the status:\n%s", s)
	}
	m.set.model.Session(1).SetFormat(model.FormatJSON)
	m = pressE(t, m)
	text = m.set.edit.Text
	m = drive(t, m, effect.EditorFinished{Original: text, Text: text})
	if s := plain(m); !strings.Contains(s, "no change") || strings.Contains(s, "left out") {
		t.Errorf("the words of an edit are said with that edit only:\n%s", s)
	}
}

// TestSetJSONEditRefusedKeepsEveryDraft: a JSON text that does not parse
// is refused naming its line and column, every draft kept, and e opens
// the text again.
func TestSetJSONEditRefusedKeepsEveryDraft(t *testing.T) {
	c := newFakeCluster(t)
	c.format = model.FormatJSON
	m := setApp(t, c, 200, 30, "a", "b")
	m = setEdit(t, m, func(s string) string { return strings.Replace(s, `"foo": "1"`, `"foo": "kept"`, 1) })
	kept := m.set.model.Session(0).Draft().Text
	m = setEdit(t, m, func(s string) string { return strings.Replace(s, `"foo": "kept"`, `"foo": "typed",`, 1) })
	if s := plain(m); !strings.Contains(s, `the edited list, line 8, column 13: a comma before "}"`) || !strings.Contains(s, "every draft is kept") {
		t.Errorf("the status:\n%s", s)
	}
	if m.set.model.Session(0).Draft().Text != kept || m.set.model.Session(1).Draft() != nil {
		t.Error("a refused text changed a draft")
	}
	m = pressE(t, m)
	if !strings.Contains(m.set.edit.Text, `"foo": "typed",`) || m.set.edit.Format != model.FormatJSON {
		t.Errorf("e does not open the refused text again:\n%s", m.set.edit.Text)
	}
}

// TestSetEditRefusedKeepsEveryDraft: a text that does not parse, or that
// names an object not edited, is refused with what is wrong (the object
// by name), every draft as it was, and e opens the text again.
func TestSetEditRefusedKeepsEveryDraft(t *testing.T) {
	for _, tc := range []struct{ name, add, want string }{
		{"bad yaml", "- [\n", "the edited list, line"},
		{"added", "- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: zzz\n    namespace: default\n", "ConfigMap/zzz -n default is not among the objects edited"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := setApp(t, newFakeCluster(t), 120, 30, "a", "b")
			m = setEdit(t, m, func(s string) string { return strings.Replace(s, `foo: "1"`, `foo: kept`, 1) })
			kept := m.set.model.Session(0).Draft().Text
			m = setEdit(t, m, func(s string) string { return strings.Replace(s, `foo: kept`, `foo: typed`, 1) + tc.add })
			if s := plain(m); !strings.Contains(s, tc.want) || !strings.Contains(s, "every draft is kept") {
				t.Errorf("the status:\n%s", s)
			}
			if m.set.model.Session(0).Draft().Text != kept || m.set.model.Session(1).Draft() != nil {
				t.Error("a refused text changed a draft")
			}
			m = pressE(t, m)
			if !strings.Contains(m.set.edit.Text, "foo: typed") || !strings.HasSuffix(m.set.edit.Text, tc.add) {
				t.Errorf("e does not open the refused text again:\n%s", m.set.edit.Text)
			}
		})
	}
}

// TestSetEnterAndBack: enter shows one object as kedit shows one, esc comes
// back to the set with its draft on its row; the object removed from the
// set's text keeps no draft.
func TestSetEnterAndBack(t *testing.T) {
	c := newFakeCluster(t)
	m := setApp(t, c, 120, 30, "a", "b")
	m = drive(t, m, keys("j")...)
	m = drive(t, m, tea.KeyMsg{Type: tea.KeyEnter})
	if m.screen != screenObject || m.target.Name != "b" || !strings.Contains(plain(m), "esc back to the set") {
		t.Fatalf("enter:\n%s", plain(m))
	}
	m = edit(t, m, `foo: "1"`, `foo: mine`)
	m = drive(t, m, keys("esc")...)
	if m.screen != screenSet || rowOf(t, m, "b").Status.State != model.MemberDraft || rowOf(t, m, "b").Draft != "stored" {
		t.Fatalf("back:\n%s", plain(m))
	}
	// b removed from the text: its draft goes.
	m = setEdit(t, m, func(s string) string {
		i := strings.Index(s, "- apiVersion: v1\n  data:\n    foo: mine")
		return s[:i]
	})
	if m.set.model.Session(1).Draft() != nil || !strings.Contains(plain(m), "configmaps/b removed from the text: no draft") {
		t.Errorf("b removed:\n%s", plain(m))
	}
}

// TestSetRecoversStoredDrafts: drafts an earlier kedit left of the set's
// objects are offered once, for all of them; y recovers each.
func TestSetRecoversStoredDrafts(t *testing.T) {
	c := newFakeCluster(t)
	for _, n := range []string{"a", "b"} {
		k := c.add("configmaps", "default", n)
		tgt := c.collection("configmaps", "default", false).Target(k.Namespace, n)
		o := c.store.Open(kube.DraftKey(tgt), "uid-"+n)
		if _, err := o.Write(1, "10", []byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: "+n+"\n  namespace: default\n  resourceVersion: \"10\"\n  uid: uid-"+n+"\ndata:\n  foo: stored\n"), nil); err != nil {
			t.Fatal(err)
		}
		o.Close()
	}
	m := setApp(t, c, 120, 30, "a", "b")
	if m.confirm.kind != confirmSetRecover || !strings.Contains(plain(m), "configmaps/a, configmaps/b are stored: recover them?") {
		t.Fatalf("no question:\n%s", plain(m))
	}
	m = drive(t, m, keys("y")...)
	for i := range 2 {
		if d := m.set.model.Session(i).Draft(); d == nil || !strings.Contains(d.Text, "foo: stored") {
			t.Errorf("object %d's draft: %+v", i, d)
		}
	}
	if s := plain(m); !strings.Contains(s, "2 drafts recovered") {
		t.Errorf("%s", s)
	}
	if _, err := os.Stat(m.set.states[0].draftPath); err != nil {
		t.Errorf("the recovered draft's file: %v", err)
	}
}

// runnerOf is the fake server of object name of the set.
func runnerOf(c *fakeCluster, name string) *fakeRunner {
	return c.runners[DraftKey{Resource: fakeMapping("configmaps").Resource.GroupResource(), Namespace: "default", Name: name}]
}

// TestSetRefusedSaveKeepsItsDraft: a save the server refuses keeps its
// draft, its row says why, and the round's summary says how many were
// saved and refused, never saved for the refused one.
func TestSetRefusedSaveKeepsItsDraft(t *testing.T) {
	c := newFakeCluster(t)
	m := setApp(t, c, 160, 30, "a", "b")
	m = setEdit(t, m, func(s string) string { return strings.ReplaceAll(s, `foo: "1"`, `foo: mine`) })
	runnerOf(c, "a").fail = &apiError{Kind: model.ErrorInvalid, Message: "data.foo: Invalid value", Causes: []model.FieldCause{{Field: "data.foo", Message: "Invalid value: not allowed"}}}
	m = drive(t, m, keys("s")...)
	r := rowOf(t, m, "a")
	if r.Status.State != model.MemberRefused || !strings.Contains(string(r.Note), "not allowed") || m.set.model.Session(0).Draft() == nil {
		t.Errorf("a: %+v", r)
	}
	if rowOf(t, m, "b").Status.State != model.MemberSaved {
		t.Errorf("b: %+v", rowOf(t, m, "b"))
	}
	if s := plain(m); !strings.Contains(s, "saved 1 of 2 drafts; 1 refused, the drafts kept (each row says why)") || strings.Contains(s, "configmaps/a  saved") {
		t.Errorf("the summary:\n%s", s)
	}
	// s again sends a's draft only: b's was saved.
	runnerOf(c, "a").fail = nil
	m = drive(t, m, keys("s")...)
	if runnerOf(c, "b").saves != 1 || rowOf(t, m, "a").Status.State != model.MemberSaved {
		t.Errorf("b saved %d times; a: %+v", runnerOf(c, "b").saves, rowOf(t, m, "a"))
	}
}

// TestSetAsksBeforeSavingGitOpsObjects: as for one object, the first save
// of an object a GitOps tool reconciles asks first; n saves every other
// draft and leaves that one's draft as it is, its row saying why it was
// not saved; the next s asks again, and y saves it.
func TestSetAsksBeforeSavingGitOpsObjects(t *testing.T) {
	c := newFakeCluster(t)
	m := setApp(t, c, 200, 30, "a", "b", "c")
	live, _ := m.set.model.Session(0).Live()
	flux := live.Object.DeepCopy()
	flux.SetLabels(map[string]string{"kustomize.toolkit.fluxcd.io/name": "apps", "kustomize.toolkit.fluxcd.io/namespace": "flux-system"})
	flux.SetResourceVersion("11")
	m = drive(t, m, effect.SetWatched{Event: kube.SetEvent{Member: 0, Event: kube.WatchEvent{Type: kube.ObjectModified, Object: flux, ResourceVersion: "11"}}})
	r := runnerOf(c, "a")
	r.server = flux.DeepCopy()
	m = setEdit(t, m, func(s string) string { return strings.ReplaceAll(s, `foo: "1"`, `foo: mine`) })
	drafted := m.set.model.Session(0).Draft().Text
	m = drive(t, m, keys("s")...)
	if m.confirm.kind != confirmSetGitOps || !strings.Contains(plain(m), "configmaps/a is managed by Flux (kustomization flux-system/apps): a save may be reverted. Save it too?") ||
		!strings.Contains(plain(m), "n saves the other drafts only and keeps its draft; g writes it to the source instead") {
		t.Fatalf("no question:\n%s", plain(m))
	}
	m = drive(t, m, keys("n")...)
	if r.saves != 0 || runnerOf(c, "b").saves != 1 || runnerOf(c, "c").saves != 1 {
		t.Fatalf("n: a saved %d times, b %d, c %d; want a none, b and c once", r.saves, runnerOf(c, "b").saves, runnerOf(c, "c").saves)
	}
	a := rowOf(t, m, "a")
	if a.Status.State != model.MemberDraft || m.set.model.Session(0).Draft().Text != drafted ||
		a.Note != "not saved: you declined, as Flux reconciles it; the draft is kept (s asks again)" {
		t.Errorf("a after n: %+v", a)
	}
	if rowOf(t, m, "b").Status.State != model.MemberSaved || rowOf(t, m, "c").Status.State != model.MemberSaved {
		t.Errorf("b and c after n:\n%s", plain(m))
	}
	if s := plain(m); !strings.Contains(s, "saved 2 of 2 drafts; 1 not saved, as you answered (a GitOps tool reconciles it), the draft kept") {
		t.Errorf("the summary:\n%s", s)
	}
	m = drive(t, m, keys("s")...)
	if m.confirm.kind != confirmSetGitOps {
		t.Fatalf("the next s does not ask again:\n%s", plain(m))
	}
	m = drive(t, m, keys("n")...)
	if r.saves != 0 || !strings.Contains(plain(m), "nothing saved: you declined configmaps/a, which a GitOps tool reconciles; the draft is kept") {
		t.Fatalf("n with only a's draft left: %d saves\n%s", r.saves, plain(m))
	}
	m = drive(t, m, keys("s", "y")...)
	if rowOf(t, m, "a").Status.State != model.MemberSaved || r.saves != 1 || runnerOf(c, "b").saves != 1 {
		t.Errorf("y:\n%s", plain(m))
	}
}

// TestSetWatchReachesEachObject: the set's watch brings each object's
// changes to its own session: a row not shown follows its object (deleted
// here), the object shown gets the banner as one object does, and back on
// the set the row of that object, a draft, says what changed on the server.
func TestSetWatchReachesEachObject(t *testing.T) {
	c := newFakeCluster(t)
	m := setApp(t, c, 160, 30, "a", "b")
	m = drive(t, m, effect.SetWatched{Event: kube.SetEvent{Member: -1, Event: kube.WatchEvent{Type: kube.ConnectionChanged, Connection: kube.Connection{State: kube.Connected}}}})
	if !strings.Contains(plain(m), "connected") {
		t.Errorf("the header:\n%s", plain(m))
	}
	live, _ := m.set.model.Session(1).Live()
	m = drive(t, m, effect.SetWatched{Event: kube.SetEvent{Member: 1, Event: kube.WatchEvent{Type: kube.ObjectDeleted, Object: live.Object}}})
	if rowOf(t, m, "b").Status.State != model.MemberDeleted {
		t.Errorf("b: %+v", rowOf(t, m, "b"))
	}
	m = drive(t, m, tea.KeyMsg{Type: tea.KeyEnter})
	m = edit(t, m, `foo: "1"`, `foo: mine`)
	theirs, _ := m.set.model.Session(0).Live()
	o := theirs.Object.DeepCopy()
	_ = unstructured.SetNestedField(o.Object, "theirs", "data", "bar")
	o.SetResourceVersion("12")
	m = drive(t, m, effect.SetWatched{Event: kube.SetEvent{Member: 0, Event: kube.WatchEvent{Type: kube.ObjectModified, Object: o, ResourceVersion: "12"}}})
	if s := plain(m); !strings.Contains(s, "changed on server: rv 10 -> 12") || !strings.Contains(s, "connected") {
		t.Errorf("the object shown:\n%s", s)
	}
	m = drive(t, m, tea.KeyMsg{Type: tea.KeyEsc})
	if r := rowOf(t, m, "a"); m.screen != screenSet || r.Status.State != model.MemberDraft ||
		!strings.HasPrefix(string(r.Note), "changed on server: rv 10 -> 12") || !strings.Contains(string(r.Note), "data.bar") {
		t.Errorf("back on the set, a's row: %+v\n%s", r, plain(m))
	}
	if r := rowOf(t, m, "b"); strings.Contains(string(r.Note), "changed on server") {
		t.Errorf("b's row: %+v", r)
	}
}

// TestSetWatchStoppedIsSaid: a set whose watch ends says so in the words
// one object's header uses, "watch stopped", never "refused" (the server
// refused nothing), on the set and on the object shown from it.
func TestSetWatchStoppedIsSaid(t *testing.T) {
	c := newFakeCluster(t)
	m := setApp(t, c, 160, 30, "a", "b")
	m = drive(t, m, effect.SetWatched{Event: kube.SetEvent{Member: -1, Event: kube.WatchEvent{Type: kube.ConnectionChanged, Connection: kube.Connection{State: kube.Connected}}}})
	m = drive(t, m, effect.SetWatchClosed{})
	if s := plain(m); !strings.Contains(s, "watch stopped") || strings.Contains(s, "refused") {
		t.Errorf("the set's header once its watch ended:\n%s", s)
	}
	m = drive(t, m, tea.KeyMsg{Type: tea.KeyEnter})
	if s := plain(m); !strings.Contains(s, "watch stopped") {
		t.Errorf("the object shown from the set:\n%s", s)
	}
}

// TestSetSaveResubmitsCleanMerges: two objects whose saves met another
// writer's change of another key wait as clean merges beside one whose
// conflict is open: s in the set says how many it resubmits and
// resubmits both, each with its theirs' resourceVersion, both sides'
// changes kept on the server; the open conflict still waits for the user.
func TestSetSaveResubmitsCleanMerges(t *testing.T) {
	c := newFakeCluster(t)
	m := setApp(t, c, 160, 30, "a", "b", "c")
	m = setEdit(t, m, func(s string) string { return strings.ReplaceAll(s, `foo: "1"`, `foo: mine`) })
	theirsOnServer(t, c, "a", "other", "theirs")
	theirsOnServer(t, c, "b", "other", "theirs")
	theirsOnServer(t, c, "c", "foo", "theirs")
	m = drive(t, m, keyMsg("s"))
	if s := plain(m); !strings.Contains(s, "saved 0 of 3 drafts; 3 conflicts: n opens the next") {
		t.Fatalf("the first round's summary:\n%s", s)
	}
	for _, name := range []string{"a", "b"} {
		if r := rowOf(t, m, name); r.Status.State != model.MemberConflict || string(r.Note) != "merged cleanly: s resubmits it (n opens it)" {
			t.Errorf("%s: %+v", name, r)
		}
	}
	d := newDriver(t, m)
	d.send(keyMsg("s"))
	if s := plain(d.m); !strings.Contains(s, "resubmitting 2 clean merges, each with its own resourceVersion; 1 conflict waits for you (n opens the next)") {
		t.Errorf("s does not say how many merges it resubmits:\n%s", s)
	}
	m = d.settle()
	for _, name := range []string{"a", "b"} {
		if st := rowOf(t, m, name).Status; st.State != model.MemberSaved {
			t.Errorf("%s: %+v, want saved", name, st)
		}
		server := runnerOf(c, name).object()
		if dataOf(server, "foo") != "mine" || dataOf(server, "other") != "theirs" || server.GetResourceVersion() != "14" {
			t.Errorf("%s on the server: rv %s %v", name, server.GetResourceVersion(), server.Object["data"])
		}
	}
	if st := rowOf(t, m, "c").Status; st.State != model.MemberConflict || st.OpenConflicts != 1 {
		t.Errorf("c: %+v, want its open conflict waiting", st)
	}
	if dataOf(runnerOf(c, "c").object(), "foo") != "theirs" {
		t.Errorf("c was written: %v", runnerOf(c, "c").object().Object["data"])
	}
	if s := plain(m); !strings.Contains(s, "saved 2 of 2 drafts (2 clean merges resubmitted); 1 conflict: n opens the next") {
		t.Errorf("the round's summary:\n%s", s)
	}
}

// TestSetSavedDraftNotStoredIsKept: a member whose save the server took
// but dropped a value of its draft keeps the draft, and its row says which
// path and that the draft keeps what the user wrote.
func TestSetSavedDraftNotStoredIsKept(t *testing.T) {
	c := newFakeCluster(t)
	m := setApp(t, c, 250, 30, "a", "b")
	m = setEdit(t, m, func(s string) string { return strings.ReplaceAll(s, `foo: "1"`, `foo: mine`) })
	runnerOf(c, "a").stored = func(o *unstructured.Unstructured) {
		unstructured.RemoveNestedField(o.Object, "data", "foo")
	}
	m = drive(t, m, keys("s")...)
	r := rowOf(t, m, "a")
	if r.Status.State != model.MemberDraft || m.set.model.Session(0).Draft() == nil ||
		!strings.Contains(string(r.Note), `.data.foo is not on the server: the draft keeps what you wrote (enter opens it: x discards it, e edits it)`) {
		t.Errorf("a: %+v", r)
	}
	if s := plain(m); strings.Contains(s, "(x discards it") {
		t.Errorf("the set's view names the object view's keys as its own:\n%s", s)
	}
	if rowOf(t, m, "b").Status.State != model.MemberSaved {
		t.Errorf("b: %+v", rowOf(t, m, "b"))
	}
}

// TestSetAutoRebaseResubmitsCleanMerges: with --auto-rebase, the objects of
// a set whose saves met another writer's change of another key are
// resubmitted at once by their sessions, as one object's is: both saved
// with both sides' changes; the object with an open conflict waits.
func TestSetAutoRebaseResubmitsCleanMerges(t *testing.T) {
	c := newFakeCluster(t)
	m := setAppWith(t, c, 160, 30, Config{AutoRebase: true}, "a", "b", "c")
	m = setEdit(t, m, func(s string) string { return strings.ReplaceAll(s, `foo: "1"`, `foo: mine`) })
	theirsOnServer(t, c, "a", "other", "theirs")
	theirsOnServer(t, c, "b", "other", "theirs")
	theirsOnServer(t, c, "c", "foo", "theirs")
	m = drive(t, m, keyMsg("s"))
	for _, name := range []string{"a", "b"} {
		if st := rowOf(t, m, name).Status; st.State != model.MemberSaved {
			t.Errorf("%s: %+v, want saved at once", name, st)
		}
		server := runnerOf(c, name).object()
		if dataOf(server, "foo") != "mine" || dataOf(server, "other") != "theirs" {
			t.Errorf("%s on the server: %v", name, server.Object["data"])
		}
	}
	if st := rowOf(t, m, "c").Status; st.State != model.MemberConflict || st.OpenConflicts != 1 {
		t.Errorf("c: %+v, want its open conflict waiting", st)
	}
	if dataOf(runnerOf(c, "c").object(), "foo") != "theirs" {
		t.Errorf("c was written: %v", runnerOf(c, "c").object().Object["data"])
	}
}
