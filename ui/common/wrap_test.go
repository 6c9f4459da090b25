package common

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/kedit/kedit/internal/testseed"
)

// TestWrapWordsCutsNoWord: a path wider than the line starts a line of its
// own; a hyphen is no break; the indent is kept.
func TestWrapWordsCutsNoWord(t *testing.T) {
	for _, c := range []struct {
		text  string
		width int
		want  []string
	}{
		{"9 refusals (9 × 422 Unprocessable Entity): the test op found foo", 20,
			[]string{"9 refusals (9 × 422", "Unprocessable", "Entity): the test op", "found foo"}},
		{"kept /home/teacher/class/keep1/state/drafts: kedit demo", 16,
			[]string{"kept", "/home/teacher/", "class/keep1/", "state/drafts:", "kedit demo"}},
		{"by demo-writer and kube-system", 16, []string{"by demo-writer", "and kube-system"}},
		{"    indented words go on", 12, []string{"    indented", "words go on"}},
		{"short", 80, []string{"short"}},
		{"one\ntwo three", 5, []string{"one", "two", "three"}},
	} {
		if got := WrapWords(c.text, c.width); strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("WrapWords(%q, %d) = %q, want %q", c.text, c.width, got, c.want)
		}
	}
}

// TestWrapWordsKeepsEveryWord holds, over random texts and widths, that no
// line is wider than the width, that the words come back in their order,
// and that a word is split only when it is wider than a line.
func TestWrapWordsKeepsEveryWord(t *testing.T) {
	rng := rand.New(rand.NewPCG(testseed.Seed(t), 0))
	letters := []rune("abcdé-/.:世")
	for range 2000 {
		var words []string
		for range rng.IntN(12) {
			var b strings.Builder
			for range 1 + rng.IntN(14) {
				b.WriteRune(letters[rng.IntN(len(letters))])
			}
			words = append(words, b.String())
		}
		// A width of 1 too: a wide character on a line of one cell.
		width := 1 + rng.IntN(21)
		text := strings.Join(words, " ")
		lines := WrapWords(text, width)
		if got := WrapWords(text, 0); len(got) != 1 || got[0] != text {
			t.Fatalf("WrapWords(%q, 0) = %q: with no width known, want the text as it is", text, got)
		}
		// Each line's words, in order, with the line each is on.
		type field struct {
			text string
			line int
		}
		var fields []field
		for i, l := range lines {
			if g, _ := ansi.FirstGraphemeCluster(l, ansi.GraphemeWidth); g == l && l != "" {
				// A character wider than the line: a line of its own.
			} else if w := ansi.StringWidth(l); w > width {
				t.Fatalf("WrapWords(%q, %d): line %q is %d wide", text, width, l, w)
			}
			for _, f := range strings.Fields(l) {
				fields = append(fields, field{f, i})
			}
		}
		for _, w := range words {
			if len(fields) == 0 {
				t.Fatalf("WrapWords(%q, %d) = %q: %q is lost", text, width, lines, w)
			}
			if ansi.StringWidth(w) <= width {
				if fields[0].text != w {
					t.Fatalf("WrapWords(%q, %d) = %q: %q is not whole (%q)", text, width, lines, w, fields[0].text)
				}
				fields = fields[1:]
				continue
			}
			// Wider than a line: pieces, each a line of its own.
			rest := w
			for rest != "" {
				f := fields[0]
				if !strings.HasPrefix(rest, f.text) || (len(rest) > len(f.text) && strings.TrimSpace(lines[f.line]) != f.text) {
					t.Fatalf("WrapWords(%q, %d) = %q: the long word %q is not on lines of its own", text, width, lines, w)
				}
				rest, fields = rest[len(f.text):], fields[1:]
			}
		}
		if len(fields) > 0 {
			t.Fatalf("WrapWords(%q, %d) = %q: words that were not in the text", text, width, lines)
		}
	}
}
