package diff

import (
	"fmt"
	"strings"
	"testing"
)

func numbered(n int, set map[int]string) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		if v, ok := set[i]; ok {
			if v != "" {
				b.WriteString(v + "\n")
			}
			continue
		}
		fmt.Fprintf(&b, "l%d\n", i)
	}
	return b.String()
}

// render writes hunks as git diff does, to compare with its output.
func renderHunks(hs []DiffHunk) string {
	var b strings.Builder
	for _, h := range hs {
		b.WriteString(h.Header() + "\n")
		for _, e := range h.Edits {
			p := map[LineOp]string{LineEqual: " ", LineInsert: "+", LineDelete: "-"}[e.Op]
			for _, l := range e.Lines {
				b.WriteString(p + l)
			}
		}
	}
	return b.String()
}

func TestHunks(t *testing.T) {
	for _, tc := range []struct {
		name string
		a, b string
		want string
	}{
		{"equal", numbered(5, nil), numbered(5, nil), ""},
		{"one change in the middle", numbered(20, nil), numbered(20, map[int]string{10: "X"}),
			"@@ -7,7 +7,7 @@\n l7\n l8\n l9\n-l10\n+X\n l11\n l12\n l13\n"},
		{"at the top", numbered(10, nil), numbered(10, map[int]string{1: "X"}),
			"@@ -1,4 +1,4 @@\n-l1\n+X\n l2\n l3\n l4\n"},
		{"near each other share a hunk", numbered(20, nil), numbered(20, map[int]string{5: "X", 10: "Y"}),
			"@@ -2,12 +2,12 @@\n l2\n l3\n l4\n-l5\n+X\n l6\n l7\n l8\n l9\n-l10\n+Y\n l11\n l12\n l13\n"},
		{"far apart are two hunks", numbered(30, nil), numbered(30, map[int]string{5: "X", 20: "Y"}),
			"@@ -2,7 +2,7 @@\n l2\n l3\n l4\n-l5\n+X\n l6\n l7\n l8\n@@ -17,7 +17,7 @@\n l17\n l18\n l19\n-l20\n+Y\n l21\n l22\n l23\n"},
		{"a line removed at the end", numbered(6, nil), numbered(6, map[int]string{6: ""}),
			"@@ -3,4 +3,3 @@\n l3\n l4\n l5\n-l6\n"},
		{"into an empty text", "", "a\n", "@@ -0,0 +1 @@\n+a\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := renderHunks(Hunks(LineDiff(tc.a, tc.b), DefaultContext)); got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}
