package ui

import (
	"errors"
	"time"

	"github.com/kedit/kedit/ui/internal/effect"

	tea "github.com/charmbracelet/bubbletea"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kedit/kedit/internal/drafts"
	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/kube"
	"github.com/kedit/kedit/model"
	"github.com/kedit/kedit/ui/browser"
	"github.com/kedit/kedit/ui/common"
)

// Going between the browser and the objects: opening one picked in the
// list, leaving it with esc, and taking it up again with its draft.

// browsing is the app's side of the browser: the live list it shows, the
// object being opened from it, and the namespace :ns NAME asks about.
type browsing struct {
	list List
	// listed is what the browser lists (the last setList), also when
	// the list that followed it could not be started.
	listed *kube.Collection
	// opening is the object being opened from the browser, if any.
	opening *DraftKey
	// checkingNamespace is the namespace :ns NAME typed, while the server
	// is asked whether it exists.
	checkingNamespace string
}

// browserIntent acts on what the browser asked for; false for any other
// message.
func (m App) browserIntent(msg tea.Msg) (App, tea.Cmd, bool) {
	c := m.cfg.Cluster
	var cmd tea.Cmd
	switch msg := msg.(type) {
	case browser.OpenObjectMsg:
		if m.browsing.listed == nil {
			break
		}
		tgt := m.browsing.listed.Target(msg.Namespace, msg.Name)
		cmd = m.pick(keyOf(tgt), func() (*kube.Target, error) { return tgt, nil })
	case browser.OpenDraftMsg:
		k := msg.Draft.Key
		if kube.Subresource(msg.Draft.Subresource) != m.cfg.Subresource {
			m.status.Info(m.otherSubresource(msg.Draft))
			break
		}
		cmd = m.pick(k, func() (*kube.Target, error) { return c.Target(k.Resource, k.Namespace, k.Name) })
	case browser.SwitchTypeMsg:
		all := false
		if cur := m.browsing.listed; cur != nil {
			all = cur.AllNamespaces
		}
		cmd = effect.ResolveCollection(c.Collection, msg.Type, all)
	case browser.SwitchNamespaceMsg:
		cmd = m.switchNamespace(msg)
	case browser.NamespacesWantedMsg:
		cmd = effect.ListNamespaces(m.ctx, c.Namespaces)
	case browser.DraftsWantedMsg:
		cmd = effect.ListDrafts(c.Drafts, true)
	default:
		return m, nil, false
	}
	return m, cmd, true
}

// pick opens the object key picked in the browser (target names it).
func (m *App) pick(key DraftKey, target func() (*kube.Target, error)) tea.Cmd {
	if m.screen != screenBrowser {
		// A second pick (enter twice) that comes after the first one's
		// object is shown: the user has what they picked.
		return nil
	}
	return m.open(key, target)
}

// switchNamespace lists the type in the namespace :ns NAME typed or :ns
// picked, or in every namespace.
func (m *App) switchNamespace(msg browser.SwitchNamespaceMsg) tea.Cmd {
	cur := m.browsing.listed
	if cur == nil {
		return nil
	}
	m.browsing.checkingNamespace = ""
	if !msg.AllNamespaces && !m.browser.KnowsNamespace(msg.Namespace) {
		// Typed, not picked: the list of a namespace that does not exist
		// is empty, as if it had nothing in it. Ask first.
		m.browsing.checkingNamespace = msg.Namespace
		return effect.CheckNamespace(m.ctx, m.cfg.Cluster.CheckNamespace, msg.Namespace)
	}
	next := cur.InNamespace(msg.Namespace)
	if msg.AllNamespaces {
		next = cur.InAllNamespaces()
	}
	m.status.Info("")
	return m.listOn(next)
}

// browserOutcome takes the outcome of a command the browser's intents
// started; false for any other message.
func (m App) browserOutcome(msg tea.Msg) (App, tea.Cmd, bool) {
	var cmd tea.Cmd
	switch msg := msg.(type) {
	case effect.Opened[*Object]:
		cmd = m.showOpened(msg)
	case effect.ObjectRead:
		if _, shown := m.whose(msg.Of); shown && m.sess != nil { // else left again meanwhile
			cmd = m.reread(msg.Obj, msg.Err)
		}
	case effect.CollectionResolved:
		cmd = m.collectionResolved(msg)
	case effect.NamespaceChecked:
		cmd = m.namespaceChecked(msg)
	case effect.NamespacesListed:
		m.browser.SetNamespaces(msg.Names, msg.Err)
	case effect.TypesListed:
		if msg.Err == nil {
			m.browser.SetTypes(browserTypesOf(msg.Types))
		}
	case effect.DraftsListed:
		m.draftsListed(msg)
	default:
		return m, nil, false
	}
	return m, cmd, true
}

// showOpened shows the object just opened, unless the user moved on.
func (m *App) showOpened(msg effect.Opened[*Object]) tea.Cmd {
	if m.browsing.opening == nil || *m.browsing.opening != msg.Key || m.screen != screenBrowser {
		// Another pick or a screen since: the user moved on.
		if msg.Obj != nil && msg.Obj.Close != nil {
			return effect.Stop(msg.Obj.Close)
		}
		return nil
	}
	m.browsing.opening = nil
	m.status.SetBusy("")
	if msg.Err != nil {
		m.status.Error("cannot open " + objectName(msg.Key) + ": " + common.ErrorText(msg.Err))
		return nil
	}
	m.status.Info("")
	return m.show(msg.Obj)
}

// collectionResolved lists the type :TYPE named.
func (m *App) collectionResolved(msg effect.CollectionResolved) tea.Cmd {
	if msg.Err != nil {
		m.status.Error(common.ErrorText(msg.Err))
		return nil
	}
	coll := msg.Collection
	if cur := m.browsing.listed; cur != nil && cur.Namespace != "" {
		// :TYPE keeps the namespace chosen with :ns.
		coll = coll.InNamespace(cur.Namespace)
		coll.AllNamespaces = cur.AllNamespaces
	}
	m.status.Info("")
	return m.listOn(coll)
}

// draftsListed marks the store's drafts of what this kedit edits in the
// browser (a subresource's drafts are apart from the object's), and shows
// them all when :drafts asked.
func (m *App) draftsListed(msg effect.DraftsListed) {
	if msg.Err == nil {
		var mine []drafts.Entry
		for _, e := range msg.Entries {
			if kube.Subresource(e.Subresource) == m.cfg.Subresource {
				mine = append(mine, e)
			}
		}
		m.shelf.setStored(mine)
		m.browser.SetDrafts(m.shelf.marks(m.left()))
	}
	if msg.Show {
		m.browser.ShowDrafts(m.draftItems(msg.Entries), msg.Err)
	}
}

// entryKey names a stored draft's object as the draft marks do.
func entryKey(e drafts.Entry) DraftKey {
	return DraftKey{Resource: schema.ParseGroupResource(e.Resource), Namespace: e.Namespace, Name: e.Name}
}

// draftItems are the drafts :drafts lists: those only in memory first
// (quitting loses them), then the store's, newest first, each object (and
// each subresource of it) once.
func (m App) draftItems(entries []drafts.Entry) []browser.DraftItem {
	var items []browser.DraftItem
	seen := map[browser.DraftItem]bool{}
	for _, k := range m.othersInMemory() {
		it := browser.DraftItem{Key: k, Resource: kube.ResourceName(k.Resource), Subresource: string(m.cfg.Subresource)}
		seen[it] = true
		it.Place = DraftInMemory
		items = append(items, it)
	}
	for _, e := range entries {
		k := entryKey(e)
		it := browser.DraftItem{Key: k, Resource: kube.ResourceName(k.Resource), Subresource: e.Subresource}
		if !seen[it] {
			seen[it] = true
			it.Place, it.Saved = DraftStored, e.SavedAt
			items = append(items, it)
		}
	}
	return items
}

// otherSubresource says how to open a draft picked in :drafts that edits
// another part of its object than this kedit does: the command that does.
func (m App) otherSubresource(d browser.DraftItem) escape.Text {
	name := escape.Safe(kube.ResourceName(d.Key.Resource)) + "/" + escape.Safe(d.Key.Name)
	what, cmd := name+" itself", "kedit "+name
	if d.Key.Namespace != "" {
		cmd += " -n " + escape.Safe(d.Key.Namespace)
	}
	if sub := escape.Textf("%s", d.Subresource); sub != "" {
		what, cmd = name+"'s "+sub+" subresource", cmd+" --subresource "+sub
	}
	return "a draft of " + what + ": open it with " + cmd
}

// open opens the object key picked in the browser: an object left with a
// draft is taken up again as it was; any other is opened afresh, in a
// command (target names it).
func (m *App) open(key DraftKey, target func() (*kube.Target, error)) tea.Cmd {
	if st, ok := m.leftWith(key); ok {
		return m.resume(st)
	}
	if m.cfg.Cluster == nil || (m.browsing.opening != nil && *m.browsing.opening == key) {
		return nil // enter again while it opens: one share of its drafts is enough
	}
	m.browsing.opening = &key
	m.status.Info("opening " + objectName(key))
	return tea.Batch(m.status.SetBusy("opening "+objectName(key)), effect.Open(m.ctx, m.cfg.Cluster.Open, key, target))
}

// show shows an object just opened, and starts its watch.
func (m *App) show(obj *Object) tea.Cmd {
	m.take(m.objects.add(&objectState{sess: obj.Session, runner: obj.Runner, drafts: obj.Drafts, target: obj.Target, opened: obj, demo: obj.Demo,
		history: obj.History}), true)
	if obj.Notice != "" {
		m.status.Info(escape.Safe(obj.Notice))
	}
	// The demo writer's reports are read from here on, whichever object is
	// shown, so that one reader reads them; only the shown object's are said.
	return tea.Batch(m.startWatch(), effect.ReadDemo(obj.Demo))
}

// resume shows again an object left with a draft: its session is as it
// was left, and the object is read again, as nothing watched it meanwhile.
func (m *App) resume(st *objectState) tea.Cmd {
	m.take(st, false)
	m.status.Info("back to the draft of " + objectName(keyOf(st.target)))
	cmds := []tea.Cmd{m.startWatch()}
	if st.opened != nil && st.opened.Read != nil {
		cmds = append(cmds, effect.Read(m.ctx, m.id, st.opened.Read))
	}
	return tea.Batch(cmds...)
}

// startWatch starts the shown object's watch and reads it.
func (m *App) startWatch() tea.Cmd {
	if m.opened == nil || m.opened.Watch == nil {
		return effect.Watch(m.id, m.events)
	}
	w, err := m.opened.Watch(m.ctx)
	if err != nil {
		m.status.Error("the object is not watched: " + common.ErrorText(err))
		return nil
	}
	m.watch, m.events = w, w.Events()
	return effect.Watch(m.id, m.events)
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
		m.status.Error(common.ErrorText(err))
		return nil
	}
	return m.handle(model.LiveChanged{Type: model.LiveModified, Object: obj, At: time.Now()})
}
