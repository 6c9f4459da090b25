package diff

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kedit/kedit/internal/escape"
)

// jsonIndent is the indentation of `kubectl get -o json`.
const jsonIndent = "    "

// MarshalJSON renders v (an object's content) as JSON the way
// `kubectl get -o json` prints it: map keys sorted, four spaces of
// indentation, one member per line, and a newline at the end. It is the
// JSON counterpart of MarshalYAML, and ParseJSON reads its output back to
// the same object.
//
// It differs from kubectl in two ways: <, > and & are written as they are
// (kubectl writes \u003c ...), and every character the rule of
// internal/escape names (a control character, a C1 or bidi control) is
// written as a \u escape, so that the text holds none raw.
func MarshalJSON(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", jsonIndent)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return escapeJSON(b.Bytes()), nil
}

// escapeJSON writes each character of js that escape.Unsafe names as a
// JSON \u escape. encoding/json escapes those below U+0020 itself; such a
// character can only stand inside a string, where the escape means the
// same character.
func escapeJSON(js []byte) []byte {
	if !bytes.ContainsFunc(js, func(r rune) bool { return r >= 0x7f && escape.Unsafe(r) }) {
		return js
	}
	var b bytes.Buffer
	b.Grow(len(js) + 16)
	for i := 0; i < len(js); {
		r, size := utf8.DecodeRune(js[i:])
		if r >= 0x7f && escape.Unsafe(r) {
			fmt.Fprintf(&b, `\u%04x`, r)
		} else {
			b.Write(js[i : i+size])
		}
		i += size
	}
	return b.Bytes()
}

// JSONError is a text that is not one JSON value: where, and what is
// wrong, in words.
type JSONError struct {
	// Line and Column are 1-based; Column counts characters.
	Line, Column int
	// Msg says what is wrong.
	Msg string
}

// Error names the line and column, then says what is wrong.
func (e *JSONError) Error() string {
	return fmt.Sprintf("line %d, column %d: %s", e.Line, e.Column, e.Msg)
}

// DuplicateKeyError is a key given twice in one JSON object, which a
// decoder would settle by keeping the last: the first value would be lost
// unseen.
type DuplicateKeyError struct {
	// Line and Column are where the second key starts.
	Line, Column int
	// Path is the key's field, e.g. ".data.a"; FirstLine is the line of
	// the first key.
	Path      string
	FirstLine int
}

// Error names the key and both lines.
func (e *DuplicateKeyError) Error() string {
	return fmt.Sprintf("line %d, column %d: key %q is already defined on line %d", e.Line, e.Column, lastKey(e.Path), e.FirstLine)
}

func lastKey(path string) string {
	if i := strings.LastIndexByte(path, '.'); i >= 0 {
		return path[i+1:]
	}
	return path
}

// ParseJSON reads a JSON text of one Kubernetes object, as MarshalJSON
// writes it and as a user edits it. It refuses a text that still holds a
// conflict block with a *MarkerError, a text that is not JSON with a
// *JSONError naming the line and column, a key given twice in one object
// with a *DuplicateKeyError, and a value that is not one object with an
// error wrapping ErrNotObject. Numbers are read as the API machinery reads
// them: an integer as int64, anything else as float64.
func ParseJSON(text []byte) (*unstructured.Unstructured, error) {
	if line, ok := findBlock(text); ok {
		return nil, &MarkerError{Line: line + 1, Path: blockPath(text, line)}
	}
	// encoding/json first, whose offsets count from the text's start; the
	// walk for keys given twice then reads valid JSON.
	var raw json.RawMessage
	if err := json.Unmarshal(text, &raw); err != nil {
		return nil, jsonSyntaxError(text, err)
	}
	p := &jsonParser{text: text, dec: json.NewDecoder(bytes.NewReader(text))}
	p.dec.UseNumber()
	v, err := p.value("")
	if err != nil {
		return nil, err
	}
	return objectOf(v)
}

// jsonParser reads a JSON text token by token, so that it can say where a
// key is given twice, which encoding/json accepts.
type jsonParser struct {
	text []byte
	dec  *json.Decoder
}

// nextToken is the offset of the next token after the decoder's position:
// past blanks, and the ':' or ',' between tokens.
func (p *jsonParser) nextToken() int {
	i := int(p.dec.InputOffset())
	for i < len(p.text) && strings.IndexByte(" \t\r\n:,", p.text[i]) >= 0 {
		i++
	}
	return i
}

// value reads the next value, the field at path.
func (p *jsonParser) value(path string) (any, error) {
	tok, err := p.dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			obj := map[string]any{}
			first := map[string]int{}
			for p.dec.More() {
				at := p.nextToken()
				kt, err := p.dec.Token()
				if err != nil {
					return nil, err
				}
				k, _ := kt.(string)
				line, col := position(p.text, at)
				if fl, dup := first[k]; dup {
					return nil, &DuplicateKeyError{Line: line, Column: col, Path: path + "." + k, FirstLine: fl}
				}
				first[k] = line
				if obj[k], err = p.value(path + "." + k); err != nil {
					return nil, err
				}
			}
			if _, err := p.dec.Token(); err != nil {
				return nil, err
			}
			return obj, nil
		case '[':
			list := []any{}
			for i := 0; p.dec.More(); i++ {
				v, err := p.value(path + "[" + strconv.Itoa(i) + "]")
				if err != nil {
					return nil, err
				}
				list = append(list, v)
			}
			if _, err := p.dec.Token(); err != nil {
				return nil, err
			}
			return list, nil
		}
	case json.Number:
		if i, err := t.Int64(); err == nil {
			return i, nil
		}
		f, err := t.Float64()
		if err != nil {
			line, col := position(p.text, int(p.dec.InputOffset())-len(t))
			return nil, &JSONError{Line: line, Column: col, Msg: fmt.Sprintf("the number %s is out of range", t)}
		}
		return f, nil
	}
	return tok, nil
}

// jsonSyntaxError is encoding/json's refusal of text as a *JSONError with
// its line and column, and words for it.
func jsonSyntaxError(text []byte, err error) error {
	var se *json.SyntaxError
	if !errors.As(err, &se) {
		return &JSONError{Line: 1, Column: 1, Msg: strings.TrimPrefix(err.Error(), "json: ")}
	}
	end := len(bytes.TrimRight(text, " \t\r\n"))
	if int(se.Offset) >= len(text) || strings.Contains(se.Error(), "unexpected end") {
		line, col := position(text, end)
		return &JSONError{Line: line, Column: col, Msg: "the text ends inside the JSON: a closing '}', ']' or '\"' is missing"}
	}
	// The offending byte is the last one read.
	at := max(int(se.Offset)-1, 0)
	line, col := position(text, at)
	if strings.Contains(se.Error(), "after top-level value") {
		return &JSONError{Line: line, Column: col, Msg: "more text after the object: a draft is one JSON object"}
	}
	return &JSONError{Line: line, Column: col, Msg: syntaxMessage(text, at, se.Error())}
}

// syntaxMessage says in words what encoding/json found at offset at: the
// commonest slips of a hand-edited JSON text get a hint.
func syntaxMessage(text []byte, at int, msg string) string {
	prev := bytes.TrimRight(text[:min(at, len(text))], " \t\r\n")
	switch {
	case at < len(text) && (text[at] == '}' || text[at] == ']') && bytes.HasSuffix(prev, []byte(",")):
		return fmt.Sprintf("a comma before %q: JSON allows no comma after the last member", string(text[at]))
	case at < len(text) && text[at] == '"' && len(prev) > 0 && strings.IndexByte("\"}]0123456789el", prev[len(prev)-1]) >= 0:
		return "a comma is missing before this member"
	case at < len(text) && text[at] == '\'':
		return "a string in single quotes: JSON strings take double quotes"
	case at < len(text) && text[at] == '#':
		return "a comment: JSON has no comments"
	}
	return strings.TrimPrefix(msg, "json: ")
}

// position is the 1-based line and column (in characters) of byte offset
// at in text.
func position(text []byte, at int) (line, col int) {
	at = min(at, len(text))
	before := text[:at]
	line = bytes.Count(before, []byte("\n")) + 1
	start := bytes.LastIndexByte(before, '\n') + 1
	return line, utf8.RuneCount(before[start:]) + 1
}

// objectOf checks that v, a decoded document, is one Kubernetes object:
// a map with apiVersion and kind.
func objectOf(v any) (*unstructured.Unstructured, error) {
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%w (a %s)", ErrNotObject, jsonKind(v))
	}
	if av, ok := obj["apiVersion"].(string); !ok || av == "" {
		return nil, fmt.Errorf("%w (no apiVersion)", ErrNotObject)
	}
	if k, ok := obj["kind"].(string); !ok || k == "" {
		return nil, fmt.Errorf("%w (no kind)", ErrNotObject)
	}
	return &unstructured.Unstructured{Object: obj}, nil
}
