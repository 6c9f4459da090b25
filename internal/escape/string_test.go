package escape

import "testing"

// TestStringEscapesTerminalControls: what could drive a terminal is drawn
// as its escape, and String is reversible.
func TestStringEscapesTerminalControls(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain text\nnext\tcol", "plain text\nnext\tcol"},
		{"osc52 \x1b]52;c;aGVsbG8=\x07 end", `osc52 \x1b]52;c;aGVsbG8=\x07 end`},
		{"clear \x1b[2J", `clear \x1b[2J`},
		{"title \x1b]0;pwned\x1b\\", `title \x1b]0;pwned\x1b\\`},
		{"cr\roverwrite", `cr\roverwrite`},
		{"nul\x00del\x7f", `nul\x00del\x7f`},
		{"c1 \u009b2J", `c1 \u009b2J`},
		{"bidi \u202eevil", `bidi \u202eevil`},
		{"bad utf8 \xff\xfe", `bad utf8 \xff\xfe`},
		{"ünïcödé ✓ 日本", "ünïcödé ✓ 日本"},
		// The look-alike: twelve letters, not a bidi control.
		{`abc\u202edef`, `abc\\u202edef`},
		{`C:\dir`, `C:\\dir`},
		{"", ""},
	} {
		if got := String(tc.in); got != tc.want {
			t.Errorf("String(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if back, ok := Unescape(String(tc.in)); !ok || back != tc.in {
			t.Errorf("Unescape(String(%q)) = %q, %v", tc.in, back, ok)
		}
	}
	if String("abc\u202edef") == String(`abc\u202edef`) {
		t.Error("a bidi control and its look-alike letters are drawn the same")
	}
}

func FuzzStringLeavesNoControl(f *testing.F) {
	f.Add("\x1b]52;c;x\x07\x1b[2J\r\x00\u009b\u202e\xff")
	f.Add(`abc\u202edef \\ \x1b`)
	f.Fuzz(func(t *testing.T, s string) {
		out := String(s)
		for i, r := range out {
			if Unsafe(r) {
				t.Fatalf("output %q keeps control %U at %d", out, r, i)
			}
		}
		if back, ok := Unescape(out); !ok || back != s {
			t.Fatalf("Unescape(%q) = %q, %v; want %q: two texts are drawn the same", out, back, ok, s)
		}
	})
}
