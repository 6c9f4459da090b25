package model

import (
	"errors"
	"fmt"
	"unicode/utf8"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kedit/kedit/diff"
)

// Format is the text a draft is written in, as `kubectl edit -o` takes it:
// YAML, the default, or JSON. It is the one rule for turning an object
// into the text the user edits and sees (Render, Marshal, MergedText) and
// that text back into an object (ParseDraft), for the session, the views
// and the draft store alike.
type Format string

// The formats of -o.
const (
	FormatYAML Format = "yaml"
	FormatJSON Format = "json"
)

// Formats lists the formats in the order help shows them.
var Formats = []Format{FormatYAML, FormatJSON}

// ParseFormat reads a format's name, as -o takes it; "" is YAML.
func ParseFormat(s string) (Format, error) {
	switch Format(s) {
	case "", FormatYAML:
		return FormatYAML, nil
	case FormatJSON:
		return FormatJSON, nil
	}
	return "", fmt.Errorf("unknown output format %q: use yaml or json", s)
}

// String names the format for people: "YAML", "JSON".
func (f Format) String() string {
	if f == FormatJSON {
		return "JSON"
	}
	return "YAML"
}

// Ext is the file name extension of a text in the format, for $EDITOR's
// file (so that the editor highlights it).
func (f Format) Ext() string {
	if f == FormatJSON {
		return ".json"
	}
	return ".yaml"
}

// SecretStaysYAML says why a Secret is edited as YAML whatever the format
// asked: its values are shown decoded, and a value that is not text is
// marked by a comment, which JSON cannot hold.
const SecretStaysYAML = "a Secret is edited as YAML: its values are shown decoded, marked by comments JSON cannot hold"

// For is the format ref's object is edited in: f, but YAML for a Secret
// (SecretStaysYAML).
func (f Format) For(ref ObjectRef) Format {
	if f == FormatJSON && !ref.IsSecret() {
		return FormatJSON
	}
	return FormatYAML
}

// Render renders obj as the draft text the user edits in the format:
// RenderYAML, or JSON as `kubectl get -o json` prints it, without
// metadata.managedFields. A Secret is always YAML.
func (f Format) Render(obj *unstructured.Unstructured) (string, error) {
	if f != FormatJSON || obj == nil || diff.IsSecret(obj) {
		return RenderYAML(obj)
	}
	c := obj.DeepCopy()
	diff.DropManagedFields(c)
	out, err := diff.MarshalJSON(c.Object)
	if err != nil {
		return "", fmt.Errorf("rendering %s: %w", obj.GetName(), err)
	}
	return string(out), nil
}

// RenderWhole renders obj whole (managedFields and status included, when
// obj has them) in the format, as the object view shows it with f.
func (f Format) RenderWhole(obj *unstructured.Unstructured) (string, error) {
	if diff.IsSecret(obj) {
		return RenderSecretYAML(obj)
	}
	out, err := f.Marshal(obj.Object)
	return string(out), err
}

// Marshal renders a value (an object's content, or one field's) in the
// format: diff.MarshalYAML or diff.MarshalJSON.
func (f Format) Marshal(v any) ([]byte, error) {
	if f == FormatJSON {
		return diff.MarshalJSON(v)
	}
	return diff.MarshalYAML(v)
}

// MergedText renders a rebase's merge in the format, with a conflict
// block for each open conflict, for the conflict view and the editors: a
// Secret's decoded and managedFields left out, as its draft text is.
func (f Format) MergedText(m *diff.ObjectMerge) (string, error) {
	m = m.WithoutManagedFields()
	if f != FormatJSON || diff.IsSecret(m.Merged) {
		return mergedYAML(m)
	}
	out, err := m.JSON()
	return string(out), err
}

// ParseDraft parses text as the session parses a draft in the format (one
// object, no conflict block left in, no key given twice), except for what
// needs the session: that it is still the session's object, which
// DraftEdited checks. It reads nothing but text, so the UI runs it in a
// command, off its goroutine, and hands the result to DraftEdited.
func (f Format) ParseDraft(text string) *ParsedDraft {
	obj, err := f.parse(text)
	return &ParsedDraft{text: text, format: f, obj: obj, err: err}
}

// parse reads a draft's text in the format into an object, or explains
// with a *DraftError why it cannot.
func (f Format) parse(text string) (*unstructured.Unstructured, error) {
	if f != FormatJSON {
		return parseDraft(text)
	}
	return parseJSONDraft(text)
}

// parseJSONDraft is parseDraft for JSON: every refusal names the line and,
// for the JSON itself, the column.
func parseJSONDraft(text string) (*unstructured.Unstructured, error) {
	if de := emptyDraft(text); de != nil {
		return nil, de
	}
	// The JSON decoder would read a byte that is not UTF-8 as U+FFFD,
	// changing the value unseen.
	if i := invalidUTF8(text); i >= 0 {
		return nil, &DraftError{Line: lineAt(text, i), Msg: fmt.Sprintf("a byte that is not UTF-8 (0x%02X): a draft is UTF-8 text; binary data goes base64-encoded in a Secret's or ConfigMap's binaryData", text[i])}
	}
	obj, err := diff.ParseJSON([]byte(text))
	if err == nil {
		return obj, nil
	}
	var me *diff.MarkerError
	var je *diff.JSONError
	var dk *diff.DuplicateKeyError
	switch {
	case errors.As(err, &me):
		return nil, &DraftError{Line: me.Line, Field: me.Path, Msg: "unresolved conflict block", Err: err}
	case errors.As(err, &je):
		return nil, &DraftError{Line: je.Line, Column: je.Column, Msg: je.Msg, Err: err}
	case errors.As(err, &dk):
		return nil, &DraftError{Line: dk.Line, Column: dk.Column, Field: dk.Path,
			Msg: fmt.Sprintf("key %q is already defined on line %d", lastField(dk.Path), dk.FirstLine), Err: err}
	}
	return nil, &DraftError{Msg: err.Error(), Err: err}
}

// invalidUTF8 is the offset of text's first byte that is not UTF-8, or -1.
func invalidUTF8(text string) int {
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		if r == utf8.RuneError && size == 1 {
			return i
		}
		i += size
	}
	return -1
}

// lineAt is the 1-based line of byte offset i in text.
func lineAt(text string, i int) int {
	line := 1
	for j := 0; j < i && j < len(text); j++ {
		if text[j] == '\n' {
			line++
		}
	}
	return line
}

// lastField is the last key of a field's path, ".data.a" -> "a".
func lastField(path string) string {
	for i := len(path) - 1; i >= 0; i-- {
		if path[i] == '.' {
			return path[i+1:]
		}
	}
	return path
}

// SetFormat makes f the format the session's texts are written in from
// now on (f.For the session's object: a Secret stays YAML): the draft
// text the editors open, the merged text, a resubmit's draft. kube/ sets
// it once, before Opened; recovering a stored draft sets its own.
func (s *Session) SetFormat(f Format) {
	f = f.For(s.ref)
	if f != s.format {
		s.format = f
		s.baseText.obj, s.baseText.text = nil, ""
	}
}

// Format returns the format the session's texts are written in.
func (s *Session) Format() Format { return s.format }
