package kube

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// EscapeControl makes text from the server safe to print on a terminal:
// every control character except newline and tab (ESC and so every CSI and
// OSC sequence, BEL, carriage return, NUL, DEL, the C1 controls), every
// bidirectional override and every invalid UTF-8 byte is written as a
// visible Go-style escape (\x1b, \r, \u202e). An object's content must
// never move the cursor, set the title, write the clipboard or clear the
// operator's screen.
func EscapeControl(s string) string {
	if !needsEscape(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\n' || r == '\t':
			b.WriteRune(r)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case (r >= 0x80 && r <= 0x9f) || isBidiControl(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

func needsEscape(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c < 0x20 && c != '\n' && c != '\t') || c == 0x7f || c >= 0x80 {
			if c >= 0x80 {
				// Non-ASCII needs a closer look: only some of it is unsafe.
				return !utf8.ValidString(s[i:]) || strings.ContainsFunc(s[i:], func(r rune) bool {
					return (r >= 0x80 && r <= 0x9f) || isBidiControl(r) || (r < 0x20 && r != '\n' && r != '\t') || r == 0x7f
				})
			}
			return true
		}
	}
	return false
}

func isBidiControl(r rune) bool {
	return (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) || r == 0x200e || r == 0x200f || r == 0x061c
}
