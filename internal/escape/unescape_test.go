package escape

import "strings"

// Unescape reverses String (the tests' proof that String loses nothing): String(Unescape(e)) == e for every e String
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
		case 'U':
			var v rune
			for k := 0; k < 4; k++ {
				var x byte
				if i+4+2*k > len(e) || !hexByte(e[i+2+2*k:i+4+2*k], &x) {
					return "", false
				}
				v = v<<8 | rune(x)
			}
			b.WriteRune(v)
			i += 10
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
