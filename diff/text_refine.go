package diff

// The conflict refining of git's xdiff/xmerge.c (git 2.39) that the merge
// and zdiff3 styles run on the diff3 regions before writing them.

// refineConflicts narrows each conflict to the lines where mine and theirs
// differ, by a two-way diff of mine's lines against theirs', splitting it
// where they agree (xdl_refine_conflicts). A conflict whose sides turn out
// equal becomes modeBoth. Base's range of a piece is left as the whole
// conflict's, as git leaves it: the merge style does not write base.
func (m *merge3) refineConflicts(list []xdmerge) []xdmerge {
	out := make([]xdmerge, 0, len(list))
	for _, e := range list {
		// No sense refining a conflict when one side is empty.
		if e.mode != modeConflict || e.chg1 == 0 || e.chg2 == 0 {
			out = append(out, e)
			continue
		}
		s := m.subScript(e.i1, e.chg1, e.i2, e.chg2)
		if len(s) == 0 {
			e.mode = modeBoth
			out = append(out, e)
			continue
		}
		for _, c := range s {
			out = append(out, xdmerge{mode: modeConflict, i0: e.i0, chg0: e.chg0,
				i1: e.i1 + c.i1, chg1: c.chg1, i2: e.i2 + c.i2, chg2: c.chg2})
		}
	}
	return out
}

// subScript diffs chg1 lines of mine at i1 against chg2 lines of theirs at
// i2 as xdl_do_diff would the two runs cut out as files of their own: the
// classes are renumbered densely, so that the counts per class are the
// runs' own.
func (m *merge3) subScript(i1, chg1, i2, chg2 int) []xdchange {
	local := make(map[int32]int32, chg1+chg2)
	renumber := func(ha []int32) []int32 {
		out := make([]int32, len(ha))
		for k, h := range ha {
			id, ok := local[h]
			if !ok {
				id = int32(len(local))
				local[h] = id
			}
			out[k] = id
		}
		return out
	}
	ha1 := renumber(m.h1[i1 : i1+chg1])
	ha2 := renumber(m.h2[i2 : i2+chg2])
	return xdiffScript(ha1, ha2, countClasses(ha1, len(local)), countClasses(ha2, len(local)))
}

// simplifyNonConflicts joins two conflicts with fewer than four lines
// between them, or lines without a letter or digit, into one: it takes up
// no more lines than two blocks do (xdl_simplify_non_conflicts with
// simplify_if_no_alnum, git's XDL_MERGE_ZEALOUS_ALNUM level). Like
// xdl_merge_two_conflicts it leaves base's range as the first conflict's.
func (m *merge3) simplifyNonConflicts(list []xdmerge) []xdmerge {
	if len(list) == 0 {
		return list
	}
	out := list[:1]
	for _, next := range list[1:] {
		cur := &out[len(out)-1]
		begin, end := cur.i1+cur.chg1, next.i1
		if cur.mode != modeConflict || next.mode != modeConflict ||
			end-begin > 3 && m.linesContainAlnum(begin, end-begin) {
			out = append(out, next)
			continue
		}
		cur.chg1 = next.i1 + next.chg1 - cur.i1
		cur.chg2 = next.i2 + next.chg2 - cur.i2
	}
	return out
}

// linesContainAlnum reports whether one of chg lines of mine at i holds an
// ASCII letter or digit (lines_contain_alnum; git's isalnum is ASCII only).
func (m *merge3) linesContainAlnum(i, chg int) bool {
	s := m.mineL.span(i, chg)
	for k := 0; k < len(s); k++ {
		if c := s[k]; 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' {
			return true
		}
	}
	return false
}

// refineZDiff3 moves the lines mine and theirs share at the start and the
// end of each conflict out of it, keeping base's range whole
// (xdl_refine_zdiff3_conflicts).
func (m *merge3) refineZDiff3(list []xdmerge) {
	for k := range list {
		e := &list[k]
		if e.mode != modeConflict {
			continue
		}
		for e.chg1 > 0 && e.chg2 > 0 && m.h1[e.i1] == m.h2[e.i2] {
			e.i1++
			e.i2++
			e.chg1--
			e.chg2--
		}
		for e.chg1 > 0 && e.chg2 > 0 && m.h1[e.i1+e.chg1-1] == m.h2[e.i2+e.chg2-1] {
			e.chg1--
			e.chg2--
		}
	}
}
