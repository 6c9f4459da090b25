package source

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	kyaml "sigs.k8s.io/kustomize/kyaml/yaml"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"

	"github.com/kedit/kedit/diff"
)

// yamlFile is a file of YAML documents, parsed with their comments and
// positions, edited as nodes and written back by splicing each change
// into the text as it was (splice): every byte the edit does not change
// stays as it was, whatever the file's layout.
type yamlFile struct {
	path string
	text []byte
	// docs are the documents as parsed; nodes the content of those that
	// are not empty, which the plan edits.
	docs  []*kyaml.Node
	nodes []*kyaml.RNode
}

// readYAMLFile parses text; only a text that does not parse is refused,
// with the line where it stops.
func readYAMLFile(p string, text []byte) (*yamlFile, error) {
	docs, err := parseDocs(text)
	if err != nil {
		return nil, fmt.Errorf("%s %w", p, err)
	}
	f := &yamlFile{path: p, text: text, docs: docs}
	for _, d := range docs {
		if len(d.Content) > 0 && !isEmptyNull(d.Content[0]) {
			f.nodes = append(f.nodes, kyaml.NewRNode(d.Content[0]))
		}
	}
	return f, nil
}

func (f *yamlFile) bytes() ([]byte, error) {
	return splice(f.path, f.text, f.docs)
}

// doc returns the document of the object ref, or nil.
func (f *yamlFile) doc(ref Ref) *kyaml.RNode {
	for _, n := range f.nodes {
		m, err := n.Map()
		if err != nil {
			continue
		}
		if n.YNode().Kind != kyaml.MappingNode {
			continue
		}
		if sameRef(built{ref: RefOf(unstructuredOf(m))}, ref) || sameGenerated(m, ref) {
			return n
		}
	}
	return nil
}

// sameGenerated: a document whose name, with a prefix or suffix the build
// adds, is the object's.
func sameGenerated(m map[string]any, ref Ref) bool {
	u := unstructuredOf(m)
	r := RefOf(u)
	return r.Kind == ref.Kind && r.Group == ref.Group && r.Name != "" && strings.Contains(ref.Name, r.Name)
}

// at returns the node at p under n, or nil.
func at(n *kyaml.Node, p fieldpath.Path) *kyaml.Node {
	for _, pe := range p {
		if n == nil {
			return nil
		}
		i := childIndex(n, pe)
		if i < 0 {
			return nil
		}
		if n.Kind == kyaml.MappingNode {
			n = n.Content[i+1]
		} else {
			n = n.Content[i]
		}
	}
	return n
}

// childIndex finds pe in n: a map's key index, or a list's item index.
func childIndex(n *kyaml.Node, pe fieldpath.PathElement) int {
	switch {
	case pe.FieldName != nil:
		if n.Kind != kyaml.MappingNode {
			return -1
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == *pe.FieldName {
				return i
			}
		}
	case pe.Key != nil:
		if n.Kind != kyaml.SequenceNode {
			return -1
		}
		for i, item := range n.Content {
			if item.Kind != kyaml.MappingNode {
				continue
			}
			all := true
			for _, f := range *pe.Key {
				k := at(item, fieldpath.MakePathOrDie(f.Name))
				if k == nil || !sameScalar(k, f.Value.Unstructured()) {
					all = false
					break
				}
			}
			if all {
				return i
			}
		}
	case pe.Value != nil:
		if n.Kind != kyaml.SequenceNode {
			return -1
		}
		for i, item := range n.Content {
			if sameScalar(item, (*pe.Value).Unstructured()) {
				return i
			}
		}
	case pe.Index != nil:
		if n.Kind == kyaml.SequenceNode && *pe.Index < len(n.Content) {
			return *pe.Index
		}
	}
	return -1
}

func sameScalar(n *kyaml.Node, v any) bool {
	if n.Kind != kyaml.ScalarNode {
		return false
	}
	var got any
	if err := n.Decode(&got); err != nil {
		return false
	}
	return reflect.DeepEqual(normal(got), normal(v))
}

// setAt sets (or with v absent removes) the field p under n, making the
// maps and keyed list items on the way. The nodes it keeps keep their
// comments and style; a scalar it changes keeps its quoting where the new
// value allows.
func setAt(n *kyaml.Node, p fieldpath.Path, v diff.FieldValue) error {
	if len(p) == 0 {
		return fmt.Errorf("empty path")
	}
	pe := p[0]
	i := childIndex(n, pe)
	last := len(p) == 1
	if n.Kind == kyaml.MappingNode && pe.FieldName == nil || n.Kind == kyaml.SequenceNode && pe.FieldName != nil {
		return fmt.Errorf("%s is not of the shape the path needs", pe)
	}
	if i < 0 {
		if !v.Present {
			return nil // nothing to remove
		}
		child := &kyaml.Node{Kind: kyaml.MappingNode, Tag: "!!map"}
		if !last && p[1].FieldName == nil {
			child = &kyaml.Node{Kind: kyaml.SequenceNode, Tag: "!!seq"}
		}
		if last {
			var err error
			if child, err = valueNode(nil, v.Value); err != nil {
				return err
			}
		}
		switch {
		case pe.FieldName != nil:
			n.Content = append(n.Content, &kyaml.Node{Kind: kyaml.ScalarNode, Tag: "!!str", Value: *pe.FieldName}, child)
			i = len(n.Content) - 2
		case pe.Key != nil:
			if !last {
				for _, f := range *pe.Key {
					kv, err := valueNode(nil, f.Value.Unstructured())
					if err != nil {
						return err
					}
					child.Content = append(child.Content, &kyaml.Node{Kind: kyaml.ScalarNode, Tag: "!!str", Value: f.Name}, kv)
				}
			}
			n.Content = append(n.Content, child)
			i = len(n.Content) - 1
		case pe.Value != nil:
			n.Content = append(n.Content, child)
			return nil
		default:
			return fmt.Errorf("%s: no such list item", pe)
		}
		if last {
			return nil
		}
	}
	if last {
		if !v.Present {
			if n.Kind == kyaml.MappingNode {
				n.Content = append(n.Content[:i], n.Content[i+2:]...)
			} else {
				n.Content = append(n.Content[:i], n.Content[i+1:]...)
			}
			return nil
		}
		slot := i
		if n.Kind == kyaml.MappingNode {
			slot = i + 1
		}
		nv, err := valueNode(n.Content[slot], v.Value)
		if err != nil {
			return err
		}
		n.Content[slot] = nv
		return nil
	}
	child := n.Content[i]
	if n.Kind == kyaml.MappingNode {
		child = n.Content[i+1]
	}
	if child.Kind == kyaml.ScalarNode && child.Tag == "!!null" && v.Present {
		child.Kind, child.Tag, child.Value = kyaml.MappingNode, "!!map", ""
		if p[1].FieldName == nil {
			child.Kind, child.Tag = kyaml.SequenceNode, "!!seq"
		}
	}
	return setAt(child, p[1:], v)
}

// valueNode is the node of v in place of old (nil for a new field):
// old's comments kept, and for a string its quoting where it still reads
// as the same string.
func valueNode(old *kyaml.Node, v any) (*kyaml.Node, error) {
	var nn kyaml.Node
	if err := nn.Encode(v); err != nil {
		return nil, err
	}
	if old == nil {
		return &nn, nil
	}
	if s, ok := v.(string); ok && old.Kind == kyaml.ScalarNode {
		switch {
		case strings.Contains(s, "\n") && old.Style == kyaml.LiteralStyle:
			nn.Style = old.Style
		case old.Style == kyaml.FoldedStyle && !strings.HasPrefix(s, " ") && s != "":
			// A folded scalar folds its lines into one: a value of one
			// line is what it usually holds.
			nn.Style = old.Style
		case !strings.Contains(s, "\n") && (old.Style == kyaml.DoubleQuotedStyle || old.Style == kyaml.SingleQuotedStyle):
			nn.Style = old.Style
		}
	}
	nn.HeadComment, nn.LineComment, nn.FootComment = old.HeadComment, old.LineComment, old.FootComment
	return &nn, nil
}

// normal is v as JSON reads it, so that values parsed by different
// decoders (int64 against float64, say) compare equal.
func normal(v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		return v
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		return v
	}
	return out
}
