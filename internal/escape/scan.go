package escape

import (
	"sync"
	"unicode"
	"unicode/utf8"
)

// Scanner walks text by the rule's units, fast: a character that can
// neither take no cell nor be a joiner (nearly every one) is drawn as it
// is without segmenting the text around it, and so is a combining mark
// right after a character drawn as it is (it joins that character's
// cluster); only at another character that may take no cell (a format
// character such as a joiner, a mark after a line break) are the grapheme
// clusters from the last known cluster start walked, with Rune. Unit
// boundaries it reports may lie inside a cluster drawn as it is; what it
// escapes is exactly what walking the text with Rune escapes
// (TestScannerEscapesWhatRuneEscapes).
type Scanner struct {
	s string
	// bound is a position at or before the next unit known to start a
	// grapheme cluster.
	bound int
	// afterShown: the text before the next unit ends in a cluster drawn
	// as it is, which a combining mark joins.
	afterShown bool
}

// NewScanner returns a scanner of s.
func NewScanner(s string) *Scanner { return &Scanner{s: s} }

// Unit returns how the rule draws the text at byte i (after the text the
// previous calls covered): the escape of the unit there, or "" for text
// drawn as it is, and how many bytes that is.
func (sc *Scanner) Unit(i int) (string, int) {
	s := sc.s
	c := s[i]
	if c < utf8.RuneSelf {
		sc.bound = i // no cluster goes on over an ASCII character
		sc.afterShown = c >= 0x20 && c < 0x7f
		if (c < 0x20 && c != '\n' && c != '\t') || c == 0x7f {
			return Rune(s[i : i+1])
		}
		return "", 1
	}
	r, size := utf8.DecodeRuneInString(s[i:])
	if (r == utf8.RuneError && size == 1) || Unsafe(r) {
		sc.bound, sc.afterShown = i+size, false
		return Rune(s[i:])
	}
	switch kind(r) {
	case kindShown:
		sc.afterShown = true
		return "", size
	case kindMark:
		if sc.afterShown {
			return "", size
		}
	}
	// The clusters from the last known start decide whether this one is
	// part of the cluster before it or a unit of its own.
	for j := sc.bound; ; {
		e, n := Rune(s[j:])
		if j+n > i {
			sc.bound, sc.afterShown = j+n, e == ""
			if j == i {
				return e, n
			}
			return "", j + n - i // inside a cluster drawn as it is
		}
		j += n
	}
}

// The kinds of characters for the scanner: one that takes a cell, a
// combining mark (Mn, Me), and one that may take no cell or join what
// follows (a format or control character, a line or paragraph separator,
// U+FFFE and U+FFFF). Every character x/ansi measures 0 cells wide alone
// is a mark or of the last kind (TestKindsCoverXAnsi).
const (
	kindShown = iota
	kindMark
	kindOther
)

func kind(r rune) int {
	if r <= 0xffff {
		kindsOnce.Do(buildKinds)
		switch {
		case markTable[r>>6]&(1<<(r&63)) != 0:
			return kindMark
		case otherTable[r>>6]&(1<<(r&63)) != 0:
			return kindOther
		}
		return kindShown
	}
	switch {
	case unicode.In(r, unicode.Mn, unicode.Me):
		return kindMark
	case unicode.In(r, otherTables...):
		return kindOther
	}
	return kindShown
}

var otherTables = []*unicode.RangeTable{unicode.Cf, unicode.Cc, unicode.Zl, unicode.Zp}

// markTable and otherTable hold kind of each character of the basic
// plane, a bit each.
var (
	kindsOnce             sync.Once
	markTable, otherTable [1 << 10]uint64
)

func buildKinds() {
	fill := func(table *[1 << 10]uint64, tables ...*unicode.RangeTable) {
		for _, t := range tables {
			for _, rg := range t.R16 {
				for r := rune(rg.Lo); r <= rune(rg.Hi); r += rune(rg.Stride) {
					table[r>>6] |= 1 << (r & 63)
				}
			}
		}
	}
	fill(&markTable, unicode.Mn, unicode.Me)
	fill(&otherTable, otherTables...)
	otherTable[0xfffe>>6] |= 1 << (0xfffe & 63)
	otherTable[0xffff>>6] |= 1 << (0xffff & 63)
}
