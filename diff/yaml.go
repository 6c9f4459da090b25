package diff

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"

	yamlv3 "go.yaml.in/yaml/v3"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
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

// YAML renders the merged object as `kubectl get -o yaml` prints it (map
// keys sorted), with resolved conflicts applied and each open conflict as a
// diff3 block around the YAML lines of its field:
//
//	data:
//	<<<<<<< mine
//	  foo: mine's value
//	||||||| base
//	  foo: base's value
//	=======
//	  foo: theirs' value
//	>>>>>>> theirs
//
// A side without the field has an empty section. A multi-line string whose
// line merge has conflicts is written as a literal block holding the line
// merge, so only its open colliding regions are in blocks, and its clean
// and resolved regions are merged in. Where a literal block cannot hold the
// text, the block is around the field, and each of its sections holds the
// field with every open region as that side has it and all else merged, so
// that no section drops the other side's clean changes. Markers are longer than
// 7 characters when a line of the object already looks like a marker, as
// git's conflict-marker-size. ParseYAML reads the text back once every
// block is gone.
func (m *ObjectMerge) YAML() ([]byte, error) {
	var open []int
	for u := range m.units {
		if m.unitOpen(u) {
			open = append(open, u)
		}
	}
	if len(open) == 0 {
		return MarshalYAML(m.materialize(m.pickResolved, nil))
	}

	// Each field with an open conflict gets a unique token in place of its
	// value; the token's line is then replaced by the block.
	for nonce := 0; nonce < 100; nonce++ {
		tokens := make(map[int]string, len(open))
		for _, u := range open {
			tokens[u] = "kedit-conflict-" + strconv.Itoa(nonce) + "-" + strconv.Itoa(u)
		}
		obj := m.materialize(func(u int) FieldValue {
			if tok, ok := tokens[u]; ok {
				return FieldValue{Present: true, Value: tok}
			}
			return m.pickResolved(u)
		}, m.unitOpen)
		out, err := MarshalYAML(obj)
		if err != nil {
			return nil, fmt.Errorf("diff: rendering the merged object: %w", err)
		}
		text, ok, err := m.expandBlocks(string(out), tokens, false)
		if err != nil {
			return nil, err
		}
		if ok {
			return []byte(text), nil
		}
	}
	return nil, errors.New("diff: the object holds every placeholder tried for its conflicts")
}

// expandBlocks replaces each token's line by its unit's block. It
// reports false when a token is not on exactly one line of its own, which
// means the object itself holds the token text. With decoded, a Secret's
// data is written decoded, as RenderSecretYAML writes it (DecodedYAML).
func (m *ObjectMerge) expandBlocks(out string, tokens map[int]string, decoded bool) (string, bool, error) {
	lines := strings.SplitAfter(out, "\n")
	byToken := make(map[string]int, len(tokens))
	for i, tok := range tokens {
		byToken[tok] = i
	}
	type site struct {
		start, line int  // the lines the block replaces
		indent      int  // of the field's key, or of the item's "- "
		item        bool // the field starts a list item ("- key: ..." or "- ...")
		isKey       bool // the conflict is a map field (else a whole list item)
		key         string
	}
	sites := map[int]site{}
	for li, l := range lines {
		body := strings.TrimRight(l, "\n")
		if !strings.Contains(body, "kedit-conflict-") {
			continue
		}
		var tok string
		for t := range byToken {
			if strings.HasSuffix(body, t) {
				tok = t
				break
			}
		}
		if tok == "" {
			if tokensIn(body, byToken) {
				return "", false, nil
			}
			continue
		}
		i := byToken[tok]
		if _, dup := sites[i]; dup {
			return "", false, nil
		}
		s := site{start: li, line: li}
		// The key comes from the path, not from the line, which may hold
		// it quoted, or not at all for a long key (below).
		if last := m.Conflicts[m.units[i].first].Path; len(last) > 0 && last[len(last)-1].FieldName != nil {
			s.isKey, s.key = true, *last[len(last)-1].FieldName
		}
		prefix := body[:len(body)-len(tok)]
		s.indent = len(prefix) - len(strings.TrimLeft(prefix, " "))
		rest := prefix[s.indent:]
		if strings.HasPrefix(rest, "- ") {
			s.item = true
			rest = rest[2:]
		}
		switch {
		case !s.isKey && s.item && rest == "":
		case s.isKey && !s.item && rest == ": ":
			// A key too long for a simple key is written "? key" on
			// lines of its own, then ": value"; the block replaces all.
			j := li - 1
			for j >= 0 && !strings.HasPrefix(strings.TrimLeft(lines[j], " "), "? ") && !strings.HasPrefix(strings.TrimLeft(lines[j], " "), "- ? ") {
				j--
			}
			if j < 0 {
				return "", false, nil
			}
			s.start = j
			if lead := strings.TrimLeft(lines[j], " "); strings.HasPrefix(lead, "- ? ") {
				s.item = true
				s.indent = len(lines[j]) - len(lead)
			}
		case s.isKey && strings.HasSuffix(rest, ": "):
		default:
			return "", false, nil
		}
		sites[i] = s
	}
	if len(sites) != len(tokens) {
		return "", false, nil
	}

	// Build each block's sections first: the marker size depends on every
	// line of the output.
	type block struct {
		head               []string // lines before the block
		inline             []string // a literal block scalar instead of a block
		mine, base, theirs []string
	}
	blocks := make(map[int]*block, len(sites))
	for i, s := range sites {
		un := &m.units[i]
		c := &m.Conflicts[un.first]
		indent := strings.Repeat(" ", s.indent)
		bl := &block{}
		if s.item && s.isKey {
			// `- key: token`: the item's other fields follow at the
			// indentation of key, so the item starts on a line of its own.
			bl.head = []string{indent + "-\n"}
			indent += "  "
		}
		side := func(fv FieldValue) ([]string, error) {
			if !fv.Present {
				return nil, nil
			}
			if text, ok := fv.Value.(string); ok && decoded && m.isSecretData(c.Path) {
				return secretField(s.key, text, indent)
			}
			v := m.encodeForYAML(c, fv.Value)
			return renderField(s.isKey, s.key, v, indent)
		}
		mine, base, theirs := c.Mine, c.Base, c.Theirs
		if un.text != nil {
			// Each section: the field with the open regions as that side
			// has them, the rest merged.
			asSide := func(ch Choice) FieldValue {
				return FieldValue{Present: true, Value: un.text.resolved(func(j int) Resolution {
					if r := m.Resolutions[un.first+j]; r.Choice != Unresolved {
						return r
					}
					return Resolution{Choice: ch}
				})}
			}
			mine, base, theirs = asSide(TakeMine), asSide(TakeBase), asSide(TakeTheirs)
		}
		var err error
		if bl.mine, err = side(mine); err != nil {
			return "", false, err
		}
		if bl.base, err = side(base); err != nil {
			return "", false, err
		}
		if bl.theirs, err = side(theirs); err != nil {
			return "", false, err
		}
		blocks[i] = bl
	}
	size := DefaultMarkerSize
	grow := func(ls []string) {
		for _, l := range ls {
			if n := markerRun(l); n >= size {
				size = n + 1
			}
		}
	}
	grow(lines)
	for i, bl := range blocks {
		grow(bl.mine)
		grow(bl.base)
		grow(bl.theirs)
		if c := &m.Conflicts[m.units[i].first]; c.Hunks != nil {
			for _, fv := range []FieldValue{c.Mine, c.Base, c.Theirs} {
				if s, ok := fv.Value.(string); ok {
					grow(strings.SplitAfter(s, "\n"))
				}
			}
		}
	}
	for i, bl := range blocks {
		un := &m.units[i]
		c := &m.Conflicts[un.first]
		s := sites[i]
		secret := m.isSecretData(c.Path)
		if un.text == nil || !s.isKey || secret && !decoded {
			continue
		}
		text := un.text.withBlocks(func(j int) Resolution { return m.Resolutions[un.first+j] }, size)
		indent := strings.Repeat(" ", s.indent)
		if s.item {
			indent += "  "
		}
		render := renderField
		if secret {
			render = func(_ bool, key string, v any, indent string) ([]string, error) {
				return secretBlockField(key, v.(string), indent)
			}
		}
		ls, err := render(true, s.key, text, indent)
		if err != nil {
			return "", false, err
		}
		if isLiteralBlock(ls) {
			bl.inline = ls
		}
	}

	var b strings.Builder
	b.Grow(len(out) + 256*len(blocks))
	siteAt := make(map[int]int, len(sites))
	replaced := map[int]bool{}
	for i, s := range sites {
		siteAt[s.start] = i
		for l := s.start; l <= s.line; l++ {
			replaced[l] = true
		}
	}
	marker := func(c byte, label string) {
		b.WriteString(strings.Repeat(string(c), size))
		if label != "" {
			b.WriteByte(' ')
			b.WriteString(label)
		}
		b.WriteByte('\n')
	}
	for li, l := range lines {
		i, ok := siteAt[li]
		if !ok {
			if !replaced[li] {
				b.WriteString(l)
			}
			continue
		}
		bl := blocks[i]
		writeLines(&b, bl.head)
		if bl.inline != nil {
			writeLines(&b, bl.inline)
			continue
		}
		marker('<', DefaultLabels.Mine)
		writeLines(&b, bl.mine)
		marker('|', DefaultLabels.Base)
		writeLines(&b, bl.base)
		marker('=', "")
		writeLines(&b, bl.theirs)
		marker('>', DefaultLabels.Theirs)
	}
	return b.String(), true, nil
}

func tokensIn(s string, byToken map[string]int) bool {
	for t := range byToken {
		if strings.Contains(s, t) {
			return true
		}
	}
	return false
}

func writeLines(b *strings.Builder, ls []string) {
	for _, l := range ls {
		b.WriteString(l)
	}
}

// renderField renders `key: v` (or the list item `- v` when isKey is
// false) as kubectl would, each line indented by indent.
func renderField(isKey bool, key string, v any, indent string) ([]string, error) {
	var doc any = []any{v}
	if isKey {
		doc = map[string]any{key: v}
	}
	out, err := MarshalYAML(doc)
	if err != nil {
		return nil, fmt.Errorf("diff: rendering a conflict: %w", err)
	}
	ls := strings.SplitAfter(string(out), "\n")
	if n := len(ls); n > 0 && ls[n-1] == "" {
		ls = ls[:n-1]
	}
	for j := range ls {
		ls[j] = indent + ls[j]
	}
	return ls, nil
}

// isLiteralBlock says whether a rendered field is a literal block scalar,
// whose lines hold the text as it is, so that a line merge with markers
// reads as a line merge.
func isLiteralBlock(ls []string) bool {
	if len(ls) < 2 {
		return false
	}
	first := strings.TrimRight(ls[0], "\n")
	i := strings.LastIndex(first, ": |")
	if i < 0 {
		return false
	}
	for _, r := range first[i+3:] {
		if !strings.ContainsRune("+-0123456789", r) {
			return false
		}
	}
	return true
}

// encodeForYAML gives a Secret's data value in base64, as the object holds
// it, so that a resolved block parses back to a valid Secret.
func (m *ObjectMerge) encodeForYAML(c *Conflict, v any) any {
	if s, ok := v.(string); ok && m.isSecretData(c.Path) {
		return base64.StdEncoding.EncodeToString([]byte(s))
	}
	return v
}

func (m *ObjectMerge) isSecretData(p fieldpath.Path) bool {
	return len(m.secretKeys) > 0 && len(p) == 2 && p[0].FieldName != nil && *p[0].FieldName == "data" &&
		p[1].FieldName != nil && m.secretKeys[*p[1].FieldName]
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
	if n := countDocuments(data); n != 1 {
		return nil, fmt.Errorf("%w (%d documents)", ErrNotObject, n)
	}
	js, err := yaml.YAMLToJSON(data)
	if err != nil {
		return nil, fmt.Errorf("invalid YAML: %w", err)
	}
	var v any
	if err := utiljson.Unmarshal(js, &v); err != nil {
		return nil, fmt.Errorf("invalid YAML: %w", err)
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%w (a %s)", ErrNotObject, jsonKind(v))
	}
	u := &unstructured.Unstructured{Object: obj}
	if av, ok := obj["apiVersion"].(string); !ok || av == "" {
		return nil, fmt.Errorf("%w (no apiVersion)", ErrNotObject)
	}
	if k, ok := obj["kind"].(string); !ok || k == "" {
		return nil, fmt.Errorf("%w (no kind)", ErrNotObject)
	}
	return u, nil
}

// countDocuments counts the YAML documents of data that hold something
// other than blanks and comments. Documents are separated by "---" lines
// and ended by "..." lines at the start of a line, which no value of a
// block mapping can hold there.
func countDocuments(data []byte) int {
	docs, content := 0, false
	for len(data) > 0 {
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
