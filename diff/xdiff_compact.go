package diff

// Group sliding and the edit script of git's xdiff (xdiff/xdiffi.c:
// xdl_change_compact and xdl_build_script), ported step by step as
// xdiff.go says.

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
