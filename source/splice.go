package source

import (
	"bytes"
	"fmt"
	"reflect"
	"slices"
	"strings"

	kyaml "sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/kedit/kedit/internal/words"
)

// splice writes the edited documents into text, the documents text was
// parsed into (parseDocs) and then edited: each value changed is written
// where it stands, a new key at its siblings' indentation, a new list
// item after its siblings, a removed one with its lines; every other byte
// is kept. The result is parsed again and must read as the edited
// documents; else the change is refused, naming the file.
func splice(name string, text []byte, edited []*kyaml.Node) ([]byte, error) {
	orig, err := parseDocs(text)
	if err != nil {
		return nil, fmt.Errorf("%s %w", name, err)
	}
	if len(orig) != len(edited) {
		return nil, fmt.Errorf("%s: %s were read and %d written", name, words.Count(len(orig), "document"), len(edited))
	}
	s := &splicer{t: newYAMLText(text)}
	s.wide = wideSequences(s.t, orig)
	for i := range orig {
		s.t.markFlow(orig[i], false)
		if len(orig[i].Content) == 0 || len(edited[i].Content) == 0 {
			if len(orig[i].Content) != len(edited[i].Content) {
				return nil, fmt.Errorf("%s: document %d is empty", name, i+1)
			}
			continue
		}
		s.node(orig[i].Content[0], edited[i].Content[0], where{root: true, dash: -1})
	}
	out, err := s.apply()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	again, err := parseDocs(out)
	if err == nil && !sameDocs(again, edited) {
		err = fmt.Errorf("the text written does not read as the edit")
	}
	if err != nil {
		return nil, fmt.Errorf("%s: kedit could not write the change into the text as it is laid out: %w", name, err)
	}
	return out, nil
}

// sameDocs says whether two lists of documents hold the same values.
func sameDocs(a, b []*kyaml.Node) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		var x, y any
		if a[i].Decode(&x) != nil || b[i].Decode(&y) != nil || !reflect.DeepEqual(normal(x), normal(y)) {
			return false
		}
	}
	return true
}

// wideSequences says whether the text indents a list under a key by two
// spaces (a new list is written the same way); kustomize's own style,
// flush with the key, when it has none.
func wideSequences(t *yamlText, docs []*kyaml.Node) bool {
	var found, wide bool
	var walk func(n *kyaml.Node)
	walk = func(n *kyaml.Node) {
		for i := 0; !found && n.Kind == kyaml.MappingNode && i+1 < len(n.Content); i += 2 {
			v := n.Content[i+1]
			if v.Kind == kyaml.SequenceNode && v.Style&kyaml.FlowStyle == 0 && len(v.Content) > 0 && t.firstOnLine(t.start(n.Content[i])) {
				if d, ok := t.dash(v.Content[0]); ok {
					found, wide = true, t.column(d) > t.column(t.start(n.Content[i]))
				}
			}
		}
		for _, c := range n.Content {
			if !found {
				walk(c)
			}
		}
	}
	for _, d := range docs {
		walk(d)
	}
	return wide
}

// dash is the offset of the '-' of a block list's item.
func (t *yamlText) dash(item *kyaml.Node) (int, bool) {
	i := t.start(item) - 1
	for i >= 0 && (t.b[i] == ' ' || t.b[i] == '\t' || t.b[i] == '\n' || t.b[i] == '\r') {
		i--
	}
	return i, i >= 0 && t.b[i] == '-'
}

// op replaces the text from..to with text.
type op struct {
	from, to int
	text     string
}

type splicer struct {
	t    *yamlText
	ops  []op
	wide bool
}

// where a node stands: the value of key (its column keyCol), a block
// list's item (its dash at column dash), a document's root, or inside a
// flow collection.
type where struct {
	key    *kyaml.Node
	keyCol int
	dash   int
	root   bool
	flow   bool
}

// blockIndent is the column a block collection n starts at when written
// in this place.
func (s *splicer) blockIndent(w where, n *kyaml.Node) int {
	switch {
	case w.key != nil && n.Kind == kyaml.SequenceNode && !s.wide:
		return w.keyCol
	case w.key != nil:
		return w.keyCol + 2
	case w.dash >= 0:
		return w.dash + 2
	}
	return 0
}

func (s *splicer) add(from, to int, text string) {
	if from == to && from == len(s.t.b) && from > 0 && s.t.b[from-1] != '\n' && strings.HasSuffix(text, "\n") {
		text = "\n" + strings.TrimSuffix(text, "\n")
	}
	s.ops = append(s.ops, op{from, to, text})
}

// apply makes the new text of the ops, which must not overlap.
func (s *splicer) apply() ([]byte, error) {
	slices.SortStableFunc(s.ops, func(a, b op) int { return a.from - b.from })
	var out bytes.Buffer
	at := 0
	for _, o := range s.ops {
		if o.from < at {
			return nil, fmt.Errorf("two changes meet at line %d", s.t.lineOf(o.from)+1)
		}
		out.Write(s.t.b[at:o.from])
		out.WriteString(o.text)
		at = o.to
	}
	out.Write(s.t.b[at:])
	return out.Bytes(), nil
}

// same says whether two nodes hold the same value.
func same(a, b *kyaml.Node) bool {
	if a.Kind != b.Kind || len(a.Content) != len(b.Content) {
		return false
	}
	if a.Kind == kyaml.ScalarNode || a.Kind == kyaml.AliasNode {
		return a.Value == b.Value && a.ShortTag() == b.ShortTag()
	}
	for i := range a.Content {
		if !same(a.Content[i], b.Content[i]) {
			return false
		}
	}
	return true
}

// node writes e, the edited version of o, where o stands.
func (s *splicer) node(o, e *kyaml.Node, w where) {
	switch {
	case same(o, e):
	case o.Kind == kyaml.ScalarNode && e.Kind == kyaml.ScalarNode && !isEmptyNull(o) && !w.flow:
		s.scalar(o, e, w)
	case o.Kind != e.Kind || o.Kind == kyaml.ScalarNode || o.Kind == kyaml.AliasNode:
		s.replace(o, e, w)
	case o.Style&kyaml.FlowStyle != 0 || w.flow:
		s.flow(o, e)
	case o.Kind == kyaml.MappingNode:
		s.mapping(o, e, w)
	default:
		s.sequence(o, e, w)
	}
}

// replace writes e in place of o whole.
func (s *splicer) replace(o, e *kyaml.Node, w where) {
	if w.flow {
		s.add(s.t.start(o), s.t.end(o), s.flowText(styled(o, e)))
		return
	}
	text := strings.TrimSuffix(s.marshal(styled(o, e)), "\n")
	inline := e.Kind == kyaml.ScalarNode || e.Kind == kyaml.AliasNode || len(e.Content) == 0 || e.Style&kyaml.FlowStyle != 0
	ind := s.blockIndent(w, e)
	if e.Kind == kyaml.ScalarNode {
		text = scalarLines(text, s.blockIndent(w, &kyaml.Node{Kind: kyaml.MappingNode}))
	}
	switch {
	case w.key != nil && isEmptyNull(o) && inline:
		s.add(s.t.colonEnd(w.key), s.t.colonEnd(w.key), " "+text)
	case w.key != nil && isEmptyNull(o):
		at := s.t.lineEnd(s.t.colonEnd(w.key))
		s.add(at, at, "\n"+indentRest(text, ind, false))
	case w.key != nil && inline:
		s.add(s.t.colonEnd(w.key), s.t.end(o), " "+text)
	case w.key != nil:
		s.add(s.t.colonEnd(w.key), s.t.end(o), "\n"+indentRest(text, ind, false))
	case e.Kind == kyaml.ScalarNode:
		s.add(s.t.start(o), s.t.end(o), text)
	default:
		s.add(s.t.start(o), s.t.end(o), indentRest(text, ind, true))
	}
}

// mapping writes the changes of a block mapping: its values changed in
// place, keys removed with their lines, new keys after the last.
func (s *splicer) mapping(o, e *kyaml.Node, w where) {
	keyCol := s.t.column(s.t.start(o.Content[0]))
	origAt := map[string]int{}
	for i := 0; i+1 < len(o.Content); i += 2 {
		origAt[o.Content[i].Value] = i
	}
	editedAt := map[string]bool{}
	for i := 0; i+1 < len(e.Content); i += 2 {
		editedAt[e.Content[i].Value] = true
	}
	kept := map[int]bool{}
	var added []*kyaml.Node
	for i := 0; i+1 < len(e.Content); i += 2 {
		j, ok := origAt[e.Content[i].Value]
		if !ok && i+1 < len(o.Content) && !editedAt[o.Content[i].Value] && o.Content[i].Kind == kyaml.ScalarNode && e.Content[i].Kind == kyaml.ScalarNode {
			// A key renamed where it stands (an image's newTag that
			// becomes its digest): its line and comment stay.
			j, ok = i, true
			s.add(s.t.content(o.Content[j]), s.t.end(o.Content[j]), strings.TrimSuffix(s.marshal(e.Content[i]), "\n"))
		}
		if !ok {
			added = append(added, e.Content[i], e.Content[i+1])
			continue
		}
		kept[j] = true
		s.node(o.Content[j+1], e.Content[i+1], where{key: o.Content[j], keyCol: keyCol, dash: -1})
	}
	if len(kept) == 0 {
		s.replace(o, e, w)
		return
	}
	for i := 0; i+1 < len(o.Content); i += 2 {
		if kept[i] {
			continue
		}
		k := o.Content[i]
		from, to := s.t.start(k), s.t.afterLine(s.entryEnd(o, i))
		if s.t.firstOnLine(from) {
			from = s.t.lineStart[s.t.lineOf(from)]
		} else {
			// The first key of a list item: the next kept key takes
			// its place after the dash.
			next := i + 2
			for ; next < len(o.Content) && !kept[next]; next += 2 {
				kept[next] = true // removed with it
			}
			to = s.t.start(o.Content[next])
		}
		s.add(from, to, "")
	}
	if len(added) > 0 {
		m := &kyaml.Node{Kind: kyaml.MappingNode, Tag: "!!map", Content: added}
		at := s.t.pastComments(s.t.end(o), keyCol)
		s.add(at, at, indentRest(s.marshal(m), keyCol, false))
	}
}

// entryEnd is the end of o's entry at i: its value's, or its colon's for
// a value written as nothing.
func (s *splicer) entryEnd(o *kyaml.Node, i int) int {
	if isEmptyNull(o.Content[i+1]) {
		return s.t.colonEnd(o.Content[i])
	}
	return s.t.end(o.Content[i+1])
}

// sequence writes the changes of a block list: items matched as a diff
// matches lines, a changed item written in place, a removed one with its
// lines, a new one before the next item kept or after the last.
func (s *splicer) sequence(o, e *kyaml.Node, w where) {
	if len(e.Content) == 0 {
		s.replace(o, e, w)
		return
	}
	d, _ := s.t.dash(o.Content[0])
	dash := s.t.column(d)
	for _, g := range gaps(o.Content, e.Content) {
		for _, pr := range g.pairs(o.Content, e.Content) {
			s.node(o.Content[pr[0]], e.Content[pr[1]], where{dash: dash})
		}
		for _, r := range g.removed {
			item := o.Content[r]
			from, _ := s.t.dash(item)
			if s.t.firstOnLine(from) {
				from = s.t.lineStart[s.t.lineOf(from)]
			}
			s.add(from, s.t.afterLine(s.t.end(item)), "")
		}
		var text strings.Builder
		for _, a := range g.added {
			item := styled(o.Content[len(o.Content)-1], e.Content[a])
			text.WriteString(strings.Repeat(" ", dash) + "- " + indentRest(s.marshal(item), dash+2, true))
		}
		if text.Len() == 0 {
			continue
		}
		at := s.t.pastComments(s.t.end(o), dash)
		if g.next >= 0 {
			nd, _ := s.t.dash(o.Content[g.next])
			at = s.t.lineStart[s.t.lineOf(nd)]
		}
		s.add(at, at, text.String())
	}
}
