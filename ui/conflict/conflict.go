package conflict

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/kedit/kedit/diff"
	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/model"
	"github.com/kedit/kedit/ui/common"
)

// wideWidth is the narrowest terminal that shows base, theirs and mine side
// by side; below it they are stacked.
const wideWidth = 120

// conflictRow is one conflict as the list shows it. Its words are escaped
// (escape.Text) and its versions drawn (common.DisplayValue) when it is made.
type conflictRow struct {
	// where names the field, and the lines of a colliding region of a
	// multi-line string: `.data.app.conf lines 10–12`.
	where escape.Text
	// manager is the field manager that wrote theirs' value, or for an
	// apply's conflict the one that owns the field.
	manager    escape.Text
	resolution diff.Choice
	base       string
	theirs     string
	mine       string
	// from is the first colliding line of a multi-line value in each
	// column (base, theirs, mine): the columns start there, so that a long
	// config file shows its conflict rather than its first lines; span is
	// how many lines the colliding region has in each.
	from, span [3]int
	// secret is set for a Secret's value, masked until R.
	secret bool
	// note says more of the entry in the list, in place of the manager
	// (a lost update's who and when).
	note escape.Text
}

// mergedRow is one change merged without conflict.
type mergedRow struct {
	where escape.Text
	side  diff.Side
	// summary is the change on one line: before -> after.
	summary escape.Text
	// before and after are the field in base and on the change's side;
	// from is the first line of the change in each, span its lines.
	before, after string
	from, span    [2]int
	// secret is set for a Secret's value, masked until R.
	secret bool
}

// contextLines is how many lines the columns show above a colliding hunk
// when there is room.
const contextLines = 2

// Model is the heart of kedit: a rebase's conflicts and the changes
// merged without conflict, in one list, and the selected entry's versions:
// base, theirs and mine of a conflict, before and after of a merged
// change. It shows a clean rebase too (titled so, with nothing to
// resolve), so the user sees what is merged before resubmitting.
type Model struct {
	keys   KeyMap
	styles *common.Styles
	width  int
	height int

	// selected is the selected entry: a conflict below len(rows), a
	// merged change after.
	selected int
	// flipped swaps the layout the width chose (v).
	flipped bool

	// object names the object in the title when kedit edits several (a
	// set), so that the conflict n opened says whose it is; empty for one.
	object           escape.Text
	baseRV, theirsRV escape.Text
	// createdAgain is the rebase's CreatedAgain: theirs is a new object
	// of this name.
	createdAgain escape.Text
	waiting      bool
	ownership    bool
	rows         []conflictRow
	merged       []mergedRow
	open         int

	// format is the session's: values that are not strings are shown in
	// it.
	format model.Format
	// secret is set for a Secret, whose values are masked until R
	// reveals them (revealed).
	secret, revealed bool

	// detailOff is how far pgdn and pgup moved the selected entry's
	// versions from where they start (negative: up).
	detailOff int

	// lost is set when the view shows an audit log's lost updates
	// (Lost) rather than a rebase: its title, hint and versions'
	// titles, and no merged changes.
	lost *lostHeading
}

// lostHeading is what the conflict view says of lost updates in place of
// a rebase's words.
type lostHeading struct {
	title, hint escape.Text
	// columns are base's, theirs' and mine's titles.
	columns [3]escape.Text
}

// showLost fills the view with an audit log's lost updates: rows are the
// lost fields, the open items, under h's words. A Secret's values are
// masked until R.
func (m *Model) showLost(h lostHeading, rows []conflictRow, secret bool) {
	m.lost, m.rows, m.merged, m.secret = &h, rows, nil, secret
	m.open = len(rows)
	m.selected, m.detailOff = min(m.selected, max(0, len(rows)-1)), 0
}

// New returns a conflict view with nothing to show until SetContent.
func New(keys KeyMap, styles *common.Styles) Model {
	return Model{keys: keys, styles: styles}
}

// SetObject names the object whose conflicts the view shows in its title;
// empty leaves it out, as for kedit's one object.
func (m *Model) SetObject(name escape.Text) { m.object = name }

// SetSize sets the view's size; the layout follows the width unless v flipped it.
func (m *Model) SetSize(width, height int) { m.width, m.height = width, height }

// newConflictRow describes conflict k: its versions, drawn (a Secret's
// values masked until R), its resolution and the manager behind theirs.
func (m Model) newConflictRow(k Conflict) conflictRow {
	c := k.Conflict
	row := conflictRow{
		where:      escape.Safe(c.Where()),
		manager:    escape.Safe(k.Manager),
		resolution: k.Resolution,
		base:       common.DisplayValue(c.Base, m.styles, m.format),
		theirs:     common.DisplayValue(c.Theirs, m.styles, m.format),
		mine:       common.DisplayValue(c.Mine, m.styles, m.format),
	}
	if h := c.Hunk; h != nil {
		row.from = [3]int{h.Base.Start, h.Theirs.Start, h.Mine.Start}
		row.span = [3]int{h.Base.Len, h.Theirs.Len, h.Mine.Len}
	}
	if m.secret && common.IsSecretValue(c.Path) {
		row.secret = true
		row.base, row.theirs, row.mine = secretValueText(c.Base, m.styles), secretValueText(c.Theirs, m.styles), secretValueText(c.Mine, m.styles)
	}
	return row
}

// newMergedRow describes a merged change: for a region of a multi-line
// string its lines, else the field's value before and after.
func newMergedRow(c diff.Change, st *common.Styles, f model.Format) mergedRow {
	row := mergedRow{where: escape.Safe(c.Where()), side: c.Side, before: common.DisplayValue(c.Base, st, f), after: common.DisplayValue(c.Value, st, f)}
	if h := c.Hunk; h != nil {
		lines, at := h.MineLines, h.Mine
		if c.Side == diff.SideTheirs {
			lines, at = h.TheirsLines, h.Theirs
		}
		row.from, row.span = [2]int{h.Base.Start, at.Start}, [2]int{h.Base.Len, at.Len}
		row.summary = escape.Safe(common.OneLine(strings.Join(h.BaseLines, ""))) + " -> " + escape.Safe(common.OneLine(strings.Join(lines, "")))
		return row
	}
	// The values in YAML, whose first line says more than JSON's "{".
	row.summary = summaryValue(c.Base) + " -> " + summaryValue(c.Value)
	return row
}

// summaryValue is v on one line for the list: a string escaped as server
// text, anything else as the YAML it renders to, whose own escapes (of a
// double-quoted string) are not escaped again.
func summaryValue(v diff.FieldValue) escape.Text {
	if s, ok := v.Value.(string); ok && v.Present {
		return escape.Safe(common.OneLine(s))
	}
	return escape.SafeYAML(common.OneLine(common.RenderValue(v, model.FormatYAML)))
}

// entries is how many entries the list has: conflicts, then merged changes.
func (m Model) entries() int { return len(m.rows) + len(m.merged) }

// Selected returns the index of the selected entry: a conflict's index in
// Session.Conflicts when it is below the number of conflicts.
func (m Model) Selected() int { return m.selected }

// SelectedConflict returns the selected conflict's index in
// Session.Conflicts, false when a merged change is selected.
func (m Model) SelectedConflict() (int, bool) {
	return m.selected, m.selected < len(m.rows)
}

// Wide reports whether the versions are drawn side by side.
func (m Model) Wide() bool { return (m.width >= wideWidth) != m.flipped }

// The conflict view's intents (ui/common has those the views share: help,
// quitting, editing the merged result and what the status bar says).
type (
	// ResolveMsg asks to resolve the conflict Index (of
	// Session.Conflicts) with Choice: m, t or b.
	ResolveMsg struct {
		Index  int
		Choice diff.Choice
	}
	// ResolveAllMsg asks to resolve every open conflict with Choice: M or T.
	ResolveAllMsg struct{ Choice diff.Choice }
	// ResubmitMsg asks to resubmit the merged draft (s).
	ResubmitMsg struct{}
	// AbandonRebaseMsg asks to go back to the draft, unchanged (esc): the
	// rebase and its resolutions are dropped.
	AbandonRebaseMsg struct{}
)

// Update moves the selection, scrolls the versions and switches the
// layout; the resolutions are the session's, so m, t, b, M, T, s, e, i and
// esc come back as intents.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	km, ok := msg.(tea.KeyMsg)
	if !ok {
		return m, nil
	}
	if in := common.FirstIntent(km, m.intents()); in != nil {
		return m, common.Emit(in)
	}
	for _, take := range []struct {
		keys   key.Binding
		choice diff.Choice
	}{{m.keys.TakeMine, diff.TakeMine}, {m.keys.TakeTheirs, diff.TakeTheirs}, {m.keys.TakeBase, diff.TakeBase}} {
		if key.Matches(km, take.keys) {
			return m, common.Emit(m.resolve(take.choice))
		}
	}
	return m.ownKey(km), nil
}

// intents are the keys that ask the app for something but m, t and b.
func (m Model) intents() []common.KeyIntent {
	k := m.keys
	return []common.KeyIntent{{Keys: k.ForceQuit, Intent: common.ForceQuitMsg{}}, {Keys: k.Help, Intent: common.HelpMsg{}}, {Keys: k.Quit, Intent: common.QuitRequestedMsg{}},
		{Keys: k.AllMine, Intent: ResolveAllMsg{diff.TakeMine}}, {Keys: k.AllTheirs, Intent: ResolveAllMsg{diff.TakeTheirs}}, {Keys: k.Save, Intent: ResubmitMsg{}},
		{Keys: k.Edit, Intent: common.EditMsg{Merged: true}}, {Keys: k.EditInApp, Intent: common.EditMsg{InApp: true, Merged: true}}, {Keys: k.Back, Intent: AbandonRebaseMsg{}}}
}

// resolve asks to resolve the selected conflict with c; with none
// selected, it says why nothing is resolved.
func (m Model) resolve(c diff.Choice) tea.Msg {
	i, ok := m.SelectedConflict()
	switch {
	case len(m.rows) == 0:
		return common.SayMsg{Text: "nothing to resolve: the rebase is clean"}
	case !ok:
		return common.SayMsg{Text: "a merged change has nothing to resolve: n/p moves to a conflict"}
	}
	return ResolveMsg{Index: i, Choice: c}
}

// ownKey moves the selection, scrolls the versions, and switches the
// layout and a Secret's mask.
func (m Model) ownKey(km tea.KeyMsg) Model {
	was := m.selected
	switch {
	case key.Matches(km, m.keys.PageDown):
		m.scrollDetail(true)
	case key.Matches(km, m.keys.PageUp):
		m.scrollDetail(false)
	case key.Matches(km, m.keys.Next):
		if m.selected < m.entries()-1 {
			m.selected++
		}
	case key.Matches(km, m.keys.Prev):
		if m.selected > 0 {
			m.selected--
		}
	case key.Matches(km, m.keys.Home):
		m.selected = 0
	case key.Matches(km, m.keys.End):
		m.selected = max(0, m.entries()-1)
	case key.Matches(km, m.keys.Layout):
		m.flipped = !m.flipped
	case m.secret && key.Matches(km, m.keys.Reveal):
		m.revealed = !m.revealed
	}
	if m.selected != was {
		m.detailOff = 0 // another entry's versions start at their change
	}
	return m
}

// DetailOffset is how far pgdn and pgup moved the selected entry's
// versions from where they start (negative: up).
func (m Model) DetailOffset() int { return m.detailOff }

// Revealed reports whether a Secret's values show (R).
func (m Model) Revealed() bool { return m.revealed }

// shown is a value as the view draws it: a Secret's masked, line for line,
// until R reveals it.
func (m Model) shown(secret bool, s string) string {
	if secret && !m.revealed {
		return maskedText(s)
	}
	return s
}

// ShortHelp is the conflict view's keys for the footer; R first for a
// Secret, said for what it does now (reveal, or hide once the values
// show), m, t and b while there are conflicts, and pgdn when the versions
// do not fit the screen.
func (m Model) ShortHelp() []key.Binding {
	k := m.keys
	// The footer says mine, theirs and base: the columns are headed so.
	// A clean rebase has nothing to resolve: the footer leaves them out.
	bindings := m.secretKeys(k.Next)
	if len(m.rows) > 0 {
		bindings = append(bindings, common.StateHelp(k.TakeMine, "mine"), common.StateHelp(k.TakeTheirs, "theirs"), common.StateHelp(k.TakeBase, "base"))
	}
	bindings = append(bindings, k.Save, k.Back)
	if m.detailCut() {
		bindings = append(bindings, k.PageDown, k.PageUp)
	}
	return append(bindings, k.Help)
}

// secretKeys is bindings with R after them for a Secret.
func (m Model) secretKeys(bindings ...key.Binding) []key.Binding {
	if m.secret {
		bindings = append(bindings, common.RevealHelp(m.keys.Reveal, m.revealed))
	}
	return bindings
}

// FullHelp is every key of the conflict view, in groups.
func (m Model) FullHelp() [][]key.Binding {
	k := m.keys
	return [][]key.Binding{
		m.secretKeys(k.Next, k.Prev, k.Home, k.End, k.Layout),
		{k.TakeMine, k.TakeTheirs, k.TakeBase, k.AllMine, k.AllTheirs, k.PageDown, k.PageUp},
		{k.Edit, k.EditInApp, k.Save, k.Back, k.Help, k.Quit, k.ForceQuit},
	}
}
