// Package escape is kedit's one rule for showing text it did not write on
// a terminal: which characters are drawn as escapes, how, and how an escape
// is told from the same letters typed. Every view uses it (through
// kube.EscapeControl for server text), the YAML renderer in diff quotes
// what it names, and the in-app editor draws a draft's characters by it.
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
)

// Unsafe reports whether r is drawn as an escape: a control character
// other than newline and tab, DEL, a C1 control or a bidirectional control.
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
// escape (Unsafe, or invalid UTF-8). A backslash alone does not count: it
// is a letter, only drawn doubled.
func Needed(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < utf8.RuneSelf {
			if (c < 0x20 && c != '\n' && c != '\t') || c == 0x7f {
				return true
			}
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size == 1) || Unsafe(r) {
			return true
		}
		i += size - 1
	}
	return false
}

// Rune returns how the rule draws the character (or invalid byte) that
// starts s, and how many bytes of s it takes; "" when it is drawn as
// itself. A backslash is drawn as itself here: doubling it is String's.
func Rune(s string) (string, int) {
	r, size := utf8.DecodeRuneInString(s)
	switch {
	case size == 0:
		return "", 0
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
	}
	return "", size
}

// String makes server text safe to print: every character the rule names
// becomes its escape and every backslash is doubled, so that the result
// holds nothing that can drive a terminal, and a single backslash in it
// always starts an escape. It is Styled without styles.
func String(s string) string {
	if !Needed(s) && !strings.Contains(s, `\`) {
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
	for i := 0; i < len(s); {
		if s[i] == '\\' {
			b.WriteString(apply(mark, `\\`))
			i++
			continue
		}
		e, n := Rune(s[i:])
		if e != "" {
			b.WriteString(apply(mark, e))
		} else {
			b.WriteString(s[i : i+n])
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

// Unescape reverses String: String(Unescape(e)) == e for every e String
// returns, and Unescape(String(s)) == s for every s. It reports false for
// text String cannot have returned (a lone backslash, an escape it never
// writes).
func Unescape(e string) (string, bool) {
	if !strings.Contains(e, `\`) {
		return e, !Needed(e)
	}
	var b strings.Builder
	for i := 0; i < len(e); {
		if e[i] != '\\' {
			b.WriteByte(e[i])
			i++
			continue
		}
		if i+1 >= len(e) {
			return "", false
		}
		switch e[i+1] {
		case '\\':
			b.WriteByte('\\')
			i += 2
		case 'r':
			b.WriteByte('\r')
			i += 2
		case 'x':
			var v byte
			if i+4 > len(e) || !hexByte(e[i+2:i+4], &v) {
				return "", false
			}
			b.WriteByte(v)
			i += 4
		case 'u':
			var hi, lo byte
			if i+6 > len(e) || !hexByte(e[i+2:i+4], &hi) || !hexByte(e[i+4:i+6], &lo) {
				return "", false
			}
			b.WriteRune(rune(hi)<<8 | rune(lo))
			i += 6
		default:
			return "", false
		}
	}
	out := b.String()
	return out, String(out) == e
}

func hexByte(s string, v *byte) bool {
	var n byte
	for i := 0; i < 2; i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			n = n<<4 | (c - '0')
		case c >= 'a' && c <= 'f':
			n = n<<4 | (c - 'a' + 10)
		default:
			return false
		}
	}
	*v = n
	return true
}
