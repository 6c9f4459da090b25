package kube

import "testing"

func TestEscapeControl(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain text\nnext\tcol", "plain text\nnext\tcol"},
		{"osc52 \x1b]52;c;aGVsbG8=\x07 end", `osc52 \x1b]52;c;aGVsbG8=\x07 end`},
		{"clear \x1b[2J", `clear \x1b[2J`},
		{"title \x1b]0;pwned\x1b\\", `title \x1b]0;pwned\x1b\`},
		{"cr\roverwrite", `cr\roverwrite`},
		{"nul\x00del\x7f", `nul\x00del\x7f`},
		{"c1 \u009b2J", `c1 \u009b2J`},
		{"bidi \u202eevil", `bidi \u202eevil`},
		{"bad utf8 \xff\xfe", `bad utf8 \xff\xfe`},
		{"ünïcödé ✓ 日本", "ünïcödé ✓ 日本"},
		{"", ""},
	} {
		if got := EscapeControl(tc.in); got != tc.want {
			t.Errorf("EscapeControl(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func FuzzEscapeControlLeavesNoControl(f *testing.F) {
	f.Add("\x1b]52;c;x\x07\x1b[2J\r\x00\u009b\u202e\xff")
	f.Fuzz(func(t *testing.T, s string) {
		out := EscapeControl(s)
		for i, r := range out {
			if (r < 0x20 && r != '\n' && r != '\t') || r == 0x7f || (r >= 0x80 && r <= 0x9f) || isBidiControl(r) {
				t.Fatalf("output %q keeps control %U at %d", out, r, i)
			}
		}
	})
}
