package ui

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kedit/kedit/kube"
	"github.com/kedit/kedit/model"
)

// The app's browser: going from the list to an object and back, the
// drafts kept on the way, and the quit question for drafts only in
// memory. A fake Cluster stands in for main's; the sessions, the draft
// store and the keys are the real ones.

const fakeServer = "https://kind-dev.example:6443"

// fakeTypes are the types the fake cluster serves, by every name :TYPE
// takes.
var fakeTypes = map[string]struct {
	gvr  schema.GroupVersionResource
	kind string
}{
	"configmaps":  {schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}, "ConfigMap"},
	"secrets":     {schema.GroupVersionResource{Version: "v1", Resource: "secrets"}, "Secret"},
	"deployments": {schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}, "Deployment"},
}

var fakeAliases = map[string]string{"cm": "configmaps", "configmap": "configmaps", "secret": "secrets", "deploy": "deployments"}

func fakeMapping(resource string) *meta.RESTMapping {
	ft := fakeTypes[resource]
	return &meta.RESTMapping{Resource: ft.gvr, GroupVersionKind: ft.gvr.GroupVersion().WithKind(ft.kind), Scope: meta.RESTScopeNamespace}
}

// fakeCluster is a cluster of a few objects, with a real draft store.
type fakeCluster struct {
	store *kube.DraftStore

	mu sync.Mutex
	// objects are on the server, by their key.
	objects map[DraftKey]*unstructured.Unstructured
	// lists are the lists started, in order.
	lists []*fakeList
	// opened counts Open; closed the objects let go of; watches the
	// watches started.
	opened, closed int
	watches        []*fakeWatch
	runners        map[DraftKey]*fakeRunner
}

func newFakeCluster(t *testing.T) *fakeCluster {
	return &fakeCluster{store: &kube.DraftStore{Dir: t.TempDir()}, objects: map[DraftKey]*unstructured.Unstructured{},
		runners: map[DraftKey]*fakeRunner{}}
}

// add puts an object of resource on the server, with a data key foo.
func (c *fakeCluster) add(resource, ns, name string) DraftKey {
	ft := fakeTypes[resource]
	obj := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": ft.gvr.GroupVersion().String(), "kind": ft.kind,
		"metadata": map[string]any{"name": name, "namespace": ns, "resourceVersion": "10", "uid": "uid-" + name},
		"data":     map[string]any{"foo": "1"},
	}}
	k := DraftKey{Resource: ft.gvr.GroupResource(), Namespace: ns, Name: name}
	c.mu.Lock()
	c.objects[k] = obj
	c.mu.Unlock()
	return k
}

func (c *fakeCluster) remove(k DraftKey) {
	c.mu.Lock()
	delete(c.objects, k)
	c.mu.Unlock()
}

func (c *fakeCluster) collection(resource, ns string, all bool) *kube.Collection {
	return &kube.Collection{Context: "kind-dev", Server: fakeServer, Mapping: fakeMapping(resource), Namespace: ns, AllNamespaces: all}
}

func (c *fakeCluster) Collection(typ string, all bool) (*kube.Collection, error) {
	if a, ok := fakeAliases[typ]; ok {
		typ = a
	}
	switch {
	case typ == "cs":
		return nil, &kube.NotEditableError{Type: "cs", Resource: "componentstatuses", Verbs: []string{"get", "list"}}
	case fakeTypes[typ].kind == "":
		return nil, &kube.UnknownTypeError{Type: typ, Suggestions: []string{"configmaps"}}
	}
	return c.collection(typ, "default", all), nil
}

func (c *fakeCluster) Target(r schema.GroupResource, ns, name string) (*kube.Target, error) {
	return c.collection(r.Resource, ns, false).Target(ns, name), nil
}

func (c *fakeCluster) Types() ([]kube.ResourceType, error) { return browserTypes, nil }

func (c *fakeCluster) Namespaces(context.Context) ([]string, error) {
	return []string{"default", "team-a"}, nil
}

func (c *fakeCluster) Browse(_ context.Context, coll *kube.Collection) (List, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	l := &fakeList{coll: coll}
	c.lists = append(c.lists, l)
	return l, nil
}

func (c *fakeCluster) Drafts() ([]kube.DraftEntry, error) {
	return c.store.ClusterDrafts("kind-dev", fakeServer)
}

func (c *fakeCluster) Open(_ context.Context, t *kube.Target) (*Object, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	k := keyOf(t)
	obj, ok := c.objects[k]
	if !ok {
		return nil, &kube.NotFoundError{Target: t}
	}
	c.opened++
	sess := model.NewSession(t.Ref())
	if _, _, err := sess.Handle(model.Opened{Object: obj.DeepCopy(), At: t0}); err != nil {
		return nil, err
	}
	drafts := c.store.Open(t, string(obj.GetUID()))
	r := &fakeRunner{server: obj.DeepCopy(), drafts: drafts}
	c.runners[k] = r
	return &Object{Target: t, Session: sess, Runner: r, Drafts: drafts,
		Watch: func(context.Context) (Watcher, error) {
			c.mu.Lock()
			defer c.mu.Unlock()
			w := &fakeWatch{}
			c.watches = append(c.watches, w)
			return w, nil
		},
		Read: func(context.Context) (*unstructured.Unstructured, error) {
			c.mu.Lock()
			defer c.mu.Unlock()
			if o, ok := c.objects[k]; ok {
				return o.DeepCopy(), nil
			}
			return nil, &kube.NotFoundError{Target: t}
		},
		Close: func() {
			drafts.Close()
			c.mu.Lock()
			c.closed++
			c.mu.Unlock()
		},
	}, nil
}

func (c *fakeCluster) lastList() *fakeList {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lists[len(c.lists)-1]
}

// watching counts the watches started and those still running.
func (c *fakeCluster) watching() (started, running int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, w := range c.watches {
		if !w.stopped() {
			running++
		}
	}
	return len(c.watches), running
}

// fakeList is a list whose snapshots the test hands the app (listed).
type fakeList struct {
	coll *kube.Collection
	mu   sync.Mutex
	stop bool
}

func (l *fakeList) Collection() *kube.Collection          { return l.coll }
func (l *fakeList) Snapshots() <-chan kube.BrowseSnapshot { return nil }
func (l *fakeList) Stop()                                 { l.mu.Lock(); l.stop = true; l.mu.Unlock() }
func (l *fakeList) stopped() bool                         { l.mu.Lock(); defer l.mu.Unlock(); return l.stop }

type fakeWatch struct {
	mu   sync.Mutex
	stop bool
}

func (w *fakeWatch) Events() <-chan kube.WatchEvent { return nil }
func (w *fakeWatch) Stop()                          { w.mu.Lock(); w.stop = true; w.mu.Unlock() }
func (w *fakeWatch) stopped() bool                  { w.mu.Lock(); defer w.mu.Unlock(); return w.stop }

// listSnapshot is a complete list of the server's objects of the
// collection.
func (c *fakeCluster) listSnapshot(coll *kube.Collection) kube.BrowseSnapshot {
	c.mu.Lock()
	defer c.mu.Unlock()
	var rows []kube.ObjectRow
	for k, o := range c.objects {
		if k.Resource != coll.Mapping.Resource.GroupResource() || (!coll.AllNamespaces && k.Namespace != coll.Namespace) {
			continue
		}
		rows = append(rows, kube.ObjectRow{Namespace: k.Namespace, Name: k.Name, UID: types.UID(o.GetUID()), ResourceVersion: o.GetResourceVersion(),
			Created: browserNow.Add(-time.Hour), Changed: browserNow.Add(-time.Minute), ChangedBy: "kubectl-create"})
	}
	sort.Slice(rows, func(i, j int) bool {
		return rows[i].Namespace < rows[j].Namespace || rows[i].Namespace == rows[j].Namespace && rows[i].Name < rows[j].Name
	})
	return kube.BrowseSnapshot{Rows: rows, Generation: uint64(len(rows)) + 1, Synced: true,
		Connection: kube.Connection{State: kube.Connected, Since: browserNow}}
}

// listed hands the app the latest list's snapshot, as the Browse would.
func listed(t *testing.T, c *fakeCluster, m App) App {
	t.Helper()
	l := c.lastList()
	if m.browser.Collection() != l.coll {
		t.Fatalf("the browser lists %v, not the last list started", m.browser.Collection())
	}
	return drive(t, m, snapshotMsg{list: m.browser.list, snap: c.listSnapshot(l.coll)})
}

// browserApp starts the app in the browser on coll, as kedit TYPE does.
func browserApp(t *testing.T, c *fakeCluster, coll *kube.Collection, w, h int) App {
	t.Helper()
	l, _ := c.Browse(context.Background(), coll)
	first := c.listSnapshot(coll)
	m := New(Config{Cluster: c, List: l, First: &first})
	m.browser.now = func() time.Time { return browserNow }
	entries, err := c.Drafts()
	return drive(t, m, tea.WindowSizeMsg{Width: w, Height: h}, draftsListedMsg{entries: entries, err: err})
}

func selected(m App) string {
	r, _ := m.browser.Selected()
	return r.Name
}

// editDraft edits foo as $EDITOR would.
func editDraft(t *testing.T, m App, value string) App {
	t.Helper()
	text, err := m.Session().DraftText()
	if err != nil {
		t.Fatal(err)
	}
	return drive(t, m, editorFinishedMsg{original: text, text: strings.Replace(text, `foo: "1"`, "foo: "+value, 1)})
}

// mark is the DRAFT column of the row of name.
func mark(m App, name string) string {
	for _, l := range strings.Split(plain(m), "\n") {
		f := strings.Fields(strings.TrimPrefix(l, "> "))
		if len(f) > 1 && f[0] == name {
			if last := f[len(f)-1]; last == "stored" || last == "memory" {
				return last
			}
			return ""
		}
	}
	return "no row"
}

// TestAppOpensAndComesBack: enter opens the selected object; esc goes back
// to the list with the object's watch stopped and its draft marked; enter
// again shows the draft, without the recovery question and without
// opening the object afresh.
func TestAppOpensAndComesBack(t *testing.T) {
	c := newFakeCluster(t)
	c.add("configmaps", "default", "other")
	c.add("configmaps", "default", "testmap")
	m := browserApp(t, c, c.collection("configmaps", "default", false), 120, 40)
	m = drive(t, m, keys("j")...)
	if selected(m) != "testmap" {
		t.Fatalf("selected %q", selected(m))
	}
	m = drive(t, m, tea.KeyMsg{Type: tea.KeyEnter})
	if m.screen != screenObject || m.Session() == nil || m.Session().Ref().Name != "testmap" {
		t.Fatalf("enter shows screen %d:\n%s", m.screen, plain(m))
	}
	if started, running := c.watching(); started != 1 || running != 1 {
		t.Errorf("%d watches started, %d running; want the object's one", started, running)
	}
	if v := plain(m); !strings.Contains(v, "ConfigMap/testmap") || !strings.Contains(v, "esc list") {
		t.Errorf("the object view:\n%s", v)
	}

	m = editDraft(t, m, "mine")
	m = drive(t, m, keyMsg("esc"))
	if m.screen != screenBrowser || m.Session() != nil {
		t.Fatalf("esc shows screen %d:\n%s", m.screen, plain(m))
	}
	if _, running := c.watching(); running != 0 {
		t.Errorf("%d watches still running after esc", running)
	}
	if c.closed != 0 {
		t.Error("the object with a draft was let go of")
	}
	if got := mark(m, "testmap"); got != "stored" {
		t.Errorf("DRAFT of testmap is %q:\n%s", got, plain(m))
	}
	if selected(m) != "testmap" || !strings.Contains(m.status.Text(), "stays on disk in "+c.store.Dir) {
		t.Errorf("selected %q, status %q", selected(m), m.status.Text())
	}
	if on, _ := c.store.ClusterDrafts("kind-dev", fakeServer); len(on) != 1 || on[0].Name != "testmap" {
		t.Errorf("the store holds %+v", on)
	}

	m = drive(t, m, tea.KeyMsg{Type: tea.KeyEnter})
	if m.screen != screenObject || m.confirm != confirmNone {
		t.Fatalf("enter again: screen %d, question %q", m.screen, m.question())
	}
	if d := m.Session().Draft(); d == nil || !strings.Contains(d.Text, "foo: mine") {
		t.Errorf("the draft did not come back: %+v", d)
	}
	if c.opened != 1 {
		t.Errorf("the object was opened %d times", c.opened)
	}
	if started, running := c.watching(); started != 2 || running != 1 {
		t.Errorf("%d watches started, %d running", started, running)
	}
	if !strings.Contains(plain(m), "unsaved draft") {
		t.Errorf("no draft shown:\n%s", plain(m))
	}
}

// TestAppStartedOnAnObjectGoesBackToItsList: kedit TYPE/NAME starts on
// the object; esc goes to the list of its type in its namespace, with
// the object selected once the list arrives.
func TestAppStartedOnAnObjectGoesBackToItsList(t *testing.T) {
	c := newFakeCluster(t)
	for _, n := range []string{"a", "b", "testmap", "z"} {
		c.add("configmaps", "team-a", n)
	}
	obj, err := c.Open(context.Background(), c.collection("configmaps", "team-a", false).Target("team-a", "testmap"))
	if err != nil {
		t.Fatal(err)
	}
	m := drive(t, New(Config{Cluster: c, Object: obj}), tea.WindowSizeMsg{Width: 80, Height: 24})
	if started, running := c.watching(); started != 1 || running != 1 {
		t.Fatalf("watches: %d started, %d running", started, running)
	}
	m = drive(t, m, keyMsg("esc"))
	if m.screen != screenBrowser {
		t.Fatalf("esc shows screen %d", m.screen)
	}
	coll := m.browser.Collection()
	if coll.Resource() != "configmaps" || coll.Namespace != "team-a" || coll.AllNamespaces || coll.Server != fakeServer {
		t.Errorf("back to %+v", coll)
	}
	if c.closed != 1 {
		t.Errorf("the object left without a draft was not let go of (%d)", c.closed)
	}
	m = listed(t, c, m)
	if selected(m) != "testmap" {
		t.Errorf("selected %q:\n%s", selected(m), plain(m))
	}
	// Opened afresh, as nothing was kept.
	m = drive(t, m, tea.KeyMsg{Type: tea.KeyEnter})
	if c.opened != 2 || m.screen != screenObject {
		t.Errorf("opened %d times, screen %d", c.opened, m.screen)
	}
}

// TestAppWithoutClusterKeepsEscFree: an app on one object alone (no list
// to go back to) leaves esc unbound in the object view, as before.
func TestAppWithoutClusterKeepsEscFree(t *testing.T) {
	m := newApp(t, 120, 40, &fakeRunner{})
	m = drive(t, m, keyMsg("esc"))
	if m.screen != screenObject || strings.Contains(plain(m), "esc list") {
		t.Errorf("esc without a list: screen %d\n%s", m.screen, plain(m))
	}
}

// TestAppQuitAsksForDraftsInMemory: a Secret's draft left in memory is
// marked memory; q in the browser asks before losing it, and so do q and
// ctrl+c in another object's view.
func TestAppQuitAsksForDraftsInMemory(t *testing.T) {
	c := newFakeCluster(t)
	c.add("secrets", "default", "db")
	c.add("configmaps", "default", "testmap")
	m := browserApp(t, c, c.collection("secrets", "default", false), 120, 40)
	m = drive(t, m, tea.KeyMsg{Type: tea.KeyEnter})
	m = editDraft(t, m, "mine")
	m = drive(t, m, keyMsg("esc"))
	if got := mark(m, "db"); got != "memory" {
		t.Fatalf("DRAFT of db is %q:\n%s", got, plain(m))
	}
	if !strings.Contains(m.status.Text(), "kept in memory only") {
		t.Errorf("status %q", m.status.Text())
	}
	if on, _ := c.store.ClusterDrafts("kind-dev", fakeServer); len(on) != 0 {
		t.Errorf("a Secret's draft reached the disk: %+v", on)
	}

	d := newDriver(t, m)
	d.send(keyMsg("q"))
	m = d.settle()
	const lost = "the draft of secrets/db exists only in memory and will be lost: quit anyway? (y/n)"
	if d.quit || m.question() != lost {
		t.Fatalf("q: quit %v, question %q", d.quit, m.question())
	}
	d.send(keyMsg("n"))
	if m = d.settle(); d.quit || m.confirm != confirmNone {
		t.Fatal("n quits")
	}

	// Another object, without a draft: q and ctrl+c still ask.
	m = drive(t, m, keys(":")...)
	m = drive(t, m, keyMsg("cm"), tea.KeyMsg{Type: tea.KeyEnter})
	m = listed(t, c, m)
	m = drive(t, m, tea.KeyMsg{Type: tea.KeyEnter})
	if m.screen != screenObject || m.Session().Ref().Name != "testmap" {
		t.Fatalf("screen %d:\n%s", m.screen, plain(m))
	}
	if m = drive(t, m, keyMsg("q")); m.question() != lost {
		t.Errorf("q in the object view asks %q", m.question())
	}
	m = drive(t, m, keyMsg("n"))
	d = newDriver(t, m)
	d.send(tea.KeyMsg{Type: tea.KeyCtrlC})
	if m = d.settle(); d.quit || !strings.Contains(m.question(), "ctrl+c again quits") {
		t.Fatalf("the first ctrl+c: quit %v, question %q", d.quit, m.question())
	}
	d.send(tea.KeyMsg{Type: tea.KeyCtrlC})
	d.settle()
	if !d.quit {
		t.Error("the second ctrl+c does not quit")
	}

	// With a draft on disk here too, the question says both.
	m = editDraft(t, m, "mine")
	m = drive(t, m, keyMsg("n"), keyMsg("q"))
	if q := m.question(); !strings.HasPrefix(q, "this draft stays on disk in ") || !strings.HasSuffix(q, ", but "+lost) {
		t.Errorf("q with drafts here and in memory: %q", q)
	}
	d = newDriver(t, m)
	d.send(keyMsg("y"))
	d.settle()
	if !d.quit {
		t.Error("y does not quit")
	}
}

// TestAppLeaveWaitsForTheDraftWrite: esc right after an edit goes back
// once the draft's write is back, so its outcome reaches its own object.
func TestAppLeaveWaitsForTheDraftWrite(t *testing.T) {
	c := newFakeCluster(t)
	k := c.add("configmaps", "default", "testmap")
	m := browserApp(t, c, c.collection("configmaps", "default", false), 120, 40)
	m = drive(t, m, tea.KeyMsg{Type: tea.KeyEnter})
	c.runners[k].slow = 200 * time.Millisecond
	text, _ := m.Session().DraftText()
	d := newDriver(t, m)
	d.send(editorFinishedMsg{original: text, text: strings.Replace(text, `foo: "1"`, "foo: mine", 1)})
	d.send(keyMsg("esc"))
	if d.m.screen != screenObject || !d.m.leaving {
		t.Fatalf("esc with a write on its way: screen %d, leaving %v", d.m.screen, d.m.leaving)
	}
	m = d.settle()
	if m.screen != screenBrowser || mark(m, "testmap") != "stored" {
		t.Fatalf("after the write: screen %d\n%s", m.screen, plain(m))
	}
	st := m.parked[k]
	if st.inflight != 0 || st.storeSeq == 0 {
		t.Errorf("the kept object: %d outcomes outstanding, store seq %d", st.inflight, st.storeSeq)
	}

	// Another key after esc, before the write is back: the user stays.
	m = drive(t, m, tea.KeyMsg{Type: tea.KeyEnter})
	text, _ = m.Session().DraftText()
	d = newDriver(t, m)
	d.send(editorFinishedMsg{original: text, text: strings.Replace(text, "foo: mine", "foo: again", 1)})
	d.send(keyMsg("esc"))
	d.send(keyMsg("d"))
	if m = d.settle(); m.screen != screenObject || m.leaving || !m.object.ShowingDiff() {
		t.Errorf("esc then d: screen %d, leaving %v, diff %v", m.screen, m.leaving, m.object.ShowingDiff())
	}
	// A second enter while an object opens opens it once.
	m = drive(t, m, keyMsg("esc"))
	c.add("configmaps", "default", "zz")
	m = drive(t, m, snapshotMsg{list: m.browser.list, snap: c.listSnapshot(m.browser.Collection())}, keyMsg("end"))
	d = newDriver(t, m)
	d.send(tea.KeyMsg{Type: tea.KeyEnter})
	d.send(tea.KeyMsg{Type: tea.KeyEnter})
	if m = d.settle(); m.screen != screenObject || m.Session().Ref().Name != "zz" || c.opened != 2 || c.closed != 0 {
		t.Errorf("enter twice: screen %d, %d opened, %d let go of", m.screen, c.opened, c.closed)
	}
}

// TestAppEscDuringSaveStays: a save on its way keeps the object view.
func TestAppEscDuringSaveStays(t *testing.T) {
	c := newFakeCluster(t)
	k := c.add("configmaps", "default", "testmap")
	m := browserApp(t, c, c.collection("configmaps", "default", false), 120, 40)
	m = drive(t, m, tea.KeyMsg{Type: tea.KeyEnter})
	m = editDraft(t, m, "mine")
	r := c.runners[k]
	r.saving = make(chan struct{})
	d := newDriver(t, m)
	d.send(keyMsg("s"))
	d.send(keyMsg("esc"))
	if d.m.screen != screenObject || !strings.Contains(d.m.status.Text(), "a save is on its way") {
		t.Errorf("esc while saving: screen %d, status %q", d.m.screen, d.m.status.Text())
	}
	close(r.saving)
	m = d.settle()
	if m.screen != screenObject || !strings.Contains(m.status.Text(), "saved rv 11") {
		t.Errorf("after the save: screen %d, status %q", m.screen, m.status.Text())
	}
	// Saved: nothing to keep, so going back lets go of the object.
	m = drive(t, m, keyMsg("esc"))
	if m.screen != screenBrowser || len(m.parked) != 0 || c.closed != 1 || mark(m, "testmap") != "" {
		t.Errorf("back after the save: screen %d, kept %d, closed %d, mark %q", m.screen, len(m.parked), c.closed, mark(m, "testmap"))
	}
}

// TestAppComesBackToAChangedObject: the object is read again when taken up
// again, as nothing watched it meanwhile: a deletion shows.
func TestAppComesBackToAChangedObject(t *testing.T) {
	c := newFakeCluster(t)
	k := c.add("configmaps", "default", "testmap")
	m := browserApp(t, c, c.collection("configmaps", "default", false), 120, 40)
	m = drive(t, m, tea.KeyMsg{Type: tea.KeyEnter})
	m = editDraft(t, m, "mine")
	m = drive(t, m, keyMsg("esc"))
	c.remove(k)
	m = drive(t, m, tea.KeyMsg{Type: tea.KeyEnter})
	if _, deleted := m.Session().Live(); !deleted {
		t.Errorf("the deletion meanwhile is not seen:\n%s", plain(m))
	}
	if m.Session().Draft() == nil {
		t.Error("the draft is gone")
	}
}

// TestAppSwitchesTypeAndNamespace: :TYPE keeps the namespace, :ns NAME
// keeps the type; an unknown type and one that cannot be edited are said
// in words, and the list stays.
func TestAppSwitchesTypeAndNamespace(t *testing.T) {
	c := newFakeCluster(t)
	c.add("configmaps", "default", "testmap")
	c.add("deployments", "team-a", "web")
	m := browserApp(t, c, c.collection("configmaps", "default", false), 120, 40)
	first := c.lastList()
	command := func(m App, line string) App {
		m = drive(t, m, keyMsg(":"))
		m = drive(t, m, keyMsg(line))
		return drive(t, m, tea.KeyMsg{Type: tea.KeyEnter})
	}
	m = command(m, "ns team-a")
	if coll := m.browser.Collection(); coll.Namespace != "team-a" || coll.Resource() != "configmaps" {
		t.Errorf(":ns team-a lists %s %s", coll.Resource(), coll.Where())
	}
	if !first.stopped() {
		t.Error("the list replaced is still running")
	}
	m = command(m, "deploy")
	m = listed(t, c, m)
	if coll := m.browser.Collection(); coll.Namespace != "team-a" || coll.Resource() != "deployments.apps" {
		t.Errorf(":deploy lists %s %s", coll.Resource(), coll.Where())
	}
	if got := m.browser.Rows(); len(got) != 1 || got[0] != "team-a/web" {
		t.Errorf("rows %v", got)
	}
	lists := len(c.lists)
	m = command(m, "nope")
	if !strings.Contains(m.status.Text(), `the server doesn't have a resource type "nope"; did you mean configmaps?`) || len(c.lists) != lists {
		t.Errorf(":nope: status %q, %d lists started", m.status.Text(), len(c.lists)-lists)
	}
	m = command(m, "cs")
	if !strings.Contains(m.status.Text(), "componentstatuses cannot be edited: the server allows only get, list on it") {
		t.Errorf(":cs: status %q", m.status.Text())
	}
	if m.browser.Collection().Resource() != "deployments.apps" {
		t.Error("a refused :TYPE changed the list")
	}
	// The namespace picker, with every namespace.
	m = command(m, "ns")
	m = drive(t, m, tea.KeyMsg{Type: tea.KeyEnter}) // the first item: all namespaces
	if coll := m.browser.Collection(); !coll.AllNamespaces || coll.Resource() != "deployments.apps" {
		t.Errorf("all namespaces: %s %s", coll.Resource(), coll.Where())
	}
	// -A stays with :TYPE.
	m = command(m, "cm")
	if coll := m.browser.Collection(); !coll.AllNamespaces || coll.Resource() != "configmaps" {
		t.Errorf(":cm after all namespaces: %s %s", coll.Resource(), coll.Where())
	}
}

// TestAppDraftsList: :drafts lists the drafts in memory and those the
// store holds on this cluster; enter opens one's object, which offers a
// stored draft from an earlier run for recovery.
func TestAppDraftsList(t *testing.T) {
	c := newFakeCluster(t)
	c.add("secrets", "default", "db")
	web := c.add("configmaps", "team-a", "web")
	// An earlier run's draft of web.
	tgt := c.collection("configmaps", "team-a", false).Target("team-a", "web")
	earlier := c.store.Open(tgt, "uid-web")
	if _, err := earlier.Write(1, "10", []byte("data:\n  foo: earlier\n"), nil); err != nil {
		t.Fatal(err)
	}
	earlier.Close()
	// Another cluster's draft of the same context name is not listed.
	elsewhere := c.collection("configmaps", "team-a", false).Target("team-a", "elsewhere")
	elsewhere.Server = "https://other.example"
	o := c.store.Open(elsewhere, "u")
	if _, err := o.Write(1, "3", []byte("x: y\n"), nil); err != nil {
		t.Fatal(err)
	}
	o.Close()

	m := browserApp(t, c, c.collection("secrets", "default", false), 120, 40)
	m = drive(t, m, tea.KeyMsg{Type: tea.KeyEnter})
	m = editDraft(t, m, "mine")
	m = drive(t, m, keyMsg("esc"), keyMsg(":"), keyMsg("drafts"), tea.KeyMsg{Type: tea.KeyEnter})
	v := plain(m)
	if !strings.Contains(v, "secrets  default/db  memory") || !strings.Contains(v, "configmaps  team-a/web  stored") || strings.Contains(v, "elsewhere") {
		t.Fatalf(":drafts shows:\n%s", v)
	}
	m = drive(t, m, keyMsg("web"), tea.KeyMsg{Type: tea.KeyEnter})
	if m.screen != screenObject || m.Session().Ref().Name != "web" || m.confirm != confirmRecover {
		t.Fatalf("opening web's draft: screen %d, question %q", m.screen, m.question())
	}
	m = drive(t, m, keyMsg("y"))
	if d := m.Session().Draft(); d == nil || !strings.Contains(d.Text, "earlier") {
		t.Errorf("the earlier draft was not recovered: %+v", d)
	}
	// Back, web is kept; the memory-only db comes back from :drafts too.
	m = drive(t, m, keyMsg("esc"))
	if _, ok := m.parked[web]; !ok {
		t.Error("web's recovered draft was not kept")
	}
	m = drive(t, m, keyMsg(":"), keyMsg("drafts"), tea.KeyMsg{Type: tea.KeyEnter}, tea.KeyMsg{Type: tea.KeyEnter})
	if m.screen != screenObject || m.Session().Ref().Name != "db" || m.confirm != confirmNone || m.Session().Draft() == nil {
		t.Errorf("db from :drafts: screen %d, question %q", m.screen, m.question())
	}
}

// TestAppOpenFails: an object that cannot be opened is said in the
// status bar, and the list stays.
func TestAppOpenFails(t *testing.T) {
	c := newFakeCluster(t)
	k := c.add("configmaps", "default", "gone")
	m := browserApp(t, c, c.collection("configmaps", "default", false), 120, 40)
	c.remove(k)
	m = drive(t, m, tea.KeyMsg{Type: tea.KeyEnter})
	if m.screen != screenBrowser || !strings.Contains(m.status.Text(), "cannot open configmaps/gone: configmaps/gone not found") {
		t.Errorf("screen %d, status %q", m.screen, m.status.Text())
	}
}

// TestAppForbiddenList: a refused list names the verb, the resource and
// the namespace.
func TestAppForbiddenList(t *testing.T) {
	c := newFakeCluster(t)
	coll := c.collection("configmaps", "team-a", false)
	m := browserApp(t, c, coll, 120, 40)
	err := fmt.Errorf("not allowed to list configmaps in namespace %q (context %q): %w", "team-a", "kind-dev",
		errors.New(`configmaps is forbidden: User "kedit-viewer" cannot list resource "configmaps"`))
	m = drive(t, m, snapshotMsg{list: m.browser.list, snap: kube.BrowseSnapshot{Generation: 1,
		Connection: kube.Connection{State: kube.Refused, Err: err}}})
	if v := plain(m); !strings.Contains(v, `not allowed to list configmaps in namespace "team-a"`) || !strings.Contains(v, "refused") {
		t.Errorf("a refused list:\n%s", v)
	}
}

// TestAppExitAfterFirstFrame: the benchmarks' flag quits once the list
// (or the object) is on the screen.
func TestAppExitAfterFirstFrame(t *testing.T) {
	c := newFakeCluster(t)
	c.add("configmaps", "default", "testmap")
	coll := c.collection("configmaps", "default", false)
	l, _ := c.Browse(context.Background(), coll)
	m := New(Config{Cluster: c, List: l, ExitAfterFirstFrame: true})
	d := newDriver(t, m)
	d.send(tea.WindowSizeMsg{Width: 80, Height: 24})
	d.settle()
	if d.quit {
		t.Fatal("quit before the list arrived")
	}
	d.send(snapshotMsg{list: d.m.browser.list, snap: c.listSnapshot(coll)})
	d.settle()
	if !d.quit || !strings.Contains(plain(d.m), "testmap") {
		t.Errorf("quit %v with:\n%s", d.quit, plain(d.m))
	}

	obj, _ := c.Open(context.Background(), coll.Target("default", "testmap"))
	d = newDriver(t, New(Config{Cluster: c, Object: obj, ExitAfterFirstFrame: true}))
	d.send(tea.WindowSizeMsg{Width: 80, Height: 24})
	d.settle()
	if !d.quit || !strings.Contains(plain(d.m), "apiVersion: v1") {
		t.Errorf("object: quit %v with:\n%s", d.quit, plain(d.m))
	}
}

// TestAppBrowserGolden draws the app in the browser at both sizes, with
// and without -A, and an object opened from it.
func TestAppBrowserGolden(t *testing.T) {
	build := func(t *testing.T, w, h int, all bool) (App, *fakeCluster) {
		c := newFakeCluster(t)
		for _, n := range []string{"payments-config", "payments-flags", "web-frontend"} {
			c.add("configmaps", "default", n)
		}
		c.add("configmaps", "kube-system", "coredns")
		c.add("secrets", "default", "db")
		m := browserApp(t, c, c.collection("configmaps", "default", all), w, h)
		return m, c
	}
	cases := []struct {
		name  string
		build func(t *testing.T, w, h int) App
	}{
		{"browser", func(t *testing.T, w, h int) App {
			m, c := build(t, w, h, false)
			// An earlier run's draft of payments-flags, in the store.
			o := c.store.Open(c.collection("configmaps", "default", false).Target("default", "payments-flags"), "uid-payments-flags")
			if _, err := o.Write(1, "10", []byte("data: {}\n"), nil); err != nil {
				t.Fatal(err)
			}
			o.Close()
			entries, err := c.Drafts()
			return drive(t, m, draftsListedMsg{entries: entries, err: err}, keyMsg("j"))
		}},
		{"browser_all_namespaces", func(t *testing.T, w, h int) App {
			m, _ := build(t, w, h, true)
			return m
		}},
		{"browser_quit_memory", func(t *testing.T, w, h int) App {
			m, c := build(t, w, h, false)
			m = drive(t, m, keyMsg(":"), keyMsg("secrets"), tea.KeyMsg{Type: tea.KeyEnter})
			m = listed(t, c, m)
			m = drive(t, m, tea.KeyMsg{Type: tea.KeyEnter})
			return drive(t, editDraft(t, m, "mine"), keyMsg("esc"), keyMsg("q"))
		}},
		{"object_from_browser", func(t *testing.T, w, h int) App {
			m, _ := build(t, w, h, false)
			return drive(t, m, tea.KeyMsg{Type: tea.KeyEnter})
		}},
	}
	for _, c := range cases {
		for _, s := range sizes {
			t.Run(c.name+"_"+s.name, func(t *testing.T) {
				out := plain(c.build(t, s.w, s.h))
				if n := strings.Count(out, "\n") + 1; n != s.h {
					t.Errorf("the screen has %d lines, want %d", n, s.h)
				}
				for i, l := range strings.Split(out, "\n") {
					if w := ansi.StringWidth(l); w > s.w {
						t.Errorf("line %d is %d wide, more than %d: %q", i+1, w, s.w, l)
					}
				}
				golden.RequireEqual(t, out)
			})
		}
	}
}
