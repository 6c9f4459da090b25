package diff

import (
	"math"
	"strings"
	"unicode/utf8"

	yamlv2 "go.yaml.in/yaml/v2"
)

// marshalPlain renders v as MarshalYAML's slow path does (JSON, which
// sigs.k8s.io/yaml reads back with yaml.v2 and writes as YAML), without the
// two texts between: the tree is handed to yaml.v2 as its own reading of
// that JSON would be. A mebibyte then takes a third of the time and of the
// memory. ok is false for any value whose JSON round trip is not the
// identity (a string MarshalYAML quotes itself, or that JSON would change;
// a float JSON would write as an integer beyond 2^53; a type other than
// unstructured's), which the slow path renders; TestMarshalPlainIsTheSlowPath
// holds the two to the same bytes.
func marshalPlain(v any) (out []byte, ok bool) {
	a := planAstral(v)
	tree, ok := plainTree(v, a)
	if !ok {
		return nil, false
	}
	out, err := yamlv2.Marshal(tree)
	if err != nil {
		return nil, false
	}
	return a.restore(out), true
}

// plainTree is v as yaml.v2 reads its JSON: maps keyed by interface{},
// integers as int, other numbers as float64; its strings with a's
// stand-ins (marshal_astral.go).
func plainTree(v any, a *astral) (any, bool) {
	switch v := v.(type) {
	case nil, bool, int64:
		return v, true
	case string:
		return a.sub(v), plainString(v)
	case float64:
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, false
		}
		if v == math.Trunc(v) {
			// JSON writes it as an integer, which yaml.v2 reads as one.
			if math.Abs(v) >= 1<<53 {
				return nil, false
			}
			return int64(v), true
		}
		return v, true
	case map[string]any:
		m := make(map[interface{}]interface{}, len(v))
		for k, e := range v {
			if !plainString(k) {
				return nil, false
			}
			t, ok := plainTree(e, a)
			if !ok {
				return nil, false
			}
			m[a.sub(k)] = t
		}
		return m, true
	case []any:
		l := make([]interface{}, len(v))
		for i, e := range v {
			t, ok := plainTree(e, a)
			if !ok {
				return nil, false
			}
			l[i] = t
		}
		return l, true
	}
	return nil, false
}

// plainString reports whether s comes back from JSON and MarshalYAML's
// slow path as it is: valid UTF-8 (JSON would replace a bad byte), nothing
// MarshalYAML quotes itself, and none of the characters jsonToYAML
// escapes.
func plainString(s string) bool {
	if !utf8.ValidString(s) || mustQuote(s) {
		return false
	}
	for _, r := range s {
		if r == 0x7f || (r >= 0x80 && r <= 0x9f) || r == 0xfffe || r == 0xffff {
			return false
		}
	}
	return !strings.ContainsRune(s, utf8.RuneError)
}
