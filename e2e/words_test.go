package e2e

import (
	"strings"
)

// Words cut by the screen's edge: a text kedit says is on the screen with
// every word whole when its words come one after another in the screen's
// words, wherever its lines were wrapped (a word split over two lines, or
// cut with a "…", is not one of the screen's words).

// wholeWords reports whether text's words are on screen, in order, each
// whole, on consecutive words of the screen (its lines read as one text).
func wholeWords(screen, text string) bool {
	have, want := strings.Fields(screen), strings.Fields(text)
	if len(want) == 0 {
		return true
	}
	for i := 0; i+len(want) <= len(have); i++ {
		ok := true
		for j, w := range want {
			if have[i+j] != w {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// wordsOf is a predicate for waitUntil: every text's words whole on the
// screen.
func wordsOf(texts ...string) func(string) bool {
	return func(screen string) bool {
		for _, t := range texts {
			if !wholeWords(screen, t) {
				return false
			}
		}
		return true
	}
}

// flatWords is screen's words, one space between each: its lines read as
// one text.
func flatWords(screen string) string { return strings.Join(strings.Fields(screen), " ") }
