package model

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/kedit/kedit/diff"
)

// The text of several objects edited in one $EDITOR file with -o json: a
// JSON List, as `kubectl edit -o json` writes one, whose items are the
// drafts' texts as they are, indented. JSON holds no comment, so it has no
// header; the rules are the YAML List's. Each item is cut out of the
// edited text by its byte range and indented back, so that an item left
// alone comes back byte for byte and an item edited keeps its layout.

// jsonItemIndent is the indentation of the List's items: two levels of
// kubectl's four spaces.
const jsonItemIndent = "        "

// RenderJSONSetText renders texts, each one object's JSON draft (or base's
// text), as the JSON List the user edits, its keys in kubectl's order.
func RenderJSONSetText(texts []string) string {
	var b strings.Builder
	b.WriteString("{\n    \"apiVersion\": \"v1\",\n    \"items\": [")
	for i, t := range texts {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString("\n" + jsonItemIndent)
		b.WriteString(jsonItemRegion(t))
	}
	if len(texts) > 0 {
		b.WriteString("\n    ")
	}
	b.WriteString("],\n    \"kind\": \"List\"\n}\n")
	return b.String()
}

// jsonItemRegion is text as an item of the JSON List, from its first
// character to its last: every line after the first indented by
// jsonItemIndent, but empty ones.
func jsonItemRegion(text string) string {
	lines := strings.Split(strings.TrimSpace(text), "\n")
	for i := 1; i < len(lines); i++ {
		if lines[i] != "" {
			lines[i] = jsonItemIndent + lines[i]
		}
	}
	return strings.Join(lines, "\n")
}

// SplitJSONSetText splits a set's edited JSON text back into its items,
// each with the identity it names. A text that is not one JSON List of
// objects is a *SetTextError naming the line and the column; one that is
// blank is ErrEmptySetText.
func SplitJSONSetText(text string) ([]SetItem, error) {
	if strings.TrimSpace(text) == "" {
		return nil, ErrEmptySetText
	}
	// The draft's rules first: one JSON object, no conflict block, no key
	// given twice, each said where it is.
	if i := invalidUTF8(text); i >= 0 {
		return nil, &SetTextError{Line: lineAt(text, i), Msg: fmt.Sprintf("a byte that is not UTF-8 (0x%02X): the text is UTF-8", text[i])}
	}
	list, err := diff.ParseJSON([]byte(text))
	if err != nil {
		return nil, jsonSetTextError(err)
	}
	if kind, _ := list.Object["kind"].(string); kind != "List" {
		return nil, &SetTextError{Line: 1, Column: 1, Msg: `not a List ("kind": "List"): the objects go in its items`}
	}
	items, ok := list.Object["items"].([]any)
	switch {
	case !ok && list.Object["items"] == nil:
		if _, given := list.Object["items"]; given {
			return nil, nil // "items": null, every item removed
		}
		return nil, &SetTextError{Line: 1, Column: 1, Msg: "the List has no items"}
	case !ok:
		return nil, &SetTextError{Line: 1, Column: 1, Msg: `the List's "items" is not a list`}
	}
	spans, err := jsonListSpans(text)
	if err != nil || len(spans) != len(items) {
		// ParseJSON read the text: its items are where the walk finds them.
		return nil, &SetTextError{Msg: fmt.Sprintf("the items cannot be told apart (%v)", err)}
	}
	out := make([]SetItem, 0, len(items))
	for i, it := range items {
		line, col := positionOf(text, spans[i][0])
		obj, ok := it.(map[string]any)
		if !ok {
			return nil, &SetTextError{Line: line, Column: col, Msg: fmt.Sprintf("item %d is not an object", i+1)}
		}
		id := jsonIdentity(obj)
		if id.Kind == "" || id.Name == "" || id.APIVersion == "" {
			return nil, &SetTextError{Line: line, Column: col, Msg: fmt.Sprintf(`item %d has no "apiVersion", "kind" or "metadata.name": kedit cannot tell which object it is`, i+1)}
		}
		region := text[spans[i][0]:spans[i][1]]
		out = append(out, SetItem{Identity: id, Text: dedentJSONItem(region, col-1), Line: line, region: region})
	}
	return out, nil
}

// jsonSetTextError turns ParseJSON's refusal of a set's text into a
// *SetTextError with its line and column.
func jsonSetTextError(err error) error {
	var me *diff.MarkerError
	var je *diff.JSONError
	var dk *diff.DuplicateKeyError
	switch {
	case errors.As(err, &me):
		msg := "unresolved conflict block"
		if me.Path != "" {
			msg += " in " + me.Path
		}
		return &SetTextError{Line: me.Line, Msg: msg}
	case errors.As(err, &je):
		return &SetTextError{Line: je.Line, Column: je.Column, Msg: strings.Replace(je.Msg, "a draft is one JSON object", "the text is one JSON List", 1)}
	case errors.As(err, &dk):
		return &SetTextError{Line: dk.Line, Column: dk.Column, Msg: fmt.Sprintf("key %q is already defined on line %d (%s)", lastField(dk.Path), dk.FirstLine, dk.Path)}
	case errors.Is(err, diff.ErrNotObject):
		return &SetTextError{Line: 1, Column: 1, Msg: `not a List ("apiVersion": "v1", "kind": "List"): the objects go in its items`}
	}
	return &SetTextError{Msg: err.Error()}
}

// jsonListSpans finds the byte range of each item of the "items" of the
// JSON object text, which is valid JSON.
func jsonListSpans(text string) ([][2]int, error) {
	dec := json.NewDecoder(strings.NewReader(text))
	next := func() int {
		i := int(dec.InputOffset())
		for i < len(text) && strings.IndexByte(" \t\r\n:,", text[i]) >= 0 {
			i++
		}
		return i
	}
	if _, err := dec.Token(); err != nil { // {
		return nil, err
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return nil, err
		}
		if key != "items" {
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return nil, err
			}
			continue
		}
		if tok, err := dec.Token(); err != nil || tok != json.Delim('[') {
			return nil, fmt.Errorf("items is not a list: %v", err)
		}
		var spans [][2]int
		for dec.More() {
			start := next()
			var item json.RawMessage
			if err := dec.Decode(&item); err != nil {
				return nil, err
			}
			spans = append(spans, [2]int{start, int(dec.InputOffset())})
		}
		return spans, nil
	}
	return nil, errors.New("no items")
}

// dedentJSONItem turns an item's region, whose first character stood in
// column indent (0-based), back into a text of its own: indent spaces off
// each line after the first (all of its blanks, for a line with fewer; a
// JSON string holds no line break, so each is layout), and a newline at
// the end.
func dedentJSONItem(region string, indent int) string {
	lines := strings.Split(region, "\n")
	for i := 1; i < len(lines); i++ {
		l := lines[i]
		trimmed := strings.TrimLeft(l, " \t")
		if n := len(l) - len(trimmed); n > indent {
			trimmed = l[indent:]
		}
		lines[i] = trimmed
	}
	return strings.Join(lines, "\n") + "\n"
}

// jsonIdentity reads an item's identity fields.
func jsonIdentity(obj map[string]any) Identity {
	str := func(m map[string]any, k string) string {
		s, _ := m[k].(string)
		return s
	}
	id := Identity{APIVersion: str(obj, "apiVersion"), Kind: str(obj, "kind")}
	if md, ok := obj["metadata"].(map[string]any); ok {
		id.Name, id.Namespace = str(md, "name"), str(md, "namespace")
	}
	return id
}

// positionOf is the 1-based line and column (in characters) of byte
// offset at in text, as the JSON errors count them.
func positionOf(text string, at int) (line, col int) {
	at = min(at, len(text))
	before := text[:at]
	line = strings.Count(before, "\n") + 1
	start := strings.LastIndexByte(before, '\n') + 1
	return line, utf8.RuneCountInString(before[start:]) + 1
}
