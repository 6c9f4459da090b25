package model

import (
	"errors"
	"fmt"
	"io"
	"strings"

	yamlv3 "go.yaml.in/yaml/v3"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kedit/kedit/diff"
)

// The text of several objects edited in one $EDITOR file: a List, as
// kubectl edit writes one, whose items are the drafts' texts as they are,
// indented. Each item is cut out of the edited text again and indented back,
// so that an item left alone comes back byte for byte and an item edited
// keeps its comments and layout.

// setTextHeader opens the text of a set's edit.
const setTextHeader = `# kedit: the objects below are edited together; each is saved with its own
# resourceVersion. An object removed from the list keeps no draft; an object
# added to it is refused (kedit does not create objects). A file left empty
# changes nothing.
`

// SetItem is one item of a set's edited text.
type SetItem struct {
	// Identity names the object the item says it is: apiVersion, kind,
	// metadata.namespace and metadata.name (diff.IdentityFields).
	Identity Identity
	// Text is the item's text, indented back to a document of its own.
	Text string
	// Line is the 1-based line of the List's text where Text's first line
	// is: Text's line n is the List's line Line+n-1 (for an item written
	// in flow style, whose text is rendered, the item's own line).
	Line int
	// region is the item's lines as they stand in the List, to tell an
	// item left alone from one edited.
	region string
}

// Identity is what names an object: diff.IdentityFields' values.
type Identity struct {
	APIVersion, Kind, Namespace, Name string
}

// IdentityOf reads obj's identity fields.
func IdentityOf(obj *unstructured.Unstructured) Identity {
	var id Identity
	for _, f := range diff.IdentityFields() {
		*id.field(f.Name) = f.Get(obj)
	}
	return id
}

// field is where the identity field called name goes.
func (id *Identity) field(name string) *string {
	switch name {
	case "apiVersion":
		return &id.APIVersion
	case "kind":
		return &id.Kind
	case "metadata.namespace":
		return &id.Namespace
	}
	return &id.Name
}

// String names the object as a kubectl argument does, with its namespace:
// ConfigMap/app-config -n web.
func (id Identity) String() string {
	s := id.Kind + "/" + id.Name
	if id.Namespace != "" {
		s += " -n " + id.Namespace
	}
	return s
}

// Names reports whether an item that says it is id is the object of
// identity obj: every identity field equal, but that an item may leave its
// namespace out (the object's own is meant, as a save of one object takes
// base's).
func (id Identity) Names(obj Identity) bool {
	if id.Namespace == "" {
		id.Namespace = obj.Namespace
	}
	return id == obj
}

// SetText renders texts, each one object's draft (or base's text) in the
// format, as the List the user edits in it: RenderSetText's YAML, or
// RenderJSONSetText's JSON.
func (f Format) SetText(texts []string) string {
	if f == FormatJSON {
		return RenderJSONSetText(texts)
	}
	return RenderSetText(texts)
}

// SplitSetText splits a set's edited text in the format back into its
// items: SplitSetText, or SplitJSONSetText.
func (f Format) SplitSetText(text string) ([]SetItem, error) {
	if f == FormatJSON {
		return SplitJSONSetText(text)
	}
	return SplitSetText(text)
}

// itemRegion is text as an item of the format's List, as the split cuts
// it out again (SetItem.region).
func (f Format) itemRegion(text string) string {
	if f == FormatJSON {
		return jsonItemRegion(text)
	}
	return itemRegion(text)
}

// RenderSetText renders texts, each one object's draft (or base's text),
// as the YAML List the user edits.
func RenderSetText(texts []string) string {
	var b strings.Builder
	b.WriteString(setTextHeader)
	b.WriteString("apiVersion: v1\nkind: List\nitems:\n")
	for _, t := range texts {
		b.WriteString(itemRegion(t))
	}
	return b.String()
}

// itemRegion is text as an item of the List: "- " before its first line,
// two spaces before every other line that is not empty.
func itemRegion(text string) string {
	var b strings.Builder
	lines := strings.SplitAfter(text, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	if len(lines) == 0 {
		return "-\n"
	}
	for i, l := range lines {
		switch {
		case i == 0:
			b.WriteString("- ")
		case l != "\n":
			b.WriteString("  ")
		}
		b.WriteString(l)
	}
	if !strings.HasSuffix(text, "\n") {
		b.WriteString("\n")
	}
	return b.String()
}

// SetTextError says why a set's edited text cannot be split into the
// objects' drafts.
type SetTextError struct {
	// Line is the 1-based line of the problem, 0 when it has none; Column
	// the 1-based column in characters, 0 when it is not known.
	Line, Column int
	Msg          string
}

func (e *SetTextError) Error() string {
	switch {
	case e.Line > 0 && e.Column > 0:
		return fmt.Sprintf("the edited list, line %d, column %d: %s", e.Line, e.Column, e.Msg)
	case e.Line > 0:
		return fmt.Sprintf("the edited list, line %d: %s", e.Line, e.Msg)
	}
	return "the edited list: " + e.Msg
}

// ErrEmptySetText is SplitSetText's answer to a text with nothing but
// comments and blank lines: the edit is called off.
var ErrEmptySetText = errors.New("the edited list is empty: nothing changed")

// SplitSetText splits a set's edited text back into its items, each with
// the identity it names. A text that is not one List of objects is a
// *SetTextError naming the line.
func SplitSetText(text string) ([]SetItem, error) {
	dec := yamlv3.NewDecoder(strings.NewReader(text))
	var doc yamlv3.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, ErrEmptySetText
		}
		line, msg := locateYAMLError(text)
		if msg == "" {
			msg = yamlMessage(err)
		}
		return nil, &SetTextError{Line: line, Msg: msg}
	}
	var more yamlv3.Node
	if err := dec.Decode(&more); !errors.Is(err, io.EOF) {
		return nil, &SetTextError{Line: more.Line, Msg: "a second document: the objects go in the one List's items"}
	}
	if len(doc.Content) == 0 {
		return nil, ErrEmptySetText
	}
	root := doc.Content[0]
	if root.Kind != yamlv3.MappingNode {
		return nil, &SetTextError{Line: root.Line, Msg: "not a List: the objects go in the items of a List"}
	}
	kind, items, after := mappingValue(root, "kind"), mappingValue(root, "items"), 0
	if kind == nil || kind.Value != "List" {
		return nil, &SetTextError{Line: root.Line, Msg: "not a List (kind: List): the objects go in its items"}
	}
	if items == nil || items.Kind != yamlv3.SequenceNode {
		if items != nil && items.Tag == "!!null" {
			return nil, nil // every item removed
		}
		return nil, &SetTextError{Line: root.Line, Msg: "the List has no items"}
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		if k := root.Content[i]; k.Line > items.Line && (after == 0 || k.Line < after) {
			after = k.Line
		}
	}
	lines := strings.SplitAfter(text, "\n")
	if after == 0 {
		after = len(lines) + 1
	}
	// The sequence starts at its first dash: each item's region runs from
	// its dash's line to the next one's.
	dash := items.Column - 1
	starts := make([]int, len(items.Content))
	prev := items.Line - 1
	for i, item := range items.Content {
		starts[i] = dashLine(lines, item.Line, prev, dash)
		prev = starts[i]
	}
	out := make([]SetItem, 0, len(items.Content))
	for i, item := range items.Content {
		if item.Kind != yamlv3.MappingNode {
			return nil, &SetTextError{Line: item.Line, Msg: fmt.Sprintf("item %d is not an object", i+1)}
		}
		id := nodeIdentity(item)
		if id.Kind == "" || id.Name == "" || id.APIVersion == "" {
			return nil, &SetTextError{Line: item.Line, Msg: fmt.Sprintf("item %d has no apiVersion, kind or metadata.name: kedit cannot tell which object it is", i+1)}
		}
		end := after
		if i+1 < len(items.Content) {
			end = starts[i+1]
		}
		si := SetItem{Identity: id, Line: item.Line}
		if item.Style&yamlv3.FlowStyle != 0 || end <= item.Line {
			// Written in flow style, or several on a line: the item has no
			// lines of its own, so its text is the object rendered.
			b, err := yamlv3.Marshal(item)
			if err != nil {
				return nil, &SetTextError{Line: item.Line, Msg: err.Error()}
			}
			si.Text, si.region = string(b), string(b)
		} else {
			si.region, si.Text = cutItem(lines, starts[i], end, dash, item.Column-1)
			si.Line = starts[i]
			if l := lines[starts[i]-1]; len(l) > dash && l[dash] == '-' && strings.TrimSpace(l[dash+1:]) == "" {
				si.Line++ // the dash alone on its line is not the item's
			}
		}
		out = append(out, si)
	}
	return out, nil
}

// dashLine finds the line of the dash that starts the item whose first key
// is on line at: the last line after prev, up to at, with a dash in column
// dash. It is at itself when no such line is found.
func dashLine(lines []string, at, prev, dash int) int {
	for n := min(at, len(lines)); n > prev && n >= 1; n-- {
		l := lines[n-1]
		if len(l) > dash && l[dash] == '-' && strings.TrimLeft(l[:dash], " ") == "" &&
			(len(l) == dash+1 || l[dash+1] == ' ' || l[dash+1] == '\n') {
			return n
		}
	}
	return at
}

// cutItem returns the lines [from, to) (1-based) of an item whose dash is
// in column dash and whose keys start at column indent, as they stand and
// indented back. The dash goes, and the dash's line with it when nothing
// else is on it; a line made of the next item's dash alone is not the
// item's.
func cutItem(lines []string, from, to, dash, indent int) (region, text string) {
	to = min(to, len(lines)+1)
	var r, t strings.Builder
	for n := from; n < to; n++ {
		l := lines[n-1]
		r.WriteString(l)
		switch {
		case n == from && len(l) > dash && l[dash] == '-':
			rest := l[dash+1:]
			trimmed := strings.TrimLeft(rest, " ")
			if pad := len(rest) - len(trimmed); pad > indent-dash-1 {
				trimmed = rest[indent-dash-1:]
			}
			if strings.TrimSpace(trimmed) == "" {
				continue // the dash alone
			}
			l = trimmed
		case len(l)-len(strings.TrimLeft(l, " ")) >= indent:
			l = l[indent:]
		default:
			l = strings.TrimLeft(l, " ")
		}
		t.WriteString(l)
	}
	return r.String(), t.String()
}

// mappingValue returns the value of key in the mapping node m, nil when it
// has none.
func mappingValue(m *yamlv3.Node, key string) *yamlv3.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

// nodeIdentity reads an item's identity fields without decoding the rest.
func nodeIdentity(item *yamlv3.Node) Identity {
	scalar := func(n *yamlv3.Node) string {
		if n == nil || n.Kind != yamlv3.ScalarNode {
			return ""
		}
		return n.Value
	}
	id := Identity{APIVersion: scalar(mappingValue(item, "apiVersion")), Kind: scalar(mappingValue(item, "kind"))}
	if md := mappingValue(item, "metadata"); md != nil && md.Kind == yamlv3.MappingNode {
		id.Name, id.Namespace = scalar(mappingValue(md, "name")), scalar(mappingValue(md, "namespace"))
	}
	return id
}
