package escape

import (
	"testing"
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
