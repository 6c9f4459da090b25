package source

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	kyaml "sigs.k8s.io/kustomize/kyaml/yaml"
)

// yamlText is a YAML file's text and where its nodes are in it: the
// parser gives each node the line and column it starts at, and yamlText
// finds where it ends, so that an edit can be spliced into the text and
// every other byte kept.
type yamlText struct {
	b         []byte
	lineStart []int // byte offset of each line's start, 0-based lines
	ends      map[*kyaml.Node]int
	// flow: the nodes inside a flow collection, where a plain scalar
	// ends at a comma or a closing bracket.
	flow map[*kyaml.Node]bool
}

func newYAMLText(b []byte) *yamlText {
	t := &yamlText{b: b, lineStart: []int{0}, ends: map[*kyaml.Node]int{}, flow: map[*kyaml.Node]bool{}}
	for i, c := range b {
		if c == '\n' {
			t.lineStart = append(t.lineStart, i+1)
		}
	}
	return t
}

// markFlow notes the nodes under n that are inside a flow collection.
func (t *yamlText) markFlow(n *kyaml.Node, in bool) {
	if in {
		t.flow[n] = true
	}
	if (n.Kind == kyaml.MappingNode || n.Kind == kyaml.SequenceNode) && n.Style&kyaml.FlowStyle != 0 {
		in = true
	}
	for _, c := range n.Content {
		t.markFlow(c, in)
	}
}

// parseDocs parses every document of text, with the nodes' positions in
// the whole text. An error names the line the parser stopped on.
func parseDocs(text []byte) ([]*kyaml.Node, error) {
	dec := kyaml.NewDecoder(bytes.NewReader(text))
	var docs []*kyaml.Node
	for {
		var n kyaml.Node
		err := dec.Decode(&n)
		if errors.Is(err, io.EOF) {
			return docs, nil
		}
		if err != nil {
			return nil, fmt.Errorf("does not parse: %s", strings.TrimPrefix(err.Error(), "yaml: "))
		}
		docs = append(docs, &n)
	}
}

// start is the offset of n's first byte: its anchor or tag if it has one.
func (t *yamlText) start(n *kyaml.Node) int {
	return t.offset(n.Line, n.Column)
}

// offset of a 1-based line and column, the column counted in characters
// as the parser counts it.
func (t *yamlText) offset(line, col int) int {
	if line < 1 {
		return 0
	}
	if line > len(t.lineStart) {
		return len(t.b)
	}
	o := t.lineStart[line-1]
	for c := 1; c < col && o < len(t.b) && t.b[o] != '\n'; c++ {
		_, w := utf8.DecodeRune(t.b[o:])
		o += w
	}
	return o
}

// lineOf is the 0-based line of offset o.
func (t *yamlText) lineOf(o int) int {
	lo, hi := 0, len(t.lineStart)-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if t.lineStart[mid] <= o {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}

// lineEnd is the offset of the newline ending o's line, or the text's end.
func (t *yamlText) lineEnd(o int) int {
	if i := bytes.IndexByte(t.b[o:], '\n'); i >= 0 {
		return o + i
	}
	return len(t.b)
}

// afterLine is the offset of the line after o's: where a line inserted
// after o's line begins.
func (t *yamlText) afterLine(o int) int {
	e := t.lineEnd(o)
	if e < len(t.b) {
		return e + 1
	}
	return e
}

// pastComments is where a line goes after the node ending at o whose
// block starts at column col: after o's line, and after the comment lines
// that follow it at col or deeper (a list's items commented out, say).
func (t *yamlText) pastComments(o, col int) int {
	at := t.afterLine(o)
	for l := t.lineOf(at); at < len(t.b) && l < len(t.lineStart); l++ {
		ls := t.lineStart[l]
		text := strings.TrimSpace(string(t.b[ls:t.lineEnd(ls)]))
		switch {
		case text == "":
			continue
		case strings.HasPrefix(text, "#") && t.indentOf(l) >= col:
			at = t.afterLine(ls)
			continue
		}
		break
	}
	return at
}

// firstOnLine says whether only spaces come before offset o on its line.
func (t *yamlText) firstOnLine(o int) bool {
	return strings.TrimLeft(string(t.b[t.lineStart[t.lineOf(o)]:o]), " \t") == ""
}

// column is the 0-based column (in bytes) of offset o.
func (t *yamlText) column(o int) int { return o - t.lineStart[t.lineOf(o)] }

// indentOf is the number of spaces that begin line l (0-based).
func (t *yamlText) indentOf(l int) int {
	i := 0
	for o := t.lineStart[l]; o < len(t.b) && t.b[o] == ' '; o++ {
		i++
	}
	return i
}

// skipProps skips an anchor and a tag before a node's content.
func (t *yamlText) skipProps(o int) int {
	for o < len(t.b) && (t.b[o] == '&' || t.b[o] == '!') {
		for o < len(t.b) && !isSpace(t.b[o]) {
			o++
		}
		for o < len(t.b) && (t.b[o] == ' ' || t.b[o] == '\t') {
			o++
		}
	}
	return o
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// content is the offset of n's content: after its anchor and tag.
func (t *yamlText) content(n *kyaml.Node) int { return t.skipProps(t.start(n)) }

// end is the offset just after n's last byte, its line comment left out.
func (t *yamlText) end(n *kyaml.Node) int {
	if e, ok := t.ends[n]; ok {
		return e
	}
	e := t.findEnd(n)
	t.ends[n] = e
	return e
}

func (t *yamlText) findEnd(n *kyaml.Node) int {
	o := t.content(n)
	switch n.Kind {
	case kyaml.ScalarNode:
		return t.scalarEnd(n, o)
	case kyaml.AliasNode:
		for o < len(t.b) && !isSpace(t.b[o]) && !strings.ContainsRune(",]}", rune(t.b[o])) {
			o++
		}
		return o
	case kyaml.MappingNode, kyaml.SequenceNode:
		if o < len(t.b) && (t.b[o] == '[' || t.b[o] == '{') {
			return t.flowEnd(o)
		}
		if len(n.Content) == 0 {
			return o
		}
		last := n.Content[len(n.Content)-1]
		if n.Kind == kyaml.MappingNode && isEmptyNull(last) {
			return t.colonEnd(n.Content[len(n.Content)-2])
		}
		return t.end(last)
	case kyaml.DocumentNode:
		if len(n.Content) == 0 {
			return o
		}
		return t.end(n.Content[0])
	}
	return o
}

// isEmptyNull: a null written as nothing (`key:`), which has no text.
func isEmptyNull(n *kyaml.Node) bool {
	return n.Kind == kyaml.ScalarNode && n.Value == "" && n.ShortTag() == "!!null" && n.Style == 0
}

// colonEnd is the offset after the ':' that follows a mapping key.
func (t *yamlText) colonEnd(key *kyaml.Node) int {
	o := t.end(key)
	for o < len(t.b) && (t.b[o] == ' ' || t.b[o] == '\t') {
		o++
	}
	if o < len(t.b) && t.b[o] == ':' {
		o++
	}
	return o
}

// flowEnd is the offset after the bracket that closes the flow
// collection opened at o, quoted strings and comments skipped.
func (t *yamlText) flowEnd(o int) int {
	depth := 0
	for i := o; i < len(t.b); i++ {
		switch c := t.b[i]; c {
		case '[', '{':
			depth++
		case ']', '}':
			depth--
			if depth == 0 {
				return i + 1
			}
		case '"', '\'':
			i = t.quotedEnd(i) - 1
		case '#':
			if i > 0 && isSpace(t.b[i-1]) {
				i = t.lineEnd(i) - 1
			}
		}
	}
	return len(t.b)
}
