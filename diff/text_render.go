package diff

import (
	"strings"
)

// render writes the merged text (xdl_fill_merge_buffer without a favored
// side): mine's lines between regions, the side a clean region takes, and a
// diff3 block for every conflict.
func (m *merge3) render(list []xdmerge, labels Labels, markerSize int) string {
	var b strings.Builder
	b.Grow(len(m.mine) + len(m.theirs)/16 + 64)
	i := 0
	for _, e := range list {
		switch e.mode {
		case modeConflict:
			m.fillConflict(&b, i, e, labels, markerSize)
		case modeMine:
			recsCopy(&b, m.mineL, i, e.i1-i, false, false)
			recsCopy(&b, m.mineL, e.i1, e.chg1, false, false)
		case modeTheirs:
			recsCopy(&b, m.mineL, i, e.i1-i, false, false)
			recsCopy(&b, m.theirsL, e.i2, e.chg2, false, false)
		}
		i = e.i1 + e.chg1
	}
	recsCopy(&b, m.mineL, i, m.mineL.n()-i, false, false)
	return b.String()
}

// fillConflict writes mine's lines from i up to the conflict, then its
// diff3 block (fill_conflict_hunk). Inside the block every side ends with a
// line end, in CRLF when the texts around use CRLF, as git does.
func (m *merge3) fillConflict(b *strings.Builder, i int, e xdmerge, labels Labels, markerSize int) {
	needsCR := m.crNeeded(e)
	recsCopy(b, m.mineL, i, e.i1-i, false, false)
	writeMarker(b, '<', markerSize, labels.Mine, needsCR)
	recsCopy(b, m.mineL, e.i1, e.chg1, needsCR, true)
	writeMarker(b, '|', markerSize, labels.Base, needsCR)
	recsCopy(b, m.baseL, e.i0, e.chg0, needsCR, true)
	writeMarker(b, '=', markerSize, "", needsCR)
	recsCopy(b, m.theirsL, e.i2, e.chg2, needsCR, true)
	writeMarker(b, '>', markerSize, labels.Theirs, needsCR)
}

// writeMarker writes a marker line; an empty label gives a bare marker, as
// git writes when it has no name for a side.
func writeMarker(b *strings.Builder, c byte, size int, label string, cr bool) {
	for k := 0; k < size; k++ {
		b.WriteByte(c)
	}
	if label != "" {
		b.WriteByte(' ')
		b.WriteString(label)
	}
	if cr {
		b.WriteByte('\r')
	}
	b.WriteByte('\n')
}

// recsCopy writes count lines from i; with addNL a last line lacking its
// line end gets one (xdl_recs_copy_0).
func recsCopy(b *strings.Builder, t textLines, i, count int, needsCR, addNL bool) {
	if count < 1 || i < 0 || i >= t.n() {
		return
	}
	count = min(count, t.n()-i)
	b.WriteString(t.span(i, count))
	if addNL {
		if last := t.line(i + count - 1); last == "" || last[len(last)-1] != '\n' {
			if needsCR {
				b.WriteByte('\r')
			}
			b.WriteByte('\n')
		}
	}
}

// eolCRLF tells whether line i ends in CRLF: 1 yes, 0 no, -1 unknown
// (is_eol_crlf). A last line without a line end takes the style of the line
// before it.
func eolCRLF(t textLines, i int) int {
	n := t.n()
	crlf := func(l string) int {
		if len(l) > 1 && l[len(l)-2] == '\r' {
			return 1
		}
		return 0
	}
	if i < n-1 {
		return crlf(t.line(max(i, 0)))
	}
	if n == 0 {
		return -1
	}
	i = min(i, n-1)
	if l := t.line(i); l != "" && l[len(l)-1] == '\n' {
		return crlf(l)
	}
	if i == 0 {
		return -1
	}
	return crlf(t.line(i - 1))
}

// crNeeded decides whether a conflict block uses CRLF (is_cr_needed): the
// line before the region in mine, then in theirs, then base's first line,
// and LF when still undecided.
func (m *merge3) crNeeded(e xdmerge) bool {
	prev := func(i int) int {
		if i > 0 {
			return i - 1
		}
		return 0
	}
	needs := eolCRLF(m.mineL, prev(e.i1))
	if needs != 0 {
		needs = eolCRLF(m.theirsL, prev(e.i2))
	}
	if needs != 0 {
		needs = eolCRLF(m.baseL, 0)
	}
	return needs > 0
}
