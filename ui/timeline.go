package ui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/viewport"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kedit/kedit/internal/words"
	"github.com/kedit/kedit/kube"
	"github.com/kedit/kedit/model"
)

// timelineRow is one version as the timeline lists it, every part escaped.
type timelineRow struct {
	id        int
	rv        string
	at        string
	manager   string
	operation string
	// changed says what the version changed: its field paths, or what
	// else happened (a deletion, the first version seen).
	changed string
}

// TimelineView lists every version of the object kedit observed since it
// opened it, newest first, the user's own saves among them: each with its
// resourceVersion, the local time kedit saw it, the field manager and
// operation that wrote it and the fields it changed. enter shows the
// selected version's diff against the version before it. The app owns
// the keys that need the session (enter, y, t, esc); the view moves the
// selection and scrolls the diff.
type TimelineView struct {
	keys   KeyMap
	styles *Styles
	width  int
	height int

	object  string
	rows    []timelineRow
	dropped int
	secret  bool
	// format is the session's: versions are diffed in it.
	format model.Format
	// selected indexes rows; offset is the first row in view.
	selected, offset int

	// showing is set while the selected version's diff shows; change
	// holds its lines above the diff, body the diff itself.
	showing bool
	change  []string
	body    viewport.Model
}

// NewTimelineView returns a timeline view with nothing to list until
// SetSession.
func NewTimelineView(keys KeyMap, styles *Styles) TimelineView {
	vp := viewport.New(0, 0)
	vp.KeyMap = keys.viewportKeys()
	vp.MouseWheelEnabled = true
	return TimelineView{keys: keys, styles: styles, body: vp}
}

// SetSize sets the view's size.
func (m *TimelineView) SetSize(width, height int) {
	m.width, m.height = width, height
	m.body.Width, m.body.Height = width, max(1, height-len(m.change))
	m.scroll()
}

// SetSession copies the timeline from the session, newest first, keeping
// the selected version selected as new versions arrive.
func (m *TimelineView) SetSession(s *model.Session) {
	var id int
	keep := len(m.rows) > 0
	if keep {
		id = m.rows[m.selected].id
	}
	ref := s.Ref()
	m.object = kube.EscapeControl(ref.Kind + "/" + ref.Name)
	m.secret = ref.IsSecret()
	m.format = s.Format()
	m.dropped = s.TimelineDropped()
	entries := s.Timeline()
	m.rows = m.rows[:0:0]
	for i := len(entries) - 1; i >= 0; i-- {
		m.rows = append(m.rows, newTimelineRow(entries[i], i == 0 && m.dropped == 0))
	}
	m.selected = 0
	for i, r := range m.rows {
		if keep && r.id == id {
			m.selected = i
		}
	}
	m.scroll()
}

// Open lists the session's timeline afresh, the newest version selected.
func (m *TimelineView) Open(s *model.Session) {
	m.rows, m.selected, m.offset = nil, 0, 0
	m.HideChange()
	m.SetSession(s)
}

// newTimelineRow describes entry e; first is set for the first version
// kedit saw of the object.
func newTimelineRow(e model.Entry, first bool) timelineRow {
	r := timelineRow{id: e.ID, rv: e.ResourceVersion, at: e.Observed.Local().Format("15:04:05"),
		manager: e.Manager, operation: e.Operation}
	if e.Subresource != "" {
		r.operation += "/" + e.Subresource
	}
	var paths []string
	for _, c := range e.Changes {
		paths = append(paths, c.Path)
	}
	switch {
	case e.Deleted:
		// The API does not say who deleted an object.
		r.manager, r.operation, r.changed = "-", "Delete", "deleted (its last state)"
	case first:
		r.changed = "opened: the first version kedit saw"
	case e.Err != nil:
		r.changed = "could not compare: " + e.Err.Error()
	case len(paths) == 0:
		// A write that changed only what the server keeps, such as
		// managedFields or an annotation's removal and return.
		r.changed = "no field changed"
	default:
		r.changed = strings.Join(paths, ", ")
	}
	if e.Recreated {
		r.changed = "created again (new uid): " + r.changed
	}
	if r.manager == "" {
		// The list's column is narrow; the diff's title says it whole.
		r.manager, _, _ = strings.Cut(unknownWriter, " (")
	}
	r.rv, r.manager, r.operation, r.changed = kube.EscapeControl(r.rv), kube.EscapeControl(r.manager),
		kube.EscapeControl(r.operation), kube.EscapeControl(r.changed)
	return r
}

// Selected returns the selected version's timeline entry ID and its
// resourceVersion (escaped); false when there is none.
func (m TimelineView) Selected() (id int, rv string, ok bool) {
	if len(m.rows) == 0 {
		return 0, "", false
	}
	r := m.rows[m.selected]
	return r.id, r.rv, true
}

// ShowingDiff reports whether the selected version's diff shows.
func (m TimelineView) ShowingDiff() bool { return m.showing }

// ShowChange shows c, the selected version against the one before it
// (Session.TimelineDiff). A Secret's values are masked.
func (m *TimelineView) ShowChange(c model.TimelineChange) {
	before, after := m.versionText(c.Before), m.versionText(c.After)
	e := c.Entry
	row := newTimelineRow(e, false)
	by := row.manager
	if !e.Deleted {
		by = kube.EscapeControl(writerText(e.Manager))
	}
	head := fmt.Sprintf("rv %s at %s by %s", row.rv, row.at, by)
	if row.operation != "" {
		head += " (" + row.operation + ")"
	}
	var against string
	switch {
	case c.Before == nil:
		against = "the oldest version kept: shown whole"
	default:
		against = "against rv " + kube.EscapeControl(c.Before.GetResourceVersion())
	}
	m.change = []string{m.styles.Title.Render(ansi.Truncate(head+", "+against, m.width, "…"))}
	for _, l := range strings.Split(ansi.Wordwrap("changed: "+row.changed, m.width, ", "), "\n") {
		m.change = append(m.change, m.styles.Muted.Render(ansi.Truncate(l, m.width, "…")))
	}
	if m.secret {
		m.change = append(m.change, m.styles.Muted.Render(ansi.Truncate("a Secret: its values are shown as "+secretMask, m.width, "…")))
	}
	text := m.styles.Muted.Render("no difference in the object's " + m.format.String())
	if hunks := diffHunks(before, after, m.secret); len(hunks) > 0 {
		text, _ = hunkText(m.styles, hunks)
	}
	m.showing = true
	m.body.Width, m.body.Height = m.width, max(1, m.height-len(m.change))
	m.body.SetContent(strings.TrimSuffix(text, "\n"))
	m.body.GotoTop()
}

// versionText renders a version for the diff: as the draft is rendered,
// without its resourceVersion, which differs in every diff and which the
// title names. A Secret's values are masked in the diff (diffHunks).
func (m TimelineView) versionText(obj *unstructured.Unstructured) string {
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
func (m *TimelineView) HideChange() { m.showing, m.change = false, nil }

// listHeight is how many rows fit under the title lines.
func (m TimelineView) listHeight() int { return max(1, m.height-len(m.titleLines())) }

// scroll keeps the selection in view.
func (m *TimelineView) scroll() {
	h := m.listHeight()
	if m.selected < m.offset {
		m.offset = m.selected
	}
	if m.selected >= m.offset+h {
		m.offset = m.selected - h + 1
	}
	m.offset = max(0, min(m.offset, len(m.rows)-h))
}

// Update moves the selection, or scrolls the diff while it shows.
func (m TimelineView) Update(msg tea.Msg) (TimelineView, tea.Cmd) {
	if m.showing {
		if k, ok := msg.(tea.KeyMsg); ok {
			switch {
			case key.Matches(k, m.keys.Home):
				m.body.GotoTop()
				return m, nil
			case key.Matches(k, m.keys.End):
				m.body.GotoBottom()
				return m, nil
			}
		}
		var cmd tea.Cmd
		m.body, cmd = m.body.Update(msg)
		return m, cmd
	}
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		return m, nil
	}
	page := m.listHeight()
	switch {
	case key.Matches(k, m.keys.Up):
		m.selected--
	case key.Matches(k, m.keys.Down):
		m.selected++
	case key.Matches(k, m.keys.PageUp), key.Matches(k, m.keys.HalfPageUp):
		m.selected -= page
	case key.Matches(k, m.keys.PageDown), key.Matches(k, m.keys.HalfPageDown):
		m.selected += page
	case key.Matches(k, m.keys.Home):
		m.selected = 0
	case key.Matches(k, m.keys.End):
		m.selected = len(m.rows) - 1
	}
	m.selected = max(0, min(m.selected, len(m.rows)-1))
	m.scroll()
	return m, nil
}

// titleLines are the lines above the list: what it is, and how many old
// versions were let go.
func (m TimelineView) titleLines() []string {
	title := fmt.Sprintf("timeline of %s: %s since kedit opened it, newest first", m.object, model.Count(len(m.rows), "version"))
	lines := []string{m.styles.Title.Render(ansi.Truncate(title, m.width, "…"))}
	if m.dropped > 0 {
		// The timeline is bounded: the oldest versions go first.
		note := fmt.Sprintf("%s dropped (the timeline keeps at most %s and %d MiB)",
			words.Count(m.dropped, "older version"), words.Count(model.MaxTimeline, "version"), model.MaxTimelineBytes>>20)
		lines = append(lines, m.styles.Error.Render(ansi.Truncate(note, m.width, "…")))
	}
	return append(lines, m.styles.ColumnTitle.Render(ansi.Truncate(m.rowText(timelineRow{
		rv: "RV", at: "TIME", manager: "MANAGER", operation: "OPERATION", changed: "CHANGED"}), m.width, "")))
}

// columns are the widths of the rv, manager and operation columns: what
// the widest row needs, the manager at most 24 (a long manager gives way
// to the changed fields).
func (m TimelineView) columns() (rv, manager, op int) {
	rv, manager, op = len("RV"), len("MANAGER"), len("OPERATION")
	for _, r := range m.rows {
		rv = max(rv, ansi.StringWidth(r.rv))
		manager = max(manager, ansi.StringWidth(r.manager))
		op = max(op, ansi.StringWidth(r.operation))
	}
	return min(rv, 12), min(manager, 24), op
}

// rowText lays a row out in the columns, after the selection's marker.
func (m TimelineView) rowText(r timelineRow) string {
	rvW, managerW, opW := m.columns()
	pad := func(s string, w int) string {
		s = ansi.Truncate(s, w, "…")
		return s + strings.Repeat(" ", max(0, w-ansi.StringWidth(s)))
	}
	return "  " + pad(r.rv, rvW) + "  " + pad(r.at, 8) + "  " + pad(r.manager, managerW) + "  " + pad(r.operation, opW) + "  " + r.changed
}

// View draws the list, or the selected version's diff.
func (m TimelineView) View() string {
	if m.showing {
		return strings.Join(m.change, "\n") + "\n" + m.body.View()
	}
	lines := m.titleLines()
	end := min(m.offset+m.listHeight(), len(m.rows))
	for i := m.offset; i < end; i++ {
		text := m.rowText(m.rows[i])
		if i == m.selected {
			lines = append(lines, m.styles.Selected.Render(ansi.Truncate(">"+text[1:], m.width, "…")))
			continue
		}
		lines = append(lines, ansi.Truncate(text, m.width, "…"))
	}
	return strings.Join(lines, "\n")
}

// ShortHelp is the timeline's keys for the help line.
func (m TimelineView) ShortHelp() []key.Binding {
	k := m.keys
	if m.showing {
		// esc goes back to the list (t closes the timeline).
		return []key.Binding{k.TimelineTake, k.Back, k.Up, k.Down, k.Help, k.Quit}
	}
	return []key.Binding{k.TimelineDiff, k.TimelineTake, k.TimelineClose, k.Up, k.Down, k.Help, k.Quit}
}

// FullHelp is every key of the timeline, in groups.
func (m TimelineView) FullHelp() [][]key.Binding {
	k := m.keys
	return [][]key.Binding{
		{k.TimelineDiff, k.TimelineTake, k.TimelineClose},
		{k.Up, k.Down, k.PageUp, k.PageDown, k.Home, k.End},
		{k.Help, k.Quit, k.ForceQuit},
	}
}
