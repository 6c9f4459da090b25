package diff

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"sigs.k8s.io/yaml"

	"github.com/kedit/kedit/internal/escape"
)

// MarshalYAML renders v (an object's content: maps, lists, strings,
// numbers, booleans, nulls) as YAML the way `kubectl get -o yaml` prints
// it, for any value the API server accepts. It is kedit's one YAML
// renderer: the object view, the draft, the merge and the conflict view
// all render through it, and ParseYAML reads its output back to the same
// bytes.
//
// It differs from kubectl in one way, the rule of internal/escape: a string
// that holds a control character, a C1 or bidi control, or a line
// separator YAML would fold, and a one-line string that holds a backslash,
// is written double-quoted, with each such character as an escape (\x1b,
// \u009b, \u202e) and each backslash as \\. So the text holds no character
// that can drive a terminal, and a backslash in a string is always an
// escape or written \\. (kubectl's renderer fails on a C1 control, with
// "control characters are not allowed", and writes bidi controls raw.) A
// multi-line string with backslashes stays a literal block, where YAML has
// no escapes at all.
func MarshalYAML(v any) ([]byte, error) {
	if out, ok := marshalPlain(v); ok {
		return out, nil
	}
	return marshalSlow(v)
}

// marshalSlow is MarshalYAML through JSON, for any value.
func marshalSlow(v any) ([]byte, error) {
	js, err := marshalJSON(v)
	if err != nil {
		return nil, err
	}
	if !needsQuoting(js) && !bytes.ContainsFunc(js, func(r rune) bool { return r > 0xffff }) {
		return jsonToYAML(js)
	}
	// Every string that must be quoted is replaced by a token the renderer
	// writes plain; each token's text is then replaced by the quoted
	// string. A token is made of letters, digits and dashes, never
	// folded, and ends with q so that none is the start of another.
	var tree any
	dec := json.NewDecoder(bytes.NewReader(js))
	dec.UseNumber() // keeps an int64 beyond 2^53 exact
	if err := dec.Decode(&tree); err != nil {
		return nil, err
	}
	prefix := ""
	for n := 0; ; n++ {
		prefix = "kedit-q" + strconv.Itoa(n) + "-"
		if !bytes.Contains(js, []byte(prefix)) {
			break
		}
	}
	tokens := map[string]string{} // the string each token stands for
	byString := map[string]string{}
	token := func(s string) string {
		if t, ok := byString[s]; ok {
			return t
		}
		t := prefix + strconv.Itoa(len(tokens)) + "q"
		tokens[t], byString[s] = s, t
		return t
	}
	tree = tokenize(tree, token)
	// What is left of the strings is written by yaml.v2, with stand-ins
	// for the characters beyond the basic plane (marshal_astral.go); a
	// token's quoted string holds them as they are.
	a := planAstral(tree)
	js, err = marshalJSON(a.subTree(tree))
	if err != nil {
		return nil, err
	}
	out, err := jsonToYAML(js)
	if err != nil {
		return nil, err
	}
	out = a.restore(out)
	pairs := make([]string, 0, 2*len(tokens))
	for t, s := range tokens {
		pairs = append(pairs, t, QuoteYAML(s))
	}
	return []byte(strings.NewReplacer(pairs...).Replace(string(out))), nil
}

// marshalJSON is json.Marshal without the escapes of <, > and &, which
// would only slow needsQuoting down.
func marshalJSON(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// needsQuoting reports whether the JSON text of a value may hold a string
// MarshalYAML quotes itself: a character the rule escapes, raw, or a JSON
// escape other than a newline's, a tab's or a quote's (a backslash, a
// control character, a line separator), which a closer look tells.
func needsQuoting(js []byte) bool {
	for i := bytes.IndexByte(js, '\\'); i >= 0 && i+1 < len(js); {
		switch js[i+1] {
		case 'n', 't', '"':
		default:
			return true
		}
		next := bytes.IndexByte(js[i+2:], '\\')
		if next < 0 {
			break
		}
		i += 2 + next
	}
	// A character that takes no cell is seen as such only in its string:
	// in the JSON text, one at a string's start would join the quote.
	// Any character beyond ASCII makes the closer look.
	return escape.Needed(string(js)) || bytes.ContainsFunc(js, func(r rune) bool { return r >= utf8.RuneSelf })
}

// mustQuote reports whether MarshalYAML writes s double-quoted itself.
func mustQuote(s string) bool {
	if escape.Needed(s) || strings.ContainsAny(s, "\u2028\u2029\ufeff\ufffe\uffff") {
		return true
	}
	return strings.Contains(s, `\`) && !strings.Contains(s, "\n")
}

// tokenize replaces, in a decoded JSON value, each string (key or value)
// MarshalYAML must quote by its token. A key too long for YAML's simple
// keys once quoted is left to the renderer.
func tokenize(v any, token func(string) string) any {
	switch x := v.(type) {
	case string:
		if mustQuote(x) {
			return token(x)
		}
	case []any:
		for i := range x {
			x[i] = tokenize(x[i], token)
		}
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, val := range x {
			if mustQuote(k) && len(QuoteYAML(k)) < 1000 {
				k = token(k)
			}
			out[k] = tokenize(val, token)
		}
		return out
	}
	return v
}

// jsonToYAML is sigs.k8s.io/yaml's JSONToYAML, which reads the JSON with
// a YAML parser that refuses some characters even inside a string (DEL,
// the C1 controls, U+FFFE and U+FFFF): they are given to it as JSON
// escapes instead, which it decodes.
func jsonToYAML(js []byte) ([]byte, error) {
	var b []byte
	for i := 0; i < len(js); {
		r, n := utf8.DecodeRune(js[i:])
		if r == 0x7f || (r >= 0x80 && r <= 0x9f) || r == 0xfffe || r == 0xffff {
			if b == nil {
				b = append(make([]byte, 0, len(js)+16), js[:i]...)
			}
			b = fmt.Appendf(b, `\u%04x`, r)
		} else if b != nil {
			b = append(b, js[i:i+n]...)
		}
		i += n
	}
	if b != nil {
		js = b
	}
	return yaml.JSONToYAML(js)
}

// QuoteYAML writes s as a YAML double-quoted string, by the rule of
// internal/escape: what it draws as Go-style escapes (which YAML reads the
// same) as those escapes, among them U+2028, U+2029 and U+FEFF, which
// YAML would fold or drop (they take no cell), a backslash as \\, a quote
// as \", a newline as \n and a tab as \t. Everything else is written as it
// is.
func QuoteYAML(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteByte('"')
	sc := escape.NewScanner(s)
	for i := 0; i < len(s); {
		e, n := sc.Unit(i)
		switch {
		case e != "" && !(s[i] >= 0x80 && n == 1):
			// The rule's escape, which YAML reads the same: a control
			// character (\x1b, \r), a C1 or bidi control, a character
			// that takes no cell (\u200b, \u2028, \ufeff) or a joiner
			// that joins nothing.
			b.WriteString(e)
		case e != "":
			b.WriteRune(utf8.RuneError) // an invalid byte, as JSON would have it
		default:
			for _, r := range s[i : i+n] {
				switch r {
				case '"':
					b.WriteString(`\"`)
				case '\\':
					b.WriteString(`\\`)
				case '\n':
					b.WriteString(`\n`)
				case '\t':
					b.WriteString(`\t`)
				default:
					b.WriteRune(r)
				}
			}
		}
		i += n
	}
	b.WriteByte('"')
	return b.String()
}
