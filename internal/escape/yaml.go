package escape

import (
	"strings"
	"unicode/utf8"

	yamlv3 "go.yaml.in/yaml/v3"
)

// Source draws YAML text (a draft, an object rendered as YAML) by the
// rule: every character the rule names becomes its escape, marked.
// Backslashes stay as they are, because YAML has escapes of its own, in
// double-quoted strings, where a backslash is already written \\: those
// escapes are marked too, so that "abc\u202edef" (a bidi control, as kedit
// renders it) stands out from abc\u202edef (twelve letters, plain), which
// YAML also tells apart by the quotes. A nil mark leaves escapes unstyled;
// text that does not parse as YAML gets only its raw characters escaped.
func Source(text string, mark func(string) string) string {
	var spans [][2]int
	if mark != nil && strings.Contains(text, `"`) && strings.Contains(text, `\`) {
		spans = yamlEscapes(text)
	}
	if len(spans) == 0 && !Needed(text) {
		return text
	}
	var b strings.Builder
	b.Grow(len(text) + 16)
	sc := NewScanner(text)
	for i := 0; i < len(text); {
		if len(spans) > 0 && spans[0][0] == i {
			b.WriteString(mark(text[spans[0][0]:spans[0][1]]))
			i = spans[0][1]
			spans = spans[1:]
			continue
		}
		for len(spans) > 0 && spans[0][0] < i {
			spans = spans[1:] // overlapped by a raw character's escape
		}
		e, n := sc.Unit(i)
		if e != "" {
			b.WriteString(apply(mark, e))
		} else {
			b.WriteString(text[i : i+n])
		}
		i += n
	}
	return b.String()
}

// yamlEscapes returns the byte ranges of the escapes in text's
// double-quoted scalars, in order; none when text does not parse.
func yamlEscapes(text string) [][2]int {
	var doc yamlv3.Node
	if yamlv3.Unmarshal([]byte(text), &doc) != nil {
		return nil
	}
	lineStart := []int{0}
	for i := 0; i < len(text); i++ {
		if text[i] == '\n' {
			lineStart = append(lineStart, i+1)
		}
	}
	var spans [][2]int
	var walk func(n *yamlv3.Node)
	walk = func(n *yamlv3.Node) {
		if n.Kind == yamlv3.ScalarNode && n.Style&yamlv3.DoubleQuotedStyle != 0 {
			spans = append(spans, quotedEscapes(text, offsetOf(text, lineStart, n.Line, n.Column))...)
		}
		if n.Kind == yamlv3.AliasNode {
			return
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(&doc)
	// Keys come before their values, and both in order of the text, but
	// sort anyway: a flow collection may list them otherwise.
	for i := 1; i < len(spans); i++ {
		for j := i; j > 0 && spans[j][0] < spans[j-1][0]; j-- {
			spans[j], spans[j-1] = spans[j-1], spans[j]
		}
	}
	return spans
}

// offsetOf turns yaml.v3's 1-based line and column (counted in characters)
// into a byte offset of text; -1 when out of range.
func offsetOf(text string, lineStart []int, line, col int) int {
	if line < 1 || line > len(lineStart) {
		return -1
	}
	off := lineStart[line-1]
	for c := 1; c < col && off < len(text); c++ {
		_, n := utf8.DecodeRuneInString(text[off:])
		off += n
	}
	return off
}

// quotedEscapes returns the escapes of the double-quoted scalar that opens
// at off.
func quotedEscapes(text string, off int) [][2]int {
	if off < 0 || off >= len(text) || text[off] != '"' {
		return nil
	}
	var spans [][2]int
	for j := off + 1; j < len(text); {
		switch text[j] {
		case '"':
			return spans
		case '\\':
			n := 2
			if j+1 < len(text) {
				switch text[j+1] {
				case 'x':
					n = 4
				case 'u':
					n = 6
				case 'U':
					n = 10
				}
			}
			end := min(j+n, len(text))
			spans = append(spans, [2]int{j, end})
			j = end
		default:
			j++
		}
	}
	return spans
}
