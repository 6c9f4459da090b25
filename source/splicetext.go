package source

import (
	"bytes"
	"strings"

	kyaml "sigs.k8s.io/kustomize/kyaml/yaml"
)

// scalar writes scalar e in o's place, o's line comment kept: a block
// scalar's lines at o's indentation (or its parent's two spaces in), its
// header's comment on the new header; a value that becomes a block takes
// the line comment after it onto its header, where it stays a comment.
func (s *splicer) scalar(o, e *kyaml.Node, w where) {
	ind := s.blockIndent(w, &kyaml.Node{Kind: kyaml.MappingNode})
	from, to := s.t.content(o), s.t.end(o)
	block := o.Style == kyaml.LiteralStyle || o.Style == kyaml.FoldedStyle
	headerEnd := s.t.lineEnd(from)
	if block && to > headerEnd {
		ind = s.t.indentOf(s.t.lineOf(from) + 1)
	}
	text := scalarLines(strings.TrimSuffix(s.marshal(styled(o, e)), "\n"), ind)
	header, body, multi := strings.Cut(text, "\n")
	comment := ""
	if block {
		comment = strings.TrimSpace(string(s.t.b[from:headerEnd]))
	} else {
		comment = strings.TrimSpace(string(s.t.b[to:s.t.lineEnd(to)]))
	}
	if i := strings.Index(comment, "#"); i >= 0 && (!block || i > 0) {
		comment = " " + comment[i:]
	} else {
		comment = ""
	}
	switch {
	case block && multi && to > headerEnd:
		s.add(from, headerEnd, header+comment)
		s.add(s.t.afterLine(headerEnd), to, body)
	case block:
		s.add(from, to, text+comment)
	case multi:
		s.add(from, s.t.lineEnd(to), header+comment+"\n"+body)
	default:
		s.add(from, to, text)
	}
}

// styled is e with o's quotes, where e is a string written plain: a
// changed value keeps the quoting the file gave it.
func styled(o, e *kyaml.Node) *kyaml.Node {
	if e.Kind != kyaml.ScalarNode || o.Kind != kyaml.ScalarNode || e.Style != 0 || e.ShortTag() != "!!str" || strings.Contains(e.Value, "\n") {
		return e
	}
	if o.Style == kyaml.DoubleQuotedStyle || o.Style == kyaml.SingleQuotedStyle {
		c := *e
		c.Style = o.Style
		return &c
	}
	return e
}

// scalarLines moves the lines of a block scalar, which the encoder
// indents by two, to ind.
func scalarLines(text string, ind int) string {
	lines := strings.SplitAfter(text, "\n")
	for i := 1; i < len(lines); i++ {
		if l := strings.TrimPrefix(lines[i], "  "); strings.TrimSpace(l) != "" {
			lines[i] = strings.Repeat(" ", ind) + l
		}
	}
	return strings.Join(lines, "")
}

// marshal is n as YAML at the left margin, comments left out: the
// comments of the text stay where they are.
func (s *splicer) marshal(n *kyaml.Node) string {
	var b bytes.Buffer
	style := kyaml.CompactSequenceStyle
	if s.wide {
		style = kyaml.WideSequenceStyle
	}
	enc := kyaml.NewEncoderWithOptions(&b, &kyaml.EncoderOptions{SeqIndent: style})
	_ = enc.Encode(uncommented(n))
	_ = enc.Close()
	return b.String()
}

// flowText is n written on one line, as a flow collection holds it.
func (s *splicer) flowText(n *kyaml.Node) string {
	c := uncommented(n)
	var flow func(n *kyaml.Node)
	flow = func(n *kyaml.Node) {
		switch n.Kind {
		case kyaml.MappingNode, kyaml.SequenceNode:
			n.Style = kyaml.FlowStyle
		case kyaml.ScalarNode:
			if strings.Contains(n.Value, "\n") || n.Style == kyaml.LiteralStyle || n.Style == kyaml.FoldedStyle {
				n.Style = kyaml.DoubleQuotedStyle
			}
		}
		for _, x := range n.Content {
			flow(x)
		}
	}
	flow(c)
	return strings.TrimSuffix(s.marshal(c), "\n")
}

func uncommented(n *kyaml.Node) *kyaml.Node {
	c := *n
	c.HeadComment, c.LineComment, c.FootComment = "", "", ""
	c.Content = make([]*kyaml.Node, len(n.Content))
	for i, x := range n.Content {
		c.Content[i] = uncommented(x)
	}
	return &c
}

// indentRest indents the lines of text by ind spaces: all of them, or
// all but the first, which goes where the text is put.
func indentRest(text string, ind int, notFirst bool) string {
	pad := strings.Repeat(" ", ind)
	lines := strings.SplitAfter(text, "\n")
	for i, l := range lines {
		if (i == 0 && notFirst) || l == "" || l == "\n" {
			continue
		}
		lines[i] = pad + l
	}
	return strings.Join(lines, "")
}
