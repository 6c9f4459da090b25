package diff

import (
	"bytes"
	"sort"
)

// DefaultMarkerSize is the length of conflict markers when TextOptions does
// not set one, as git's DEFAULT_CONFLICT_MARKER_SIZE.
const DefaultMarkerSize = 7

// Merge3Text merges mine and theirs, both derived from base, line by line in
// the diff3 way: a region only one side changed takes that side, a region
// both sides changed identically is taken once, and overlapping different
// changes become conflicts, written as
//
//	<<<<<<< mine
//	(mine's lines)
//	||||||| base
//	(base's lines)
//	=======
//	(theirs' lines)
//	>>>>>>> theirs
//
// Merged is byte for byte what git merge-file (git 2.39) writes with the
// flags that opts stand for, `git merge-file -p --diff3 -L mine -L base -L
// theirs MINE BASE THEIRS` for the zero opts, including how lines without a
// final newline and CRLF line ends are handled, and Conflicts is the count
// git reports (before git caps its exit code at 127). Git's merge-file does
// not lengthen markers by itself; neither does Merge3Text, so that the
// output stays git's. Callers that need longer markers pass
// opts.MarkerSize, as `--marker-size` does for git.
//
// Hunks lists the changed regions, clean and conflicting, with a clean
// region both sides changed alike reported once.
//
// Texts are treated as bytes; git refuses texts with a NUL byte in their
// first 8000 bytes as binary (IsBinary), Merge3Text merges them anyway.
func Merge3Text(mine, base, theirs string, opts TextOptions) TextMerge {
	if opts.Labels == nil {
		opts.Labels = &DefaultLabels
	}
	if opts.MarkerSize <= 0 {
		opts.MarkerSize = DefaultMarkerSize
	}
	m := newMerge3(mine, base, theirs)
	return m.run(opts)
}

// binaryProbe is how many leading bytes IsBinary looks at, git's
// FIRST_FEW_BYTES.
const binaryProbe = 8000

// IsBinary reports whether git takes data for binary and refuses to merge
// it: a NUL byte in its first 8000 bytes (git's buffer_is_binary).
func IsBinary(data []byte) bool {
	return bytes.IndexByte(data[:min(len(data), binaryProbe)], 0) >= 0
}

// merge3 holds the three texts split into lines and their line classes.
type merge3 struct {
	mine, base, theirs    string
	mineL, baseL, theirsL textLines
	// h0, h1, h2 are the classes of base, mine and theirs lines, numbered
	// below nclass.
	h0, h1, h2 []int32
	nclass     int
}

func newMerge3(mine, base, theirs string) *merge3 {
	m := &merge3{mine: mine, base: base, theirs: theirs}
	m.baseL = newTextLines(base)
	m.mineL = newTextLines(mine)
	m.theirsL = newTextLines(theirs)
	cf := newClassifier(m.baseL.n() + m.baseL.n()/8 + 16)
	m.h0 = cf.classify(m.baseL)
	m.h1 = cf.classifyAlong(m.mineL, m.baseL, m.h0)
	m.h2 = cf.classifyAlong(m.theirsL, m.baseL, m.h0)
	m.nclass = len(cf.ids)
	return m
}

// xdmerge is one region of the merge (xdmerge_t), its mode one of the
// mode constants; i0/chg0 locate it in base, i1/chg1 in mine and i2/chg2
// in theirs.
type xdmerge struct {
	mode                         int
	i0, chg0, i1, chg1, i2, chg2 int
}

// The modes of a region, git's numbers: bit 1 takes mine, bit 2 theirs.
const (
	modeConflict = 0
	modeMine     = 1
	modeTheirs   = 2
	// modeUnion takes mine's lines then theirs', the union favor.
	modeUnion = 3
	// modeBoth marks a change both sides made identically. The merged text
	// copies mine there; the diff3 merge keeps such regions apart from its
	// list only to report them as hunks, and the merge style's refining
	// marks a conflict that turns out identical so.
	modeBoth = 4
)

// appendMerge adds a region, or extends the last one when they overlap in
// mine or theirs, downgrading it to a conflict if the modes differ
// (xdl_append_merge).
func appendMerge(list []xdmerge, mode, i0, chg0, i1, chg1, i2, chg2 int) []xdmerge {
	if n := len(list); n > 0 {
		m := &list[n-1]
		if i1 <= m.i1+m.chg1 || i2 <= m.i2+m.chg2 {
			if mode != m.mode {
				m.mode = modeConflict
			}
			m.chg0 = i0 + chg0 - m.i0
			m.chg1 = i1 + chg1 - m.i1
			m.chg2 = i2 + chg2 - m.i2
			return list
		}
	}
	return append(list, xdmerge{mode: mode, i0: i0, chg0: chg0, i1: i1, chg1: chg1, i2: i2, chg2: chg2})
}

func (m *merge3) run(opts TextOptions) TextMerge {
	c0 := countClasses(m.h0, m.nclass)
	s1 := xdiffScript(m.h0, m.h1, c0, countClasses(m.h1, m.nclass))
	s2 := xdiffScript(m.h0, m.h2, c0, countClasses(m.h2, m.nclass))

	// As xdl_merge: when one side did not change base, the result is the
	// other side, byte for byte, whatever the style and favor.
	if len(s1) == 0 {
		return TextMerge{Merged: m.theirs, Hunks: m.oneSideHunks(s2, modeTheirs)}
	}
	if len(s2) == 0 {
		return TextMerge{Merged: m.mine, Hunks: m.oneSideHunks(s1, modeMine)}
	}

	list, both := m.doMerge(s1, s2)
	res := TextMerge{Hunks: m.hunks(list, both)}
	switch opts.Style {
	case StyleMerge:
		list = m.simplifyNonConflicts(m.refineConflicts(list))
	case StyleZDiff3:
		m.refineZDiff3(list)
	}
	res.Merged = m.render(list, opts)
	if opts.Favor == FavorNone {
		for _, e := range list {
			if e.mode == modeConflict {
				res.Conflicts++
			}
		}
	}
	return res
}

// oneSideHunks reports the changes of the only side that changed base.
func (m *merge3) oneSideHunks(s []xdchange, mode int) []Hunk {
	hunks := make([]Hunk, 0, len(s))
	for _, c := range s {
		e := xdmerge{mode: mode, i0: c.i1, chg0: c.chg1}
		if mode == modeMine {
			e.i1, e.chg1, e.i2, e.chg2 = c.i2, c.chg2, c.i1, c.chg1
		} else {
			e.i1, e.chg1, e.i2, e.chg2 = c.i1, c.chg1, c.i2, c.chg2
		}
		hunks = append(hunks, m.hunk(e))
	}
	return hunks
}

// hunks turns the merge regions, and the identical changes git folds into
// the copied text, into Hunks in text order.
func (m *merge3) hunks(list, both []xdmerge) []Hunk {
	all := make([]xdmerge, 0, len(list)+len(both))
	all = append(all, list...)
	// Skip an identical change that a wider region already covers. Both
	// lists run in base order, so one walk finds the candidates.
	j := 0
	for _, b := range both {
		for j < len(list) && list[j].i0+list[j].chg0 < b.i0 {
			j++
		}
		inside := false
		for _, e := range list[j:min(j+2, len(list))] {
			if e.i0 <= b.i0 && b.i0+b.chg0 <= e.i0+e.chg0 &&
				e.i1 <= b.i1 && b.i1+b.chg1 <= e.i1+e.chg1 {
				inside = true
			}
		}
		if !inside {
			all = append(all, b)
		}
	}
	sort.SliceStable(all, func(a, b int) bool {
		if all[a].i1 != all[b].i1 {
			return all[a].i1 < all[b].i1
		}
		return all[a].i0 < all[b].i0
	})
	hunks := make([]Hunk, len(all))
	for k, e := range all {
		hunks[k] = m.hunk(e)
	}
	return hunks
}

func (m *merge3) hunk(e xdmerge) Hunk {
	var side Side
	switch e.mode {
	case modeMine:
		side = SideMine
	case modeTheirs:
		side = SideTheirs
	case modeBoth:
		side = SideBoth
	}
	return Hunk{
		Conflict:    e.mode == modeConflict,
		Side:        side,
		Base:        LineRange{Start: e.i0, Len: e.chg0},
		Mine:        LineRange{Start: e.i1, Len: e.chg1},
		Theirs:      LineRange{Start: e.i2, Len: e.chg2},
		BaseLines:   m.baseL.lines(e.i0, e.chg0),
		MineLines:   m.mineL.lines(e.i1, e.chg1),
		TheirsLines: m.theirsL.lines(e.i2, e.chg2),
	}
}

// subLines returns n lines from i, capped so that a caller appending to the
// result cannot overwrite the lines after it.
func subLines(lines []string, i, n int) []string {
	i = min(max(i, 0), len(lines))
	j := min(max(i+n, i), len(lines))
	return lines[i:j:j]
}

// sameLines reports whether chg lines of mine at i1 equal those of theirs at
// i2 (xdl_merge_cmp_lines).
func (m *merge3) sameLines(i1, i2, chg int) bool {
	for k := 0; k < chg; k++ {
		if m.h1[i1+k] != m.h2[i2+k] {
			return false
		}
	}
	return true
}

// doMerge walks the two scripts (base to mine, base to theirs) in step and
// builds the merge regions as xdl_do_merge does at level XDL_MERGE_EAGER,
// the level git uses for the diff3 style (no refining of conflicts, no
// simplifying). Identical changes are returned apart.
func (m *merge3) doMerge(s1, s2 []xdchange) (list, both []xdmerge) {
	n1, n2 := 0, 0
	for n1 < len(s1) && n2 < len(s2) {
		c1, c2 := &s1[n1], &s2[n2]
		if c1.i1+c1.chg1 < c2.i1 {
			list = appendMerge(list, modeMine,
				c1.i1, c1.chg1, c1.i2, c1.chg2, c2.i2-c2.i1+c1.i1, c1.chg1)
			n1++
			continue
		}
		if c2.i1+c2.chg1 < c1.i1 {
			list = appendMerge(list, modeTheirs,
				c2.i1, c2.chg1, c1.i2-c1.i1+c2.i1, c2.chg1, c2.i2, c2.chg2)
			n2++
			continue
		}
		if c1.i1 != c2.i1 || c1.chg1 != c2.chg1 || c1.chg2 != c2.chg2 ||
			!m.sameLines(c1.i2, c2.i2, c1.chg2) {
			off := c1.i1 - c2.i1
			ffo := off + c1.chg1 - c2.chg1
			i0, i1, i2 := c1.i1, c1.i2, c2.i2
			if off > 0 {
				i0 -= off
				i1 -= off
			} else {
				i2 += off
			}
			chg0 := c1.i1 + c1.chg1 - i0
			chg1 := c1.i2 + c1.chg2 - i1
			chg2 := c2.i2 + c2.chg2 - i2
			if ffo < 0 {
				chg0 -= ffo
				chg1 -= ffo
			} else {
				chg2 += ffo
			}
			list = appendMerge(list, modeConflict, i0, chg0, i1, chg1, i2, chg2)
		} else {
			both = append(both, xdmerge{mode: modeBoth,
				i0: c1.i1, chg0: c1.chg1, i1: c1.i2, chg1: c1.chg2, i2: c2.i2, chg2: c2.chg2})
		}
		e1 := c1.i1 + c1.chg1
		e2 := c2.i1 + c2.chg1
		if e1 >= e2 {
			n2++
		}
		if e2 >= e1 {
			n1++
		}
	}
	for ; n1 < len(s1); n1++ {
		c1 := &s1[n1]
		list = appendMerge(list, modeMine,
			c1.i1, c1.chg1, c1.i2, c1.chg2, c1.i1+m.theirsL.n()-m.baseL.n(), c1.chg1)
	}
	for ; n2 < len(s2); n2++ {
		c2 := &s2[n2]
		list = appendMerge(list, modeTheirs,
			c2.i1, c2.chg1, c2.i1+m.mineL.n()-m.baseL.n(), c2.chg1, c2.i2, c2.chg2)
	}
	return list, both
}
