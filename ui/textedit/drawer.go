package textedit

import (
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"
)

// drawer writes a row, drawing each run of one class in its style.
type drawer struct {
	b           *strings.Builder
	st          *Styles
	sgr         *sgrCache
	cls         class
	run         []byte
	cells       int // cells written in the text area so far
	hl, matches []span
}

// sgrCache holds what each class's style puts around text, for one colour
// profile. A style is rendered once, on a letter, and runs are wrapped in
// what it put around it: lipgloss's Render, called per run, cost more than
// everything else a keystroke does.
type sgrCache struct {
	profile  termenv.Profile
	done     [nClasses]bool
	pre, suf [nClasses]string
}

// unit draws the unit u of bytes raw, whose display column is x, cut to
// the columns from left to right.
func (d *drawer) unit(cls class, raw string, u unit, x, left, right int) {
	text := raw
	if u.esc != "" {
		text = u.esc
	}
	from, to := max(x, left), min(x+u.w, right)
	if from >= to {
		return
	}
	if from > x || to < x+u.w {
		// Cut by an edge of the screen: an escape shows the part of it
		// that fits, a wide character blanks.
		if u.esc == "" {
			if cls != d.cls {
				d.flush()
				d.cls = cls
			}
			d.cells += to - from
			d.spaces(to - from)
			return
		}
		text = u.esc[from-x : to-x]
	}
	d.put(cls, text, to-from)
}

// blanks are what padding is cut from.
const blanks = "                                                                "

// blank adds n blank cells to the row, unstyled.
func (d *drawer) blank(n int) {
	if d.cls != clsPlain {
		d.flush()
		d.cls = clsPlain
	}
	d.cells += n
	d.spaces(n)
}

// spaces adds n spaces to the run.
func (d *drawer) spaces(n int) {
	for n > 0 {
		k := min(n, len(blanks))
		d.run = append(d.run, blanks[:k]...)
		n -= k
	}
}

// put adds text of the given class and width to the row.
func (d *drawer) put(cls class, text string, cells int) {
	if cls != d.cls {
		d.flush()
		d.cls = cls
	}
	d.run = append(d.run, text...)
	d.cells += cells
}

// pad fills the text area up to width cells with blanks and ends the row.
func (d *drawer) pad(width int) {
	if d.cells < width {
		d.blank(width - d.cells)
	}
	d.flush()
	d.cells = 0
}

// note draws a note's row: blank under the gutter (gw cells), then text
// cut to the text area's tw cells.
func (d *drawer) note(text string, gw, tw int) {
	text = ansi.Truncate(text, tw, "…")
	d.blank(gw)
	d.cells = 0
	d.put(clsNote, text, ansi.StringWidth(text))
	d.pad(tw)
}

// flush writes the run so far in its class's style.
func (d *drawer) flush() {
	if len(d.run) == 0 {
		return
	}
	c, sgr := d.cls, d.sgr
	if !sgr.done[c] {
		sgr.done[c] = true
		if st := d.style(c); st != nil {
			out := st.Render("x")
			if i := strings.IndexByte(out, 'x'); i >= 0 {
				sgr.pre[c], sgr.suf[c] = out[:i], out[i+1:]
			}
		}
	}
	d.b.WriteString(sgr.pre[c])
	d.b.Write(d.run)
	d.b.WriteString(sgr.suf[c])
	d.run = d.run[:0]
}

func (d *drawer) style(c class) *lipgloss.Style {
	switch c {
	case clsKey:
		return &d.st.Key
	case clsString:
		return &d.st.String
	case clsComment:
		return &d.st.Comment
	case clsMarker:
		return &d.st.Marker
	case clsEscape:
		return &d.st.Escape
	case clsMatch:
		return &d.st.Match
	case clsCurrentMatch:
		return &d.st.CurrentMatch
	case clsCursor:
		return &d.st.Cursor
	case clsSelection:
		return &d.st.Selection
	case clsLineNumber:
		return &d.st.LineNumber
	case clsCursorLineNumber:
		return &d.st.CursorLineNumber
	case clsNoteLineNumber:
		return &d.st.NoteLineNumber
	case clsAdded:
		return &d.st.Added
	case clsChanged:
		return &d.st.Changed
	case clsDeleted:
		return &d.st.Deleted
	case clsNote:
		return &d.st.Note
	}
	return nil
}
