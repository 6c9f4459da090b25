package browser

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/kedit/kedit/internal/escape"
)

// The browser's rows: a snapshot taken in, sorted, filtered, and the
// selection and the window over them kept in place.

// apply takes a snapshot: new rows are prepared, sorted and filtered, and
// the selection stays on the same object when it is still there.
func (m *Model) apply(s Snapshot) {
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
		br := browserRow{Row: r, ns: escape.Safe(r.Namespace), name: escape.Safe(r.Name),
			by: escape.Safe(r.ChangedBy), lower: strings.ToLower(r.Name), created: unixNano(r.Created), changed: unixNano(r.Changed)}
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
func textWidth(t escape.Text) int {
	s := string(t)
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return ansi.StringWidth(s)
		}
	}
	return len(s) // escaped text has no control characters
}

// sort orders sorted by the current order; equal times fall back to
// namespace and name, so that the order never depends on the one before.
func (m *Model) sort() {
	m.sorted = slices.Clone(m.sorted) // copies of a Model value share it
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
func (m *Model) refilter() {
	q := strings.ToLower(m.filter)
	// A new slice, not m.shown[:0]: copies of a Model value share the
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
func (m *Model) selectObject(ns, name string) bool {
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
func (m *Model) move(n int) {
	m.want = nil // the user chose another row
	m.selected = max(0, min(m.selected+n, len(m.shown)-1))
	m.scroll()
}

// tableHeight is the number of rows the table shows.
func (m Model) tableHeight() int {
	// The header, the column titles and the bottom line take three lines,
	// and the strip under the rows its own.
	return max(1, m.height-3-m.stripHeight())
}

// scroll keeps the selected row on the screen.
func (m *Model) scroll() {
	h := m.tableHeight()
	if m.selected < m.offset {
		m.offset = m.selected
	}
	if m.selected >= m.offset+h {
		m.offset = m.selected - h + 1
	}
	m.offset = max(0, min(m.offset, len(m.shown)-h))
}
