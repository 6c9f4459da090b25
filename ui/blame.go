package ui

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
	if width >= wideWidth {
		return blameManagerWide
	}
	return blameManagerNarrow
}

// blameState is what the object view keeps while blame shows.
type blameState struct {
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
func (m ObjectView) Blaming() bool { return m.blame }

// ToggleBlame shows or hides the blame gutter (b).
func (m *ObjectView) ToggleBlame() {
	m.blame = !m.blame
	m.layout()
	if m.blame {
		// The cursor starts at the top of what was in view.
		m.cursor = m.body.YOffset
		m.layout()
	}
}

// BlameStatus names the field of the line under the cursor and its
// owners in full, for the status bar; empty without blame.
func (m ObjectView) BlameStatus() escape.Text {
	if !m.blame {
		return ""
	}
	if m.blames.err != nil {
		return "blame: " + common.ErrorText(m.blames.err)
	}
	if m.cursor >= len(m.blames.lines) {
		return ""
	}
	return blameOwners(m.cursor, m.blames.lines[m.cursor])
}

// cursorLine returns the YAML of the line under the blame cursor.
func (m ObjectView) cursorLine() (string, bool) {
	if !m.blame || m.cursor >= len(m.blames.rows) {
		return "", false
	}
	_, text, _ := strings.Cut(ansi.Strip(m.blames.rows[m.cursor]), " │ ")
	return text, true
}

// blameContent renders the live object with the gutter, the cursor's line
// marked. The rows are rendered once per live version; a cursor move only
// marks another row.
func (m *ObjectView) blameContent() string {
	if m.live == nil {
		return m.styles.Muted.Render("waiting for the object ...")
	}
	of := string(m.liveRV) + fmt.Sprint(m.full)
	mw := blameManagerWidth(m.width)
	of += fmt.Sprint(mw) + fmt.Sprint(m.revealed)
	if m.blames.of != of {
		text := common.RenderObject(m.live, m.full, m.renders.TF)
		lines, err := model.Blame(m.live, text)
		m.blames = blameState{of: of, lines: lines, err: err}
		// A Secret's values masked line for line, as the object view
		// shows them, until R.
		for i, l := range strings.Split(strings.TrimSuffix(m.styles.EscapedYAML(m.masked(text)), "\n"), "\n") {
			var b model.BlameLine
			if i < len(lines) {
				b = lines[i]
			}
			m.blames.rows = append(m.blames.rows, m.styles.Muted.Render(blameGutter(b, mw)+" │ ")+l)
		}
	}
	rows := m.blames.rows
	m.cursor = max(0, min(m.cursor, len(rows)-1))
	if len(rows) == 0 {
		return ""
	}
	marked := make([]string, len(rows))
	copy(marked, rows)
	c := m.cursor
	var b model.BlameLine
	if c < len(m.blames.lines) {
		b = m.blames.lines[c]
	}
	text, _ := m.cursorLine()
	marked[c] = m.styles.Selected.Render(blameGutter(b, mw) + " > " + text)
	return strings.Join(marked, "\n")
}

// blameKey moves the cursor line with the movement keys, scrolling to
// keep it in view; false for any other key.
func (m *ObjectView) blameKey(msg tea.KeyMsg) bool {
	page := max(1, m.body.Height)
	switch {
	case key.Matches(msg, m.keys.Up):
		m.cursor--
	case key.Matches(msg, m.keys.Down):
		m.cursor++
	case key.Matches(msg, m.keys.PageUp):
		m.cursor -= page
	case key.Matches(msg, m.keys.PageDown):
		m.cursor += page
	case key.Matches(msg, m.keys.HalfPageUp):
		m.cursor -= page / 2
	case key.Matches(msg, m.keys.HalfPageDown):
		m.cursor += page / 2
	case key.Matches(msg, m.keys.Home):
		m.cursor = 0
	case key.Matches(msg, m.keys.End):
		m.cursor = len(m.blames.rows) - 1
	default:
		return false
	}
	m.cursor = max(0, min(m.cursor, len(m.blames.rows)-1))
	if m.cursor < m.body.YOffset {
		m.body.SetYOffset(m.cursor)
	} else if m.cursor >= m.body.YOffset+page {
		m.body.SetYOffset(m.cursor - page + 1)
	}
	m.setBlameContent()
	return true
}

// keepCursorInView follows a scroll of the body (the mouse wheel) with
// the cursor, so the status bar never names a line out of sight.
func (m *ObjectView) keepCursorInView() {
	page := max(1, m.body.Height)
	c := max(m.body.YOffset, min(m.cursor, m.body.YOffset+page-1))
	if c != m.cursor {
		m.cursor = c
		m.setBlameContent()
	}
}
