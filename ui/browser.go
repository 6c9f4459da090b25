package ui

import (
	"slices"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"k8s.io/apimachinery/pkg/util/duration"

	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/kube"
	"github.com/kedit/kedit/ui/common"
)

// Order is how the browser sorts its rows; o cycles through them.
type Order int

const (
	// OrderName sorts by namespace, then name, as kubectl get does.
	OrderName Order = iota
	// OrderChanged puts the object changed last first: in an incident,
	// what someone just touched.
	OrderChanged
	// OrderAge puts the newest object first.
	OrderAge
	orderCount
)

// String names the order for the browser's bottom line.
func (o Order) String() string {
	switch o {
	case OrderChanged:
		return "last change"
	case OrderAge:
		return "age"
	}
	return "name"
}

// The browser's own messages; list says which SetList they belong to, so
// those of a list replaced meanwhile are dropped.
type (
	snapshotMsg struct {
		list int
		snap kube.BrowseSnapshot
	}
	listClosedMsg struct{ list int }
	ageTickMsg    struct{ list int }
)

// browserMsg marks the browser's own messages for Handles.
func (snapshotMsg) browserMsg()   {}
func (listClosedMsg) browserMsg() {}
func (ageTickMsg) browserMsg()    {}

// browserMode is what keys go to.
type browserMode int

const (
	modeList   browserMode = iota
	modeFilter             // typing the filter after /
	modePrompt             // typing a command after :
	modePicker             // picking a namespace or a draft
)

// browserRow is a kube.ObjectRow prepared for drawing and filtering once,
// when its snapshot arrives, rather than at every key.
type browserRow struct {
	kube.ObjectRow
	ns, name, by escape.Text
	// lower is the raw name in lower case, for the filter.
	lower string
	// created and changed are the times in Unix nanoseconds, for sorting
	// (zero when unknown, so that such rows sort last).
	created, changed int64
}

// ageTick is how often the ages are redrawn: AGE and CHANGED count
// seconds for their first two minutes.
const ageTick = time.Second

// Browser lists the objects of one type, live: a header with the context,
// the namespace, the type, the number of objects and the connection state;
// a table of NAME (and NAMESPACE with -A), AGE, CHANGED, BY and DRAFT; and
// a bottom line for the order, the filter or a command. It reads the
// snapshots of a kube.Browse itself; everything else it needs (types and
// namespaces for completion, the drafts) the app gives it, and what it
// cannot do alone it asks for with a message.
type Browser struct {
	keys   BrowserKeyMap
	styles *common.Styles
	width  int
	height int
	now    func() time.Time

	// The list: which collection, the channel of its snapshots, and which
	// SetList call this is.
	coll   *kube.Collection
	snaps  <-chan kube.BrowseSnapshot
	list   int
	gen    uint64
	synced bool
	conn   kube.Connection
	closed bool

	// all is every row as kube delivers them (by namespace and name);
	// sorted indexes all in the current order, and shown the rows of
	// sorted that match the filter. selected indexes shown, and offset is
	// the first shown row on the screen. Sorting indexes rather than rows
	// keeps a snapshot of 5,000 rows cheap.
	all      []browserRow
	sorted   []int
	shown    []int
	selected int
	offset   int
	order    Order
	filter   string
	mode     browserMode
	// The widest namespace, name and manager of all rows.
	nsWidth, nameWidth, byWidth int

	drafts map[DraftKey]DraftPlace
	// want is a row to select once a snapshot brings it (Select).
	want *[2]string

	prompt     string
	completion completion
	types      []completionCandidate
	namespaces []string
	nsErr      error
	// nsReading: the namespaces were asked for and are not in yet.
	nsReading bool
	picker    picker
}

// NewBrowser returns a browser with nothing to list until SetList.
func NewBrowser(keys BrowserKeyMap, styles *common.Styles) Browser {
	return Browser{keys: keys, styles: styles, now: time.Now}
}

// SetSize gives the browser the terminal's size less what the app draws
// around it.
func (m *Browser) SetSize(width, height int) {
	m.width, m.height = width, height
	m.scroll()
}

// SetList shows collection c, whose snapshots arrive on snaps (a
// kube.Browse's Snapshots), in place of what was listed: the rows, the
// filter and the selection start afresh, the order stays. The returned
// command reads the snapshots and redraws the ages; the app runs it and
// passes every message for which Handles is true to Update, also while
// another screen is shown, so that the list stays live.
func (m *Browser) SetList(c *kube.Collection, snaps <-chan kube.BrowseSnapshot) tea.Cmd {
	m.list++
	m.coll, m.snaps = c, snaps
	m.gen, m.synced, m.closed = 0, false, false
	m.conn = kube.Connection{State: kube.Connecting, Since: m.now()}
	m.all, m.sorted, m.shown, m.selected, m.offset = nil, nil, nil, 0, 0
	m.filter, m.mode, m.want = "", modeList, nil
	return tea.Batch(readSnapshotCmd(m.list, snaps), ageTickCmd(m.list))
}

// ShowSnapshot takes a snapshot of the list that the caller read from its
// channel: kedit reads the first one before the UI starts, to say a
// refused list on the terminal.
func (m *Browser) ShowSnapshot(s kube.BrowseSnapshot) { m.apply(s) }

// Listed reports whether the first complete list has arrived.
func (m Browser) Listed() bool { return m.synced }

// Select selects the row of namespace/name: at once when it is shown,
// else when a snapshot brings it (the app comes back from an object to a
// list still being read).
func (m *Browser) Select(namespace, name string) {
	m.want = nil
	if !m.selectObject(namespace, name) {
		m.want = &[2]string{namespace, name}
	}
}

// Collection returns what is listed; nil before SetList.
func (m Browser) Collection() *kube.Collection { return m.coll }

// SetDrafts sets the objects that have a draft, stored or in memory, for
// the DRAFT column. The app sets it whenever a draft is written or
// removed; drafts of other types may be in it.
func (m *Browser) SetDrafts(drafts map[DraftKey]DraftPlace) { m.drafts = drafts }

// HasDraftInMemory reports whether any draft exists only in memory, which
// quitting would lose.
func (m Browser) HasDraftInMemory() bool {
	for _, p := range m.drafts {
		if p == DraftInMemory {
			return true
		}
	}
	return false
}

// SetTypes sets the types the : prompt completes (kube.Cluster.Types).
func (m *Browser) SetTypes(types []kube.ResourceType) {
	m.types = typeCandidates(types)
}

// SetNamespaces sets the namespaces that :ns completes and offers to pick
// from, or why they cannot be listed; the app calls it in answer to
// NamespacesWantedMsg.
func (m *Browser) SetNamespaces(names []string, err error) {
	m.namespaces, m.nsErr, m.nsReading = names, err, false
	if m.mode == modePicker && m.picker.kind == pickNamespace {
		m.openNamespacePicker()
	}
	if m.mode == modePrompt && m.completion.waiting {
		// The tab that asked for them.
		m.completion = completion{}
		m.prompt = m.completion.next(m.prompt, m.candidates(m.prompt), m.noMatch(m.prompt))
	}
}

// KnowsNamespace reports whether name is among the namespaces last read
// for :ns, which exist (or did a moment ago).
func (m Browser) KnowsNamespace(name string) bool { return slices.Contains(m.namespaces, name) }

// ShowDrafts shows the stored drafts of the current context to pick one
// from, or why they cannot be read; the app calls it in answer to
// DraftsWantedMsg.
func (m *Browser) ShowDrafts(drafts []DraftItem, err error) {
	items := make([]pickItem, len(drafts))
	for i, d := range drafts {
		text := escape.Safe(kube.ResourceName(d.Key.Resource)) + "  "
		if d.Key.Namespace != "" {
			text += escape.Safe(d.Key.Namespace) + "/"
		}
		text += escape.Safe(d.Key.Name)
		if d.Subresource != "" {
			text += escape.Textf(" --subresource %s", d.Subresource)
		}
		text += "  " + escape.Safe(d.Place.String())
		if !d.Saved.IsZero() {
			text += escape.Textf("  %s ago", duration.HumanDuration(m.now().Sub(d.Saved)))
		}
		items[i] = pickItem{text: text, draft: d}
	}
	m.mode = modePicker
	m.picker = newPicker(pickDraft, "stored drafts", items)
	m.picker.err = err
	if err == nil && len(items) == 0 {
		m.picker.empty = "no stored drafts in this context"
	}
}

// Order returns the current order.
func (m Browser) Order() Order { return m.order }

// Filter returns the filter: the text the names must contain.
func (m Browser) Filter() string { return m.filter }

// InputActive reports whether keys are text: a filter or a command being
// typed, or a picker open, where q and ? are typed too.
func (m Browser) InputActive() bool { return m.mode != modeList }

// Selected returns the selected row; false when nothing is shown.
func (m Browser) Selected() (kube.ObjectRow, bool) {
	if m.selected < 0 || m.selected >= len(m.shown) {
		return kube.ObjectRow{}, false
	}
	return m.all[m.shown[m.selected]].ObjectRow, true
}

// Rows returns the names of the shown rows in their order, for tests and
// the app.
func (m Browser) Rows() []string {
	out := make([]string, len(m.shown))
	for i, j := range m.shown {
		r := m.all[j]
		out[i] = r.Name
		if r.Namespace != "" {
			out[i] = r.Namespace + "/" + r.Name
		}
	}
	return out
}

// Handles reports whether msg is one of the browser's own messages, which
// the app passes to Update whatever screen is shown.
func (m Browser) Handles(msg tea.Msg) bool {
	_, ok := msg.(interface{ browserMsg() })
	return ok
}

// readSnapshotCmd reads the next snapshot; Update returns it again after
// each one, so the Browse never waits on the UI.
func readSnapshotCmd(list int, ch <-chan kube.BrowseSnapshot) tea.Cmd {
	if ch == nil {
		return nil
	}
	return func() tea.Msg {
		snap, ok := <-ch
		if !ok {
			return listClosedMsg{list}
		}
		return snapshotMsg{list, snap}
	}
}

func ageTickCmd(list int) tea.Cmd {
	return tea.Tick(ageTick, func(time.Time) tea.Msg { return ageTickMsg{list} })
}

// Update handles the list's snapshots and the browser's keys.
func (m Browser) Update(msg tea.Msg) (Browser, tea.Cmd) {
	switch msg := msg.(type) {
	case snapshotMsg:
		if msg.list != m.list {
			return m, nil // a list replaced meanwhile; its reader ends here
		}
		m.apply(msg.snap)
		return m, readSnapshotCmd(m.list, m.snaps)
	case listClosedMsg:
		if msg.list == m.list {
			m.closed = true
		}
		return m, nil
	case ageTickMsg:
		if msg.list != m.list {
			return m, nil
		}
		// Nothing to change: the message itself makes Bubble Tea draw
		// the ages again.
		return m, ageTickCmd(m.list)
	case tea.MouseMsg:
		if msg.Action == tea.MouseActionPress && m.mode != modePicker {
			switch msg.Button {
			case tea.MouseButtonWheelUp:
				m.move(-3)
			case tea.MouseButtonWheelDown:
				m.move(3)
			}
		}
		return m, nil
	case tea.KeyMsg:
		return m.key(msg)
	}
	return m, nil
}
