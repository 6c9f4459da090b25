package diff

import (
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

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
	return m.YAMLWith(TextOptions{})
}

// YAMLWith is YAML with the blocks written as opts say: opts.Labels name
// the sides, StyleMerge leaves base's section out (StyleZDiff3 writes as
// StyleDiff3: a block holds one field's lines, or the colliding lines of a
// multi-line string, already), and opts.MarkerSize is the least marker size,
// lengthened as YAML's markers are, and never under DefaultMarkerSize, so
// that ParseYAML still finds every block. opts.Favor is not looked at: a
// caller that wants a side resolves the conflicts first.
func (m *ObjectMerge) YAMLWith(opts TextOptions) ([]byte, error) {
	bf := opts.blockFormat()
	return m.withBlocks(marshalObjectYAML, func(out string, tokens map[int]string) (string, bool, error) {
		return m.expandBlocks(out, tokens, false, bf)
	})
}

// withBlocks renders the merged object with render, and with an open
// conflict, with a unique token in place of each open field's value, which
// expand then replaces by the field's block (expand reports false when the
// object itself holds a token's text, and another is tried).
func (m *ObjectMerge) withBlocks(render func(obj map[string]any) ([]byte, error), expand func(out string, tokens map[int]string) (string, bool, error)) ([]byte, error) {
	var open []int
	for u := range m.units {
		if m.unitOpen(u) {
			open = append(open, u)
		}
	}
	if len(open) == 0 {
		return render(m.materialize(m.pickResolved, nil))
	}
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
		out, err := render(obj)
		if err != nil {
			return nil, fmt.Errorf("diff: rendering the merged object: %w", err)
		}
		text, ok, err := expand(string(out), tokens)
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
func (m *ObjectMerge) expandBlocks(out string, tokens map[int]string, decoded bool, bf blockFormat) (string, bool, error) {
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
		mine, base, theirs := m.unitSides(i)
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
	sections := make(map[int][3][]string, len(blocks))
	for i, bl := range blocks {
		sections[i] = [3][]string{bl.mine, bl.base, bl.theirs}
	}
	size := m.conflictMarkerSize(bf, lines, sections)
	for i, bl := range blocks {
		un := &m.units[i]
		c := &m.Conflicts[un.first]
		s := sites[i]
		secret := m.isSecretData(c.Path)
		if un.text == nil || !s.isKey || secret && !decoded {
			continue
		}
		text := un.text.withBlocks(func(j int) Resolution { return m.Resolutions[un.first+j] }, bf, size)
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
		bf.writeBlock(&b, size, bl.mine, bl.base, bl.theirs, func(ls []string) { writeLines(&b, ls) })
	}
	return b.String(), true, nil
}

// unitSides are the three sides of an open conflict unit's field, as its
// block's sections show them: for a multi-line string whose line merge
// has conflicts, the field with the open regions as that side has them
// and all else merged.
func (m *ObjectMerge) unitSides(u int) (mine, base, theirs FieldValue) {
	un := &m.units[u]
	c := &m.Conflicts[un.first]
	if un.text == nil {
		return c.Mine, c.Base, c.Theirs
	}
	asSide := func(ch Choice) FieldValue {
		return FieldValue{Present: true, Value: un.text.resolved(func(j int) Resolution {
			if r := m.Resolutions[un.first+j]; r.Choice != Unresolved {
				return r
			}
			return Resolution{Choice: ch}
		})}
	}
	return asSide(TakeMine), asSide(TakeBase), asSide(TakeTheirs)
}

// conflictMarkerSize is the size of the markers of blocks whose sections
// are given, among the lines of the rest of the text: never under
// DefaultMarkerSize or bf's least, and longer than any marker-like run a
// line already holds, as git's conflict-marker-size.
func (m *ObjectMerge) conflictMarkerSize(bf blockFormat, lines []string, sections map[int][3][]string) int {
	size := max(DefaultMarkerSize, bf.minSize)
	grow := func(ls []string) {
		for _, l := range ls {
			if n := markerRun(l); n >= size {
				size = n + 1
			}
		}
	}
	grow(lines)
	for i, secs := range sections {
		for _, s := range secs {
			grow(s)
		}
		if c := &m.Conflicts[m.units[i].first]; c.Hunks != nil {
			for _, fv := range []FieldValue{c.Mine, c.Base, c.Theirs} {
				if s, ok := fv.Value.(string); ok {
					grow(strings.SplitAfter(s, "\n"))
				}
			}
		}
	}
	return size
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

// marshalObjectYAML is MarshalYAML of an object's content.
func marshalObjectYAML(obj map[string]any) ([]byte, error) { return MarshalYAML(obj) }
