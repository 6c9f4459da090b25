package textedit

import (
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"

	"github.com/kedit/kedit/internal/escape"
)

// unit is what the cursor steps over and what takes cells on screen: one
// grapheme cluster, or one character or invalid byte drawn escaped.
type unit struct {
	n   int    // length in bytes
	w   int    // width in cells
	esc string // drawn instead of the bytes when not empty
}

// unitAt returns the unit that starts at byte i of s, a line without "\n".
// It only ever looks at the unit itself and the byte after it, so that
// its callers walk what they draw and nothing else. The units and their
// escapes are internal/escape's, the rule every text kedit draws follows
// (a stray joiner, a character that takes no cell and a control character
// are each a unit drawn escaped, a joined emoji sequence one unit two
// cells wide), with the tab added: YAML allows no tab in indentation, and
// a tab drawn as blanks would be taken for spaces.
func unitAt(s string, i int) unit {
	b := s[i]
	if b >= 0x20 && b < 0x7f && (i+1 == len(s) || s[i+1] < 0x80) {
		// Printable ASCII not followed by a combining mark: nearly every
		// byte of a YAML document.
		return unit{n: 1, w: 1}
	}
	if b < 0x20 || b == 0x7f {
		return escapedUnit(s[i : i+1])
	}
	if r, size := utf8.DecodeRuneInString(s[i:]); r == utf8.RuneError && size == 1 {
		return escapedUnit(s[i : i+1])
	}
	e, n := escape.Rune(s[i:])
	if e != "" {
		return unit{n: n, w: len(e), esc: e}
	}
	return unit{n: n, w: ansi.StringWidth(s[i : i+n])}
}

// escapedUnit is the unit of one byte drawn escaped.
func escapedUnit(b string) unit {
	e := byteEscapes[b[0]]
	return unit{n: 1, w: len(e), esc: e}
}

// byteEscapes holds the escape of every byte that is drawn escaped on its
// own (a control character, the tab, DEL, and a byte of invalid UTF-8),
// computed once: a line of such bytes would otherwise format an escape per
// byte on every walk along it.
var byteEscapes = func() (e [256]string) {
	for b := range 256 {
		if b == '\t' {
			e[b] = `\t`
			continue
		}
		e[b], _ = escape.Rune(string([]byte{byte(b)}))
	}
	return e
}()

// xOf returns the display column of byte col of s.
func xOf(s string, col int) int {
	x := 0
	for i := 0; i < col && i < len(s); {
		if j := min(plainEnd(s, i), col); j > i {
			x += j - i
			i = j
			continue
		}
		u := unitAt(s, i)
		x += u.w
		i += u.n
	}
	return x
}

// colAt returns the unit boundary of s whose display column is the
// greatest not past x, and that column; len(s) when x is past the end.
func colAt(s string, x int) (col, at int) {
	i, cx := 0, 0
	for i < len(s) {
		if j := min(plainEnd(s, i), i+x-cx); j > i {
			cx += j - i
			i = j
			continue
		}
		u := unitAt(s, i)
		if cx+u.w > x {
			return i, cx
		}
		cx += u.w
		i += u.n
	}
	return i, cx
}

// plainEnd returns the end of the run of units from byte i of s that are
// one printable ASCII byte each, one cell wide: the walks along a line to
// a column skip such runs eight bytes at a time, so that a line of a
// megabyte (a certificate) costs a fraction of a millisecond to cross.
func plainEnd(s string, i int) int {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	start := i
	for ; i+8 <= len(s); i += 8 {
		w := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
			uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
		del := w ^ (0x7f * ones)
		// A byte of 0x80 or more, below 0x20, or 0x7f (DEL) ends the run.
		if (w|(w-0x20*ones)&^w|(del-ones)&^del)&highs != 0 {
			break
		}
	}
	for i < len(s) && s[i] >= 0x20 && s[i] < 0x7f {
		i++
	}
	if i < len(s) && s[i] >= 0x80 && i > start {
		// The last ASCII byte may take a combining mark after it.
		i--
	}
	return i
}

// safeStart returns a unit boundary of s at or before i, near it when the
// text allows: a byte after an ASCII byte that is itself ASCII always
// starts a unit (no grapheme cluster joins two ASCII characters inside a
// line), and so does the start of the line.
func safeStart(s string, i int) int {
	for i > 0 && !(s[i] < 0x80 && s[i-1] < 0x80) {
		i--
	}
	return i
}

// prevBoundary returns the start of the unit before byte col of s.
func prevBoundary(s string, col int) int {
	if col <= 0 {
		return 0
	}
	i := safeStart(s, col-1)
	for {
		n := unitAt(s, i).n
		if i+n >= col {
			return i
		}
		i += n
	}
}

// nextBoundary returns the end of the unit at byte col of s.
func nextBoundary(s string, col int) int {
	if col >= len(s) {
		return len(s)
	}
	return col + unitAt(s, col).n
}

// snapBack returns the start of the unit that holds byte col of s, col
// itself when a unit starts there; snapForward returns the end of that
// unit instead. An edit can join bytes into one unit (an invalid byte
// typed before its continuation, a combining mark after a letter) and
// leave the cursor inside it.
func snapBack(s string, col int) int {
	if col <= 0 || col >= len(s) {
		return min(max(col, 0), len(s))
	}
	i := safeStart(s, col)
	for {
		n := unitAt(s, i).n
		if i+n > col {
			return i
		}
		i += n
	}
}

func snapForward(s string, col int) int {
	b := snapBack(s, col)
	if b == col {
		return col
	}
	return b + unitAt(s, b).n
}
