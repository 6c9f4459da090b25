package diff

import (
	"reflect"
	"strings"
	"testing"

	"github.com/kedit/kedit/diff/difftest"
	"github.com/kedit/kedit/internal/testseed"
)

func TestLineDiff(t *testing.T) {
	tests := []struct {
		name string
		a, b string
		want []LineEdit
	}{
		{name: "both empty", a: "", b: "", want: nil},
		{name: "equal", a: "x\ny\n", b: "x\ny\n", want: []LineEdit{
			{Op: LineEqual, A: LineRange{0, 2}, B: LineRange{0, 2}, Lines: []string{"x\n", "y\n"}},
		}},
		{name: "from empty", a: "", b: "x\n", want: []LineEdit{
			{Op: LineInsert, A: LineRange{0, 0}, B: LineRange{0, 1}, Lines: []string{"x\n"}},
		}},
		{name: "to empty", a: "x\n", b: "", want: []LineEdit{
			{Op: LineDelete, A: LineRange{0, 1}, B: LineRange{0, 0}, Lines: []string{"x\n"}},
		}},
		{name: "changed line", a: "a\nb\nc\n", b: "a\nB\nc\n", want: []LineEdit{
			{Op: LineEqual, A: LineRange{0, 1}, B: LineRange{0, 1}, Lines: []string{"a\n"}},
			{Op: LineDelete, A: LineRange{1, 1}, B: LineRange{1, 0}, Lines: []string{"b\n"}},
			{Op: LineInsert, A: LineRange{2, 0}, B: LineRange{1, 1}, Lines: []string{"B\n"}},
			{Op: LineEqual, A: LineRange{2, 1}, B: LineRange{2, 1}, Lines: []string{"c\n"}},
		}},
		{name: "final newline added", a: "a\nb", b: "a\nb\n", want: []LineEdit{
			{Op: LineEqual, A: LineRange{0, 1}, B: LineRange{0, 1}, Lines: []string{"a\n"}},
			{Op: LineDelete, A: LineRange{1, 1}, B: LineRange{1, 0}, Lines: []string{"b"}},
			{Op: LineInsert, A: LineRange{2, 0}, B: LineRange{1, 1}, Lines: []string{"b\n"}},
		}},
		{name: "insert at start and end", a: "m\n", b: "s\nm\ne\n", want: []LineEdit{
			{Op: LineInsert, A: LineRange{0, 0}, B: LineRange{0, 1}, Lines: []string{"s\n"}},
			{Op: LineEqual, A: LineRange{0, 1}, B: LineRange{1, 1}, Lines: []string{"m\n"}},
			{Op: LineInsert, A: LineRange{1, 0}, B: LineRange{2, 1}, Lines: []string{"e\n"}},
		}},
		{name: "crlf differs from lf", a: "a\r\n", b: "a\n", want: []LineEdit{
			{Op: LineDelete, A: LineRange{0, 1}, B: LineRange{0, 0}, Lines: []string{"a\r\n"}},
			{Op: LineInsert, A: LineRange{1, 0}, B: LineRange{0, 1}, Lines: []string{"a\n"}},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := LineDiff(tt.a, tt.b)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("LineDiff(%q, %q) =\n%+v\nwant\n%+v", tt.a, tt.b, got, tt.want)
			}
			checkLineEdits(t, tt.a, tt.b, got)
		})
	}
}

// checkLineEdits checks that edits rebuild both texts, with consistent
// ranges and no two adjacent runs of one op.
func checkLineEdits(t *testing.T, a, b string, edits []LineEdit) {
	t.Helper()
	var ra, rb strings.Builder
	ai, bi := 0, 0
	for k, e := range edits {
		if k > 0 && edits[k-1].Op == e.Op {
			t.Fatalf("edits %d and %d are both %v", k-1, k, e.Op)
		}
		if e.A.Start != ai || e.B.Start != bi {
			t.Fatalf("edit %d starts at a:%d b:%d, want a:%d b:%d", k, e.A.Start, e.B.Start, ai, bi)
		}
		text := strings.Join(e.Lines, "")
		switch e.Op {
		case LineEqual:
			ra.WriteString(text)
			rb.WriteString(text)
		case LineDelete:
			ra.WriteString(text)
		case LineInsert:
			rb.WriteString(text)
		}
		if n := len(e.Lines); (e.Op != LineInsert && e.A.Len != n) || (e.Op != LineDelete && e.B.Len != n) ||
			(e.Op == LineInsert && e.A.Len != 0) || (e.Op == LineDelete && e.B.Len != 0) {
			t.Fatalf("edit %d (%v) has %d lines and ranges %+v %+v", k, e.Op, n, e.A, e.B)
		}
		ai += e.A.Len
		bi += e.B.Len
	}
	if ra.String() != a || rb.String() != b {
		t.Fatalf("edits rebuild %q and %q, want %q and %q", ra.String(), rb.String(), a, b)
	}
}

// TestLineDiffRebuilds checks LineDiff, and its xdiff fallback for huge
// texts, on generated pairs.
func TestLineDiffRebuilds(t *testing.T) {
	g := difftest.NewCorpus(7, testseed.Fixed(t, 7))
	for i := 0; i < 300; i++ {
		mine, base, _ := g.Next()
		checkLineEdits(t, base, mine, LineDiff(base, mine))
		checkLineEdits(t, base, mine, lineDiffXdiff(base, mine))
	}
}

// TestLineDiffMinimal checks that the go-diff path finds a minimal diff:
// the lines it keeps equal are a longest common subsequence.
func TestLineDiffMinimal(t *testing.T) {
	g := difftest.NewCorpus(8, testseed.Fixed(t, 8))
	for i := 0; i < 200; i++ {
		mine, base, _ := g.Next()
		equal := 0
		for _, e := range LineDiff(base, mine) {
			if e.Op == LineEqual {
				equal += len(e.Lines)
			}
		}
		if want := lcsLen(splitLines(base), splitLines(mine)); equal != want {
			t.Fatalf("LineDiff(%q, %q) keeps %d lines, the LCS has %d", base, mine, equal, want)
		}
	}
}

func lcsLen(a, b []string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for i := range a {
		for j := range b {
			if a[i] == b[j] {
				cur[j+1] = prev[j] + 1
			} else {
				cur[j+1] = max(cur[j], prev[j+1])
			}
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
