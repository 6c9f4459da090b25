package source

import (
	"strings"

	kyaml "sigs.k8s.io/kustomize/kyaml/yaml"
)

func (t *yamlText) scalarEnd(n *kyaml.Node, o int) int {
	if o >= len(t.b) {
		return o
	}
	switch n.Style {
	case kyaml.DoubleQuotedStyle, kyaml.SingleQuotedStyle:
		return t.quotedEnd(o)
	case kyaml.LiteralStyle, kyaml.FoldedStyle:
		return t.blockEnd(o)
	}
	if isEmptyNull(n) {
		return o
	}
	// A plain scalar: to a comment, a ': ', a flow indicator or the end
	// of the line; on more lines when its folded value says so.
	lineEnd := func(from int) int {
		e := t.lineEnd(from)
		for i := from; i < e; i++ {
			c := t.b[i]
			switch {
			case c == '#' && i > from && (t.b[i-1] == ' ' || t.b[i-1] == '\t'):
				return trimRight(t.b, from, i)
			case c == ':' && (i+1 == len(t.b) || isSpace(t.b[i+1])):
				return trimRight(t.b, from, i)
			case t.flow[n]:
				if c == ',' || c == ']' || c == '}' {
					return trimRight(t.b, from, i)
				}
			}
		}
		return trimRight(t.b, from, e)
	}
	e := lineEnd(o)
	var folded strings.Builder
	folded.WriteString(string(t.b[o:e]))
	for folded.String() != n.Value && e < len(t.b) {
		next := t.afterLine(e)
		if next >= len(t.b) {
			break
		}
		from := next
		for from < len(t.b) && (t.b[from] == ' ' || t.b[from] == '\t') {
			from++
		}
		if from >= len(t.b) || t.b[from] == '#' {
			break
		}
		le := lineEnd(from)
		if le == from {
			folded.WriteString("\n")
		} else {
			if s := folded.String(); !strings.HasSuffix(s, "\n") {
				folded.WriteString(" ")
			}
			folded.WriteString(string(t.b[from:le]))
		}
		e = le
		if !strings.HasPrefix(n.Value, strings.TrimSpace(folded.String())) {
			return lineEnd(o)
		}
	}
	return e
}

func trimRight(b []byte, from, to int) int {
	for to > from && (b[to-1] == ' ' || b[to-1] == '\t' || b[to-1] == '\r') {
		to--
	}
	return to
}

// blockEnd is the end of a literal or folded block scalar whose header
// (| or >) is at o: its last line more indented than the block's parent.
func (t *yamlText) blockEnd(o int) int {
	e := t.lineEnd(o)
	header := string(t.b[o:e])
	if i := strings.Index(header, " #"); i >= 0 {
		header = header[:i]
	}
	ind := -1
	for _, c := range header {
		if c >= '1' && c <= '9' {
			ind = t.parentIndent(o) + int(c-'0')
		}
	}
	end := e
	for l := t.lineOf(o) + 1; l < len(t.lineStart); l++ {
		ls := t.lineStart[l]
		le := t.lineEnd(ls)
		if strings.TrimSpace(string(t.b[ls:le])) == "" {
			continue
		}
		i := t.indentOf(l)
		if ind < 0 {
			if i <= t.parentIndent(o) {
				break
			}
			ind = i
		}
		if i < ind {
			break
		}
		end = le
	}
	return end
}

// parentIndent is the indentation of the block that holds the node at o:
// the column of the key before it on its line, else of the list item's
// dash before it.
func (t *yamlText) parentIndent(o int) int {
	ls := t.lineStart[t.lineOf(o)]
	i, dash := ls, -1
	for {
		for i < o && t.b[i] == ' ' {
			i++
		}
		if i+1 < o && t.b[i] == '-' && isSpace(t.b[i+1]) {
			dash = i - ls
			i++
			continue
		}
		break
	}
	switch {
	case i < o:
		return i - ls
	case dash >= 0:
		return dash
	}
	return i - ls - 1
}

// quotedEnd is the offset after the closing quote of the quoted scalar
// that opens at o.
func (t *yamlText) quotedEnd(o int) int {
	q := t.b[o]
	for i := o + 1; i < len(t.b); i++ {
		switch {
		case q == '"' && t.b[i] == '\\':
			i++
		case t.b[i] == q && q == '\'' && i+1 < len(t.b) && t.b[i+1] == '\'':
			i++
		case t.b[i] == q:
			return i + 1
		}
	}
	return len(t.b)
}
