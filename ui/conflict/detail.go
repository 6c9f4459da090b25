package conflict

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/model"
	"github.com/kedit/kedit/ui/common"
)

// The detail below the conflict view's list: the selected entry's
// versions (base, theirs and mine of a conflict; base and its side's of a
// merged change), side by side from wideWidth columns on, stacked below.
//
// Each version starts at its colliding lines (a few lines of context
// above when there is room), so that a long config file shows its
// conflict rather than its first lines. Every version gets rows of its own
// at any height the list leaves room for: the rows are shared out among
// them, none taking more than it has lines to show. What does not fit is
// counted (… 9 lines above, 21 below) and reached with pgdn and pgup,
// which move all versions together so that their lines stay side by side.
// A line wider than its column shows a window around its first difference
// from the other versions (…fghEND), so that what differs is in view.

// detailColumn is one version in the detail: its title, its text, the line
// it starts at and how many lines from there are the change.
type detailColumn struct {
	title   escape.Text
	text    string
	from, n int
}

// section is one version as the detail lays it out.
type section struct {
	col   detailColumn
	lines []string
	// start is the first line shown with no scrolling: the change, with
	// context above when there is room.
	start int
	// rows is how many of its lines it shows.
	rows int
}

// selectedColumns returns the versions of the selected entry, and base's
// text (lines that differ from it are highlighted); none while theirs is
// read or with nothing selected.
func (m Model) selectedColumns() (string, []detailColumn) {
	switch {
	case m.waiting:
		return "", nil
	case m.selected < len(m.rows):
		r := m.rows[m.selected]
		theirsTitle := "theirs (rv " + m.theirsRV + ")"
		if m.ownership {
			theirsTitle += ", owned by " + r.manager
		}
		titles := [3]escape.Text{"base (rv " + m.baseRV + ")", theirsTitle, "mine"}
		if m.lost != nil {
			titles = m.lost.columns
		}
		base := m.shown(r.secret, r.base)
		return base, []detailColumn{
			{titles[0], base, r.from[0], r.span[0]},
			{titles[1], m.shown(r.secret, r.theirs), r.from[1], r.span[1]},
			{titles[2], m.shown(r.secret, r.mine), r.from[2], r.span[2]},
		}
	case m.selected-len(m.rows) < len(m.merged):
		r := m.merged[m.selected-len(m.rows)]
		before := m.shown(r.secret, r.before)
		return before, []detailColumn{
			{"base (rv " + m.baseRV + ")", before, r.from[0], r.span[0]},
			{m.sideTitle(r), m.shown(r.secret, r.after), r.from[1], r.span[1]},
		}
	}
	return "", nil
}

// sections shares height rows out among cols: in columns each has them
// all; stacked, each gets a title row and a share of the rest, a version
// with few lines no more than it shows, the others what it leaves, and a
// blank row between two when there is room (gap).
func (m Model) sections(height int, cols []detailColumn) (secs []section, gap bool) {
	secs = make([]section, len(cols))
	for i, c := range cols {
		secs[i] = section{col: c, lines: strings.Split(c.text, "\n")}
	}
	budget := height - 1 // the title row
	if !m.Wide() {
		budget = height - len(cols) // a title row each
		if gap = budget-(len(cols)-1) >= 2*len(cols); gap {
			budget -= len(cols) - 1 // a blank row between two versions
		}
	}
	if m.Wide() {
		for i := range secs {
			secs[i].rows = max(0, budget)
		}
	} else {
		need := make([]int, len(secs))
		for i, s := range secs {
			need[i] = len(s.lines)
		}
		for i, r := range shareRows(max(0, budget), need) {
			secs[i].rows = r
		}
	}
	for i := range secs {
		s := &secs[i]
		// Context above the change when the rows allow the change and as
		// much below it.
		context := min(contextLines, max(0, (s.rows-max(1, s.col.n))/2))
		s.start = max(0, min(s.col.from-context, len(s.lines)-s.rows))
	}
	return secs, gap
}

// shareRows shares rows among versions that need need[i] rows each:
// equally, except that one needing fewer takes only those, and what it
// leaves goes to the others.
func shareRows(rows int, need []int) []int {
	got := make([]int, len(need))
	open := len(need)
	for open > 0 && rows > 0 {
		share := max(1, rows/open)
		for i := range need {
			if got[i] >= need[i] || rows == 0 {
				continue
			}
			add := min(share, need[i]-got[i], rows)
			got[i] += add
			rows -= add
			if got[i] >= need[i] {
				open--
			}
		}
	}
	return got
}

// offsetRange is how far the versions scroll: lo (negative, up to the
// first line of the version with most above its start) to hi (down to the
// last line of the longest).
func offsetRange(secs []section) (lo, hi int) {
	for _, s := range secs {
		if s.rows == 0 {
			continue
		}
		lo = min(lo, -s.start)
		hi = max(hi, len(s.lines)-s.rows-s.start)
	}
	return lo, hi
}

// detailLayout is the versions of the selected entry laid out in rows.
type detailLayout struct {
	base string
	secs []section
	gap  bool
	// lo and hi are the range the offset may take.
	lo, hi int
}

// layoutDetail lays the selected entry's versions out in height rows.
func (m Model) layoutDetail(height int) detailLayout {
	base, cols := m.selectedColumns()
	d := detailLayout{base: base}
	if len(cols) == 0 || height < 1 {
		return d
	}
	d.secs, d.gap = m.sections(height, cols)
	d.lo, d.hi = offsetRange(d.secs)
	return d
}

// detailHeight is how many rows the detail has below the list.
func (m Model) detailHeight() int { return m.height - len(m.topLines()) }

// detailCut reports whether the selected entry's versions do not fit the
// screen, so that pgdn and pgup scroll them.
func (m Model) detailCut() bool {
	d := m.layoutDetail(m.detailHeight())
	return d.lo < 0 || d.hi > 0
}

// scrollDetail moves the versions by a page, down when down is set, else
// up: a page is the rows of the shortest version but one, which stays in
// view (in columns, less the two rows that count what is cut).
func (m *Model) scrollDetail(down bool) {
	d := m.layoutDetail(m.detailHeight())
	page := 0
	for _, s := range d.secs {
		if s.rows > 0 && (page == 0 || s.rows < page) {
			page = s.rows
		}
	}
	page--
	if m.Wide() {
		page -= 2
	}
	page = max(1, page)
	if !down {
		page = -page
	}
	m.detailOff = max(d.lo, min(d.hi, max(d.lo, min(d.hi, m.detailOff))+page))
}

// detail draws the selected entry's versions in height rows.
func (m Model) detail(height int) string {
	d := m.layoutDetail(height)
	secs := d.secs
	if len(secs) == 0 {
		return ""
	}
	off := max(d.lo, min(d.hi, m.detailOff))
	baseLines := map[string]bool{}
	// The versions were escaped (and their escapes styled) by common.DisplayValue.
	for _, l := range strings.Split(d.base, "\n") {
		baseLines[l] = true
	}
	if m.Wide() {
		w := (m.width - 2) / len(secs)
		var parts []string
		for i := range secs {
			rows := m.drawSection(secs, i, off, w-1, baseLines, true)
			parts = append(parts, m.styles.Column.Width(w).Render(strings.Join(rows, "\n")))
		}
		return lipgloss.JoinHorizontal(lipgloss.Top, parts...)
	}
	var out []string
	for i := range secs {
		if i > 0 && d.gap {
			out = append(out, "")
		}
		out = append(out, m.drawSection(secs, i, off, m.width, baseLines, false)...)
	}
	return strings.Join(out, "\n")
}

// drawSection draws version i of secs scrolled by off within width
// columns: its title, then its rows. In columns the lines above and below
// are counted on rows of their own, stacked on the title's row.
func (m Model) drawSection(secs []section, i, off, width int, baseLines map[string]bool, inColumns bool) []string {
	st := m.styles
	s := secs[i]
	start := max(0, min(s.start+off, len(s.lines)-s.rows))
	end := min(len(s.lines), start+s.rows)
	above, below := start, len(s.lines)-end
	if inColumns && s.rows >= 3 {
		// The counts take rows of the column, in place of its first and
		// last lines: its title is too narrow for them.
		if above > 0 {
			start++
			above++
		}
		if below > 0 {
			end--
			below++
		}
		end = max(end, start)
	}
	title := st.ColumnTitle.Render(ansi.Truncate(string(s.col.title), width, "…"))
	if !inColumns {
		if count := cutCount(above, below); count != "" {
			title = st.ColumnTitle.Render(string(s.col.title)) + st.Muted.Render("  "+count)
			title = ansi.Truncate(title, width, "…")
		}
	}
	out := []string{title}
	if inColumns && s.rows >= 3 && above > 0 {
		out = append(out, st.Muted.Render(ansi.Truncate(fmt.Sprintf("… %s above", lineText(above)), width, "…")))
	}
	for j := start; j < end; j++ {
		l := s.lines[j]
		changed := i > 0 && !baseLines[l]
		if ansi.StringWidth(l) > width {
			l = windowAround(st, l, firstDifference(secs, i, j), width)
		}
		if changed {
			l = st.Changed.Render(l)
		}
		out = append(out, l)
	}
	if inColumns && s.rows >= 3 && below > 0 {
		out = append(out, st.Muted.Render(ansi.Truncate(fmt.Sprintf("… %s below", lineText(below)), width, "…")))
	}
	return out
}

// cutCount says how many lines of a version are out of view.
func cutCount(above, below int) string {
	switch {
	case above > 0 && below > 0:
		return fmt.Sprintf("… %s above, %d below", lineText(above), below)
	case above > 0:
		return "… " + lineText(above) + " above"
	case below > 0:
		return "… " + lineText(below) + " below"
	}
	return ""
}

// firstDifference is the first column where line j of version i differs
// from the line beside it in another version (the versions' lines are
// beside each other from their starts on); 0 when it differs from none.
func firstDifference(secs []section, i, j int) int {
	l := ansi.Strip(secs[i].lines[j])
	first := -1
	for q, o := range secs {
		if q == i {
			continue
		}
		k := j - secs[i].col.from + o.col.from
		other := ""
		if k >= 0 && k < len(o.lines) {
			other = ansi.Strip(o.lines[k])
		}
		if other == l {
			continue
		}
		if d := diffColumn(l, other); first < 0 || d < first {
			first = d
		}
	}
	return max(first, 0)
}

// diffColumn is the display column of the first grapheme where a and b
// differ.
func diffColumn(a, b string) int {
	col := 0
	for a != "" && b != "" {
		ca, wa := ansi.FirstGraphemeCluster(a, ansi.GraphemeWidth)
		cb, _ := ansi.FirstGraphemeCluster(b, ansi.GraphemeWidth)
		if ca != cb {
			break
		}
		col += wa
		a, b = a[len(ca):], b[len(cb):]
	}
	return col
}

// windowAround shows line l, wider than width, in width columns around
// column d: from its start when d is in view there, else with d in the
// middle (or the line's end at the right edge); a "…" on either edge
// where the line goes on.
func windowAround(st *common.Styles, l string, d, width int) string {
	w := ansi.StringWidth(l)
	x := 0
	if d >= width-1 {
		x = max(0, min(d-width/2, w-width))
	}
	return strings.TrimRight(common.CutSideways(st, l, 0, x, width), " ")
}

// lineText is n lines, in words.
func lineText(n int) string { return model.Count(n, "line") }
