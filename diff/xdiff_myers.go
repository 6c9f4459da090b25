package diff

// The Myers pass of git's xdiff (xdiff/xdiffi.c: xdl_split and
// xdl_recs_cmp), ported step by step as xdiff.go says.

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
