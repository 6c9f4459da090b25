package browser

import (
	"slices"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"k8s.io/apimachinery/pkg/util/duration"

	"github.com/kedit/kedit/internal/escape"
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

// The browser's own messages; List says which SetList they belong to
// (Model.List), so that those of a list replaced meanwhile are dropped.
type (
	// SnapshotMsg brings a snapshot of the list, as the command SetList
	// returns reads it; a test stands in for the list with it.
	SnapshotMsg struct {
		List     int
		Snapshot Snapshot
	}
	listClosedMsg struct{ list int }
	// TickMsg redraws the ages, every second while the list is shown.
	TickMsg struct{ List int }
)

// browserMode is what keys go to.
type browserMode int

const (
	modeList   browserMode = iota
	modeFilter             // typing the filter after /
	modePrompt             // typing a command after :
	modePicker             // picking a namespace or a draft
)

// browserRow is a Row prepared for drawing and filtering once, when its
// snapshot arrives, rather than at every key.
type browserRow struct {
	Row
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

// Model is the browser: it lists the objects of one type, live: a header
// with the context, the namespace, the type, the number of objects and the
// connection state; a table of NAME (and NAMESPACE with -A), AGE, CHANGED,
// BY and DRAFT; and a bottom line for the order, the filter or a command.
// It reads the snapshots of its list itself; everything else it needs
// (types and namespaces for completion, the drafts) the app gives it as
// values, and what it cannot do alone it asks for with a message.
type Model struct {
	keys   KeyMap
	styles *common.Styles
	width  int
	height int
	now    func() time.Time

	// The list: what is listed, how its snapshots are read, and which
	// SetList call this is.
	coll   *Listing
	read   func() (Snapshot, bool)
	list   int
	gen    uint64
	synced bool
	conn   Connection
	closed bool

	// all is every row as the list delivers them (by namespace and name);
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

	drafts map[common.DraftKey]common.DraftPlace
	// want is a row to select once a snapshot brings it (Select).
	want *[2]string

	// prompt is the : prompt and its pickers.
	prompt prompt
}

// New returns a browser with nothing to list until SetList.
func New(keys KeyMap, styles *common.Styles) Model {
	return Model{keys: keys, styles: styles, now: time.Now}
}

// SetNow sets the clock AGE and CHANGED count from (time.Now unless set),
// so that tests draw the same screen at any time.
func (m *Model) SetNow(now func() time.Time) { m.now = now }

// SetSize gives the browser the terminal's size less what the app draws
// around it.
func (m *Model) SetSize(width, height int) {
	m.width, m.height = width, height
	m.scroll()
}

// SetList shows l, whose snapshots read returns one after the other
// (false once the list has ended), in place of what was listed: the rows,
// the filter and the selection start afresh, the order stays. read blocks
// until the next snapshot; the returned command calls it off the UI
// goroutine and redraws the ages. The app runs it and passes every
// message for which Handles is true to Update, also while another screen
// is shown, so that the list stays live.
func (m *Model) SetList(l Listing, read func() (Snapshot, bool)) tea.Cmd {
	m.list++
	m.coll, m.read = &l, read
	m.gen, m.synced, m.closed = 0, false, false
	m.conn = Connection{Text: "connecting"}
	m.all, m.sorted, m.shown, m.selected, m.offset = nil, nil, nil, 0, 0
	m.filter, m.mode, m.want = "", modeList, nil
	return tea.Batch(readSnapshotCmd(m.list, read), ageTickCmd(m.list))
}

// ShowSnapshot takes a snapshot of the list that the caller read itself:
// kedit reads the first one before the UI starts, to say a refused list
// on the terminal.
func (m *Model) ShowSnapshot(s Snapshot) { m.apply(s) }

// Listed reports whether the first complete list has arrived.
func (m Model) Listed() bool { return m.synced }

// List counts the lists shown (SetList's calls), so that what the app
// says of one list is not taken for the next one's.
func (m Model) List() int { return m.list }

// Select selects the row of namespace/name: at once when it is shown,
// else when a snapshot brings it (the app comes back from an object to a
// list still being read).
func (m *Model) Select(namespace, name string) {
	m.want = nil
	if !m.selectObject(namespace, name) {
		m.want = &[2]string{namespace, name}
	}
}

// SetDrafts sets the objects that have a draft, stored or in memory, for
// the DRAFT column. The app sets it whenever a draft is written or
// removed; drafts of other types may be in it.
func (m *Model) SetDrafts(drafts map[common.DraftKey]common.DraftPlace) { m.drafts = drafts }

// DraftMark is the DRAFT column's mark of the listed type's object
// namespace/name: where its draft is kept, or 0 for none.
func (m Model) DraftMark(namespace, name string) common.DraftPlace {
	if m.coll == nil {
		return 0
	}
	return m.drafts[common.DraftKey{Resource: m.coll.GroupResource, Namespace: namespace, Name: name}]
}

// HasDraftInMemory reports whether any draft exists only in memory, which
// quitting would lose.
func (m Model) HasDraftInMemory() bool {
	for _, p := range m.drafts {
		if p == common.DraftInMemory {
			return true
		}
	}
	return false
}

// SetTypes sets the types the : prompt completes (the server's).
func (m *Model) SetTypes(types []Type) {
	m.prompt.types = typeCandidates(types)
}

// SetNamespaces sets the namespaces that :ns completes and offers to pick
// from, or why they cannot be listed; the app calls it in answer to
// NamespacesWantedMsg.
func (m *Model) SetNamespaces(names []string, err error) {
	p := &m.prompt
	p.namespaces, p.nsErr, p.nsReading = names, err, false
	if m.mode == modePicker && p.picker.kind == pickNamespace {
		p.openNamespacePicker(m.namespaced())
	}
	if m.mode == modePrompt && p.completion.waiting {
		// The tab that asked for them.
		p.completion = completion{}
		p.complete()
	}
}

// KnowsNamespace reports whether name is among the namespaces last read
// for :ns, which exist (or did a moment ago).
func (m Model) KnowsNamespace(name string) bool { return slices.Contains(m.prompt.namespaces, name) }

// ShowDrafts shows the stored drafts of the current context to pick one
// from, or why they cannot be read; the app calls it in answer to
// DraftsWantedMsg.
func (m *Model) ShowDrafts(drafts []DraftItem, err error) {
	items := make([]pickItem, len(drafts))
	for i, d := range drafts {
		text := escape.Safe(d.Resource) + "  "
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
	m.prompt.picker = newPicker(pickDraft, "stored drafts", items)
	m.prompt.picker.err = err
	if err == nil && len(items) == 0 {
		m.prompt.picker.empty = "no stored drafts in this context"
	}
}

// Order returns the current order.
func (m Model) Order() Order { return m.order }

// Filter returns the filter: the text the names must contain.
func (m Model) Filter() string { return m.filter }

// InputActive reports whether keys are text: a filter or a command being
// typed, or a picker open, where q and ? are typed too.
func (m Model) InputActive() bool { return m.mode != modeList }

// Selected returns the selected row; false when nothing is shown.
func (m Model) Selected() (Row, bool) {
	if m.selected < 0 || m.selected >= len(m.shown) {
		return Row{}, false
	}
	return m.all[m.shown[m.selected]].Row, true
}

// Rows returns the names of the shown rows in their order, for tests and
// the app.
func (m Model) Rows() []string {
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
func (m Model) Handles(msg tea.Msg) bool {
	switch msg.(type) {
	case SnapshotMsg, listClosedMsg, TickMsg:
		return true
	}
	return false
}

// namespaced reports whether the type listed lives in a namespace; true
// before SetList, when nothing says it does not.
func (m Model) namespaced() bool { return m.coll == nil || m.coll.Namespaced }

// readSnapshotCmd reads the next snapshot; Update returns it again after
// each one, so the list never waits on the UI.
func readSnapshotCmd(list int, read func() (Snapshot, bool)) tea.Cmd {
	if read == nil {
		return nil
	}
	return func() tea.Msg {
		snap, ok := read()
		if !ok {
			return listClosedMsg{list}
		}
		return SnapshotMsg{List: list, Snapshot: snap}
	}
}

func ageTickCmd(list int) tea.Cmd {
	return tea.Tick(ageTick, func(time.Time) tea.Msg { return TickMsg{List: list} })
}

// Update handles the list's snapshots and the browser's keys.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	switch msg := msg.(type) {
	case SnapshotMsg:
		if msg.List != m.list {
			return m, nil // a list replaced meanwhile; its reader ends here
		}
		m.apply(msg.Snapshot)
		return m, readSnapshotCmd(m.list, m.read)
	case listClosedMsg:
		if msg.list == m.list {
			m.closed = true
		}
		return m, nil
	case TickMsg:
		if msg.List != m.list {
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
