package object

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/model"
	"github.com/kedit/kedit/ui/common"
)

// Blame in the object view (b): the live object's YAML with a gutter that
// names, on each line, the field manager owning the line's field and when
// its operation happened, from managedFields (model.Blame).
//
// The body gets a cursor line while blame shows: the gutter's bar turns
// into ">" on it, the movement keys move it (the view scrolls to keep it
// in sight), and the status bar names the line's field and its owners in
// full. A line under the cursor rather than the top visible line, because
// the user reads blame line by line and the top line of a scrolled view
// is rarely the one in question.

// The gutter's parts: the manager's name takes 11 columns below 120 (the
// YAML keeps 53 of 80), 22 from 120 on; the time takes 12.
const (
	blameManagerNarrow = 11
	blameManagerWide   = 22
	blameTimeLayout    = "Jan 02 15:04"
)

// blameManagerWidth is the manager's width in a view width columns wide.
func blameManagerWidth(width int) int {
	if width >= common.WideWidth {
		return blameManagerWide
	}
	return blameManagerNarrow
}

// blame is the object view's blame mode: whether it shows, its cursor
// line, and the rows drawn for the live version.
type blame struct {
	// on: the body shows the live object with the gutter (b).
	on bool
	// cursor is the line under the cursor.
	cursor int
	// of says which rendering lines and gutter were made for: the live
	// resourceVersion and whether all fields showed.
	of string
	// lines attributes each line of the live YAML.
	lines []model.BlameLine
	// rows are the lines drawn, gutter and YAML, without the cursor.
	rows []string
	// err is why blame could not be worked out.
	err error
}

// status names the field of the line under the cursor and its owners in
// full; empty while blame does not show.
func (b blame) status() escape.Text {
	if !b.on {
		return ""
	}
	if b.err != nil {
		return "blame: " + common.ErrorText(b.err)
	}
	if b.cursor >= len(b.lines) {
		return ""
	}
	return blameOwners(b.cursor, b.lines[b.cursor])
}

// fieldPath names the field of the line under the cursor from the
// object's root, as the field docs take it: its blame line's, worked out
// with its owners from the live object (model.Blame), not read back from
// the rows drawn.
func (b blame) fieldPath() []string {
	if b.cursor >= len(b.lines) {
		return nil
	}
	return b.lines[b.cursor].Field
}

// cursorLine returns the YAML of the line under the cursor.
func (b blame) cursorLine() (string, bool) {
	if !b.on || b.cursor >= len(b.rows) {
		return "", false
	}
	_, text, _ := strings.Cut(ansi.Strip(b.rows[b.cursor]), " │ ")
	return text, true
}

// move moves the cursor to line n, kept within the rows.
func (b *blame) move(n int) { b.cursor = max(0, min(n, len(b.rows)-1)) }

// blameGutter is the gutter of one line: its first owner shortened to
// managerWidth (with +N for the other owners of a field several managers
// share) and the time of that owner's operation; blank for a field no
// manager owns (uid, resourceVersion: the server's own).
func blameGutter(l model.BlameLine, managerWidth int) string {
	width := managerWidth + 1 + len(blameTimeLayout)
	if len(l.Owners) == 0 {
		return strings.Repeat(" ", width)
	}
	o := l.Owners[0]
	more := ""
	if len(l.Owners) > 1 {
		more = fmt.Sprintf("+%d", len(l.Owners)-1)
	}
	name := ansi.Truncate(escape.String(o.Manager), managerWidth-len(more), "…") + more
	name += strings.Repeat(" ", max(0, managerWidth-ansi.StringWidth(name)))
	when := strings.Repeat(" ", len(blameTimeLayout))
	if !o.Time.IsZero() {
		when = o.Time.Local().Format(blameTimeLayout)
	}
	return name + " " + when
}

// blameOwners names a line's owners in full and then its field, for the
// status bar, the owners first so that a narrow terminal still shows them:
// `line 12: platform-team-deployer (Apply) at 2026-11-22 19:45:44 owns
// .spec.replicas`.
func blameOwners(n int, l model.BlameLine) escape.Text {
	text := escape.Textf("line %d: ", n+1)
	if len(l.Owners) == 0 {
		if l.Path == "" {
			return text + "no field"
		}
		return text + "no field manager owns " + escape.Safe(l.Path) + " (the server set it, or keeps it)"
	}
	var owners []escape.Text
	for _, o := range l.Owners {
		s := escape.Safe(o.Manager) + " (" + escape.Safe(o.Operation)
		if o.Subresource != "" {
			s += " of " + escape.Safe(o.Subresource)
		}
		s += ")"
		if !o.Time.IsZero() {
			s += escape.Textf(" at %s", o.Time.Local().Format("2006-01-02 15:04:05"))
		}
		owners = append(owners, s)
	}
	var verb escape.Text = " owns "
	if len(owners) > 1 {
		verb = " own "
	}
	text += escape.Join(owners, " and ") + verb
	if l.Inherited {
		// The server defaulted the field, or it is inside an atomic value.
		text += "the field around "
	}
	return text + escape.Safe(l.Path)
}

// Blaming reports whether the blame gutter shows.
func (m Model) Blaming() bool { return m.blame.on }

// ToggleBlame shows or hides the blame gutter (b).
func (m *Model) ToggleBlame() {
	m.blame.on = !m.blame.on
	m.layout()
	if m.blame.on {
		// The cursor starts at the top of what was in view.
		m.blame.cursor = m.body.YOffset
		m.layout()
	}
}

// BlameStatus names the field of the line under the cursor and its
// owners in full, for the status bar; empty without blame.
func (m Model) BlameStatus() escape.Text { return m.blame.status() }

// CursorLine returns the YAML of the line under the blame cursor; false
// while blame does not show.
func (m Model) CursorLine() (string, bool) { return m.blame.cursorLine() }

// blameContent renders the live object with the gutter, the cursor's line
// marked. The rows are rendered once per live version; a cursor move only
// marks another row.
func (m *Model) blameContent() string {
	if m.shown.live == nil {
		return m.styles.Muted.Render("waiting for the object ...")
	}
	of := string(m.shown.liveRV) + fmt.Sprint(m.full)
	mw := blameManagerWidth(m.width)
	of += fmt.Sprint(mw) + fmt.Sprint(m.revealed)
	if m.blame.of != of {
		text := common.RenderObject(m.shown.live, m.full, m.renders.TF)
		lines, err := model.Blame(m.shown.live, text)
		m.blame = blame{on: m.blame.on, cursor: m.blame.cursor, of: of, lines: lines, err: err}
		// A Secret's values masked line for line, as the object view
		// shows them, until R.
		for i, l := range strings.Split(strings.TrimSuffix(m.styles.EscapedYAML(m.masked(text)), "\n"), "\n") {
			var b model.BlameLine
			if i < len(lines) {
				b = lines[i]
			}
			m.blame.rows = append(m.blame.rows, m.styles.Muted.Render(blameGutter(b, mw)+" │ ")+l)
		}
	}
	rows := m.blame.rows
	m.blame.move(m.blame.cursor)
	if len(rows) == 0 {
		return ""
	}
	marked := make([]string, len(rows))
	copy(marked, rows)
	c := m.blame.cursor
	var b model.BlameLine
	if c < len(m.blame.lines) {
		b = m.blame.lines[c]
	}
	text, _ := m.blame.cursorLine()
	marked[c] = m.styles.Selected.Render(blameGutter(b, mw) + " > " + text)
	return strings.Join(marked, "\n")
}

// blameKey moves the cursor line with the movement keys, scrolling to
// keep it in view; false for any other key.
func (m *Model) blameKey(msg tea.KeyMsg) bool {
	page := max(1, m.body.Height)
	c := m.blame.cursor
	switch {
	case key.Matches(msg, m.keys.Up):
		c--
	case key.Matches(msg, m.keys.Down):
		c++
	case key.Matches(msg, m.keys.PageUp):
		c -= page
	case key.Matches(msg, m.keys.PageDown):
		c += page
	case key.Matches(msg, m.keys.HalfPageUp):
		c -= page / 2
	case key.Matches(msg, m.keys.HalfPageDown):
		c += page / 2
	case key.Matches(msg, m.keys.Home):
		c = 0
	case key.Matches(msg, m.keys.End):
		c = len(m.blame.rows) - 1
	default:
		return false
	}
	m.blame.move(c)
	if m.blame.cursor < m.body.YOffset {
		m.body.SetYOffset(m.blame.cursor)
	} else if m.blame.cursor >= m.body.YOffset+page {
		m.body.SetYOffset(m.blame.cursor - page + 1)
	}
	m.setBlameContent()
	return true
}

// keepCursorInView follows a scroll of the body (the mouse wheel) with
// the cursor, so the status bar never names a line out of sight.
func (m *Model) keepCursorInView() {
	page := max(1, m.body.Height)
	c := max(m.body.YOffset, min(m.blame.cursor, m.body.YOffset+page-1))
	if c != m.blame.cursor {
		m.blame.cursor = c
		m.setBlameContent()
	}
}
