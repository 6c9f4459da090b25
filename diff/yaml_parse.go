package diff

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"

	yamlv3 "go.yaml.in/yaml/v3"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"sigs.k8s.io/yaml"
)

// ErrNotObject is wrapped by DecodeObject for input that is valid YAML or
// JSON but not one Kubernetes object: no apiVersion or kind, not a map, or
// several documents.
var ErrNotObject = errors.New("not a Kubernetes object")

// MarkerError reports a conflict block left in merged YAML, so that a
// half-resolved merge is never saved.
type MarkerError struct {
	// Line is the 1-based line of the block's opening marker.
	Line int
	// Path is the field the block is in, in server-side apply's syntax
	// (list items are named by their name field, else by index); empty
	// when the text around the block cannot be read.
	Path string
}

// Error names the line and, when known, the field.
func (e *MarkerError) Error() string {
	if e.Path == "" {
		return fmt.Sprintf("line %d: unresolved conflict block", e.Line)
	}
	return fmt.Sprintf("line %d: unresolved conflict block in %s", e.Line, e.Path)
}

// markerRun returns the length of a conflict-marker-like run of '<', '|',
// '=' or '>' that starts a line (after indentation), or 0.
func markerRun(line string) int {
	t := strings.TrimLeft(line, " \t")
	if t == "" || !strings.ContainsRune("<|=>", rune(t[0])) {
		return 0
	}
	n := 0
	for n < len(t) && t[n] == t[0] {
		n++
	}
	if n < DefaultMarkerSize {
		return 0
	}
	return n
}

// ParseYAML reads merged YAML back into an object. It refuses a text that
// still holds a conflict block with a *MarkerError naming the line and the
// field, and otherwise decodes it as DecodeObject does.
func ParseYAML(text []byte) (*unstructured.Unstructured, error) {
	if line, ok := findBlock(text); ok {
		return nil, &MarkerError{Line: line + 1, Path: blockPath(text, line)}
	}
	return DecodeObject(text)
}

// findBlock finds the first conflict block: an opening marker of n >= 7
// '<' followed by a separator of n '=' and a closing marker of n '>', each
// at the start of a line (indentation allowed, for blocks inside a literal
// scalar). It returns the 0-based line of the opening marker.
func findBlock(text []byte) (int, bool) {
	lines := strings.Split(string(text), "\n")
	// One pass from the end, so that a text full of markers costs no more
	// than its length: for each size, whether a closing marker follows,
	// and whether a separator followed by a closing marker does.
	closed := map[int]bool{}
	separated := map[int]bool{}
	first, found := 0, false
	for i := len(lines) - 1; i >= 0; i-- {
		l := lines[i]
		n := markerRun(l)
		if n == 0 || !markerEnds(l, n) {
			continue
		}
		switch strings.TrimLeft(l, " \t")[0] {
		case '>':
			closed[n] = true
		case '=':
			if closed[n] {
				separated[n] = true
			}
		case '<':
			if separated[n] {
				first, found = i, true
			}
		}
	}
	return first, found
}

// markerEnds says whether a marker run of n is followed by nothing or by a
// space and a label, as git writes them.
func markerEnds(l string, n int) bool {
	t := strings.TrimRight(strings.TrimLeft(l, " \t"), "\r\n")
	return len(t) == n || t[n] == ' '
}

// blockPath guesses the field a block at line sits in: it keeps one side of
// every block (the first that is not empty), parses what remains and names
// the field on the block's first kept line.
func blockPath(text []byte, line int) string {
	lines := strings.SplitAfter(string(text), "\n")
	var kept []string
	target := -1
	for i := 0; i < len(lines); i++ {
		n := markerRun(lines[i])
		if n == 0 || strings.TrimLeft(lines[i], " \t")[0] != '<' || !markerEnds(lines[i], n) {
			kept = append(kept, lines[i])
			continue
		}
		// Collect the block's sections: mine, base, theirs.
		var sections [3][]string
		sec := 0
		j := i + 1
	scan:
		for ; j < len(lines); j++ {
			if k := markerRun(lines[j]); k == n && markerEnds(lines[j], n) {
				switch strings.TrimLeft(lines[j], " \t")[0] {
				case '|':
					sec = 1
					continue
				case '=':
					sec = 2
					continue
				case '>':
					break scan
				}
			}
			sections[sec] = append(sections[sec], lines[j])
		}
		pick := sections[0]
		if len(pick) == 0 {
			pick = sections[2]
		}
		if len(pick) == 0 {
			pick = sections[1]
		}
		if i == line {
			target = len(kept)
		}
		kept = append(kept, pick...)
		i = j
	}
	if target < 0 {
		return ""
	}
	var doc yamlv3.Node
	if err := yamlv3.Unmarshal([]byte(strings.Join(kept, "")), &doc); err != nil {
		return ""
	}
	// yaml.v3 lines are 1-based.
	want := target + 1
	// A block around a whole list item starts with "- ": name the item,
	// not its first field, which sits on the same line.
	item := target < len(kept) && strings.HasPrefix(strings.TrimLeft(kept[target], " "), "-")
	better := func(line, bestLine int, isItem bool) bool {
		if line > want {
			return false
		}
		if item && isItem {
			return line > bestLine
		}
		return line >= bestLine && !(item && line == want)
	}
	best, bestLine := "", 0
	var walk func(n *yamlv3.Node, path string)
	walk = func(n *yamlv3.Node, path string) {
		switch n.Kind {
		case yamlv3.DocumentNode:
			for _, c := range n.Content {
				walk(c, path)
			}
		case yamlv3.MappingNode:
			for k := 0; k+1 < len(n.Content); k += 2 {
				key, val := n.Content[k], n.Content[k+1]
				p := path + "." + key.Value
				if better(key.Line, bestLine, false) {
					best, bestLine = p, key.Line
				}
				walk(val, p)
			}
		case yamlv3.SequenceNode:
			for idx, it := range n.Content {
				p := path + itemName(it, idx)
				if better(it.Line, bestLine, true) {
					best, bestLine = p, it.Line
				}
				walk(it, p)
			}
		}
	}
	walk(&doc, "")
	return best
}

// itemName names a list item as server-side apply does for lists keyed by
// name, and by index otherwise.
func itemName(item *yamlv3.Node, idx int) string {
	if item.Kind == yamlv3.MappingNode {
		for k := 0; k+1 < len(item.Content); k += 2 {
			if item.Content[k].Value == "name" && item.Content[k+1].Kind == yamlv3.ScalarNode {
				return `[name=` + strconv.Quote(item.Content[k+1].Value) + `]`
			}
		}
	}
	return "[" + strconv.Itoa(idx) + "]"
}

// DecodeObject decodes one Kubernetes object from YAML or JSON. Input that
// parses but is not one object (no apiVersion or kind, several documents,
// not a map) gives an error wrapping ErrNotObject.
func DecodeObject(data []byte) (*unstructured.Unstructured, error) {
	// Cheap refusals first: `kedit merge` asks this of any text, and a
	// full YAML parse of a large text that is no manifest was most of its
	// time.
	if !bytes.Contains(data, []byte("apiVersion")) || !bytes.Contains(data, []byte("kind")) {
		return nil, fmt.Errorf("%w (no apiVersion or kind)", ErrNotObject)
	}
	switch countDocuments(data, 2) {
	case 0:
		return nil, fmt.Errorf("%w (no document)", ErrNotObject)
	case 2:
		return nil, fmt.Errorf("%w (more than one document)", ErrNotObject)
	}
	js, err := yaml.YAMLToJSON(data)
	if err != nil {
		return nil, fmt.Errorf("invalid YAML: %w", err)
	}
	var v any
	if err := utiljson.Unmarshal(js, &v); err != nil {
		return nil, fmt.Errorf("invalid YAML: %w", err)
	}
	return objectOf(v)
}

// countDocuments counts the YAML documents of data that hold something
// other than blanks and comments. Documents are separated by "---" lines
// and ended by "..." lines at the start of a line, which no value of a
// block mapping can hold there. It stops counting at limit.
func countDocuments(data []byte, limit int) int {
	docs, content := 0, false
	for len(data) > 0 && docs < limit {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		line = bytes.TrimRight(line, "\r")
		if bytes.HasPrefix(line, []byte("---")) && (len(line) == 3 || line[3] == ' ' || line[3] == '\t') ||
			bytes.Equal(line, []byte("...")) {
			if content {
				docs++
			}
			content = false
			if rest := bytes.TrimSpace(line[3:]); len(rest) > 0 && rest[0] != '#' {
				content = true
			}
			continue
		}
		if t := bytes.TrimSpace(line); len(t) > 0 && t[0] != '#' {
			content = true
		}
	}
	if content {
		docs++
	}
	return docs
}

func jsonKind(v any) string {
	switch v.(type) {
	case []any:
		return "list"
	case string:
		return "string"
	case nil:
		return "null"
	}
	return "scalar"
}
