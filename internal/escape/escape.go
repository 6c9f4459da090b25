// Package escape is kedit's one rule for showing text it did not write on
// a terminal: which characters are drawn as escapes, how, and how an escape
// is told from the same letters typed. Every view and command uses it
// directly, the YAML renderer in diff quotes what it names, and the in-app
// editor draws a draft's characters by it.
//
// Server text is escaped once, where it enters what is drawn, and never
// again. In the UI that is a type: the views, the status bar and the
// editor's notes draw a Text, which only Safe, SafeQuoted, SafeYAML and
// Textf make from server text (a string is not a Text, so the compiler
// finds server text that was not escaped), and which is drawn and put
// together as it is (so nothing is escaped twice, which would draw a
// backslash \\\\). A command that prints server text escapes each piece
// with String as it prints it.
//
// The rule: every control character but newline and tab (ESC, and with it
// every CSI and OSC sequence; BEL, carriage return, NUL, DEL, the C1
// controls), every bidirectional control and every invalid UTF-8 byte is
// drawn as a Go-style escape (\x1b, \r, \u009b, \u202e, \xff). So that an
// escape cannot be taken for the same letters in the text, a backslash in
// server text is drawn doubled (\\): in what String returns, a single
// backslash always starts an escape. Views also draw each escape styled
// (Styled), but the notation alone must tell them apart, for a terminal or
// a copy without styles.
//
// Characters that take no cell are drawn as the escapes of their code
// points too, so that nothing in a value is invisible and every cell of
// the screen is where kedit measured it (with x/ansi, the library lipgloss
// and Bubble Tea measure with): a grapheme cluster of width 0 (a zero
// width space \u200b, a byte order mark \ufeff, a soft hyphen \u00ad, a
// combining mark with nothing before it to combine with), and a zero width
// joiner (U+200D) that joins nothing after it. A joiner between two emoji
// is part of them (👨‍👩‍👧‍👦 is one cluster, two cells wide) and drawn as it
// is; a stray one would be glued by a terminal to whatever comes next (tmux
// then draws the next character into the cell before it, or on another
// row), so it is drawn \u200d.
//
// YAML text (a draft, an object rendered by kedit) has a notation of its
// own: diff's renderer writes every string that holds such a character in
// double quotes with YAML escapes (where a backslash is already \\), so it
// holds none raw. Source draws YAML text by the same rule without doubling
// its backslashes, and styles the escapes of its double-quoted strings.
package escape

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// Unsafe reports whether r is drawn as an escape wherever it stands: a
// control character other than newline and tab, DEL, a C1 control or a
// bidirectional control. (Whether a character that takes no cell, or a
// joiner, is drawn escaped depends on the characters around it: Rune.)
func Unsafe(r rune) bool {
	return (r < 0x20 && r != '\n' && r != '\t') || (r >= 0x7f && r <= 0x9f) || isBidiControl(r)
}

// isBidiControl reports whether r is one of Unicode's bidirectional
// formatting characters (embeddings, overrides, isolates, marks), which
// reorder what a terminal draws around them.
func isBidiControl(r rune) bool {
	return (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) || r == 0x200e || r == 0x200f || r == 0x061c
}

// Needed reports whether s holds a character or byte the rule draws as an
// escape (Unsafe, invalid UTF-8, or one that takes no cell). A backslash
// alone does not count: it is a letter, only drawn doubled.
func Needed(s string) bool {
	var sc *Scanner
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if (c < 0x20 && c != '\n' && c != '\t') || c == 0x7f {
				return true
			}
			if sc != nil {
				sc.bound, sc.afterShown = i, c >= 0x20
			}
			i++
			continue
		}
		if sc == nil {
			sc = NewScanner(s)
			if i > 0 {
				// A cluster starts at the ASCII character before i.
				sc.bound, sc.afterShown = i-1, s[i-1] >= 0x20
			}
		}
		e, n := sc.Unit(i)
		if e != "" {
			return true
		}
		i += n
	}
	return false
}

// Rune returns how the rule draws the unit that starts s, and how many
// bytes of s it takes: a character or invalid byte drawn escaped, or ""
// for a grapheme cluster drawn as it is (then n is the whole cluster, but
// a stray joiner at its end, which is a unit of its own). A backslash is
// drawn as itself here: doubling it is String's.
func Rune(s string) (string, int) {
	if len(s) == 0 {
		return "", 0
	}
	if c := s[0]; c >= 0x20 && c < 0x7f && (len(s) == 1 || s[1] < utf8.RuneSelf) {
		return "", 1 // an ASCII letter, not followed by a mark
	}
	r, size := utf8.DecodeRuneInString(s)
	switch {
	case r == '\n' || r == '\t':
		return "", 1
	case r == utf8.RuneError && size == 1:
		return fmt.Sprintf(`\x%02x`, s[0]), 1
	case r == '\r':
		return `\r`, 1
	case r < 0x20 || r == 0x7f:
		return fmt.Sprintf(`\x%02x`, r), 1
	case Unsafe(r):
		return fmt.Sprintf(`\u%04x`, r), size
	case r == zwj:
		// A joiner that joins is inside the cluster of the emoji before
		// it, walked with that emoji; one that starts a unit is stray.
		return zwjEscape, size
	}
	cluster, w := ansi.FirstGraphemeCluster(s, ansi.GraphemeWidth)
	if n := clusterEnd(cluster); n < len(cluster) {
		cluster = cluster[:n]
		w = ansi.StringWidth(cluster)
	}
	if n := strayJoiner(cluster); n < len(cluster) {
		// A joiner that joins nothing after it: a unit of its own.
		cluster = cluster[:n]
		w = ansi.StringWidth(cluster)
	}
	if w == 0 {
		return codePoints(cluster), len(cluster)
	}
	return "", len(cluster)
}

// zwj is U+200D ZERO WIDTH JOINER; zwjText its UTF-8, zwjEscape how a
// stray one is drawn.
const (
	zwj       = '\u200d'
	zwjText   = "\u200d"
	zwjEscape = `\u200d`
)

// clusterEnd returns where c stops being one unit: before its first
// invalid byte or character drawn escaped after the first character (a
// cluster never swallows one; segmenters keep them apart anyway).
func clusterEnd(c string) int {
	_, size := utf8.DecodeRuneInString(c)
	for i := size; i < len(c); {
		r, n := utf8.DecodeRuneInString(c[i:])
		if (r == utf8.RuneError && n == 1) || (r < 0x20 && r != '\t') || Unsafe(r) {
			return i
		}
		i += n
	}
	return len(c)
}

// strayJoiner returns where the first joiner of cluster c that joins
// nothing stands: one followed in c by nothing, or by a character that
// takes no cell (another joiner, a mark). A joiner followed by an emoji
// (or, in an Indic conjunct, a consonant) is part of the cluster.
func strayJoiner(c string) int {
	for i := strings.Index(c, zwjText); i > 0; {
		next := c[i+len(zwjText):]
		r, _ := utf8.DecodeRuneInString(next)
		if next == "" || r == zwj || ansi.StringWidth(string(r)) == 0 {
			return i
		}
		j := strings.Index(next, zwjText)
		if j < 0 {
			break
		}
		i += len(zwjText) + j
	}
	return len(c)
}

// codePoints writes s as Go escapes of its code points: \u200b, and
// \U000e0001 beyond the basic plane.
func codePoints(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r > 0xffff {
			fmt.Fprintf(&b, `\U%08x`, r)
		} else {
			fmt.Fprintf(&b, `\u%04x`, r)
		}
	}
	return b.String()
}

// String makes server text safe to print: every character the rule names
// becomes its escape and every backslash is doubled, so that the result
// holds nothing that can drive a terminal, and a single backslash in it
// always starts an escape. It is Styled without styles.
func String(s string) string {
	if !strings.Contains(s, `\`) && !Needed(s) {
		return s
	}
	return Styled(s, nil)
}

// Quoted is s in double quotes, for a value inside a sentence (a status
// line): String, with a double quote of s written \" so that the value
// ends where the quotes say.
func Quoted(s string) string {
	return `"` + strings.ReplaceAll(String(s), `"`, `\"`) + `"`
}

// Styled is String with every escape, a doubled backslash included,
// passed through mark (a style), so that it stands out from the text
// around it. A nil mark leaves escapes as they are.
func Styled(s string, mark func(string) string) string {
	if !Needed(s) && !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	sc := NewScanner(s)
	for i := 0; i < len(s); {
		e, n := sc.Unit(i)
		if e != "" {
			b.WriteString(apply(mark, e))
			i += n
			continue
		}
		// Text drawn as it is, every backslash doubled (one in a cluster
		// too: a mark that joins it stays on the second).
		for _, c := range []byte(s[i : i+n]) {
			if c == '\\' {
				b.WriteString(apply(mark, `\\`))
			} else {
				b.WriteByte(c)
			}
		}
		i += n
	}
	return b.String()
}

func apply(mark func(string) string, e string) string {
	if mark == nil {
		return e
	}
	return mark(e)
}
