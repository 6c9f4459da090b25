package diff

import (
	"strings"
)

// render writes the merged text (xdl_fill_merge_buffer): mine's lines
// between regions, the side a clean region takes, and for a conflict its
// block, or with a favor the favored lines.
func (m *merge3) render(list []xdmerge, opts TextOptions) string {
	var b strings.Builder
	b.Grow(len(m.mine) + len(m.theirs)/16 + 64)
	i := 0
	for k := range list {
		e := &list[k]
		mode := e.mode
		if mode == modeConflict && opts.Favor != FavorNone {
			mode = int(opts.Favor)
		}
		switch mode {
		case modeConflict:
			m.fillConflict(&b, i, e, opts)
		case modeMine, modeTheirs, modeUnion:
			recsCopy(&b, m.mineL, i, e.i1-i, false, false)
			if mode&modeMine != 0 {
				// The union ends mine's lines with a line end before
				// theirs', in the style of the lines around.
				union := mode&modeTheirs != 0
				recsCopy(&b, m.mineL, e.i1, e.chg1, union && m.crNeeded(*e), union)
			}
			if mode&modeTheirs != 0 {
				recsCopy(&b, m.theirsL, e.i2, e.chg2, false, false)
			}
		default:
			// modeBoth: mine's lines are theirs, copied with the rest.
			continue
		}
		i = e.i1 + e.chg1
	}
	recsCopy(&b, m.mineL, i, m.mineL.n()-i, false, false)
	return b.String()
}

// fillConflict writes mine's lines from i up to the conflict, then its
// block (fill_conflict_hunk), with base's lines in the diff3 styles. Inside
// the block every side ends with a line end, in CRLF when the texts around
// use CRLF, as git does.
func (m *merge3) fillConflict(b *strings.Builder, i int, e *xdmerge, opts TextOptions) {
	needsCR := m.crNeeded(*e)
	size, labels := opts.MarkerSize, opts.Labels
	recsCopy(b, m.mineL, i, e.i1-i, false, false)
	writeMarker(b, '<', size, labels.Mine, true, needsCR)
	recsCopy(b, m.mineL, e.i1, e.chg1, needsCR, true)
	if opts.Style != StyleMerge {
		writeMarker(b, '|', size, labels.Base, true, needsCR)
		recsCopy(b, m.baseL, e.i0, e.chg0, needsCR, true)
	}
	writeMarker(b, '=', size, "", false, needsCR)
	recsCopy(b, m.theirsL, e.i2, e.chg2, needsCR, true)
	writeMarker(b, '>', size, labels.Theirs, true, needsCR)
}

// writeMarker writes a marker line, with a space and the label when
// labelled: git writes the space even for an empty label.
func writeMarker(b *strings.Builder, c byte, size int, label string, labelled, cr bool) {
	for k := 0; k < size; k++ {
		b.WriteByte(c)
	}
	if labelled {
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
