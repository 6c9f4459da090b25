// Package objectset is the set view: the list of the objects kedit was
// started on (kedit cm/a cm/b, -l, -f), each with its own session in the
// app. It draws rows the app builds (Row) and answers with intents; the
// app owns the objects, their sessions and the effects.
//
// "Set" alone also names kedit set, a conditional patch: this package is
// the set of objects only.
package objectset

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/model"
	"github.com/kedit/kedit/ui/common"
	"github.com/kedit/kedit/ui/list"
)

// The set view's intents, for the app to carry out.
type (
	// OpenMemberMsg asks to show object Member of the set (enter).
	OpenMemberMsg struct{ Member int }
	// EditMsg asks to edit Members (all when empty) in one $EDITOR
	// file (e).
	EditMsg struct{ Members []int }
	// SaveMsg asks to save every draft of the set and resubmit every
	// merge with no conflict open (s).
	SaveMsg struct{}
	// NextConflictMsg asks to show the next object whose save met a
	// conflict (n).
	NextConflictMsg struct{}
)

// Row is one object of the set as the view shows it.
type Row struct {
	// Name is the object as kubectl names it (configmaps/app), Namespace
	// its namespace.
	Name, Namespace escape.Text
	// Status is the object's state in the set (model.Set.Status).
	Status model.MemberStatus
	// State is Status in words: "saved rv 812", "conflict (2 open)".
	State escape.Text
	// Note says why, when the row needs it: a refusal, a stored draft.
	Note escape.Text
	// Draft is the DRAFT column: where a draft is kept ("stored" on
	// disk, or in "memory"), empty without one.
	Draft escape.Text
}

// Model lists the objects of a set: a header with how the set was
// named, the counts and the connection state; a row per object with its
// state (live, draft, queued, saving, saved rv N, conflict, refused,
// deleted) and what goes with it; and a line with the selected row's note
// in full. It owns its keys: moving and marking are its own, the rest it
// asks of the app with an intent.
type Model struct {
	keys   KeyMap
	styles *common.Styles
	width  int
	height int

	title string
	rows  []Row
	// marked are the rows marked, by index. Marking writes a new slice,
	// never the one a copy of the view holds: the view is a value, and a
	// copy taken before stays as it was.
	marked []bool
	// conn says how the link to the API server stands.
	conn escape.Text
	// cur is the row selected and the first row on the screen.
	cur list.Cursor
}

// New returns a set view, untitled and empty until SetTitle and SetRows.
func New(keys KeyMap, styles *common.Styles) Model {
	return Model{keys: keys, styles: styles}
}

// SetTitle titles the view with how the set was named (its arguments).
func (m *Model) SetTitle(title string) { m.title = title }

// SetSize gives the view the terminal's size less what the app draws
// around it.
func (m *Model) SetSize(width, height int) {
	m.width, m.height = width, height
	m.scroll()
}

// SetRows replaces the rows: the app sets them whenever an object's state
// changes.
func (m *Model) SetRows(rows []Row) {
	m.rows = rows
	if len(m.marked) > len(rows) {
		m.marked = m.marked[:len(rows):len(rows)]
	}
	m.cur.Selected = min(m.cur.Selected, max(len(rows)-1, 0))
	m.scroll()
}

// SetConnection sets how the set's link to the API server stands, in the
// words of the headers ("connected", "reconnecting since ...").
func (m *Model) SetConnection(c escape.Text) { m.conn = c }

// Rows returns the rows, as the app last set them.
func (m Model) Rows() []Row { return m.rows }

// Select selects row i.
func (m *Model) Select(i int) {
	if i >= 0 && i < len(m.rows) {
		m.cur.Selected = i
		m.scroll()
	}
}

// Selected returns the selected row's index.
func (m Model) Selected() int { return m.cur.Selected }

// Marked returns the marked rows, in order.
func (m Model) Marked() []int {
	var out []int
	for i := range m.rows {
		if m.isMarked(i) {
			out = append(out, i)
		}
	}
	return out
}

// isMarked reports whether row i is marked.
func (m Model) isMarked(i int) bool { return i < len(m.marked) && m.marked[i] }

// toggle marks row i, or unmarks it, in a new slice of marks.
func (m *Model) toggle(i int) {
	marked := make([]bool, max(len(m.marked), len(m.rows)))
	copy(marked, m.marked)
	marked[i] = !marked[i]
	m.marked = marked
}

// Update handles the view's keys; what it cannot do alone it returns as
// an intent.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.MouseMsg:
		if msg.Action == tea.MouseActionPress && msg.Button == tea.MouseButtonWheelUp {
			m.move(-3)
		} else if msg.Action == tea.MouseActionPress && msg.Button == tea.MouseButtonWheelDown {
			m.move(3)
		}
	case tea.KeyMsg:
		k := m.keys
		if d, ok := (list.Keys{Up: k.Up, Down: k.Down, PageUp: k.PageUp, PageDown: k.PageDown, Home: k.Home, End: k.End}).Step(msg, m.tableHeight(), len(m.rows)); ok {
			m.move(d)
			return m, nil
		}
		switch {
		case key.Matches(msg, k.Mark):
			if len(m.rows) > 0 {
				m.toggle(m.cur.Selected)
				m.move(1)
			}
			return m, nil
		case key.Matches(msg, k.Open):
			return m, common.EmitIf(len(m.rows) > 0, OpenMemberMsg{Member: m.cur.Selected})
		case key.Matches(msg, k.Edit):
			return m, common.Emit(EditMsg{Members: m.Marked()})
		case key.Matches(msg, k.Save):
			return m, common.Emit(SaveMsg{})
		case key.Matches(msg, k.NextConflict):
			return m, common.Emit(NextConflictMsg{})
		case key.Matches(msg, k.ForceQuit):
			return m, common.Emit(common.ForceQuitMsg{})
		case key.Matches(msg, k.Help):
			return m, common.Emit(common.HelpMsg{})
		case key.Matches(msg, k.Quit):
			return m, common.Emit(common.QuitRequestedMsg{})
		}
	}
	return m, nil
}

// move moves the selection by d rows, within the rows.
func (m *Model) move(d int) { m.cur.Move(d, len(m.rows), m.tableHeight()) }

// tableHeight is how many rows fit: the view less its header, the column
// titles and the note line.
func (m Model) tableHeight() int { return max(m.height-3, 1) }

// scroll keeps the selected row on the screen.
func (m *Model) scroll() { m.cur.Show(len(m.rows), m.tableHeight()) }

// View draws the header, the table and the selected row's note.
func (m Model) View() string {
	lines := append([]string{m.header()}, m.table()...)
	h := max(m.height-1, 1)
	for len(lines) < h {
		lines = append(lines, "")
	}
	var note escape.Text
	if m.cur.Selected < len(m.rows) {
		note = m.rows[m.cur.Selected].Note
	}
	return strings.Join(append(lines[:h], ansi.Truncate(m.styles.Muted.Render(string(note)), m.width, "…")), "\n")
}

// header says what the set is, how its objects stand, and the link.
func (m Model) header() string {
	counts := map[model.MemberState]int{}
	for _, r := range m.rows {
		counts[r.Status.State]++
	}
	parts := []string{model.Count(len(m.rows), "object")}
	for _, st := range []model.MemberState{model.MemberDraft, model.MemberQueued, model.MemberSaving, model.MemberSaved,
		model.MemberConflict, model.MemberRefused, model.MemberDeleted} {
		switch n := counts[st]; {
		case n == 0:
		case st == model.MemberDraft || st == model.MemberConflict:
			parts = append(parts, model.Count(n, st.String()))
		default:
			parts = append(parts, fmt.Sprintf("%d %s", n, st))
		}
	}
	if n := len(m.Marked()); n > 0 {
		parts = append(parts, fmt.Sprintf("%d marked", n))
	}
	conn := string(m.conn)
	right := strings.Join(parts, " · ") + "  " + conn
	avail := max(m.width-ansi.StringWidth(right)-2, 1)
	left := ansi.Truncate(escape.String("set: "+m.title), avail, "…")
	return ansi.Truncate(m.styles.Header.Render(left+"  "+strings.Join(parts, " · "))+"  "+m.styles.Muted.Render(conn), m.width, "…")
}

// table is the column titles and the rows on the screen.
func (m Model) table() []string {
	cols := m.columns()
	titles := make([]escape.Text, len(cols))
	for i, c := range cols {
		titles[i] = c.Title
	}
	lines := []string{"    " + m.styles.ColumnTitle.Render(strings.TrimRight(common.Cells(cols, titles), " "))}
	end := min(m.cur.Offset+m.tableHeight(), len(m.rows))
	for i := m.cur.Offset; i < end; i++ {
		lines = append(lines, m.rowLine(i, cols))
	}
	return lines
}

// columns are the table's columns, sized for the rows and the width;
// NAMESPACE only when the rows are of several namespaces.
func (m Model) columns() []common.Column {
	nameW, nsW, stateW := 4, 0, 5
	namespaces := map[escape.Text]bool{}
	for _, r := range m.rows {
		nameW = max(nameW, ansi.StringWidth(string(r.Name)))
		stateW = max(stateW, ansi.StringWidth(string(r.State)))
		namespaces[r.Namespace] = true
	}
	if len(namespaces) > 1 {
		nsW = 9
		for ns := range namespaces {
			nsW = max(nsW, ansi.StringWidth(string(ns)))
		}
		nsW = min(nsW, 20)
	}
	// Two columns each go to the selection and the mark; NAME gives way
	// first, down to 16, then STATE keeps what it needs.
	stateW = min(stateW, 28)
	fixed := 4 + stateW + 2 + 6 + 2
	if nsW > 0 {
		fixed += nsW + 2
	}
	nameW = max(min(nameW, m.width-fixed-8), min(nameW, 16))
	cols := []common.Column{{Title: "NAME", Width: nameW}}
	if nsW > 0 {
		cols = append(cols, common.Column{Title: "NAMESPACE", Width: nsW})
	}
	return append(cols, common.Column{Title: "STATE", Width: stateW}, common.Column{Title: "DRAFT", Width: 6},
		common.Column{Title: "NOTE", Width: max(m.width-fixed-nameW, 4)})
}

// rowLine is row i in cols, with its mark, and highlighted when selected.
func (m Model) rowLine(i int, cols []common.Column) string {
	r := m.rows[i]
	texts := []escape.Text{r.Name}
	if cols[1].Title == "NAMESPACE" {
		texts = append(texts, r.Namespace)
	}
	texts = append(texts, r.State, r.Draft, r.Note)
	line := common.Cells(cols, texts)
	mark := "  "
	if m.isMarked(i) {
		mark = "* "
	}
	if i == m.cur.Selected {
		line = m.styles.Selected.Render("> " + mark + line + strings.Repeat(" ", max(0, m.width-4-ansi.StringWidth(line))))
	} else {
		line = strings.TrimRight("  "+mark+line, " ")
	}
	return ansi.Truncate(line, m.width, "…")
}

// ShortHelp is the set's keys for the footer, the most used first.
func (m Model) ShortHelp() []key.Binding {
	k := m.keys
	return []key.Binding{k.Open, k.Edit, k.Mark, k.Save, k.NextConflict, k.Help, k.Quit}
}

// FullHelp is every key of the set view, in groups.
func (m Model) FullHelp() [][]key.Binding {
	k := m.keys
	return [][]key.Binding{
		{k.Open, k.Edit, k.Mark, k.Save, k.NextConflict},
		{k.Up, k.Down, k.PageUp, k.PageDown, k.Home, k.End},
		{k.Help, k.Quit, k.ForceQuit},
	}
}
