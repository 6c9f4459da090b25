package model

import (
	"errors"
	"fmt"
	"maps"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	yamlv2 "go.yaml.in/yaml/v2"
	yamlv3 "go.yaml.in/yaml/v3"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kedit/kedit/diff"
)

// RenderYAML renders obj as the draft text the user edits: YAML as
// `kubectl get -o yaml` prints it, without metadata.managedFields, which
// is bookkeeping nobody edits by hand (kubectl edit hides it too). A
// Secret's values are decoded (RenderSecretYAML).
func RenderYAML(obj *unstructured.Unstructured) (string, error) {
	if obj == nil {
		return "", nil
	}
	c := obj.DeepCopy()
	diff.DropManagedFields(c)
	if diff.IsSecret(c) {
		return RenderSecretYAML(c)
	}
	out, err := diff.MarshalYAML(c.Object)
	if err != nil {
		return "", fmt.Errorf("rendering %s: %w", obj.GetName(), err)
	}
	return string(out), nil
}

// lineRE finds the line number in yaml.v3's errors ("yaml: line 3: ...").
var lineRE = regexp.MustCompile(`line (\d+)`)

// parseDraft reads the draft's text into an object, or explains with a
// *DraftError why it cannot. Conflict blocks left from a merge are refused
// by diff.ParseYAML with the line and field. A Secret's values are read
// decoded and encoded into the object (encodeSecret).
func parseDraft(text string) (*unstructured.Unstructured, error) {
	if de := emptyDraft(text); de != nil {
		return nil, de
	}
	if de := rawCharacter(text); de != nil {
		return nil, de
	}
	obj, err := diff.ParseYAML([]byte(text))
	if err == nil {
		if de := keyProblem(text); de != nil {
			return nil, de
		}
		if diff.IsSecret(obj) {
			return encodeSecret(text, obj)
		}
		return obj, nil
	}
	var me *diff.MarkerError
	if errors.As(err, &me) {
		return nil, &DraftError{Line: me.Line, Field: me.Path, Msg: "unresolved conflict block", Err: err}
	}
	if errors.Is(err, diff.ErrNotObject) {
		return nil, &DraftError{Msg: err.Error(), Err: err}
	}
	line, msg := locateYAMLError(text)
	if msg == "" {
		msg = yamlMessage(err)
	}
	return nil, &DraftError{Line: line, Msg: msg, Err: err}
}

// emptyDraft refuses a draft with nothing in it, in any format.
func emptyDraft(text string) *DraftError {
	if strings.TrimSpace(text) == "" {
		return &DraftError{Msg: "the draft is empty; discard it to cancel the edit"}
	}
	return nil
}

// controlNames are the names of the control characters a draft meets most.
var controlNames = map[rune]string{0: "NUL", 0x07: "BEL", 0x08: "backspace", 0x1b: "ESC", 0x7f: "DEL", 0x85: "NEL", 0x9b: "CSI"}

// rawCharacter finds the first thing in a draft that YAML cannot hold as
// it is: a byte that is not UTF-8, a carriage return (the line ends
// Windows editors write), or a control character. The parser would refuse
// most of them without naming the line, and would read a CRLF file as LF,
// changing nothing the user can see but the bytes; kedit says which line
// and what to do, and keeps the text. (Its own rendering writes such
// characters as escapes in double-quoted strings, so they are only ever
// typed or pasted.) A bidirectional control is valid YAML and is taken.
func rawCharacter(text string) *DraftError {
	line := 1
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		switch {
		case r == '\n':
			line++
		case r == utf8.RuneError && size == 1:
			return &DraftError{Line: line, Msg: fmt.Sprintf("a byte that is not UTF-8 (0x%02X): a draft is UTF-8 text; binary data goes base64-encoded in a Secret's or ConfigMap's binaryData", text[i])}
		case r == '\r':
			return &DraftError{Line: line, Msg: "a carriage return (CRLF line ends, as Windows editors write): kedit reads LF line ends only, so that no line end of a value changes unseen; save the file with LF line ends"}
		case r != '\t' && (r < 0x20 || (r >= 0x7f && r <= 0x9f)):
			name := controlNames[r]
			if name == "" && r >= 0x80 {
				name = "a C1 control"
			} else if name == "" {
				name = "a control character"
			}
			return &DraftError{Line: line, Msg: fmt.Sprintf("a raw control character U+%04X (%s), which YAML cannot hold: write it as an escape in a double-quoted string", r, name)}
		}
		i += size
	}
	return nil
}

// locateYAMLError finds the line of text's syntax error. yaml.v3, which
// diff.ParseYAML reads with, names the line where the enclosing structure
// began; yaml.v2 names the line where the parser found the problem, which
// is the one to fix, but like libyaml counts it from 0 for parser errors
// (those that "did not find expected" something). An unclosed quote is
// found at the end of the text, so there the enclosing line is the one to
// fix.
func locateYAMLError(text string) (int, string) {
	var v any
	err := yamlv2.Unmarshal([]byte(text), &v)
	if err == nil {
		return 0, ""
	}
	msg := yamlMessage(err)
	m := lineRE.FindStringSubmatch(err.Error())
	if m == nil {
		return 0, msg
	}
	line, _ := strconv.Atoi(m[1])
	switch {
	case strings.Contains(msg, "did not find expected") && !strings.Contains(msg, "expected ','"):
		// A block's problem is said on the line before the one the
		// parser stopped on; a flow's ("expected ',' or ']'") on the line
		// that opened it, which is where kubectl says it too.
		line++
	case strings.Contains(msg, "unexpected end of stream"):
		var n yamlv3.Node
		if err3 := yamlv3.Unmarshal([]byte(text), &n); err3 != nil {
			if m3 := lineRE.FindStringSubmatch(err3.Error()); m3 != nil {
				line, _ = strconv.Atoi(m3[1])
			}
		}
	}
	lines := strings.Split(text, "\n")
	if line >= 1 && line <= len(lines) {
		l := lines[line-1]
		if strings.Contains(l[:len(l)-len(strings.TrimLeft(l, " \t"))], "\t") {
			msg += " (the line is indented with a tab; YAML indents with spaces)"
		}
	}
	return line, msg
}

// yaml11Bools are the plain keys the YAML decoder behind the Kubernetes
// libraries (YAML 1.1, as kubectl's) reads as booleans, with the value
// each is read as, but true and false themselves, whose text is kept.
var yaml11Bools = map[string]bool{
	"y": true, "Y": true, "yes": true, "Yes": true, "YES": true, "on": true, "On": true, "ON": true, "True": true, "TRUE": true,
	"n": false, "N": false, "no": false, "No": false, "NO": false, "off": false, "Off": false, "OFF": false, "False": false, "FALSE": false,
}

// keyProblem finds a key the YAML decoder would silently change, so that
// a value would be lost or stored under another key without the user
// knowing: a key given twice in one map (the decoder keeps the last), or
// a plain key it reads as a boolean (y: becomes "true", off: "false").
func keyProblem(text string) *DraftError {
	var doc yamlv3.Node
	if yamlv3.Unmarshal([]byte(text), &doc) != nil {
		return nil
	}
	var found *DraftError
	var walk func(n *yamlv3.Node, path string)
	walk = func(n *yamlv3.Node, path string) {
		if found != nil {
			return
		}
		switch n.Kind {
		case yamlv3.DocumentNode:
			for _, c := range n.Content {
				walk(c, path)
			}
		case yamlv3.SequenceNode:
			for i, c := range n.Content {
				walk(c, path+"["+strconv.Itoa(i)+"]")
			}
		case yamlv3.MappingNode:
			seen := map[string]int{}
			for i := 0; i+1 < len(n.Content); i += 2 {
				k := n.Content[i]
				if first, ok := seen[k.Value]; ok && k.Kind == yamlv3.ScalarNode {
					found = &DraftError{Line: k.Line, Field: path + "." + k.Value, Msg: fmt.Sprintf("key %q is already defined on line %d", k.Value, first)}
					return
				}
				if b, ok := yaml11Bools[k.Value]; ok && k.Kind == yamlv3.ScalarNode && k.Style == 0 {
					found = &DraftError{Line: k.Line, Field: path + "." + k.Value, Msg: fmt.Sprintf(
						"key %s is read by YAML as the boolean %t, and would be stored as %q; write it quoted (%q) to keep it as it is", k.Value, b, strconv.FormatBool(b), k.Value)}
					return
				}
				seen[k.Value] = k.Line
				walk(n.Content[i+1], path+"."+k.Value)
			}
		}
	}
	walk(&doc, "")
	return found
}

// checkIdentity refuses a draft that is not base's object (diff's rule of
// the same object), naming the field and its line in text.
func checkIdentity(text string, base, draft *unstructured.Unstructured) error {
	if draft.GetNamespace() == "" && base.GetNamespace() != "" {
		// A namespace left out of the draft means the session's.
		draft = withNamespace(draft, base.GetNamespace())
	}
	var ie *diff.IdentityError
	if !errors.As(diff.SameObject(base, draft, "mine"), &ie) {
		return nil
	}
	return &DraftError{
		Line:  lineOf(text, strings.Split(ie.Field, ".")...),
		Field: ie.Field,
		Msg:   fmt.Sprintf("is %q, but this session edits %q; kedit does not rename or move objects", ie.Got, ie.Base),
	}
}

// withNamespace is obj with its namespace set to ns, sharing everything
// but the top map and metadata with obj.
func withNamespace(obj *unstructured.Unstructured, ns string) *unstructured.Unstructured {
	top := maps.Clone(obj.Object)
	md, _ := top["metadata"].(map[string]any)
	md = maps.Clone(md)
	if md == nil {
		md = map[string]any{}
	}
	md["namespace"] = ns
	top["metadata"] = md
	return &unstructured.Unstructured{Object: top}
}

// lineOf returns the 1-based line of the key at path in text, or 0.
func lineOf(text string, path ...string) int {
	var doc yamlv3.Node
	if yamlv3.Unmarshal([]byte(text), &doc) != nil || len(doc.Content) == 0 {
		return 0
	}
	n := doc.Content[0]
	line := 0
	for _, key := range path {
		if n.Kind != yamlv3.MappingNode {
			return 0
		}
		var next *yamlv3.Node
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == key {
				line, next = n.Content[i].Line, n.Content[i+1]
				break
			}
		}
		if next == nil {
			return 0
		}
		n = next
	}
	return line
}

// yamlMessage strips the wrappers ("invalid YAML: yaml: line 3: ") from a
// parser error so that the DraftError states the line once.
func yamlMessage(err error) string {
	msg := err.Error()
	if i := strings.LastIndex(msg, "yaml: "); i >= 0 {
		msg = msg[i+len("yaml: "):]
	}
	if m := lineRE.FindStringIndex(msg); m != nil && m[0] == 0 {
		msg = strings.TrimLeft(msg[m[1]:], ": ")
	}
	return msg
}
