package diff

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/kedit/kedit/internal/testseed"
)

// TestMarshalPlainIsTheSlowPath: wherever the fast path renders, it writes
// the slow path's bytes, on random trees (strings of every kind the
// renderer treats apart, numbers at the edges) and on every YAML object
// in testdata; and it hands the slow path what it cannot render the same.
func TestMarshalPlainIsTheSlowPath(t *testing.T) {
	r := rand.New(rand.NewPCG(testseed.Fixed(t, 15), 15))
	pieces := []string{"a", "key", "123", "0x1F", "true", "null", "~", "-", "- x", ": ", "#", "'", `"`, `\`, `\n`,
		"\n", "\t", " ", "  lead", "trail ", "é", "日本", "😀", "\u2028", "\x1b[2J", "\x07", "\u009b", "\u202e",
		"\x7f", "\ufeff", "\ufffd", "\xff", "1e3", "0.5", "yes", "on", "*a", "&b", "!tag", "%", "@", "`", "{}", "[]",
		"--- ", "...", "<>&", "=", "?", "|", ">", "\u200d", "\u200b", "\u0301", "\U0001F468\u200d\U0001F469", "\ue000", "\U0001F3FD"}
	str := func() string {
		var b strings.Builder
		for range r.IntN(6) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		return b.String()
	}
	var value func(depth int) any
	value = func(depth int) any {
		switch n := r.IntN(10); {
		case n < 3 || depth > 3:
			switch r.IntN(9) {
			case 0:
				return nil
			case 1:
				return r.IntN(2) == 0
			case 2:
				return r.Int64N(1<<62) - 1<<61
			case 3:
				return []float64{0.5, -1.25, 3, 1e20, 1e21, 1 << 53, 1234567, 1e-7, math.MaxFloat64, 0.1}[r.IntN(10)]
			default:
				return str()
			}
		case n < 6:
			l := make([]any, r.IntN(4))
			for i := range l {
				l[i] = value(depth + 1)
			}
			return l
		default:
			m := map[string]any{}
			for range r.IntN(5) {
				m[str()] = value(depth + 1)
			}
			return m
		}
	}
	var fast int
	check := func(what string, v any) {
		t.Helper()
		want, werr := marshalSlow(v)
		got, ok := marshalPlain(v)
		if !ok {
			return
		}
		fast++
		if werr != nil || !bytes.Equal(got, want) {
			t.Fatalf("%s: the fast path wrote\n%q\nthe slow path (err %v)\n%q", what, got, werr, want)
		}
	}
	for i := range 20000 {
		check(fmt.Sprintf("random tree %d", i), map[string]any{"data": value(0), "apiVersion": "v1", "kind": "ConfigMap"})
	}
	files, _ := filepath.Glob("../testdata/*/*/*.yaml")
	more, _ := filepath.Glob("../testdata/*/*.yaml")
	for _, f := range append(files, more...) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var v any
		if yaml.Unmarshal(b, &v) != nil {
			continue
		}
		check(f, v)
	}
	if fast < 5000 {
		t.Errorf("the fast path rendered only %d of the trees", fast)
	}
	for _, v := range []any{"a\x1bb", "\xff", 1e20, map[string]any{"\u202e": 1}, []string{"typed"}, int32(1)} {
		if _, ok := marshalPlain(map[string]any{"v": v}); ok {
			t.Errorf("the fast path took %#v", v)
		}
	}
}
