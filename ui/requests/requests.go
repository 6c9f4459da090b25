package requests

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/internal/words"
	"github.com/kedit/kedit/ui/common"
	"github.com/kedit/kedit/ui/list"
	"github.com/kedit/kedit/ui/pager"
)

// Row is one request and its answer, or one event a watch read, as the
// pane lists it: every text from the server escaped.
type Row struct {
	// Seq names the row for ShowRequestMsg.
	Seq  uint64
	Time time.Time
	// Method is the HTTP method, or WATCH for a watch's event.
	Method string
	// Path is the request's path (its query left out), or the object's
	// for a watch's event.
	Path escape.Text
	// SentRV is the resourceVersion the request carried, "" for none;
	// ReturnedRV the answer's.
	SentRV, ReturnedRV escape.Text
	// Status is the answer's: 200, 409 Conflict, no answer; a watch
	// event's type.
	Status escape.Text
	// Failed is set for an answer of 400 or more, or none.
	Failed  bool
	Latency time.Duration
	// Said is what happened, in one line, when the status does not say
	// it all: a 409's versions, a watch event's version and writer.
	Said escape.Text
	// By names who in kedit sent the request when not kedit itself
	// (demo-writer, which shares kedit's client); "" for kedit.
	By escape.Text
}

// Detail is one request in full, as enter shows it: its path with the
// query, and the bodies (a Secret's values masked already).
type Detail struct {
	Seq uint64
	// Title is the request's line (method, path and query, status).
	Title escape.Text
	// Lines say the rest of the row: the versions, what happened.
	Lines []escape.Text
	// Request and Answer are the bodies, "" for none; ContentType is the
	// request body's media type, "" when it has none.
	Request, Answer escape.Text
	ContentType     escape.Text
}

// Model is the request pane: the rows newest last, one selected, or the
// selected request's bodies.
type Model struct {
	keys   KeyMap
	styles *common.Styles
	width  int
	height int

	rows []Row
	// cur is the selected row and the first row in view; follow is set
	// while the newest row is selected, so that new rows keep it so.
	cur    list.Cursor
	follow bool
	// x is how many columns of the rows are scrolled off to the left,
	// past the fixed ones (side.go).
	x int

	// showing is set while a request's bodies show, in body.
	showing bool
	title   []string
	body    pager.Model
	// detail is the request shown, drawn again at a new width; side
	// scrolls its bodies sideways.
	detail Detail
	side   common.Sideways

	// heading is the columns' heading as last drawn, for its widths:
	// underlined, it is costly to draw, and the same frame after frame.
	heading *heading
}

type heading struct {
	width, pathW, x int
	text            string
}

// New returns an empty pane, the newest row selected once rows come.
func New(keys KeyMap, styles *common.Styles) Model {
	return Model{keys: keys, styles: styles, body: pager.New(keys.pager()), follow: true, heading: &heading{}}
}

// SetSize sets the pane's size.
func (m *Model) SetSize(width, height int) {
	m.width, m.height = width, height
	if m.showing {
		m.layDetail()
	}
	m.body.SetSize(width, height, len(m.title))
	m.scroll()
}

// SetRows lists rows, oldest first, keeping the selected row selected,
// or the newest when it was.
func (m *Model) SetRows(rows []Row) {
	var seq uint64
	if m.cur.Selected < len(m.rows) {
		seq = m.rows[m.cur.Selected].Seq
	}
	m.rows = rows
	switch {
	case m.follow || len(rows) == 0:
		m.cur.Selected = max(0, len(rows)-1)
	default:
		// The row selected stays selected, wherever new rows came in.
		m.cur.Selected = 0
		for i, r := range rows {
			if r.Seq == seq {
				m.cur.Selected = i
				break
			}
			if r.Seq < seq {
				m.cur.Selected = i
			}
		}
	}
	m.scroll()
}

// Reset selects the newest row and goes back to the rows, as the pane is
// opened.
func (m *Model) Reset() {
	m.follow, m.showing, m.title, m.x = true, false, nil, 0
	m.cur.Selected = max(0, len(m.rows)-1)
	m.scroll()
}

// Selected returns the selected row; false when there is none.
func (m Model) Selected() (Row, bool) {
	if len(m.rows) == 0 {
		return Row{}, false
	}
	return m.rows[m.cur.Selected], true
}

// ShowingDetail reports whether a request's bodies show.
func (m Model) ShowingDetail() bool { return m.showing }

// ShowDetail shows d, the request ShowRequestMsg asked for, when it is
// still the selected one.
func (m *Model) ShowDetail(d Detail) {
	if r, ok := m.Selected(); !ok || r.Seq != d.Seq {
		return
	}
	m.detail, m.showing, m.side.X = d, true, 0
	m.layDetail()
	m.body.GotoTop()
}

// layDetail lays out the request shown at the pane's width: its title
// and lines wrapped at words, its bodies as they are (a line wider than
// the pane scrolls sideways).
func (m *Model) layDetail() {
	d := m.detail
	m.title = nil
	for i, l := range common.WrapWords(string(d.Title), m.width) {
		if i == 0 {
			l = m.styles.Title.Render(l)
		}
		m.title = append(m.title, l)
	}
	for _, l := range d.Lines {
		m.title = append(m.title, common.WrapWords(string(l), m.width)...)
	}
	var b strings.Builder
	section := func(name string, text escape.Text) {
		b.WriteString(m.styles.ColumnTitle.Render(name) + "\n")
		if text == "" {
			b.WriteString(m.styles.Muted.Render("(none)") + "\n")
			return
		}
		b.WriteString(string(text) + "\n")
	}
	request := "request body"
	if d.ContentType != "" {
		request += " (" + string(d.ContentType) + ")"
	}
	section(request, d.Request)
	b.WriteString("\n")
	section("answer's body", d.Answer)
	m.body.SetSize(m.width, m.height, len(m.title))
	text := strings.TrimSuffix(b.String(), "\n")
	m.body.SetContent(text)
	m.side.Measure(text)
	m.side.X = min(m.side.X, max(0, m.side.Longest-m.width))
}

// hideDetail goes back to the rows.
func (m *Model) hideDetail() { m.showing, m.title = false, nil }

// listHeight is how many rows fit under the title and the heading, over
// the strip.
func (m Model) listHeight() int { return max(1, m.height-2-m.stripHeight()) }

// scroll keeps the selection in view.
func (m *Model) scroll() { m.cur.Show(len(m.rows), m.listHeight()) }

// View draws the rows in view, or the selected request's bodies.
func (m Model) View() string {
	if m.showing {
		return strings.Join(m.title, "\n") + "\n" + m.bodyView()
	}
	title := fmt.Sprintf("requests kedit sent and watch events it read: %s, newest last", words.Count(len(m.rows), "row"))
	if len(m.rows) > 0 && m.rows[0].Seq > 1 {
		// The log is bounded: the oldest rows go first.
		title += fmt.Sprintf(" (%s let go)", words.Count(int(m.rows[0].Seq-1), "older row"))
	}
	lines := []string{m.styles.Title.Render(ansi.Truncate(title, m.width, "…"))}
	if len(m.rows) == 0 {
		return strings.Join(append(lines, m.styles.Muted.Render("nothing sent yet")), "\n")
	}
	pathW := m.pathWidth()
	x := m.x
	if x > 0 {
		// Rows wider than the pane may have scrolled out of view.
		x = min(x, m.maxX())
	}
	if h := m.heading; h.text == "" || h.width != m.width || h.pathW != pathW || h.x != x {
		*h = heading{width: m.width, pathW: pathW, x: x,
			text: m.styles.ColumnTitle.Render(m.shown(m.line("TIME", "METHOD", "PATH", "RV SENT", "STATUS", "RV BACK", "TOOK", "", pathW), x))}
	}
	lines = append(lines, m.heading.text)
	// A style's codes around a line, taken once a frame: a line of a
	// keystroke's frame costs no rendering of its own.
	failedOn, failedOff := around(m.styles.Error)
	end := min(len(m.rows), m.cur.Offset+m.listHeight())
	for i := m.cur.Offset; i < end; i++ {
		r := m.rows[i]
		line := m.shown(m.rowLine(r, pathW), x)
		switch {
		case i == m.cur.Selected:
			line = m.styles.Selected.Render(line)
		case r.Failed:
			line = failedOn + line + failedOff
		}
		lines = append(lines, line)
	}
	if strip := m.strip(); strip != nil {
		for len(lines) < 2+m.listHeight() {
			lines = append(lines, "")
		}
		lines = append(lines, strip...)
	}
	return strings.Join(lines, "\n")
}

// around is what style puts before and after a one-line text.
func around(style lipgloss.Style) (before, after string) {
	before, after, _ = strings.Cut(style.Render("\x00"), "\x00")
	return before, after
}

// width is s's width in cells: its length when it is ASCII, as a path
// and a resourceVersion are.
func width(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return ansi.StringWidth(s)
		}
	}
	return len(s)
}

// cut cuts s to w cells with a … where it goes on.
func cut(s string, w int) string {
	if len(s) <= w {
		return s // at most len(s) cells
	}
	return ansi.Truncate(s, w, "…")
}

// The columns' widths besides the path's.
const (
	timeW, methodW, rvW, statusW, tookW = 12, 6, 8, 12, 8
)

// pathWidth is the path column's: the longest path in view, at most a
// third of the width.
func (m Model) pathWidth() int {
	w := 4
	end := min(len(m.rows), m.cur.Offset+m.listHeight())
	for i := m.cur.Offset; i < end; i++ {
		w = max(w, width(string(m.rows[i].Path)))
	}
	return min(w, max(16, m.width/3))
}

// rowLine is one row, whole: View cuts it to the width.
func (m Model) rowLine(r Row, pathW int) string {
	sent, back, took := string(r.SentRV), string(r.ReturnedRV), r.Latency.String()
	if r.Method == "WATCH" {
		took = ""
	} else if sent == "" {
		sent = "none"
	}
	if r.Status == "no answer" {
		back, took = "", "after "+took
	}
	said := string(r.Said)
	if r.By != "" {
		// As a watch event names its writer.
		said = strings.TrimSuffix("by "+string(r.By)+"; "+said, "; ")
	}
	return m.line(r.Time.Format("15:04:05.000"), r.Method, string(r.Path), sent, string(r.Status), back, took, said, pathW)
}

// line lays out one line's columns; a path too long keeps its end, where
// the object's name is.
func (m Model) line(at, method, path, sent, status, back, took, said string, pathW int) string {
	if w := width(path); w > pathW {
		path = ansi.TruncateLeft(path, w-pathW+1, "…")
	}
	var b strings.Builder
	b.Grow(timeW + methodW + pathW + 2*rvW + statusW + tookW + 8 + len(said))
	for _, c := range [...]struct {
		text string
		w    int
	}{{at, timeW}, {method, methodW}, {path, pathW}, {sent, rvW}, {status, statusW}, {back, rvW}, {took, tookW}} {
		b.WriteString(c.text)
		for n := width(c.text); n <= c.w; n++ {
			b.WriteByte(' ')
		}
	}
	b.WriteString(said)
	return strings.TrimRight(b.String(), " ")
}

// ShortHelp is the footer's keys.
func (m Model) ShortHelp() []key.Binding {
	if m.showing {
		if m.side.Longest > m.width || m.side.X > 0 {
			return []key.Binding{m.keys.Up, m.keys.Down, m.keys.Left, m.keys.Right, m.keys.Back}
		}
		return []key.Binding{m.keys.Up, m.keys.Down, m.keys.Back}
	}
	bindings := []key.Binding{m.keys.Up, m.keys.Down, m.keys.Show, m.keys.Close}
	if m.Wider() {
		bindings = append(bindings, m.keys.Left, m.keys.Right)
	}
	return bindings
}

// FullHelp is every key of the pane, for the help page.
func (m Model) FullHelp() [][]key.Binding {
	k := m.keys
	return [][]key.Binding{
		{k.Up, k.Down, k.PageUp, k.PageDown, k.HalfPageUp, k.HalfPageDown, k.Home, k.End, k.Left, k.Right},
		{k.Show, k.Back, k.Close, k.Open, k.OpenInEditor},
		{k.Help, k.Quit, k.ForceQuit},
	}
}
