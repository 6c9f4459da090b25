package diff

import (
	"strings"
	"unicode/utf8"

	"github.com/sergi/go-diff/diffmatchpatch"
)

// LineOp says how a run of lines of a two-way diff relates the texts.
type LineOp int8

const (
	// LineEqual lines are in both texts.
	LineEqual LineOp = iota
	// LineInsert lines are only in the second text (b).
	LineInsert
	// LineDelete lines are only in the first text (a).
	LineDelete
)

// String returns "equal", "insert" or "delete".
func (op LineOp) String() string {
	switch op {
	case LineEqual:
		return "equal"
	case LineInsert:
		return "insert"
	case LineDelete:
		return "delete"
	}
	return "LineOp(?)"
}

// LineEdit is one run of a line diff. A and B locate the run in each text;
// an insert has A.Len 0 with A.Start where it goes in a, a delete has B.Len
// 0 likewise. Lines keep their trailing "\n", as in Hunk.
type LineEdit struct {
	Op    LineOp
	A, B  LineRange
	Lines []string
}

// maxGoDiffLines bounds the lines handed to go-diff: it encodes every
// distinct line as one Unicode code point and panics past about 1.1 million
// of them. Longer texts take the xdiff engine instead, which has no limit.
const maxGoDiffLines = 1_000_000

// LineDiff compares a and b line by line and returns the runs that turn a
// into b, in order; concatenating the Lines of the equal and insert runs
// gives b, of the equal and delete runs gives a. It is what the UI draws as a
// two-way diff (draft against base, say).
//
// It runs go-diff's line mode without a time limit, so the diff is minimal
// and the same on every run. Its alignment of equal-cost diffs can differ
// from git's; Merge3Text, which must match git, uses its own engine.
func LineDiff(a, b string) []LineEdit {
	if a == b {
		if a == "" {
			return nil
		}
		lines := splitLines(a)
		return []LineEdit{{Op: LineEqual, A: LineRange{0, len(lines)}, B: LineRange{0, len(lines)}, Lines: lines}}
	}
	if strings.Count(a, "\n")+strings.Count(b, "\n")+2 > maxGoDiffLines {
		return lineDiffXdiff(a, b)
	}

	dmp := diffmatchpatch.New()
	dmp.DiffTimeout = 0
	ra, rb, _ := dmp.DiffLinesToRunes(a, b)
	diffs := dmp.DiffMainRunes(ra, rb, false)

	// Each rune of a diff's text stands for one line, in the order of the
	// text it came from, so runs map back to line ranges by counting.
	aLines, bLines := splitLines(a), splitLines(b)
	edits := make([]LineEdit, 0, len(diffs))
	ai, bi := 0, 0
	for _, d := range diffs {
		n := utf8.RuneCountInString(d.Text)
		if n == 0 {
			continue
		}
		e := LineEdit{A: LineRange{Start: ai}, B: LineRange{Start: bi}}
		switch d.Type {
		case diffmatchpatch.DiffEqual:
			e.Op = LineEqual
			e.A.Len, e.B.Len = n, n
			e.Lines = subLines(aLines, ai, n)
		case diffmatchpatch.DiffInsert:
			e.Op = LineInsert
			e.B.Len = n
			e.Lines = subLines(bLines, bi, n)
		case diffmatchpatch.DiffDelete:
			e.Op = LineDelete
			e.A.Len = n
			e.Lines = subLines(aLines, ai, n)
		}
		ai += e.A.Len
		bi += e.B.Len
		edits = appendEdit(edits, e)
	}
	return edits
}

// appendEdit appends e, joining it to the last run when both have the same
// op, so that callers never see two adjacent runs of one kind.
func appendEdit(edits []LineEdit, e LineEdit) []LineEdit {
	if n := len(edits); n > 0 && edits[n-1].Op == e.Op {
		last := &edits[n-1]
		last.A.Len += e.A.Len
		last.B.Len += e.B.Len
		last.Lines = append(last.Lines[:len(last.Lines):len(last.Lines)], e.Lines...)
		return edits
	}
	return append(edits, e)
}

// lineDiffXdiff is LineDiff on the xdiff engine, for texts too long for
// go-diff's encoding. Within a change it puts deletions before insertions,
// as go-diff does.
func lineDiffXdiff(a, b string) []LineEdit {
	at, bt := newTextLines(a), newTextLines(b)
	aLines, bLines := at.lines(0, at.n()), bt.lines(0, bt.n())
	cf := newClassifier(len(aLines))
	ha := cf.classify(at)
	hb := cf.classifyAlong(bt, at, ha)
	nclass := len(cf.ids)
	script := xdiffScript(ha, hb, countClasses(ha, nclass), countClasses(hb, nclass))

	var edits []LineEdit
	ai, bi := 0, 0
	equal := func(n int) {
		if n > 0 {
			edits = appendEdit(edits, LineEdit{Op: LineEqual,
				A: LineRange{ai, n}, B: LineRange{bi, n}, Lines: subLines(aLines, ai, n)})
			ai += n
			bi += n
		}
	}
	for _, c := range script {
		equal(c.i1 - ai)
		if c.chg1 > 0 {
			edits = appendEdit(edits, LineEdit{Op: LineDelete,
				A: LineRange{ai, c.chg1}, B: LineRange{bi, 0}, Lines: subLines(aLines, ai, c.chg1)})
			ai += c.chg1
		}
		if c.chg2 > 0 {
			edits = appendEdit(edits, LineEdit{Op: LineInsert,
				A: LineRange{ai, 0}, B: LineRange{bi, c.chg2}, Lines: subLines(bLines, bi, c.chg2)})
			bi += c.chg2
		}
	}
	equal(len(aLines) - ai)
	return edits
}
