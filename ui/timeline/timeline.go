package timeline

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/x/ansi"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/internal/words"
	"github.com/kedit/kedit/model"
	"github.com/kedit/kedit/model/history"
	"github.com/kedit/kedit/ui/common"
	"github.com/kedit/kedit/ui/list"
	"github.com/kedit/kedit/ui/pager"
)

// Model lists every version of the object kedit observed since it
// opened it, newest first, the user's own saves among them: each with its
// resourceVersion, the local time kedit saw it, the field manager and
// operation that wrote it and the fields it changed. Given an audit log
// (ReadHistory), it starts with the object's history from the log, and
// marks LOST the writes that lost other clients' changes, REVERTED those
// that set a value back to what it was before another client's change,
// and FIGHT the fights' writes; a live fight is marked too. enter shows
// the selected version's diff against the version before it (a REVERTED
// row's with what it set back), or a LOST row's lost updates, and u on a
// LOST row asks to undo its overwrite. The view moves
// the selection and scrolls the diff; what needs the session (a live
// version's diff, the lost updates, making a version the draft, the undo)
// and closing come back as intents.
type Model struct {
	keys   KeyMap
	styles *common.Styles
	width  int
	height int

	object  escape.Text
	rows    []timelineRow
	dropped int
	secret  bool
	// format is the session's: versions are diffed in it.
	format model.Format
	// cur is the selected row and the first row in view; listX is how
	// many columns of the list are scrolled off to the left, and
	// listWidest the width of its widest line (fillRows).
	cur               list.Cursor
	listX, listWidest int

	// showing is set while the selected version's diff shows; change
	// holds its lines above the diff (drawn from shown at the width),
	// body the diff itself.
	showing bool
	change  []string
	shown   shownHead
	body    pager.Model
	// side scrolls the diff sideways.
	side common.Sideways

	// live is the session's timeline as SetContent last gave it, and
	// the audit log's history what log.go read.
	live []model.Entry
	auditLog
	// pathInput is the field followed (/), and its typing.
	pathInput pathInput
}

// New returns a timeline view with nothing to list until SetContent.
func New(keys KeyMap, styles *common.Styles) Model {
	return Model{keys: keys, styles: styles, body: pager.New(keys.pager())}
}

// SetSize sets the view's size.
func (m *Model) SetSize(width, height int) {
	m.width, m.height = width, height
	if m.showing {
		m.change = m.shown.lines(m.styles, width)
	}
	m.body.SetSize(width, height, len(m.change))
	m.scroll()
}

// Content is what the timeline draws of the session: the object, its
// format and its live versions.
type Content struct {
	// Object names the object: Kind/name.
	Object escape.Text
	// Secret is set for a Secret: its values are masked in the diffs.
	Secret bool
	// Format is the session's: versions are diffed in it.
	Format model.Format
	// Live is the session's timeline, oldest first (Session.Timeline), and
	// Dropped how many older versions it let go.
	Live    []model.Entry
	Dropped int
	// PathValues are the value of the path the view follows (Model.Path)
	// in each of Live, by Entry.ID: the version's object is the
	// session's. nil when it follows none.
	PathValues map[int]history.PathValue
}

// SetContent lists c's versions, newest first, keeping the selected
// version selected as new versions arrive.
func (m *Model) SetContent(c Content) {
	m.object, m.secret, m.format, m.dropped, m.live = c.Object, c.Secret, c.Format, c.Dropped, c.Live
	m.pathInput.live = c.PathValues
	m.fillRows()
}

// fillRows lists the live versions with the audit log's history, newest
// first, keeping the selected version selected.
func (m *Model) fillRows() {
	var key string
	keep := len(m.rows) > 0
	if keep {
		key = m.rows[m.cur.Selected].key
	}
	rows := history.Rows(m.h, m.live)
	latest := latestTime(m.h, rows)
	m.rows = m.rows[:0:0]
	for i := len(rows) - 1; i >= 0; i-- {
		r := rows[i]
		var row timelineRow
		if e := r.Entry; e != nil {
			row = newTimelineRow(*e, e.ID == m.live[0].ID && m.dropped == 0)
		} else {
			row = newLogRow(m.h, r.Version, latest)
		}
		row.version, row.lost, row.reverted, row.blind, row.fight = r.Version, r.Lost, r.Reverted, r.Blind, len(r.Fights) > 0
		row.fights = r.Fights
		if r.Entry != nil && r.Version >= 0 {
			// Both hold it: when it was written, not when kedit saw it,
			// and by the field manager its request named (managedFields
			// times are seconds: two writes in one second cannot be told
			// apart by them).
			v := &m.h.Versions[r.Version]
			row.at = escape.Safe(logTime(v.Time, latest))
			if named := v.NamedManager(); named != "" && !r.Entry.Deleted {
				row.manager = escape.Safe(named)
			}
		}
		if !m.pathInput.path.IsZero() {
			row.value = m.pathValue(r)
		}
		if r.Entry != nil && r.Version >= 0 && m.h.Versions[r.Version].Recreated {
			// The log knows the new object's uid; the watch may not have said it.
			row.changed = escape.Replace(row.changed, "created again (new uid)", escape.Textf("created again (uid %s)", m.h.Versions[r.Version].UID), 1)
		}
		m.rows = append(m.rows, row)
	}
	m.cur.Selected = 0
	for i, r := range m.rows {
		if keep && r.key == key {
			m.cur.Selected = i
		}
	}
	m.listWidest = m.listLongest()
	m.scroll()
}

// Open lists c's versions afresh, the newest version selected.
func (m *Model) Open(c Content) {
	m.rows, m.cur.Selected, m.cur.Offset, m.listX = nil, 0, 0, 0
	m.pathInput = pathInput{}
	m.HideChange()
	m.SetContent(c)
}

// Selected returns the selected version's timeline entry ID and its
// resourceVersion (escaped); false when there is none. The ID is -1 for a
// version only the audit log holds: SelectedLogObject is its object.
func (m Model) Selected() (id int, rv escape.Text, ok bool) {
	if len(m.rows) == 0 {
		return 0, "", false
	}
	r := m.rows[m.cur.Selected]
	return r.id, r.rv, true
}

// ShowingDiff reports whether the selected version's diff shows.
func (m Model) ShowingDiff() bool { return m.showing }

// ShowChange shows c, the selected version against the one before it
// (Session.TimelineDiff). A Secret's values are masked.
func (m *Model) ShowChange(c model.TimelineChange) {
	m.showChange(c, newTimelineRow(c.Entry, false), "")
}

// showChange shows c, listed as row; note, when set, takes the diff's
// place (a version whose object is unknown).
func (m *Model) showChange(c model.TimelineChange, row timelineRow, note string) {
	before, after := m.versionText(c.Before), m.versionText(c.After)
	e := c.Entry
	by := row.manager
	if !e.Deleted {
		by = common.WriterText(e.Manager)
	}
	head := escape.Textf("rv %s at %s by %s", row.rv, row.at, by)
	if row.operation != "" {
		head += " (" + row.operation + ")"
	}
	var against escape.Text = "the oldest version kept: shown whole"
	if c.Before != nil {
		against = "against rv " + escape.Safe(c.Before.GetResourceVersion())
	}
	m.shown = shownHead{title: head + ", " + against, changed: row.changed, secret: m.secret}
	m.change = m.shown.lines(m.styles, m.width)
	text := m.styles.Muted.Render("no difference in the object's " + m.format.String())
	if hunks := common.DiffHunks(before, after, m.secret); len(hunks) > 0 {
		text, _ = common.HunkText(m.styles, hunks)
	}
	if note != "" {
		text = m.styles.Muted.Render(note)
	}
	m.showing = true
	m.body.SetSize(m.width, m.height, len(m.change))
	text = strings.TrimSuffix(text, "\n")
	m.body.SetContent(text)
	m.body.GotoTop()
	m.side = common.Sideways{}
	m.side.Measure(text)
}

// versionText renders a version for the diff: as the draft is rendered,
// without its resourceVersion, which differs in every diff and which the
// title names. A Secret's values are masked in the diff (diffHunks).
func (m Model) versionText(obj *unstructured.Unstructured) string {
	if obj == nil {
		return ""
	}
	obj = obj.DeepCopy()
	unstructured.RemoveNestedField(obj.Object, "metadata", "resourceVersion")
	text, err := m.format.Render(obj)
	if err != nil {
		return err.Error()
	}
	return text
}

// HideChange goes back from the diff to the list.
func (m *Model) HideChange() {
	m.showing, m.change, m.shown, m.side = false, nil, shownHead{}, common.Sideways{}
}

// listHeight is how many rows fit under the title lines.
func (m Model) listHeight() int { return max(1, m.height-len(m.titleLines())) }

// scroll keeps the selection in view.
func (m *Model) scroll() { m.cur.Show(len(m.rows), m.listHeight()) }

// titleLines are the lines above the list: what it is, how many old
// versions were let go, and what the audit log says.
func (m Model) titleLines() []string {
	live := 0
	for _, r := range m.rows {
		if r.id >= 0 {
			live++
		}
	}
	title := escape.Textf("timeline of %s: %s since kedit opened it", m.object, model.Count(live, "version"))
	if logged := len(m.rows) - live; logged > 0 {
		title += escape.Textf(", %d more from the audit log", logged)
	}
	// Wrapped, not cut, as the audit log's line: they say what the list
	// holds.
	lines := m.wrapped(m.styles.Title, string(title+", newest first"))
	if m.dropped > 0 {
		// The timeline is bounded: the oldest versions go first.
		note := fmt.Sprintf("%s dropped (the timeline keeps at most %s and %d MiB)",
			words.Count(m.dropped, "older version"), words.Count(model.MaxTimeline, "version"), model.MaxTimelineBytes>>20)
		lines = append(lines, m.styles.Error.Render(ansi.Truncate(note, m.width, "…")))
	}
	if l := m.logLine(); l != "" {
		lines = append(lines, strings.Split(l, "\n")...)
	}
	if m.pathInput.typing {
		lines = append(lines, m.pathLines()...)
	}
	return append(lines, m.styles.ColumnTitle.Render(ansi.Truncate(m.listLine(m.headerRow()), m.width, "")))
}

// headerRow is the list's column titles, laid out as its rows.
func (m Model) headerRow() string {
	return m.rowText(timelineRow{rv: "RV", at: "TIME", manager: "MANAGER", operation: "OPERATION", changed: "CHANGED", value: m.pathHeader()}, "MARK")
}

// columns are the widths of the rv, time, manager, operation and mark
// columns: what the widest row needs, the manager at most 24 (a long
// manager gives way to the changed fields); no mark column when no row
// has a mark.
func (m Model) columns() (rv, at, manager, op, mark int) {
	rv, at, manager, op = len("RV"), len("TIME"), len("MANAGER"), len("OPERATION")
	for _, r := range m.rows {
		rv = max(rv, ansi.StringWidth(string(r.rv)))
		at = max(at, ansi.StringWidth(string(r.at)))
		manager = max(manager, ansi.StringWidth(string(r.manager)))
		op = max(op, ansi.StringWidth(string(r.operation)))
		mark = max(mark, len(r.mark()))
	}
	if mark > 0 {
		mark = max(mark, len("MARK"))
	}
	return min(rv, 12), at, min(manager, 24), op, mark
}

// rowText lays a row out in the columns, after the selection's marker;
// mark is its LOST or FIGHT.
func (m Model) rowText(r timelineRow, mark string) string {
	rvW, atW, managerW, opW, markW := m.columns()
	pad := func(t escape.Text, w int) string {
		s := ansi.Truncate(string(t), w, "…")
		return s + strings.Repeat(" ", max(0, w-ansi.StringWidth(s)))
	}
	text := "  " + pad(r.rv, rvW) + "  " + pad(r.at, atW) + "  " + pad(r.manager, managerW) + "  " + pad(r.operation, opW) + "  "
	if markW > 0 {
		text += pad(escape.Safe(mark), markW) + "  "
	}
	if valueW := m.valueWidth(); valueW > 0 {
		// The followed field's value, before what each version changed.
		text += pad(r.value, valueW) + "  "
	}
	return text + string(r.changed)
}

// View draws the list, or the selected version's diff.
func (m Model) View() string {
	if m.showing {
		return strings.Join(m.change, "\n") + "\n" + m.diffView()
	}
	lines := m.titleLines()
	end := min(m.cur.Offset+m.listHeight(), len(m.rows))
	for i := m.cur.Offset; i < end; i++ {
		text := m.rowText(m.rows[i], m.rows[i].mark())
		if i == m.cur.Selected {
			lines = append(lines, m.styles.Selected.Render(ansi.Truncate(m.listLine(">"+text[1:]), m.width, "…")))
			continue
		}
		lines = append(lines, ansi.Truncate(m.listLine(text), m.width, "…"))
	}
	return strings.Join(lines, "\n")
}

// ShortHelp is the timeline's keys for the help line: on a LOST row,
// enter shows its lost updates and u undoes them.
func (m Model) ShortHelp() []key.Binding {
	k := m.keys
	var side []key.Binding
	if m.wider() {
		side = []key.Binding{k.Left, k.Right}
	}
	if m.pathInput.typing {
		return []key.Binding{common.StateHelp(k.Diff, "follow"), common.StateHelp(k.Back, "cancel"), k.ForceQuit}
	}
	if m.showing {
		// esc goes back to the list (t closes the timeline).
		return append(append([]key.Binding{k.Take, k.Back, k.Up, k.Down}, side...), k.Help, k.Quit)
	}
	if len(m.rows) > 0 && m.rows[m.cur.Selected].lost {
		return append(append([]key.Binding{common.StateHelp(k.Diff, "lost updates"), k.Undo, k.Close, k.Up, k.Down}, side...), k.Take, k.Help, k.Quit)
	}
	if !m.pathInput.path.IsZero() {
		return append(append([]key.Binding{k.Diff, k.Take, common.StateHelp(k.Back, "stop following"), k.Path, k.Up, k.Down}, side...), k.Help, k.Quit)
	}
	return append(append([]key.Binding{k.Diff, k.Take, k.Close, k.Up, k.Down}, side...), k.Help, k.Quit)
}

// FullHelp is every key of the timeline, in groups.
func (m Model) FullHelp() [][]key.Binding {
	k := m.keys
	return [][]key.Binding{
		{k.Diff, k.Take, k.Undo, k.Close, k.Back, k.Path},
		{k.Up, k.Down, k.PageUp, k.PageDown, k.HalfPageUp, k.HalfPageDown, k.Home, k.End, k.Left, k.Right},
		{k.Help, k.Quit, k.ForceQuit},
	}
}
