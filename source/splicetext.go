package source

import (
	"bytes"
	"strings"

	kyaml "sigs.k8s.io/kustomize/kyaml/yaml"
)

// scalarText is scalar e written in o's place: a block scalar's lines at
// o's indentation, or its parent's two spaces in.
func (s *splicer) scalarText(o, e *kyaml.Node, w where) string {
	ind := s.blockIndent(w, &kyaml.Node{Kind: kyaml.MappingNode})
	if o.Style == kyaml.LiteralStyle || o.Style == kyaml.FoldedStyle {
		if l := s.t.lineOf(s.t.content(o)) + 1; l < len(s.t.lineStart) && s.t.end(o) > s.t.lineEnd(s.t.content(o)) {
			ind = s.t.indentOf(l)
		}
	}
	return scalarLines(strings.TrimSuffix(s.marshal(styled(o, e)), "\n"), ind)
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
