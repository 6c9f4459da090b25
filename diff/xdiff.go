package diff

import "math"

// This file is a Go port of the parts of git's xdiff (git 2.39,
// xdiff/xprepare.c and xdiff/xdiffi.c) that `git merge-file` runs: record
// classification, trimming of common ends, discarding of lines without a
// match, Myers' O(ND) split with xdiff's cut-off heuristics, and
// xdl_change_compact's group sliding. Merge3Text promises output identical
// to git's, and equal-cost diffs can be aligned in many ways, so the port
// follows git step by step, keeping its names, rather than using go-diff.
// Only the default flags apply: no whitespace options, no indent heuristic,
// the Myers algorithm without XDF_NEED_MINIMAL.

const (
	xdlMaxCostMin  = 256
	xdlHeurMinCost = 256
	xdlSnakeCnt    = 20
	xdlKHeur       = 4
	xdlMaxEqLimit  = 1024
	xdlSimscanWin  = 100
	xdlKpdisRun    = 4
	xdlLineMax     = math.MaxInt
)

// xdchange is one change of a two-way script (xdchange_t): chg1 lines of
// file 1 at i1 were replaced by chg2 lines of file 2 at i2.
type xdchange struct {
	i1, i2, chg1, chg2 int
}

// xdfile is one side of a two-way diff (xdfile_t).
type xdfile struct {
	// ha holds the class of every line: equal lines share a class.
	ha []int32
	// rchg marks changed lines; index i+1 holds line i so that the
	// sentinels at -1 and n are false, as xdiff's rchg[-1] and rchg[n].
	rchg []bool
	// rindex and rha are the lines kept for the Myers pass (xdfile_t's
	// rindex and ha), after trimming and discarding.
	rindex []int32
	rha    []int32
	dstart int
	dend   int
}

func (x *xdfile) nrec() int { return len(x.ha) }

// changed reports rchg[i]; lines outside [-1, n] read as unchanged so that
// no walk can index out of range, whatever the input.
func (x *xdfile) changed(i int) bool {
	if uint(i+1) >= uint(len(x.rchg)) {
		return false
	}
	return x.rchg[i+1]
}

func (x *xdfile) setChanged(i int, v bool) { x.rchg[i+1] = v }

// classifier gives every distinct line a small integer (xdlclassifier_t).
// One classifier serves the three texts of a merge, so that both two-way
// diffs of the merge share class numbers; classes are only ever compared for
// equality and counted per file, so sharing changes nothing in the result.
type classifier struct {
	ids map[string]int32
}

func newClassifier(sizeHint int) *classifier {
	return &classifier{ids: make(map[string]int32, sizeHint)}
}

// classify returns the classes of t's lines.
func (c *classifier) classify(t textLines) []int32 {
	ha := make([]int32, t.n())
	for i := range ha {
		ha[i] = c.id(t.line(i))
	}
	return ha
}

func (c *classifier) id(l string) int32 {
	id, ok := c.ids[l]
	if !ok {
		id = int32(len(c.ids))
		c.ids[l] = id
	}
	return id
}

// classifyAlong classifies t, an edited copy of ref whose classes are refHa,
// walking both in step: a line equal to ref's line in step takes its class
// without a lookup. After a difference it looks a few lines ahead in ref to
// get back in step past a deletion. Only the speed depends on how well the
// walk stays in step; every class comes from a string comparison or the map.
func (c *classifier) classifyAlong(t, ref textLines, refHa []int32) []int32 {
	const lookahead = 8
	ha := make([]int32, t.n())
	j, nref := 0, ref.n()
	for i := range ha {
		l := t.line(i)
		if j < nref && l == ref.line(j) {
			ha[i] = refHa[j]
			j++
			continue
		}
		ha[i] = c.id(l)
		for k := 1; k <= lookahead && j+k < nref; k++ {
			if refHa[j+k] == ha[i] {
				j += k + 1
				break
			}
		}
	}
	return ha
}

// countClasses returns how many lines of each class ha holds (len1 or len2
// of xdlclass_t).
func countClasses(ha []int32, nclass int) []int32 {
	cnt := make([]int32, nclass)
	for _, h := range ha {
		cnt[h]++
	}
	return cnt
}

// xdlBogosqrt is xdiff's integer square root approximation.
func xdlBogosqrt(n int) int {
	i := 1
	for ; n > 0; n >>= 2 {
		i <<= 1
	}
	return i
}

// xdiffScript diffs file 1 (classes ha1, per-class counts cnt1) against
// file 2 the way xdl_do_diff followed by xdl_change_compact (both ways) and
// xdl_build_script do, and returns the changes in order.
func xdiffScript(ha1, ha2 []int32, cnt1, cnt2 []int32) []xdchange {
	x1 := &xdfile{ha: ha1, rchg: make([]bool, len(ha1)+2)}
	x2 := &xdfile{ha: ha2, rchg: make([]bool, len(ha2)+2)}
	xdlTrimEnds(x1, x2)
	xdlCleanupRecords(x1, x2, cnt1, cnt2)

	ndiags := len(x1.rha) + len(x2.rha) + 3
	kvd := make([]int, 2*ndiags+2)
	a := &xdalgo{
		kvd:      kvd,
		fo:       len(x2.rha) + 1,
		bo:       ndiags + len(x2.rha) + 1,
		mxcost:   max(xdlBogosqrt(ndiags), xdlMaxCostMin),
		snakeCnt: xdlSnakeCnt,
		heurMin:  xdlHeurMinCost,
	}
	a.recsCmp(x1, 0, len(x1.rha), x2, 0, len(x2.rha), false)

	xdlChangeCompact(x1, x2)
	xdlChangeCompact(x2, x1)
	return xdlBuildScript(x1, x2)
}

// xdlTrimEnds skips the lines both files share at their start and end.
func xdlTrimEnds(x1, x2 *xdfile) {
	n1, n2 := x1.nrec(), x2.nrec()
	lim := min(n1, n2)
	i := 0
	for ; i < lim; i++ {
		if x1.ha[i] != x2.ha[i] {
			break
		}
	}
	x1.dstart, x2.dstart = i, i
	lim -= i
	j := 0
	for ; j < lim; j++ {
		if x1.ha[n1-1-j] != x2.ha[n2-1-j] {
			break
		}
	}
	x1.dend = n1 - j - 1
	x2.dend = n2 - j - 1
}

// xdlCleanMmatch decides whether line i, which has many matches, sits in a
// run of lines without matches and can be discarded too.
func xdlCleanMmatch(dis []byte, i, s, e int) bool {
	if i-s > xdlSimscanWin {
		s = i - xdlSimscanWin
	}
	if e-i > xdlSimscanWin {
		e = i + xdlSimscanWin
	}
	var rdis0, rpdis0, rdis1, rpdis1 int
	rpdis0 = 1
	for r := 1; i-r >= s; r++ {
		if dis[i-r] == 0 {
			rdis0++
		} else if dis[i-r] == 2 {
			rpdis0++
		} else {
			break
		}
	}
	if rdis0 == 0 {
		return false
	}
	rpdis1 = 1
	for r := 1; i+r <= e; r++ {
		if dis[i+r] == 0 {
			rdis1++
		} else if dis[i+r] == 2 {
			rpdis1++
		} else {
			break
		}
	}
	if rdis1 == 0 {
		return false
	}
	rdis1 += rdis0
	rpdis1 += rpdis0
	return rpdis1*xdlKpdisRun < rpdis1+rdis1
}

// xdlCleanupRecords marks lines that have no match in the other file as
// changed and keeps the others for Myers (xdl_cleanup_records).
func xdlCleanupRecords(x1, x2 *xdfile, cnt1, cnt2 []int32) {
	cleanup := func(x *xdfile, other []int32) {
		n := x.nrec()
		mlim := min(xdlBogosqrt(n), xdlMaxEqLimit)
		dis := make([]byte, n+1)
		for i := x.dstart; i <= x.dend; i++ {
			nm := int(other[x.ha[i]])
			switch {
			case nm == 0:
				dis[i] = 0
			case nm >= mlim:
				dis[i] = 2
			default:
				dis[i] = 1
			}
		}
		size := max(x.dend-x.dstart+1, 0)
		x.rindex = make([]int32, 0, size)
		x.rha = make([]int32, 0, size)
		for i := x.dstart; i <= x.dend; i++ {
			if dis[i] == 1 || (dis[i] == 2 && !xdlCleanMmatch(dis, i, x.dstart, x.dend)) {
				x.rindex = append(x.rindex, int32(i))
				x.rha = append(x.rha, x.ha[i])
			} else {
				x.setChanged(i, true)
			}
		}
	}
	cleanup(x1, cnt2)
	cleanup(x2, cnt1)
}

// xdalgo holds the K vectors and limits of the Myers pass (xdalgoenv_t plus
// kvdf and kvdb, which live in one slice at offsets fo and bo).
type xdalgo struct {
	kvd      []int
	fo, bo   int
	mxcost   int
	snakeCnt int
	heurMin  int
}

type xdpsplit struct {
	i1, i2       int
	minLo, minHi bool
}

// split finds where to cut the box (off1, off2)-(lim1, lim2) in two
// (xdl_split): the middle snake of Myers, or past a cost limit a good-enough
// point chosen by xdiff's heuristics.
func (a *xdalgo) split(ha1 []int32, off1, lim1 int, ha2 []int32, off2, lim2 int, needMin bool) xdpsplit {
	kvd, fo, bo := a.kvd, a.fo, a.bo
	dmin, dmax := off1-lim2, lim1-off2
	fmid, bmid := off1-off2, lim1-lim2
	odd := (fmid-bmid)&1 != 0
	fmin, fmax := fmid, fmid
	bmin, bmax := bmid, bmid
	var spl xdpsplit

	kvd[fo+fmid] = off1
	kvd[bo+bmid] = lim1

	for ec := 1; ; ec++ {
		gotSnake := false

		if fmin > dmin {
			fmin--
			kvd[fo+fmin-1] = -1
		} else {
			fmin++
		}
		if fmax < dmax {
			fmax++
			kvd[fo+fmax+1] = -1
		} else {
			fmax--
		}

		for d := fmax; d >= fmin; d -= 2 {
			var i1 int
			if kvd[fo+d-1] >= kvd[fo+d+1] {
				i1 = kvd[fo+d-1] + 1
			} else {
				i1 = kvd[fo+d+1]
			}
			prev1 := i1
			i2 := i1 - d
			for i1 < lim1 && i2 < lim2 && ha1[i1] == ha2[i2] {
				i1++
				i2++
			}
			if i1-prev1 > a.snakeCnt {
				gotSnake = true
			}
			kvd[fo+d] = i1
			if odd && bmin <= d && d <= bmax && kvd[bo+d] <= i1 {
				return xdpsplit{i1: i1, i2: i2, minLo: true, minHi: true}
			}
		}

		if bmin > dmin {
			bmin--
			kvd[bo+bmin-1] = xdlLineMax
		} else {
			bmin++
		}
		if bmax < dmax {
			bmax++
			kvd[bo+bmax+1] = xdlLineMax
		} else {
			bmax--
		}

		for d := bmax; d >= bmin; d -= 2 {
			var i1 int
			if kvd[bo+d-1] < kvd[bo+d+1] {
				i1 = kvd[bo+d-1]
			} else {
				i1 = kvd[bo+d+1] - 1
			}
			prev1 := i1
			i2 := i1 - d
			for i1 > off1 && i2 > off2 && ha1[i1-1] == ha2[i2-1] {
				i1--
				i2--
			}
			if prev1-i1 > a.snakeCnt {
				gotSnake = true
			}
			kvd[bo+d] = i1
			if !odd && fmin <= d && d <= fmax && i1 <= kvd[fo+d] {
				return xdpsplit{i1: i1, i2: i2, minLo: true, minHi: true}
			}
		}

		if needMin {
			continue
		}

		// Past the heuristic trigger with a good snake, take a diagonal
		// that has gone far enough, as xdiff does.
		if gotSnake && ec > a.heurMin {
			best := 0
			for d := fmax; d >= fmin; d -= 2 {
				dd := fmid - d
				if d > fmid {
					dd = d - fmid
				}
				i1 := kvd[fo+d]
				i2 := i1 - d
				v := (i1 - off1) + (i2 - off2) - dd
				if v > xdlKHeur*ec && v > best &&
					off1+a.snakeCnt <= i1 && i1 < lim1 &&
					off2+a.snakeCnt <= i2 && i2 < lim2 {
					for k := 1; ha1[i1-k] == ha2[i2-k]; k++ {
						if k == a.snakeCnt {
							best = v
							spl.i1 = i1
							spl.i2 = i2
							break
						}
					}
				}
			}
			if best > 0 {
				spl.minLo = true
				spl.minHi = false
				return spl
			}

			best = 0
			for d := bmax; d >= bmin; d -= 2 {
				dd := bmid - d
				if d > bmid {
					dd = d - bmid
				}
				i1 := kvd[bo+d]
				i2 := i1 - d
				v := (lim1 - i1) + (lim2 - i2) - dd
				if v > xdlKHeur*ec && v > best &&
					off1 < i1 && i1 <= lim1-a.snakeCnt &&
					off2 < i2 && i2 <= lim2-a.snakeCnt {
					for k := 0; ha1[i1+k] == ha2[i2+k]; k++ {
						if k == a.snakeCnt-1 {
							best = v
							spl.i1 = i1
							spl.i2 = i2
							break
						}
					}
				}
			}
			if best > 0 {
				spl.minLo = false
				spl.minHi = true
				return spl
			}
		}

		// Enough is enough: take the furthest reaching path.
		if ec >= a.mxcost {
			fbest, fbest1 := -1, -1
			for d := fmax; d >= fmin; d -= 2 {
				i1 := min(kvd[fo+d], lim1)
				i2 := i1 - d
				if lim2 < i2 {
					i1 = lim2 + d
					i2 = lim2
				}
				if fbest < i1+i2 {
					fbest = i1 + i2
					fbest1 = i1
				}
			}
			bbest, bbest1 := xdlLineMax, xdlLineMax
			for d := bmax; d >= bmin; d -= 2 {
				i1 := max(off1, kvd[bo+d])
				i2 := i1 - d
				if i2 < off2 {
					i1 = off2 + d
					i2 = off2
				}
				if i1+i2 < bbest {
					bbest = i1 + i2
					bbest1 = i1
				}
			}
			if (lim1+lim2)-bbest < fbest-(off1+off2) {
				return xdpsplit{i1: fbest1, i2: fbest - fbest1, minLo: true, minHi: false}
			}
			return xdpsplit{i1: bbest1, i2: bbest - bbest1, minLo: false, minHi: true}
		}
	}
}

// recsCmp marks the changed lines of the box (off1, off2)-(lim1, lim2) by
// divide and conquer (xdl_recs_cmp).
func (a *xdalgo) recsCmp(x1 *xdfile, off1, lim1 int, x2 *xdfile, off2, lim2 int, needMin bool) {
	ha1, ha2 := x1.rha, x2.rha
	for off1 < lim1 && off2 < lim2 && ha1[off1] == ha2[off2] {
		off1++
		off2++
	}
	for off1 < lim1 && off2 < lim2 && ha1[lim1-1] == ha2[lim2-1] {
		lim1--
		lim2--
	}
	switch {
	case off1 == lim1:
		for ; off2 < lim2; off2++ {
			x2.setChanged(int(x2.rindex[off2]), true)
		}
	case off2 == lim2:
		for ; off1 < lim1; off1++ {
			x1.setChanged(int(x1.rindex[off1]), true)
		}
	default:
		spl := a.split(ha1, off1, lim1, ha2, off2, lim2, needMin)
		a.recsCmp(x1, off1, spl.i1, x2, off2, spl.i2, spl.minLo)
		a.recsCmp(x1, spl.i1, lim1, x2, spl.i2, lim2, spl.minHi)
	}
}

// xdlgroup is a run of changed lines [start, end) of one file, possibly
// empty (then it sits above line start).
type xdlgroup struct {
	start, end int
}

func groupInit(x *xdfile) xdlgroup {
	g := xdlgroup{}
	for x.changed(g.end) {
		g.end++
	}
	return g
}

// groupNext moves g to the next group and reports false at the end.
func groupNext(x *xdfile, g *xdlgroup) bool {
	if g.end == x.nrec() {
		return false
	}
	g.start = g.end + 1
	for g.end = g.start; x.changed(g.end); g.end++ {
	}
	return true
}

// groupPrevious moves g to the previous group and reports false at the top.
func groupPrevious(x *xdfile, g *xdlgroup) bool {
	if g.start == 0 {
		return false
	}
	g.end = g.start - 1
	for g.start = g.end; x.changed(g.start - 1); g.start-- {
	}
	return true
}

// groupSlideDown slides g one line down, merging a group it bumps into.
func groupSlideDown(x *xdfile, g *xdlgroup) bool {
	if g.end < x.nrec() && x.ha[g.start] == x.ha[g.end] {
		x.setChanged(g.start, false)
		g.start++
		x.setChanged(g.end, true)
		g.end++
		for x.changed(g.end) {
			g.end++
		}
		return true
	}
	return false
}

// groupSlideUp slides g one line up, merging a group it bumps into.
func groupSlideUp(x *xdfile, g *xdlgroup) bool {
	if g.start > 0 && x.ha[g.start-1] == x.ha[g.end-1] {
		g.start--
		x.setChanged(g.start, true)
		g.end--
		x.setChanged(g.end, false)
		for x.changed(g.start - 1) {
			g.start--
		}
		return true
	}
	return false
}

// xdlChangeCompact slides groups of changes of x as far down as they go,
// merging groups that meet, then back up to line up with a change of the
// other file if one can be reached (xdl_change_compact without the indent
// heuristic, which merge-file does not enable). The "group sync broken"
// BUG() checks of xdiff cannot fire for a consistent pair and are dropped.
func xdlChangeCompact(x, xo *xdfile) {
	g := groupInit(x)
	gother := groupInit(xo)
	for {
		if g.end != g.start {
			var earliestEnd, groupsize int
			endMatchingOther := -1
			for {
				groupsize = g.end - g.start
				endMatchingOther = -1
				for groupSlideUp(x, &g) {
					groupPrevious(xo, &gother)
				}
				earliestEnd = g.end
				if gother.end > gother.start {
					endMatchingOther = g.end
				}
				for groupSlideDown(x, &g) {
					groupNext(xo, &gother)
					if gother.end > gother.start {
						endMatchingOther = g.end
					}
				}
				if groupsize == g.end-g.start {
					break
				}
			}
			if g.end != earliestEnd && endMatchingOther != -1 {
				for gother.end == gother.start {
					if !groupSlideUp(x, &g) {
						break
					}
					if !groupPrevious(xo, &gother) {
						break
					}
				}
			}
		}
		if !groupNext(x, &g) {
			break
		}
		groupNext(xo, &gother)
	}
}

// xdlBuildScript collects the groups of changed lines into a script
// (xdl_build_script), in file order.
func xdlBuildScript(x1, x2 *xdfile) []xdchange {
	var rev []xdchange
	for i1, i2 := x1.nrec(), x2.nrec(); i1 >= 0 || i2 >= 0; i1, i2 = i1-1, i2-1 {
		if x1.changed(i1-1) || x2.changed(i2-1) {
			l1 := i1
			for x1.changed(i1 - 1) {
				i1--
			}
			l2 := i2
			for x2.changed(i2 - 1) {
				i2--
			}
			rev = append(rev, xdchange{i1: i1, i2: i2, chg1: l1 - i1, chg2: l2 - i2})
		}
	}
	for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
		rev[i], rev[j] = rev[j], rev[i]
	}
	return rev
}
