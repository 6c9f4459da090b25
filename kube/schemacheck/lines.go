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
