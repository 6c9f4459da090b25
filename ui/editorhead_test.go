package ui

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// A head put on a draft and taken off gives the draft back byte for
// byte, whatever the draft holds: comments of its own, lines like the
// head's, no final line end, CRLF.
func TestEditorHeadRoundTripKeepsTheDraft(t *testing.T) {
	head := []string{
		headLine("kedit: the draft was refused; these lines go when the file is saved"),
		headLine("line 9: spec.replicass: unknown field"),
	}
	pieces := []string{"# ", "a: 1", "\n", "\r\n", "  - x", head[0], head[1], "#", "", "ü", "\t", "b: |\n  # not a comment\n"}
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 5000 {
		var b strings.Builder
		for range r.IntN(8) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		draft := b.String()
		h := head[:r.IntN(len(head)+1)]
		if got := withoutHead(h, withHead(h, draft)); got != draft {
			t.Fatalf("case %d: round trip of %q with %d head lines gave %q", i, draft, len(h), got)
		}
	}
}

// What the user did to the head: a line of it deleted, a comment of
// their own added below it; only kedit's lines go.
func TestEditorHeadTakesOffOnlyItsOwnLines(t *testing.T) {
	head := []string{headLine("kedit: refused"), headLine("line 4: spec.x: unknown field"), headLine("line 5: spec.y: bad")}
	for _, c := range []struct{ in, want string }{
		{"# kedit: refused\n# line 5: spec.y: bad\nspec: {}\n", "spec: {}\n"},
		{"# kedit: refused\n# mine\n# line 5: spec.y: bad\nspec: {}\n", "# mine\n# line 5: spec.y: bad\nspec: {}\n"},
		{"# mine\n# kedit: refused\nspec: {}\n", "# mine\n# kedit: refused\nspec: {}\n"},
		{"spec: {}\n", "spec: {}\n"},
		{"# kedit: refused", "# kedit: refused"},
	} {
		if got := withoutHead(head, c.in); got != c.want {
			t.Errorf("withoutHead(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// A reason's words cannot end the head's line or carry an escape.
func TestEditorHeadLineIsOneLine(t *testing.T) {
	if l := headLine("spec.x: bad\nvalue\x1b[31m"); strings.ContainsAny(l, "\n\x1b") {
		t.Errorf("headLine = %q", l)
	}
}
