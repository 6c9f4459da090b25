package diff

import (
	"encoding/base64"
	"fmt"
	"strings"

	yamlv3 "go.yaml.in/yaml/v3"
)

// SecretValueError says why a value of a decoded Secret cannot be read:
// the field and its line, never the value.
type SecretValueError struct {
	// Field is the value's field, e.g. "data.tls.key".
	Field string
	// Line is the 1-based line of the value.
	Line int
	// Msg says what is wrong.
	Msg string
}

// Error names the field, then says what is wrong.
func (e *SecretValueError) Error() string { return e.Field + ": " + e.Msg }

// SecretValues reads the values of data and stringData from text, a Secret
// written as RenderSecretYAML writes it, possibly edited: each value is the
// text it holds, a value marked with BinaryComment (or tagged !!binary) the
// bytes its base64 gives. hasData and hasStringData say whether the fields
// are there at all. The text must be valid YAML; a field that is not a map
// of values is a *SecretValueError.
func SecretValues(text []byte) (data, stringData map[string]string, hasData, hasStringData bool, err error) {
	var doc yamlv3.Node
	if err := yamlv3.Unmarshal(text, &doc); err != nil {
		return nil, nil, false, false, fmt.Errorf("invalid YAML: %w", err)
	}
	if len(doc.Content) != 1 || doc.Content[0].Kind != yamlv3.MappingNode {
		return nil, nil, false, false, ErrNotObject
	}
	root := doc.Content[0]
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		var into *map[string]string
		switch k.Value {
		case "data":
			into, hasData = &data, true
		case "stringData":
			into, hasStringData = &stringData, true
		default:
			continue
		}
		m, err := secretMap(k.Value, v)
		if err != nil {
			return nil, nil, false, false, err
		}
		*into = m
	}
	return data, stringData, hasData, hasStringData, nil
}

// secretMap reads one of data and stringData.
func secretMap(field string, n *yamlv3.Node) (map[string]string, error) {
	if n.Kind == yamlv3.AliasNode {
		n = n.Alias
	}
	out := map[string]string{}
	if n.Kind == yamlv3.ScalarNode && n.Tag == "!!null" {
		return out, nil // "data:" with nothing under it
	}
	if n.Kind != yamlv3.MappingNode {
		return nil, &SecretValueError{Field: field, Line: n.Line, Msg: "must be a map of keys to values"}
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		s, err := secretValue(k, v)
		if err != nil {
			return nil, &SecretValueError{Field: field + "." + k.Value, Line: v.Line, Msg: err.Error()}
		}
		out[k.Value] = s
	}
	return out, nil
}

// secretValue reads one value: its text, or the bytes of its base64 when
// the line marks it binary.
func secretValue(k, v *yamlv3.Node) (string, error) {
	if v.Kind == yamlv3.AliasNode {
		v = v.Alias
	}
	if v.Kind != yamlv3.ScalarNode {
		return "", fmt.Errorf("is a %s; every value of a Secret is text", nodeKind(v))
	}
	if !strings.Contains(v.LineComment+k.LineComment, strings.TrimPrefix(BinaryComment, "# ")) && v.Tag != "!!binary" {
		// Every value is text, whatever YAML would make of it: `port:
		// 5432` is the text 5432, `key:` the empty text.
		return v.Value, nil
	}
	raw, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(v.Value), ""))
	if err != nil {
		return "", fmt.Errorf("is marked %q but is not valid base64", BinaryComment)
	}
	return string(raw), nil
}

func nodeKind(n *yamlv3.Node) string {
	switch n.Kind {
	case yamlv3.MappingNode:
		return "map"
	case yamlv3.SequenceNode:
		return "list"
	}
	return "value"
}
