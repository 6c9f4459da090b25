package diff

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/internal/testseed"
)

// TestMarshalJSONAsKubectl: keys sorted, four spaces, a newline at the end,
// and no HTML escapes.
func TestMarshalJSONAsKubectl(t *testing.T) {
	out, err := MarshalJSON(cmWith(map[string]any{"b": "<x & y>", "a": "1"}))
	if err != nil {
		t.Fatal(err)
	}
	want := `{
    "apiVersion": "v1",
    "data": {
        "a": "1",
        "b": "<x & y>"
    },
    "kind": "ConfigMap",
    "metadata": {
        "annotations": {
            "a": "1",
            "b": "<x & y>"
        },
        "name": "x",
        "namespace": "ns"
    }
}
`
	if string(out) != want {
		t.Errorf("MarshalJSON:\n%s\nwant:\n%s", out, want)
	}
}

// TestMarshalJSONRoundTripsRandomStrings: random strings of the characters
// that matter render without a raw control and read back byte for byte,
// as do large integers and floats.
func TestMarshalJSONRoundTripsRandomStrings(t *testing.T) {
	alphabet := []string{"a", "Z", " ", "\n", "\t", "\r", "\\", `"`, "'", ":", "#", "-", "\x00", "\x1b", "\x07", "\x7f",
		"\u0085", "\u009b", "\u00a0", "\u200e", "\u202e", "\u2066", "\u2028", "\ufeff", "日", "😀", "u202e", "<", "&", "{", "}"}
	r := rand.New(rand.NewPCG(testseed.Fixed(t, 31), 0))
	for i := range 2000 {
		var b strings.Builder
		for range r.IntN(12) {
			b.WriteString(alphabet[r.IntN(len(alphabet))])
		}
		s := b.String()
		obj := cmWith(map[string]any{"k": s, s: "key", "l": []any{s, map[string]any{"m": s}}})
		obj["spec"] = map[string]any{"big": int64(9007199254740993), "f": 1.5, "neg": int64(-3), "t": true, "n": nil}
		out, err := MarshalJSON(obj)
		if err != nil {
			t.Fatalf("%d: MarshalJSON(%q): %v", i, s, err)
		}
		if escape.Needed(strings.NewReplacer("\ufeff", "", "\u00a0", "").Replace(string(out))) {
			t.Fatalf("%d: %q renders a raw control:\n%q", i, s, out)
		}
		back, err := ParseJSON(out)
		if err != nil {
			t.Fatalf("%d: %q: ParseJSON: %v\n%s", i, s, err, out)
		}
		if !reflect.DeepEqual(back.Object, obj) {
			t.Fatalf("%d: %q read back as %#v\n%s", i, s, back.Object, out)
		}
	}
}

// TestParseJSONSaysWhere: each kind of bad JSON is refused with the line
// and column of the problem and words for it.
func TestParseJSONSaysWhere(t *testing.T) {
	const head = "{\n    \"apiVersion\": \"v1\",\n    \"kind\": \"ConfigMap\",\n"
	for _, tc := range []struct {
		name, text string
		line, col  int
		msg        string
	}{
		{"trailing comma", head + "    \"data\": {\"a\": \"1\",}\n}\n", 4, 23, "a comma before \"}\""},
		{"missing comma", head + "    \"data\": {\"a\": \"1\"\n        \"b\": \"2\"}\n}\n", 5, 9, "a comma is missing"},
		{"single quotes", head + "    \"data\": {'a': \"1\"}\n}\n", 4, 14, "single quotes"},
		{"comment", head + "    # a comment\n    \"data\": {}\n}\n", 4, 5, "no comments"},
		{"cut short", head + "    \"data\": {\"a\": \"1\"\n", 4, 22, "the text ends inside the JSON"},
		{"unquoted key", head + "    data: {}\n}\n", 4, 5, "invalid character 'd'"},
		{"two objects", head + "    \"data\": {}\n}\n{}\n", 6, 1, "more text after the object"},
		{"bad escape", head + "    \"data\": {\"a\": \"\\q\"}\n}\n", 4, 21, "invalid character 'q' in string escape code"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseJSON([]byte(tc.text))
			var je *JSONError
			if !errors.As(err, &je) {
				t.Fatalf("ParseJSON: %v (%T), want a *JSONError", err, err)
			}
			if je.Line != tc.line || je.Column != tc.col || !strings.Contains(je.Msg, tc.msg) {
				t.Errorf("got line %d, column %d: %s\nwant line %d, column %d: …%s…", je.Line, je.Column, je.Msg, tc.line, tc.col, tc.msg)
			}
		})
	}
}

// TestParseJSONRefusesADuplicateKey: encoding/json keeps the last of two
// keys; kedit names the second and the line of the first.
func TestParseJSONRefusesADuplicateKey(t *testing.T) {
	text := "{\n    \"apiVersion\": \"v1\",\n    \"kind\": \"ConfigMap\",\n    \"data\": {\n        \"a\": \"1\",\n        \"a\": \"2\"\n    }\n}\n"
	_, err := ParseJSON([]byte(text))
	var dk *DuplicateKeyError
	if !errors.As(err, &dk) {
		t.Fatalf("ParseJSON: %v, want a *DuplicateKeyError", err)
	}
	if dk.Line != 6 || dk.Column != 9 || dk.Path != ".data.a" || dk.FirstLine != 5 {
		t.Errorf("got %+v", dk)
	}
	if want := `line 6, column 9: key "a" is already defined on line 5`; err.Error() != want {
		t.Errorf("message %q, want %q", err, want)
	}
}

// TestParseJSONRefusesWhatIsNoObject: valid JSON that is no Kubernetes
// object wraps ErrNotObject, as ParseYAML's does.
func TestParseJSONRefusesWhatIsNoObject(t *testing.T) {
	for _, text := range []string{`[]`, `"x"`, `{"kind": "ConfigMap"}`, `{"apiVersion": "v1"}`, `null`} {
		if _, err := ParseJSON([]byte(text)); !errors.Is(err, ErrNotObject) {
			t.Errorf("ParseJSON(%s): %v, want ErrNotObject", text, err)
		}
	}
}

// TestMergeJSONBlocks: an open conflict is a block of JSON members, each
// section with the comma of its line; the text is refused while a block
// is in it, and keeping any one section reads back as that resolution.
func TestMergeJSONBlocks(t *testing.T) {
	cm := func(data map[string]any) map[string]any {
		return map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "cm", "namespace": "default"}, "data": data}
	}
	base := cm(map[string]any{"a": "1", "b": "1", "z": "1"})
	mine := cm(map[string]any{"a": "mine", "b": "1", "z": "1"})
	theirs := cm(map[string]any{"a": "theirs", "b": "2", "z": "1"})
	m := mustMergeMaps(t, base, mine, theirs)
	text, err := m.JSON()
	if err != nil {
		t.Fatal(err)
	}
	want := `{
    "apiVersion": "v1",
    "data": {
<<<<<<< mine
        "a": "mine",
||||||| base
        "a": "1",
=======
        "a": "theirs",
>>>>>>> theirs
        "b": "2",
        "z": "1"
    },
    "kind": "ConfigMap",
    "metadata": {
        "name": "cm",
        "namespace": "default"
    }
}
`
	if string(text) != want {
		t.Errorf("JSON():\n%s\nwant:\n%s", text, want)
	}
	var me *MarkerError
	if _, err := ParseJSON(text); !errors.As(err, &me) || me.Line != 4 || me.Path != ".data.a" {
		t.Errorf("ParseJSON with a block: %v, want a *MarkerError on line 4 in .data.a", err)
	}
}

// TestMergeJSONKeepsEverySection is the property: for random merges of a
// ConfigMap, a Deployment and a custom resource, the JSON text holds a
// block exactly while a conflict is open; keeping every block's mine,
// base or theirs section reads back as the merge with every conflict
// resolved so; and the resolved merge's JSON reads back as its final
// object, whatever members a section leaves out (the commas around them).
func TestMergeJSONKeepsEverySection(t *testing.T) {
	seeds := 120
	if testing.Short() {
		seeds = 20
	}
	gadgets := gadgetSchemas(t)
	cases := map[string]func(*rand.Rand) objectCase{
		"configmap":  configMapCase,
		"deployment": deploymentCase,
		"crd":        func(r *rand.Rand) objectCase { return gadgetCase(r, gadgets) },
	}
	for name, make := range cases {
		t.Run(name, func(t *testing.T) {
			base := testseed.Fixed(t, 0)
			blocks := 0
			for i := range seeds {
				seed := base + uint64(i)
				r := rand.New(rand.NewPCG(seed, 23))
				c := make(r)
				m, err := MergeObjects(c.base, c.mine, c.theirs, c.opts...)
				if err != nil {
					t.Fatalf("seed %d: %v", seed, err)
				}
				text, err := m.JSON()
				if err != nil {
					t.Fatalf("seed %d: JSON: %v", seed, err)
				}
				if len(m.Conflicts) == 0 {
					back, err := ParseJSON(text)
					if err != nil || !reflect.DeepEqual(back.Object, m.Merged.Object) {
						t.Fatalf("seed %d: clean merge reads back as %v (%v)\n%s", seed, back, err, text)
					}
					continue
				}
				blocks++
				var me *MarkerError
				if _, err := ParseJSON(text); !errors.As(err, &me) {
					t.Fatalf("seed %d: ParseJSON with open conflicts: %v\n%s", seed, err, text)
				}
				for side, ch := range []Choice{TakeMine, TakeBase, TakeTheirs} {
					res := m.Clone()
					for j := range res.Conflicts {
						if _, err := res.Resolve(j, Resolution{Choice: ch}); err != nil {
							t.Fatal(err)
						}
					}
					final, err := res.Final()
					if err != nil {
						t.Fatal(err)
					}
					resolved, err := res.JSON()
					if err != nil {
						t.Fatal(err)
					}
					if back, err := ParseJSON(resolved); err != nil || !reflect.DeepEqual(back.Object, final.Object) {
						t.Fatalf("seed %d, %v: the resolved merge's JSON reads back as %v (%v)\n%s", seed, ch, back, err, resolved)
					}
					kept := keepSection(string(text), side)
					back, err := ParseJSON([]byte(kept))
					if err != nil || !reflect.DeepEqual(back.Object, final.Object) {
						t.Fatalf("seed %d: keeping section %d of every block reads back as %v (%v), want %v\n%s", seed, side, back, err, final.Object, kept)
					}
				}
			}
			// The cases must collide, or the property is checked on
			// clean merges only.
			if blocks < seeds/6 {
				t.Errorf("only %d of %d merges had a conflict", blocks, seeds)
			}
			t.Logf("%d merges with conflicts", blocks)
		})
	}
}

// keepSection keeps section side (0 mine, 1 base, 2 theirs) of every
// conflict block of text, as a user resolving by hand would.
func keepSection(text string, side int) string {
	var b strings.Builder
	section := -1
	for _, l := range strings.SplitAfter(text, "\n") {
		switch {
		case strings.HasPrefix(l, "<<<<<<<"):
			section = 0
			continue
		case strings.HasPrefix(l, "|||||||"):
			section = 1
			continue
		case strings.HasPrefix(l, "======="):
			section = 2
			continue
		case strings.HasPrefix(l, ">>>>>>>"):
			section = -1
			continue
		}
		if section == -1 || section == side {
			b.WriteString(l)
		}
	}
	return b.String()
}

func mustMergeMaps(t *testing.T, base, mine, theirs map[string]any) *ObjectMerge {
	t.Helper()
	u := func(o map[string]any) *unstructured.Unstructured { return &unstructured.Unstructured{Object: o} }
	m, err := MergeObjects(u(base), u(mine), u(theirs))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func ExampleObjectMerge_JSON() {
	cm := func(v string) map[string]any {
		return map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "cm"}, "data": map[string]any{"k": v}}
	}
	u := func(v string) *unstructured.Unstructured { return &unstructured.Unstructured{Object: cm(v)} }
	m, _ := MergeObjects(u("base"), u("mine"), u("theirs"))
	text, _ := m.JSON()
	fmt.Print(string(text))
	// Output:
	// {
	//     "apiVersion": "v1",
	//     "data": {
	// <<<<<<< mine
	//         "k": "mine"
	// ||||||| base
	//         "k": "base"
	// =======
	//         "k": "theirs"
	// >>>>>>> theirs
	//     },
	//     "kind": "ConfigMap",
	//     "metadata": {
	//         "name": "cm"
	//     }
	// }
}
