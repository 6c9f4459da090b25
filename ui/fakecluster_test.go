package ui

import (
	"context"
	"errors"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kedit/kedit/ui/internal/effect"

	tea "github.com/charmbracelet/bubbletea"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kedit/kedit/internal/drafts"
	"github.com/kedit/kedit/kube"
	"github.com/kedit/kedit/model"
	"github.com/kedit/kedit/ui/browser"
)

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
	store *drafts.Store

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
	// forbidNamespaces answers as the server does a user who may not
	// list or get namespaces.
	forbidNamespaces bool
	// format is what the objects opened are edited in (-o); "" is YAML.
	format model.Format
}

func newFakeCluster(t *testing.T) *fakeCluster {
	return &fakeCluster{store: &drafts.Store{Dir: t.TempDir()}, objects: map[DraftKey]*unstructured.Unstructured{},
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

func (c *fakeCluster) Types() ([]kube.ResourceType, error) { return serverTypes, nil }

// serverTypes is a server's types, as kube.Cluster.Types returns them.
var serverTypes = []kube.ResourceType{
	{Resource: "configmaps", Singular: "configmap", Kind: "ConfigMap", ShortNames: []string{"cm"}, Namespaced: true},
	{Group: "apps", Resource: "daemonsets", Singular: "daemonset", Kind: "DaemonSet", ShortNames: []string{"ds"}, Namespaced: true},
	{Group: "apps", Resource: "deployments", Singular: "deployment", Kind: "Deployment", ShortNames: []string{"deploy"}, Namespaced: true},
	{Resource: "events", Singular: "event", Kind: "Event", ShortNames: []string{"ev"}, Namespaced: true},
	{Group: "events.k8s.io", Resource: "events", Singular: "event", Kind: "Event", ShortNames: []string{"ev"}, Namespaced: true},
	{Resource: "namespaces", Singular: "namespace", Kind: "Namespace", ShortNames: []string{"ns"}},
	{Resource: "secrets", Singular: "secret", Kind: "Secret", Namespaced: true},
	{Resource: "serviceaccounts", Singular: "serviceaccount", Kind: "ServiceAccount", ShortNames: []string{"sa"}, Namespaced: true},
	{Resource: "services", Singular: "service", Kind: "Service", ShortNames: []string{"svc"}, Namespaced: true},
}

func (c *fakeCluster) Namespaces(context.Context) ([]string, error) {
	if c.forbidNamespaces {
		return nil, c.namespacesForbidden("list")
	}
	return []string{"default", "team-a"}, nil
}

func (c *fakeCluster) CheckNamespace(_ context.Context, name string) error {
	switch {
	case c.forbidNamespaces:
		return c.namespacesForbidden("get")
	case name == "default" || name == "team-a":
		return nil
	}
	return &kube.NamespaceNotFoundError{Name: name, Context: "kind-dev"}
}

func (c *fakeCluster) namespacesForbidden(verb string) error {
	coll := &kube.Collection{Context: "kind-dev", Mapping: &meta.RESTMapping{
		Resource: schema.GroupVersionResource{Version: "v1", Resource: "namespaces"}, Scope: meta.RESTScopeRoot}}
	return &kube.ForbiddenListError{Verb: verb, Collection: coll, Err: errors.New("forbidden")}
}

func (c *fakeCluster) Browse(_ context.Context, coll *kube.Collection) (List, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	l := &fakeList{coll: coll}
	c.lists = append(c.lists, l)
	return l, nil
}

func (c *fakeCluster) Drafts() ([]drafts.Entry, error) {
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
	if c.format != "" {
		sess.SetFormat(c.format)
	}
	if _, _, err := sess.Handle(model.Opened{Object: obj.DeepCopy(), At: t0}); err != nil {
		return nil, err
	}
	drafts := c.store.Open(kube.DraftKey(t), string(obj.GetUID()))
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

// closedCount is how many objects were let go of.
func (c *fakeCluster) closedCount() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.closed
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

// chanWatch is a watch whose events the test sends on its channel.
type chanWatch <-chan kube.WatchEvent

func (w chanWatch) Events() <-chan kube.WatchEvent { return w }
func (w chanWatch) Stop()                          {}

// watchOn is an Object's Watch whose events come on ch.
func watchOn(ch <-chan kube.WatchEvent) func(context.Context) (Watcher, error) {
	return func(context.Context) (Watcher, error) { return chanWatch(ch), nil }
}

// browserNow is the browser's clock in the app's tests: AGE and CHANGED
// count from it.
var browserNow = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

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
	if m.browsing.listed != l.coll {
		t.Fatalf("the browser lists %v, not the last list started", m.browsing.listed)
	}
	return drive(t, m, browser.SnapshotMsg{List: m.browser.List(), Snapshot: browserSnapshot(c.listSnapshot(l.coll))})
}

// browserApp starts the app in the browser on coll, as kedit TYPE does.
func browserApp(t *testing.T, c *fakeCluster, coll *kube.Collection, w, h int) App {
	t.Helper()
	l, _ := c.Browse(context.Background(), coll)
	first := c.listSnapshot(coll)
	m := New(Config{Cluster: c, List: l, First: &first})
	m.browser.SetNow(func() time.Time { return browserNow })
	entries, err := c.Drafts()
	return drive(t, m, tea.WindowSizeMsg{Width: w, Height: h}, effect.DraftsListed{Entries: entries, Err: err})
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
	return drive(t, m, effect.EditorFinished{Original: text, Text: strings.Replace(text, `foo: "1"`, "foo: "+value, 1)})
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
