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
// the Myers algorithm without XDF_NEED_MINIMAL. This file holds the
// records and their preparation (xprepare.c); xdiff_myers.go the Myers
// pass (xdl_split, xdl_recs_cmp); xdiff_compact.go the group sliding and
// the edit script (xdl_change_compact, xdl_build_script).

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
