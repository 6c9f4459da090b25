package ui

import (
	"context"
	"errors"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kedit/kedit/internal/drafts"
	"github.com/kedit/kedit/kube"
	"github.com/kedit/kedit/model"
)

// Going between the browser and the objects: opening one picked in the
// list, leaving it with esc, and taking it up again with its draft.

// Cluster is what the app needs of the API server beyond the object shown:
// the browser's lists, types, namespaces and drafts, and opening an object
// picked at runtime. kedit's is in main (a *kube.Cluster with the draft
// store); tests give a fake.
type Cluster interface {
	// Collection resolves a type as the user typed it (:TYPE); see
	// kube.Cluster.Collection for its errors.
	Collection(typ string, allNamespaces bool) (*kube.Collection, error)
	// Target names an object by its resource, as a draft records it.
	Target(resource schema.GroupResource, namespace, name string) (*kube.Target, error)
	// Types are the types :TYPE completes.
	Types() ([]kube.ResourceType, error)
	// Namespaces are the namespaces :ns offers.
	Namespaces(ctx context.Context) ([]string, error)
	// CheckNamespace says whether a namespace typed in :ns NAME exists:
	// nil, a *kube.NamespaceNotFoundError, or why it cannot tell
	// (kube.Cluster.CheckNamespace).
	CheckNamespace(ctx context.Context, name string) error
	// Browse starts a live list of c.
	Browse(ctx context.Context, c *kube.Collection) (List, error)
	// Drafts are the stored drafts of this context on this cluster
	// (drafts.Store.ClusterDrafts).
	Drafts() ([]drafts.Entry, error)
	// Open reads the object and opens its session, its share of the draft
	// store and what else kedit keeps per object. It is called inside a
	// command.
	Open(ctx context.Context, t *kube.Target) (*Object, error)
}

// List is a live list of one collection (a started *kube.Browse).
type List interface {
	Collection() *kube.Collection
	Snapshots() <-chan kube.BrowseSnapshot
	Stop()
}

// Watcher is a started watch of one object (*kube.Watch).
type Watcher interface {
	Events() <-chan kube.WatchEvent
	Stop()
}

// Object is one object opened for the object view.
type Object struct {
	Target  *kube.Target
	Session *model.Session
	Runner  Performer
	Drafts  Drafts
	// Notice is said in the status bar when the object is shown.
	Notice string
	// Demo is kedit demo's second writer on the object; nil outside the
	// demo.
	Demo DemoWriter
	// Watch starts a watch of the object. The app watches it while it is
	// shown, and stops the watch when it goes back to the browser.
	Watch func(ctx context.Context) (Watcher, error)
	// Read reads the object from the server: when the app takes up an
	// object again, it may have changed or gone while nothing watched it.
	Read func(ctx context.Context) (*unstructured.Unstructured, error)
	// MaySave asks the server whether the user may save the object
	// (kube.MaySave); nil asks nothing.
	MaySave func(ctx context.Context) error
	// History reads the object's history from the audit logs kedit was
	// given (--audit-log), each time the timeline opens; nil for none.
	History HistoryReader
	// Close lets go of the object (its draft locks and what else Open
	// took) when the app leaves it without a draft. Objects left with a
	// draft stay open until kedit ends, which stores their drafts.
	Close func()
}

// Results of the browser's commands, named in the past tense.
type (
	// objectOpenedMsg is the outcome of opening the object key.
	objectOpenedMsg struct {
		key DraftKey
		obj *Object
		err error
	}
	// objectReadMsg is the object of sess as read when the app took it
	// up again.
	objectReadMsg struct {
		sess *model.Session
		obj  *unstructured.Unstructured
		err  error
	}
	// collectionResolvedMsg is the outcome of :TYPE.
	collectionResolvedMsg struct {
		coll *kube.Collection
		err  error
	}
	typesListedMsg struct {
		types []kube.ResourceType
		err   error
	}
	namespacesListedMsg struct {
		names []string
		err   error
	}
	// draftsListedMsg is the store's drafts on this cluster; show says
	// that :drafts asked for them.
	draftsListedMsg struct {
		entries []drafts.Entry
		err     error
		show    bool
	}
)

// keyOf names t's object as the draft marks do.
func keyOf(t *kube.Target) DraftKey {
	return DraftKey{Resource: t.Mapping.Resource.GroupResource(), Namespace: t.Namespace, Name: t.Name}
}

// objectName names the object of key for messages: configmaps/testmap.
func objectName(k DraftKey) string {
	return kube.EscapeControl(kube.ResourceName(k.Resource) + "/" + k.Name)
}

func openCmd(ctx context.Context, c Cluster, key DraftKey, target func() (*kube.Target, error)) tea.Cmd {
	return func() tea.Msg {
		t, err := target()
		if err != nil {
			return objectOpenedMsg{key: key, err: err}
		}
		obj, err := c.Open(ctx, t)
		return objectOpenedMsg{key: key, obj: obj, err: err}
	}
}

func readCmd(ctx context.Context, sess *model.Session, read func(context.Context) (*unstructured.Unstructured, error)) tea.Cmd {
	return func() tea.Msg {
		obj, err := read(ctx)
		return objectReadMsg{sess: sess, obj: obj, err: err}
	}
}

func collectionCmd(c Cluster, typ string, all bool) tea.Cmd {
	return func() tea.Msg {
		coll, err := c.Collection(typ, all)
		return collectionResolvedMsg{coll: coll, err: err}
	}
}

func typesCmd(c Cluster) tea.Cmd {
	return func() tea.Msg {
		types, err := c.Types()
		return typesListedMsg{types: types, err: err}
	}
}

func namespacesCmd(ctx context.Context, c Cluster) tea.Cmd {
	return func() tea.Msg {
		names, err := c.Namespaces(ctx)
		return namespacesListedMsg{names: names, err: err}
	}
}

func draftsCmd(c Cluster, show bool) tea.Cmd {
	return func() tea.Msg {
		entries, err := c.Drafts()
		return draftsListedMsg{entries: entries, err: err, show: show}
	}
}

// stopCmd stops a list or a watch, which waits for its goroutines, off the
// UI's goroutine. It reports nothing.
func stopCmd(stop func()) tea.Cmd {
	return func() tea.Msg {
		stop()
		return nil
	}
}

// browsing handles the browser's requests and the results of the
// commands that answer them. ok is false for any other message.
func (m App) browsing(msg tea.Msg) (App, tea.Cmd, bool) {
	c := m.cfg.Cluster
	switch msg.(type) {
	case OpenObjectMsg, OpenDraftMsg:
		if m.screen != screenBrowser {
			// A second pick (enter twice) that comes after the first
			// one's object is shown: the user has what they picked.
			return m, nil, true
		}
	}
	switch msg := msg.(type) {
	case OpenObjectMsg:
		key := keyOf(msg.Target)
		return m, m.open(key, func() (*kube.Target, error) { return msg.Target, nil }), true
	case OpenDraftMsg:
		k := msg.Draft.Key
		return m, m.open(k, func() (*kube.Target, error) { return c.Target(k.Resource, k.Namespace, k.Name) }), true
	case objectOpenedMsg:
		if m.opening == nil || *m.opening != msg.key || m.screen != screenBrowser {
			// Another pick or a screen since: the user moved on.
			if msg.obj != nil && msg.obj.Close != nil {
				return m, stopCmd(msg.obj.Close), true
			}
			return m, nil, true
		}
		m.opening = nil
		m.status.SetBusy("")
		if msg.err != nil {
			m.status.Error("cannot open " + objectName(msg.key) + ": " + errorText(msg.err))
			return m, nil, true
		}
		m.status.Info("")
		return m, m.show(msg.obj), true
	case objectReadMsg:
		if msg.sess != m.sess || m.sess == nil {
			return m, nil, true // left again meanwhile
		}
		return m, m.reread(msg.obj, msg.err), true
	case SwitchTypeMsg:
		all := false
		if cur := m.browser.Collection(); cur != nil {
			all = cur.AllNamespaces
		}
		return m, collectionCmd(c, msg.Type, all), true
	case collectionResolvedMsg:
		if msg.err != nil {
			m.status.Error(errorText(msg.err))
			return m, nil, true
		}
		coll := msg.coll
		if cur := m.browser.Collection(); cur != nil && cur.Namespace != "" {
			// :TYPE keeps the namespace chosen with :ns.
			coll = coll.InNamespace(cur.Namespace)
			coll.AllNamespaces = cur.AllNamespaces
		}
		m.status.Info("")
		return m, m.listOn(coll), true
	case SwitchNamespaceMsg:
		cur := m.browser.Collection()
		if cur == nil {
			return m, nil, true
		}
		m.checkingNamespace = ""
		if !msg.AllNamespaces && !m.browser.KnowsNamespace(msg.Namespace) {
			// Typed, not picked: the list of a namespace that does not
			// exist is empty, as if it had nothing in it. Ask first.
			m.checkingNamespace = msg.Namespace
			return m, checkNamespaceCmd(m.ctx, c, msg.Namespace), true
		}
		next := cur.InNamespace(msg.Namespace)
		if msg.AllNamespaces {
			next = cur.InAllNamespaces()
		}
		m.status.Info("")
		return m, m.listOn(next), true
	case namespaceCheckedMsg:
		return m.namespaceChecked(msg)
	case NamespacesWantedMsg:
		return m, namespacesCmd(m.ctx, c), true
	case namespacesListedMsg:
		m.browser.SetNamespaces(msg.names, msg.err)
		return m, nil, true
	case typesListedMsg:
		if msg.err == nil {
			m.browser.SetTypes(msg.types)
		}
		return m, nil, true
	case DraftsWantedMsg:
		return m, draftsCmd(c, true), true
	case draftsListedMsg:
		if msg.err == nil {
			m.storedMarks = map[DraftKey]DraftPlace{}
			for _, e := range msg.entries {
				m.storedMarks[entryKey(e)] = DraftStored
			}
			m.setDraftMarks()
		}
		if msg.show {
			m.browser.ShowDrafts(m.draftItems(msg.entries), msg.err)
		}
		return m, nil, true
	case QuitRequestedMsg:
		if len(m.parkedInMemory()) > 0 {
			m.confirm = confirmQuit
			return m, nil, true
		}
		return m, tea.Quit, true
	}
	return m, nil, false
}

// entryKey names a stored draft's object as the draft marks do.
func entryKey(e drafts.Entry) DraftKey {
	return DraftKey{Resource: schema.ParseGroupResource(e.Resource), Namespace: e.Namespace, Name: e.Name}
}

// draftItems are the drafts :drafts lists: those only in memory first
// (quitting loses them), then the store's, newest first, each object once.
func (m App) draftItems(entries []drafts.Entry) []DraftItem {
	var items []DraftItem
	seen := map[DraftKey]bool{}
	for _, k := range m.parkedInMemory() {
		items = append(items, DraftItem{Key: k, Place: DraftInMemory})
		seen[k] = true
	}
	for _, e := range entries {
		k := entryKey(e)
		if !seen[k] {
			seen[k] = true
			items = append(items, DraftItem{Key: k, Place: DraftStored, Saved: e.SavedAt})
		}
	}
	return items
}

// open opens the object key picked in the browser: an object left with a
// draft is taken up again as it was; any other is opened afresh, in a
// command (target names it).
func (m *App) open(key DraftKey, target func() (*kube.Target, error)) tea.Cmd {
	if st, ok := m.parked[key]; ok {
		delete(m.parked, key)
		return m.resume(st)
	}
	if m.cfg.Cluster == nil || (m.opening != nil && *m.opening == key) {
		return nil // enter again while it opens: one share of its drafts is enough
	}
	m.opening = &key
	m.status.Info("opening " + objectName(key))
	return tea.Batch(m.status.SetBusy("opening "+objectName(key)), openCmd(m.ctx, m.cfg.Cluster, key, target))
}

// show shows an object just opened, and starts its watch.
func (m *App) show(obj *Object) tea.Cmd {
	m.take(objectState{sess: obj.Session, runner: obj.Runner, drafts: obj.Drafts, target: obj.Target, opened: obj, demo: obj.Demo,
		history: obj.History}, true)
	if obj.Notice != "" {
		m.status.Info(kube.EscapeControl(obj.Notice))
	}
	// The demo writer's reports are read from here on, whichever object is
	// shown, so that one reader reads them; only the shown object's are said.
	return tea.Batch(m.startWatch(), demoCmd(obj.Demo))
}

// resume shows again an object left with a draft: its session is as it
// was left, and the object is read again, as nothing watched it meanwhile.
func (m *App) resume(st objectState) tea.Cmd {
	m.take(st, false)
	m.status.Info("back to the draft of " + objectName(keyOf(st.target)))
	cmds := []tea.Cmd{m.startWatch()}
	if st.opened != nil && st.opened.Read != nil {
		cmds = append(cmds, readCmd(m.ctx, m.sess, st.opened.Read))
	}
	return tea.Batch(cmds...)
}

// startWatch starts the shown object's watch and reads it.
func (m *App) startWatch() tea.Cmd {
	if m.opened == nil || m.opened.Watch == nil {
		return watchCmd(m.events)
	}
	w, err := m.opened.Watch(m.ctx)
	if err != nil {
		m.status.Error("the object is not watched: " + errorText(err))
		return nil
	}
	m.watch, m.events = w, w.Events()
	return watchCmd(m.events)
}

// reread hands the session the object as read on coming back to it.
func (m *App) reread(obj *unstructured.Unstructured, err error) tea.Cmd {
	var nf *kube.NotFoundError
	switch {
	case errors.As(err, &nf):
		live, deleted := m.sess.Live()
		if deleted || live.Object == nil {
			return nil
		}
		return m.handle(model.LiveChanged{Type: model.LiveDeleted, Object: live.Object, At: time.Now()})
	case err != nil:
		m.status.Error(errorText(err))
		return nil
	}
	return m.handle(model.LiveChanged{Type: model.LiveModified, Object: obj, At: time.Now()})
}
