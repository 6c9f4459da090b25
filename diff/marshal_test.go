package diff

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/internal/testseed"
)

// cmWith is a ConfigMap whose data is kv and whose annotations hold the
// same values, so that keys and values of two maps are rendered.
func cmWith(kv map[string]any) map[string]any {
	return map[string]any{
		"apiVersion": "v1",
		"kind":       "ConfigMap",
		"metadata":   map[string]any{"name": "x", "namespace": "ns", "annotations": kv},
		"data":       kv,
	}
}

// TestMarshalYAMLRendersWhatTheServerAccepts: a C1 control, which kubectl's
// renderer refuses ("control characters are not allowed"), and every other
// character the API server takes render, hold nothing raw that drives a
// terminal, and parse back to the same bytes.
func TestMarshalYAMLRendersWhatTheServerAccepts(t *testing.T) {
	for _, tc := range []struct {
		name, value, want string
	}{
		{"C1 CSI", "a\u009b2Jb", `"a\u009b2Jb"`},
		{"ESC sequences", "\x1b]52;c;eA==\x07\x1b[2J", `"\x1b]52;c;eA==\x07\x1b[2J"`},
		{"bidi override", "abc\u202edef", `"abc\u202edef"`},
		{"look-alike letters", `abc\u202edef`, `"abc\\u202edef"`},
		{"backslash on one line", `C:\dir`, `"C:\\dir"`},
		{"DEL and NUL", "a\x7fb\x00c", `"a\x7fb\x00c"`},
		{"carriage return", "line\roverwrite", `"line\roverwrite"`},
		{"CRLF config file", "a=1\r\nb=2\r\n", `"a=1\r\nb=2\r\n"`},
		{"line separator", "a\u2028b", `"a\u2028b"`},
		{"NEL", "a\u0085b", `"a\u0085b"`},
		{"multi-line with backslash stays a block", "echo a \\\n  b\n", "|"},
		{"multi-line with a control", "a\nb\x1bc\n", `"a\nb\x1bc\n"`},
		{"plain", "hello", "hello"},
		{"unicode", "日本 ✓", "日本 ✓"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			obj := cmWith(map[string]any{"k": tc.value})
			out, err := MarshalYAML(obj)
			if err != nil {
				t.Fatal(err)
			}
			if escape.Needed(string(out)) {
				t.Errorf("the YAML holds a raw control:\n%q", out)
			}
			if !strings.Contains(string(out), "  k: "+tc.want) {
				t.Errorf("k rendered as\n%s\nwant k: %s", out, tc.want)
			}
			back, err := ParseYAML(out)
			if err != nil {
				t.Fatalf("ParseYAML: %v\n%s", err, out)
			}
			if got := back.Object["data"].(map[string]any)["k"]; got != tc.value {
				t.Errorf("read back %q, want %q", got, tc.value)
			}
		})
	}
}

// TestMarshalYAMLKeys: a key with a control character (a custom resource
// that preserves unknown fields may have one) is quoted like a value.
func TestMarshalYAMLKeys(t *testing.T) {
	obj := cmWith(map[string]any{"evil\u009b\x1b[2J": "v", `back\slash`: "w"})
	out, err := MarshalYAML(obj)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"evil\u009b\x1b[2J": v`, `"back\\slash": w`} {
		if !strings.Contains(string(out), want) {
			t.Errorf("no %s in\n%s", want, out)
		}
	}
	back, err := ParseYAML(out)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.Object["data"], obj["data"]) {
		t.Errorf("read back %v", back.Object["data"])
	}
}

// TestMarshalYAMLRoundTripsRandomStrings: random strings of the characters
// that matter render without a raw control and read back byte for byte.
func TestMarshalYAMLRoundTripsRandomStrings(t *testing.T) {
	alphabet := []string{"a", "Z", " ", "\n", "\t", "\r", "\\", `"`, "'", ":", "#", "-", "\x00", "\x1b", "\x07", "\x7f",
		"\u0085", "\u009b", "\u00a0", "\u200e", "\u202e", "\u2066", "\u2028", "\ufeff", "日", "😀", "u202e", "x1b", "|", ">"}
	r := rand.New(rand.NewPCG(testseed.Fixed(t, 12), 0))
	for i := range 2000 {
		var b strings.Builder
		for range r.IntN(12) {
			b.WriteString(alphabet[r.IntN(len(alphabet))])
		}
		s := b.String()
		obj := cmWith(map[string]any{"k": s, "l": []any{s, map[string]any{"m": s}}})
		out, err := MarshalYAML(obj)
		if err != nil {
			t.Fatalf("%d: MarshalYAML(%q): %v", i, s, err)
		}
		if escape.Needed(string(out)) {
			t.Fatalf("%d: %q renders a raw control:\n%q", i, s, out)
		}
		if strings.Contains(string(out), `\U`) {
			t.Fatalf("%d: %q renders a character beyond the basic plane escaped:\n%s", i, s, out)
		}
		back, err := ParseYAML(out)
		if err != nil {
			t.Fatalf("%d: %q: ParseYAML: %v\n%s", i, s, err, out)
		}
		if !reflect.DeepEqual(back.Object["data"], obj["data"]) {
			t.Fatalf("%d: %q read back as %#v\n%s", i, s, back.Object["data"], out)
		}
	}
}

// TestMarshalYAMLKeepsLargeIntegers: the slow path's decoding keeps an
// int64 beyond 2^53 exact.
func TestMarshalYAMLKeepsLargeIntegers(t *testing.T) {
	obj := cmWith(map[string]any{"k": "\x1b"})
	obj["spec"] = map[string]any{"big": int64(9007199254740993)}
	out, err := MarshalYAML(obj)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), "big: 9007199254740993") {
		t.Errorf("large integer changed:\n%s", out)
	}
}

func FuzzMarshalYAMLRoundTrip(f *testing.F) {
	f.Add("a\u009b2J\\u202e\r\n\x1b")
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8Valid(s) {
			return // the API server's JSON holds valid UTF-8 only
		}
		obj := cmWith(map[string]any{"k": s})
		out, err := MarshalYAML(obj)
		if err != nil {
			t.Fatalf("MarshalYAML(%q): %v", s, err)
		}
		if escape.Needed(string(out)) {
			t.Fatalf("%q renders a raw control:\n%q", s, out)
		}
		back, err := ParseYAML(out)
		if err != nil {
			t.Fatalf("%q: ParseYAML: %v\n%s", s, err, out)
		}
		if got := back.Object["data"].(map[string]any)["k"]; got != s {
			t.Fatalf("%q read back as %q\n%s", s, got, out)
		}
	})
}

func utf8Valid(s string) bool { return strings.ToValidUTF8(s, "\ufffd") == s }

// TestMarshalYAMLWritesEmojiAsTheyAre: a ZWJ sequence is written as it is,
// in a plain scalar or a literal block, not as \U escapes with its joiners
// raw between them; a joiner that joins nothing and a character that takes
// no cell are written as escapes, in double quotes.
func TestMarshalYAMLWritesEmojiAsTheyAre(t *testing.T) {
	family := "\U0001F468\u200d\U0001F469\u200d\U0001F467\u200d\U0001F466"
	for _, tc := range []struct{ in, want string }{
		{family, "  k: " + family + "\n"},
		{"team " + family + "\nsecond line\n", "  k: |\n    team " + family + "\n    second line\n"},
		{"a\u200db", `  k: "a\u200db"` + "\n"},
		{"a\u200bb", `  k: "a\u200bb"` + "\n"},
		{family + "\u200d", `  k: "` + family + `\u200d"` + "\n"},
		{"\ue000" + family, "  k: \ue000" + family + "\n"},
	} {
		obj := cmWith(map[string]any{"k": tc.in})
		out, err := MarshalYAML(obj)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(out), tc.want) {
			t.Errorf("MarshalYAML(%q):\n%s\nwant the line %q", tc.in, out, tc.want)
		}
		back, err := ParseYAML(out)
		if err != nil || back.Object["data"].(map[string]any)["k"] != tc.in {
			t.Errorf("%q does not read back: %v\n%s", tc.in, err, out)
		}
	}
}
