package escape

import (
	"math/rand"
	"strings"
	"testing"
	"unicode"

	"github.com/charmbracelet/x/ansi"

	"github.com/kedit/kedit/internal/testseed"
)

func mark(e string) string { return "[" + e + "]" }

func TestStyledMarksEveryEscape(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"abc\u202edef", `abc[\u202e]def`},
		{`abc\u202edef`, `abc[\\]u202edef`},
		{"\x1b[2J\r\xff", `[\x1b][2J[\r][\xff]`},
		{"plain ✓", "plain ✓"},
	} {
		if got := Styled(tc.in, mark); got != tc.want {
			t.Errorf("Styled(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestSourceKeepsYAMLsOwnNotation(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		// kedit's rendering: the bidi control in YAML's escape, marked; the
		// look-alike letters' backslash is YAML's \\, marked as an escape.
		{"real: \"abc\\u202edef\"\nfake: \"abc\\\\u202edef\"\n", "real: \"abc[\\u202e]def\"\nfake: \"abc[\\\\]u202edef\"\n"},
		// A plain string's backslash is a letter.
		{"path: C:\\dir\n", "path: C:\\dir\n"},
		// A block scalar has no escapes.
		{"conf: |\n  a \\x1b b\n", "conf: |\n  a \\x1b b\n"},
		// A raw control a user typed into the draft.
		{"k: a\x1bb\n", "k: a[\\x1b]b\n"},
		// Text that does not parse: only raw controls are escaped.
		{"k: [\"\\x1b\n\x07", "k: [\"\\x1b\n[\\x07]"},
		// A quoted key.
		{"\"k\\u009b\": v\n", "\"k[\\u009b]\": v\n"},
	} {
		if got := Source(tc.in, mark); got != tc.want {
			t.Errorf("Source(%q) =\n%q, want\n%q", tc.in, got, tc.want)
		}
	}
	if got := Source("k: \"a\\x1b\"\n", nil); got != "k: \"a\\x1b\"\n" {
		t.Errorf("Source without a mark changed YAML's escapes: %q", got)
	}
}

func TestUnescapeRefusesWhatStringNeverWrites(t *testing.T) {
	for _, e := range []string{`\`, `\q`, `\x1`, `\u12`, `\x41`, "raw\x1b"} {
		if _, ok := Unescape(e); ok {
			t.Errorf("Unescape(%q) accepted", e)
		}
	}
}

func TestQuoted(t *testing.T) {
	for in, want := range map[string]string{
		"7":           `"7"`,
		"\x1b[2J":     `"\x1b[2J"`,
		`a\x1b"b`:     `"a\\x1b\"b"`,
		"\u202eabc\"": `"\u202eabc\""`,
	} {
		if got := Quoted(in); got != want {
			t.Errorf("Quoted(%q) = %s, want %s", in, got, want)
		}
	}
}

// family is a ZWJ sequence: four emoji joined into one, two cells wide.
const family = "\U0001F468\u200d\U0001F469\u200d\U0001F467\u200d\U0001F466"

func TestJoinersAndCharactersThatTakeNoCell(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		// A joiner between two emoji is part of them.
		{"a " + family + " b", "a " + family + " b"},
		{"\U0001F44D\U0001F3FD\u200d\u2642\ufe0f", "\U0001F44D\U0001F3FD\u200d\u2642\ufe0f"},
		// A stray one is drawn as its escape: after a letter, at the
		// start, at the end, after an emoji it joins to nothing.
		{"a\u200db", `a\u200db`},
		{"\u200dx", `\u200dx`},
		{"x\u200d", `x\u200d`},
		{"\U0001F468\u200d", "\U0001F468" + `\u200d`},
		{"\U0001F468\u200d\u200d\U0001F469", "\U0001F468" + `\u200d\u200d` + "\U0001F469"},
		// Clusters that take no cell.
		{"a\u200bb", `a\u200bb`},
		{"\ufeffkey", `\ufeffkey`},
		{"soft\u00adhyphen", `soft\u00adhyphen`},
		{"\u0301a", `\u0301a`},
		{"line\n\u0301", "line\n" + `\u0301`},
		{"\U000E0041tag", `\U000e0041tag`},
		// A combining mark on a letter, wide characters: as they are.
		{"e\u0301 漢字", "e\u0301 漢字"},
	} {
		if got := String(tc.in); got != tc.want {
			t.Errorf("String(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if back, ok := Unescape(String(tc.in)); !ok || back != tc.in {
			t.Errorf("Unescape(String(%q)) = %q, %v", tc.in, back, ok)
		}
		if Needed(tc.in) != (tc.in != tc.want) {
			t.Errorf("Needed(%q) = %v", tc.in, Needed(tc.in))
		}
	}
}

// TestEveryCellIsMeasured: over random text of letters, marks, joiners,
// emoji, wide characters, controls and invalid bytes, what String returns
// reads back (Unescape), holds no cluster that takes no cell, and every
// joiner in it is inside a cluster that goes on after it; Needed says
// whether String changes anything but backslashes.
func TestEveryCellIsMeasured(t *testing.T) {
	seed := testseed.Seed(t)
	rng := rand.New(rand.NewSource(int64(seed)))
	parts := []string{"a", "e", " ", "\\", "\n", "\t", "\u0301", "\u200d", "\u200b", "\ufeff", "\U0001F468", "\U0001F469",
		"\U0001F3FD", "\ufe0f", "漢", "\x1b", "\r", "\u202e", "\xff", "\xe2\x80", "\u00ad", "\U000E0041", "\u0915\u094d"}
	for range 20000 {
		var b strings.Builder
		for range rng.Intn(8) {
			b.WriteString(parts[rng.Intn(len(parts))])
		}
		in := b.String()
		out := String(in)
		if back, ok := Unescape(out); !ok || back != in {
			t.Fatalf("seed %d: Unescape(String(%q)) = %q, %v", seed, in, back, ok)
		}
		for rest := out; rest != ""; {
			c, w := ansi.FirstGraphemeCluster(rest, ansi.GraphemeWidth)
			if w == 0 && c != "\n" && c != "\t" {
				t.Fatalf("seed %d: String(%q) = %q holds %q, which takes no cell", seed, in, out, c)
			}
			if strings.HasSuffix(c, "\u200d") {
				t.Fatalf("seed %d: String(%q) = %q holds a stray joiner in %q", seed, in, out, c)
			}
			rest = rest[len(c):]
		}
		if Needed(in) != (out != strings.ReplaceAll(in, `\`, `\\`)) {
			t.Fatalf("seed %d: Needed(%q) = %v, String = %q", seed, in, Needed(in), out)
		}
	}
}

// TestKindsCoverXAnsi: every character x/ansi measures 0 cells wide alone
// is one the scanner looks at closely (a mark, or one that may take no
// cell), so that its fast path never skips one the rule escapes.
func TestKindsCoverXAnsi(t *testing.T) {
	for r := rune(0x80); r <= unicode.MaxRune; r++ {
		if r >= 0xd800 && r <= 0xdfff {
			continue
		}
		if kind(r) == kindShown && ansi.StringWidth(string(r)) == 0 {
			t.Errorf("%U takes no cell but is taken for one that does", r)
		}
	}
}

// TestScannerEscapesWhatRuneEscapes: over random text, String (which
// walks with the scanner) escapes exactly what walking cluster by cluster
// with Rune escapes.
func TestScannerEscapesWhatRuneEscapes(t *testing.T) {
	walk := func(s string) string {
		var b strings.Builder
		for i := 0; i < len(s); {
			e, n := Rune(s[i:])
			switch {
			case s[i] == '\\':
				b.WriteString(`\\` + s[i+1:i+n])
			case e != "":
				b.WriteString(e)
			default:
				b.WriteString(s[i : i+n])
			}
			i += n
		}
		return b.String()
	}
	seed := testseed.Seed(t)
	rng := rand.New(rand.NewSource(int64(seed)))
	parts := []string{"a", " ", "\\", "\n", "\t", "\u0301", "\u0302", "\u200d", "\u200c", "\u200b", "\ufeff", "\U0001F468",
		"\U0001F3FD", "\ufe0f", "\u2642", "漢", "\x1b", "\u202e", "\xff", "\u00ad", "\u0915", "\u094d", "\u093f",
		"\u0600", "\U000E0041", "\U0001F1E9", "\u1100", "\u1161", "\u2028"}
	for range 50000 {
		var b strings.Builder
		for range rng.Intn(10) {
			b.WriteString(parts[rng.Intn(len(parts))])
		}
		s := b.String()
		if got, want := String(s), walk(s); got != want {
			t.Fatalf("seed %d: String(%q) = %q, walking with Rune %q", seed, s, got, want)
		}
		if Needed(s) != (walk(s) != strings.ReplaceAll(s, `\`, `\\`)) {
			t.Fatalf("seed %d: Needed(%q) = %v, walking with Rune %q", seed, s, Needed(s), walk(s))
		}
	}
}
