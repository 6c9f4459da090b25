package ui

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/duration"

	"github.com/kedit/kedit/kube"
	"github.com/kedit/kedit/model"
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

// DraftKey names an object that has a draft: by resource, namespace and
// name rather than uid, so that the mark stays on an object deleted and
// created again, whose draft is still offered when it is opened.
type DraftKey struct {
	Resource  schema.GroupResource
	Namespace string
	Name      string
}

// DraftPlace says where a draft is kept, which the DRAFT column shows: a
// draft only in memory is lost when kedit ends.
type DraftPlace int

const (
	// DraftStored is a draft in the draft store, on disk.
	DraftStored DraftPlace = iota + 1
	// DraftInMemory is a draft held by this process only (a Secret's
	// without --allow-secret-drafts, or one the disk refused).
	DraftInMemory
)

// String is the DRAFT column's mark.
func (p DraftPlace) String() string {
	switch p {
	case DraftStored:
		return "stored"
	case DraftInMemory:
		return "memory"
	}
	return ""
}

// DraftItem is one draft in the :drafts list.
type DraftItem struct {
	Key   DraftKey
	Place DraftPlace
	// Saved is when the draft was last written; zero when unknown.
	Saved time.Time
}

// Messages the browser emits for the app to act on. The browser does no
// I/O: switching the list, reading namespaces or drafts, opening an
// object and quitting are the app's.
type (
	// OpenObjectMsg asks to open the selected object in the object view.
	OpenObjectMsg struct {
		Target *kube.Target
		// UID is the object's uid as listed, to tell it from an object of
		// the same name created since.
		UID types.UID
	}
	// SwitchTypeMsg asks to list another type (`:TYPE`), as the user
	// typed it; resolving it (and saying why it cannot be listed) is
	// kube.Cluster.Collection's.
	SwitchTypeMsg struct{ Type string }
	// SwitchNamespaceMsg asks to list the type in another namespace (`:ns
	// NAME`, or a pick from `:ns`), or in every namespace.
	SwitchNamespaceMsg struct {
		Namespace     string
		AllNamespaces bool
	}
	// NamespacesWantedMsg asks for the namespaces (`:ns` shows them to
	// pick from): the app answers with SetNamespaces.
	NamespacesWantedMsg struct{}
	// DraftsWantedMsg asks for the stored drafts of the current context
	// (`:drafts`): the app answers with ShowDrafts.
	DraftsWantedMsg struct{}
	// OpenDraftMsg asks to open the object of a draft picked in :drafts.
	OpenDraftMsg struct{ Draft DraftItem }
	// QuitRequestedMsg asks to quit (q); the app asks first when a draft
	// exists only in memory.
	QuitRequestedMsg struct{}
)

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
	// ns, name and by are escaped for the terminal.
	ns, name, by string
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
	keys   KeyMap
	styles *Styles
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
	picker     picker
}

// NewBrowser returns a browser with nothing to list until SetList.
func NewBrowser(keys KeyMap, styles *Styles) Browser {
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
	m.namespaces, m.nsErr = names, err
	if m.mode == modePicker && m.picker.kind == pickNamespace {
		m.openNamespacePicker()
	}
}

// ShowDrafts shows the stored drafts of the current context to pick one
// from, or why they cannot be read; the app calls it in answer to
// DraftsWantedMsg.
func (m *Browser) ShowDrafts(drafts []DraftItem, err error) {
	items := make([]pickItem, len(drafts))
	for i, d := range drafts {
		text := kube.ResourceName(d.Key.Resource) + "  "
		if d.Key.Namespace != "" {
			text += d.Key.Namespace + "/"
		}
		text += d.Key.Name + "  " + d.Place.String()
		if !d.Saved.IsZero() {
			text += "  " + duration.HumanDuration(m.now().Sub(d.Saved)) + " ago"
		}
		items[i] = pickItem{text: kube.EscapeControl(text), draft: d}
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

// InputActive reports whether keys are text (a filter or a command being
// typed, a picker open): the app must then pass q and ? to the browser
// rather than act on them.
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
		if m.mode == modeList && msg.Type == tea.KeyRunes && len(msg.Runes) > 1 && !msg.Paste {
			// Keys typed faster than the terminal is read arrive as one
			// message: the first one may open the filter or the prompt,
			// which then takes the rest as text.
			first := msg
			first.Runes = msg.Runes[:1]
			m, cmd := m.Update(first)
			rest := msg
			rest.Runes = msg.Runes[1:]
			m, more := m.Update(rest)
			return m, tea.Batch(cmd, more)
		}
		switch m.mode {
		case modeFilter:
			return m.filterKey(msg)
		case modePrompt:
			return m.promptKey(msg)
		case modePicker:
			return m.pickerKey(msg)
		}
		return m.listKey(msg)
	}
	return m, nil
}

// apply takes a snapshot: new rows are prepared, sorted and filtered, and
// the selection stays on the same object when it is still there.
func (m *Browser) apply(s kube.BrowseSnapshot) {
	m.synced, m.conn = s.Synced, s.Connection
	if s.Generation == m.gen {
		return // only the connection changed
	}
	m.gen = s.Generation
	sel, hadSel := m.Selected()
	m.all = make([]browserRow, len(s.Rows))
	m.sorted = make([]int, len(s.Rows))
	m.nsWidth, m.nameWidth, m.byWidth = 0, 0, 0
	for i, r := range s.Rows {
		br := browserRow{ObjectRow: r, ns: kube.EscapeControl(r.Namespace), name: kube.EscapeControl(r.Name),
			by: kube.EscapeControl(r.ChangedBy), lower: strings.ToLower(r.Name), created: unixNano(r.Created), changed: unixNano(r.Changed)}
		m.nsWidth = max(m.nsWidth, textWidth(br.ns))
		m.nameWidth = max(m.nameWidth, textWidth(br.name))
		m.byWidth = max(m.byWidth, textWidth(br.by))
		m.all[i], m.sorted[i] = br, i
	}
	m.sort()
	m.refilter()
	switch {
	case m.want != nil:
		if m.selectObject(m.want[0], m.want[1]) {
			m.want = nil
		}
	case hadSel:
		m.selectObject(sel.Namespace, sel.Name)
	}
}

func unixNano(t time.Time) int64 {
	if t.IsZero() {
		return 0 // UnixNano of the zero time is not the smallest
	}
	return t.UnixNano()
}

// textWidth is ansi.StringWidth with a short cut for ASCII, which names
// almost always are: measuring grapheme clusters was most of the cost of
// taking a snapshot of 5,000 rows.
func textWidth(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return ansi.StringWidth(s)
		}
	}
	return len(s) // escaped text has no control characters
}

// sort orders sorted by the current order; equal times fall back to
// namespace and name, so that the order never depends on the one before.
func (m *Browser) sort() {
	m.sorted = slices.Clone(m.sorted) // copies of a Browser value share it
	slices.Sort(m.sorted)             // all's own order: by namespace and name
	if m.order == OrderName {
		return
	}
	slices.SortFunc(m.sorted, func(i, j int) int {
		a, b := &m.all[i], &m.all[j]
		c := cmp.Compare(b.changed, a.changed) // newest first
		if m.order == OrderAge {
			c = cmp.Compare(b.created, a.created)
		}
		if c == 0 {
			return cmp.Compare(i, j)
		}
		return c
	})
}

// refilter finds the rows whose name contains the filter, ignoring case.
func (m *Browser) refilter() {
	q := strings.ToLower(m.filter)
	// A new slice, not m.shown[:0]: copies of a Browser value share the
	// old one.
	m.shown = make([]int, 0, len(m.sorted))
	for _, i := range m.sorted {
		if q == "" || strings.Contains(m.all[i].lower, q) {
			m.shown = append(m.shown, i)
		}
	}
	m.selected = min(m.selected, len(m.shown)-1)
	m.selected = max(m.selected, 0)
	m.scroll()
}

// selectObject selects the shown row of namespace/name, if any, and
// reports whether there was one.
func (m *Browser) selectObject(ns, name string) bool {
	for i, j := range m.shown {
		if m.all[j].Namespace == ns && m.all[j].Name == name {
			m.selected = i
			m.scroll()
			return true
		}
	}
	return false
}

// move moves the selection by n rows, within the shown ones.
func (m *Browser) move(n int) {
	m.want = nil // the user chose another row
	m.selected = max(0, min(m.selected+n, len(m.shown)-1))
	m.scroll()
}

// tableHeight is the number of rows the table shows.
func (m Browser) tableHeight() int {
	// The header, the column titles and the bottom line take three lines.
	return max(1, m.height-3)
}

// scroll keeps the selected row on the screen.
func (m *Browser) scroll() {
	h := m.tableHeight()
	if m.selected < m.offset {
		m.offset = m.selected
	}
	if m.selected >= m.offset+h {
		m.offset = m.selected - h + 1
	}
	m.offset = max(0, min(m.offset, len(m.shown)-h))
}

// listKey handles a key while the list has the keys.
func (m Browser) listKey(msg tea.KeyMsg) (Browser, tea.Cmd) {
	k := m.keys
	switch {
	case key.Matches(msg, k.Up):
		m.move(-1)
	case key.Matches(msg, k.Down):
		m.move(1)
	case key.Matches(msg, k.PageUp):
		m.move(-m.tableHeight())
	case key.Matches(msg, k.PageDown):
		m.move(m.tableHeight())
	case key.Matches(msg, k.Home):
		m.move(-len(m.shown))
	case key.Matches(msg, k.End):
		m.move(len(m.shown))
	case key.Matches(msg, k.Filter):
		m.mode = modeFilter
	case key.Matches(msg, k.ClearFilter):
		m.setFilter("")
	case key.Matches(msg, k.Order):
		sel, ok := m.Selected()
		m.order = (m.order + 1) % orderCount
		m.sort()
		m.refilter()
		if ok {
			m.selectObject(sel.Namespace, sel.Name)
		}
	case key.Matches(msg, k.Command):
		m.mode, m.prompt, m.completion = modePrompt, "", completion{}
	case key.Matches(msg, k.Open):
		row, ok := m.Selected()
		if !ok || m.coll == nil {
			return m, nil
		}
		return m, emit(OpenObjectMsg{Target: m.coll.Target(row.Namespace, row.Name), UID: row.UID})
	case key.Matches(msg, k.Quit):
		return m, emit(QuitRequestedMsg{})
	}
	return m, nil
}

// emit returns a command that reports msg to the app.
func emit(msg tea.Msg) tea.Cmd { return func() tea.Msg { return msg } }

func (m *Browser) setFilter(f string) {
	sel, ok := m.Selected()
	m.filter = f
	m.refilter()
	if ok {
		m.selectObject(sel.Namespace, sel.Name)
	}
}

// filterKey handles a key while the filter is typed: it applies at every
// key, esc clears it, enter keeps it and gives the keys back to the list.
func (m Browser) filterKey(msg tea.KeyMsg) (Browser, tea.Cmd) {
	if moved := m.arrowKey(msg); moved {
		return m, nil
	}
	switch {
	case key.Matches(msg, m.keys.ClearFilter):
		m.mode = modeList
		m.setFilter("")
	case key.Matches(msg, m.keys.Accept):
		m.mode = modeList
	default:
		if f, ok := editLine(m.filter, msg); ok {
			m.setFilter(f)
		}
	}
	return m, nil
}

// arrowKey moves the selection with the keys that are never text.
func (m *Browser) arrowKey(msg tea.KeyMsg) bool {
	switch msg.Type {
	case tea.KeyUp:
		m.move(-1)
	case tea.KeyDown:
		m.move(1)
	case tea.KeyPgUp:
		m.move(-m.tableHeight())
	case tea.KeyPgDown:
		m.move(m.tableHeight())
	default:
		return false
	}
	return true
}

// editLine applies a key to a line of text: typing, backspace, ctrl+w
// (the last word) and ctrl+u (everything). ok is false for other keys.
func editLine(s string, msg tea.KeyMsg) (string, bool) {
	switch msg.Type {
	case tea.KeyRunes, tea.KeySpace:
		return s + string(msg.Runes), true
	case tea.KeyBackspace:
		r := []rune(s)
		if len(r) == 0 {
			return s, true
		}
		return string(r[:len(r)-1]), true
	case tea.KeyCtrlW:
		t := strings.TrimRight(s, " ")
		return t[:strings.LastIndex(t, " ")+1], true
	case tea.KeyCtrlU:
		return "", true
	}
	return s, false
}

// promptKey handles a key while a command is typed after :.
func (m Browser) promptKey(msg tea.KeyMsg) (Browser, tea.Cmd) {
	switch {
	case key.Matches(msg, m.keys.Back):
		m.mode = modeList
	case key.Matches(msg, m.keys.Complete):
		m.prompt = m.completion.next(m.prompt, m.candidates(m.prompt))
	case key.Matches(msg, m.keys.Accept):
		m.mode = modeList
		return m.run(m.prompt)
	case msg.Type == tea.KeyBackspace && m.prompt == "":
		m.mode = modeList // as in vi and k9s: backspace past : leaves
	default:
		if p, ok := editLine(m.prompt, msg); ok {
			m.prompt, m.completion = p, completion{}
		}
	}
	return m, nil
}

// run carries out a command typed after :.
func (m Browser) run(line string) (Browser, tea.Cmd) {
	words := strings.Fields(line)
	switch {
	case len(words) == 0:
		return m, nil
	case words[0] == "ns" && len(words) == 1:
		m.mode = modePicker
		m.openNamespacePicker()
		// Namespaces come and go: ask again each time.
		return m, emit(NamespacesWantedMsg{})
	case words[0] == "ns" && len(words) == 2:
		return m, emit(SwitchNamespaceMsg{Namespace: words[1]})
	case words[0] == "drafts" && len(words) == 1:
		m.mode = modePicker
		m.picker = newPicker(pickDraft, "stored drafts", nil)
		m.picker.empty = "reading the stored drafts ..."
		return m, emit(DraftsWantedMsg{})
	case len(words) == 1:
		return m, emit(SwitchTypeMsg{Type: words[0]})
	}
	// Nothing else takes arguments: say what is understood.
	m.mode, m.prompt = modePrompt, line
	m.completion = completion{note: "commands: TYPE, ns, ns NAME, drafts"}
	return m, nil
}

// candidates are the completions for the word being typed in line.
func (m Browser) candidates(line string) []completionCandidate {
	if rest, ok := strings.CutPrefix(line, "ns "); ok && !strings.Contains(rest, " ") {
		out := make([]completionCandidate, len(m.namespaces))
		for i, n := range m.namespaces {
			out[i] = completionCandidate{text: "ns " + n}
		}
		return out
	}
	if strings.Contains(line, " ") {
		return nil
	}
	out := []completionCandidate{{text: "ns"}, {text: "drafts"}}
	return append(out, m.types...)
}

// View draws the header, the table (or the picker) and the bottom line.
func (m Browser) View() string {
	lines := []string{m.header()}
	if m.mode == modePicker {
		lines = append(lines, m.picker.view(m.styles, m.width, m.height-2)...)
	} else {
		lines = append(lines, m.table()...)
	}
	h := max(m.height-1, 1)
	for len(lines) < h {
		lines = append(lines, "")
	}
	lines = append(lines[:h], m.bottomLine())
	return strings.Join(lines, "\n")
}

// header is the first line: what is listed, and how the link stands.
func (m Browser) header() string {
	st := m.styles
	if m.coll == nil {
		return ""
	}
	parts := []string{m.coll.Resource()}
	switch {
	case m.coll.Namespaced() && m.coll.AllNamespaces:
		parts = append(parts, "all namespaces")
	case m.coll.Namespaced():
		parts = append(parts, "namespace "+m.coll.Namespace)
	}
	if m.coll.Context != "" {
		parts = append(parts, "context "+m.coll.Context)
	}
	count := model.Count(len(m.all), "object")
	if m.filter != "" {
		count = fmt.Sprintf("%d of %s", len(m.shown), model.Count(len(m.all), "object"))
	}
	if !m.synced {
		count = "listing ..."
	}
	// As in the object view, the count and the connection state matter
	// most: on a narrow terminal the names give way.
	right := count + "  " + m.connText()
	avail := max(m.width-ansi.StringWidth(right)-2, 1)
	left := ansi.Truncate(kube.EscapeControl(strings.Join(parts, "  ")), avail, "…")
	return ansi.Truncate(st.Header.Render(left+"  "+count)+"  "+st.Muted.Render(m.connText()), m.width, "…")
}

// connText says how the link to the API server stands.
func (m Browser) connText() string {
	if m.closed {
		return "stopped"
	}
	switch m.conn.State {
	case kube.Connected:
		return "connected"
	case kube.Reconnecting:
		return "reconnecting since " + m.conn.Since.Local().Format("15:04:05")
	case kube.Refused:
		return "refused"
	}
	return "connecting"
}

// column is one column of the table.
type column struct {
	title string
	width int
	// right aligns the column's text to the right (the durations).
	right bool
}

// columns lays the table out for the width. NAME, NAMESPACE and BY want
// their longest value; when that does not fit they give up width in
// turns, so that at 80 columns a name, its namespace and who changed it
// all stay readable: BY first (a manager's first 12 characters say who),
// then NAME down to 24, NAMESPACE down to 10, NAME down to 16, and then
// whatever is left.
func (m Browser) columns() []column {
	const gap = 2
	age := column{title: "AGE", width: 6, right: true}
	changed := column{title: "CHANGED", width: 7, right: true}
	draft := column{title: "DRAFT", width: 6}
	name := column{title: "NAME", width: max(m.nameWidth, 4)}
	by := column{title: "BY", width: min(max(m.byWidth, 2), 26)}
	ns := column{title: "NAMESPACE", width: min(max(m.nsWidth, 9), 24)}
	withNS := m.coll != nil && m.coll.Namespaced() && m.coll.AllNamespaces
	// Two columns go to the selection marker.
	fixed := 2 + age.width + changed.width + draft.width + 4*gap
	flex := []*column{&name, &by}
	if withNS {
		fixed += gap
		flex = append(flex, &ns)
	}
	total := func() int {
		t := fixed
		for _, c := range flex {
			t += c.width
		}
		return t
	}
	for _, step := range []struct {
		c     *column
		floor int
	}{{&by, 13}, {&name, 24}, {&ns, 10}, {&name, 16}, {&by, 8}, {&ns, 6}, {&name, 4}} {
		if !withNS && step.c == &ns {
			continue
		}
		if over := total() - m.width; over > 0 {
			step.c.width -= min(over, max(0, step.c.width-step.floor))
		}
	}
	// Room to spare goes to NAME, so the table spans the screen.
	name.width += max(0, m.width-total())
	cols := []column{name, age, changed, by, draft}
	if withNS {
		cols = append([]column{ns}, cols...)
	}
	return cols
}

// cells lays out one row of the table.
func cells(cols []column, texts []string) string {
	var b strings.Builder
	for i, c := range cols {
		if i > 0 {
			b.WriteString("  ")
		}
		t := ansi.Truncate(texts[i], c.width, "…")
		pad := strings.Repeat(" ", max(0, c.width-ansi.StringWidth(t)))
		if c.right {
			b.WriteString(pad + t)
		} else if i == len(cols)-1 {
			b.WriteString(t) // no trailing blanks
		} else {
			b.WriteString(t + pad)
		}
	}
	return b.String()
}

// table is the column titles and the rows on the screen, or why there are
// none.
func (m Browser) table() []string {
	st := m.styles
	cols := m.columns()
	titles := make([]string, len(cols))
	for i, c := range cols {
		titles[i] = c.title
	}
	lines := []string{"  " + st.ColumnTitle.Render(strings.TrimRight(cells(cols, titles), " "))}
	if len(m.shown) == 0 {
		return append(lines, m.emptyText()...)
	}
	now := m.now()
	withNS := len(cols) == 6
	end := min(m.offset+m.tableHeight(), len(m.shown))
	for i := m.offset; i < end; i++ {
		r := m.all[m.shown[i]]
		changed := "-"
		if !r.Changed.IsZero() {
			changed = duration.HumanDuration(now.Sub(r.Changed))
		}
		var mark string
		if m.coll != nil {
			mark = m.drafts[DraftKey{Resource: m.coll.Mapping.Resource.GroupResource(), Namespace: r.Namespace, Name: r.Name}].String()
		}
		texts := []string{r.name, duration.HumanDuration(now.Sub(r.Created)), changed, r.by, mark}
		if withNS {
			texts = append([]string{r.ns}, texts...)
		}
		line := cells(cols, texts)
		if i == m.selected {
			// The marker shows the selection without colour too (NO_COLOR,
			// a screen reader), as the conflict view's list does.
			line = st.Selected.Render("> " + line + strings.Repeat(" ", max(0, m.width-2-ansi.StringWidth(line))))
		} else {
			line = strings.TrimRight("  "+line, " ")
		}
		lines = append(lines, line)
	}
	return lines
}

// emptyText says why no row is shown.
func (m Browser) emptyText() []string {
	st := m.styles
	if m.coll == nil {
		return nil
	}
	what := m.coll.Resource()
	if where := m.coll.Where(); where != "" {
		what += " " + where
	}
	var text string
	switch {
	case m.conn.State == kube.Refused && m.conn.Err != nil:
		return strings.Split(st.Error.Render(ansi.Wrap(kube.EscapeControl(m.conn.Err.Error()), m.width, "")), "\n")
	case !m.synced && m.conn.State == kube.Reconnecting && m.conn.Err != nil:
		text = "listing " + what + ": " + m.conn.Err.Error()
	case !m.synced:
		text = "listing " + what + " ..."
	case len(m.all) == 0:
		text = "no " + what
	default:
		text = fmt.Sprintf("no name contains %q (esc clears the filter)", m.filter)
	}
	return strings.Split(st.Muted.Render(ansi.Wrap(kube.EscapeControl(text), m.width, "")), "\n")
}

// bottomLine is the filter or the command being typed, or the order and
// the filter in force.
func (m Browser) bottomLine() string {
	st := m.styles
	cursor := st.Selected.Render(" ")
	var s string
	switch m.mode {
	case modeFilter:
		s = "/" + kube.EscapeControl(m.filter) + cursor
	case modePrompt:
		s = ":" + kube.EscapeControl(m.prompt) + cursor
		if hint := m.completion.hint(m.prompt, m.candidates(m.prompt)); hint != "" {
			// Type and namespace names come from the server.
			s += "  " + st.Muted.Render(kube.EscapeControl(hint))
		}
	default:
		s = st.Muted.Render("order: " + m.order.String())
		if m.filter != "" {
			s += st.Muted.Render("  filter: ") + kube.EscapeControl(m.filter)
		}
	}
	return ansi.Truncate(s, m.width, "…")
}

// ShortHelp is the browser's keys for the help line, by what keys do now.
func (m Browser) ShortHelp() []key.Binding {
	k := m.keys
	switch m.mode {
	case modeFilter:
		return []key.Binding{k.Accept, k.ClearFilter}
	case modePrompt:
		return []key.Binding{k.Complete, k.Accept, k.Back}
	case modePicker:
		return []key.Binding{k.Accept, k.Back}
	}
	return []key.Binding{k.Open, k.Filter, k.Order, k.Command, k.Help, k.Quit}
}

// FullHelp is every key of the browser, in groups.
func (m Browser) FullHelp() [][]key.Binding {
	k := m.keys
	return [][]key.Binding{
		{k.Open, k.Filter, k.ClearFilter, k.Order},
		{k.Command, k.Complete, k.Help, k.Quit},
		{k.Up, k.Down, k.PageUp, k.PageDown, k.Home, k.End},
	}
}
