package schemacheck

import (
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

// lineIndex is where each field of a text is: the line of its key, of a
// list's item, by the field's path as the server names it.
type lineIndex map[string]int

// indexLines reads the lines of text's fields (YAML, or JSON, which is
// YAML too). A map's entry is indexed as a field (labels.app); line reads
// the server's labels[app] so.
func indexLines(text string) lineIndex {
	idx := lineIndex{}
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(text), &doc); err != nil || len(doc.Content) == 0 {
		return idx
	}
	idx[""] = doc.Content[0].Line
	idx.walk(doc.Content[0], "")
	return idx
}

func (idx lineIndex) walk(n *yaml.Node, path string) {
	for n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			field := k.Value
			if path != "" {
				field = path + "." + k.Value
			}
			if _, ok := idx[field]; !ok {
				idx[field] = k.Line
			}
			idx.walk(v, field)
		}
	case yaml.SequenceNode:
		for i, item := range n.Content {
			p := path + "[" + strconv.Itoa(i) + "]"
			idx[p] = item.Line
			idx.walk(item, p)
		}
	}
}

// lazyLines is the lineIndex of text, read at its first line asked.
type lazyLines struct {
	text string
	idx  lineIndex
}

func (l *lazyLines) line(path string) int {
	if l.idx == nil {
		l.idx = indexLines(l.text)
	}
	return l.idx.line(path)
}

// line is the line of path, or of the nearest field above it that the
// text has (a missing field's parent), or the first line.
func (idx lineIndex) line(path string) int {
	path = keysAsFields(path)
	for {
		if l, ok := idx[path]; ok {
			return l
		}
		i := strings.LastIndexAny(path, ".[")
		if i <= 0 {
			break
		}
		path = path[:i]
	}
	if l, ok := idx[""]; ok {
		return l
	}
	return 1
}

// keysAsFields writes a path's map keys (labels[app]) as fields
// (labels.app), leaving list indexes ([0]) as they are.
func keysAsFields(path string) string {
	if !strings.Contains(path, "[") {
		return path
	}
	var b strings.Builder
	for {
		i := strings.IndexByte(path, '[')
		if i < 0 {
			b.WriteString(path)
			return b.String()
		}
		end := strings.IndexByte(path[i:], ']')
		if end < 0 {
			b.WriteString(path)
			return b.String()
		}
		b.WriteString(path[:i])
		inner := path[i+1 : i+end]
		if _, err := strconv.Atoi(inner); err == nil {
			b.WriteString(path[i : i+end+1])
		} else {
			b.WriteString("." + inner)
		}
		path = path[i+end+1:]
	}
}

// FieldLine is the line (counted from 1) of field in text, the YAML or
// JSON of one object: field as the server names it in a refusal's cause
// (spec.template.spec.containers[0].image, data[my key]) or as a strict
// refusal is worded for the user (.spec.containers[name="web"].imagePullPolicyy,
// a list's item by its key), or as a decoding error names it
// (spec.containers.env.value: no item, the first that has the field). A field the text does not have is on the
// line of the nearest field above it that it has, else the first line.
func FieldLine(text, field string) int {
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(text), &doc); err != nil || len(doc.Content) == 0 {
		return 1
	}
	n := doc.Content[0]
	line := n.Line
	for _, step := range fieldSteps(field) {
		next, at := step.in(n)
		if next == nil {
			break
		}
		n, line = next, at
	}
	return max(line, 1)
}

// fieldStep is one step of a field's path: a field or a map's key
// (name), a list's item by its index (index >= 0), or by the value of
// one of its fields (key = name).
type fieldStep struct {
	name, key string
	index     int
}

// in is the node step leads to from n, and the line it is named on (a
// field's key, a list's item); nil when n has none.
func (step fieldStep) in(n *yaml.Node) (*yaml.Node, int) {
	for n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	switch {
	case n.Kind == yaml.MappingNode && step.index < 0 && step.key == "":
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == step.name {
				return n.Content[i+1], n.Content[i].Line
			}
		}
	case n.Kind == yaml.SequenceNode && step.index < 0 && step.key == "":
		// A path that names no item (a decoding error's, Go's fields):
		// the first item that has the field.
		for _, item := range n.Content {
			if next, at := step.in(item); next != nil {
				return next, at
			}
		}
	case n.Kind == yaml.SequenceNode && step.index >= 0:
		if step.index < len(n.Content) {
			return n.Content[step.index], n.Content[step.index].Line
		}
	case n.Kind == yaml.SequenceNode && step.key != "":
		for _, item := range n.Content {
			if item.Kind != yaml.MappingNode {
				continue
			}
			for i := 0; i+1 < len(item.Content); i += 2 {
				if item.Content[i].Value == step.key && item.Content[i+1].Value == step.name {
					return item, item.Line
				}
			}
		}
	}
	return nil, 0
}

// fieldSteps reads a field's path into its steps: dotted names, and
// brackets holding an index, a key=value selector ([name="web"]) or a
// map's key ([app], [my.key]).
func fieldSteps(field string) []fieldStep {
	var steps []fieldStep
	field = strings.TrimPrefix(field, ".")
	for field != "" {
		switch field[0] {
		case '.':
			field = field[1:]
		case '[':
			end := closingBracket(field)
			steps = append(steps, bracketStep(field[1:end]))
			field = field[min(end+1, len(field)):]
		default:
			end := strings.IndexAny(field, ".[")
			if end < 0 {
				end = len(field)
			}
			steps = append(steps, fieldStep{name: field[:end], index: -1})
			field = field[end:]
		}
	}
	return steps
}

// closingBracket is the index of the ] that closes the [ at s[0], a
// quoted ] inside skipped; len(s) when there is none.
func closingBracket(s string) int {
	quoted := false
	for i := 1; i < len(s); i++ {
		switch {
		case s[i] == '\\' && quoted:
			i++
		case s[i] == '"':
			quoted = !quoted
		case s[i] == ']' && !quoted:
			return i
		}
	}
	return len(s)
}

// bracketStep reads what a bracket holds.
func bracketStep(inner string) fieldStep {
	if i, err := strconv.Atoi(inner); err == nil {
		return fieldStep{index: i}
	}
	if k, v, ok := strings.Cut(inner, "="); ok && strings.HasPrefix(v, `"`) {
		if s, err := strconv.Unquote(v); err == nil {
			return fieldStep{key: k, name: s, index: -1}
		}
	}
	return fieldStep{name: strings.Trim(inner, `"`), index: -1}
}
