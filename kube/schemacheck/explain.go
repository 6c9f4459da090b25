package schemacheck

import (
	"encoding/json"
	"slices"
	"sort"
	"strings"

	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
)

// Field is what the schema says of one field, as kubectl explain says it:
// its path, its type, whether its parent requires it, its description,
// the values it may take (an enum, or a boolean's), and its own fields.
type Field struct {
	// Path names the field from the object's root: .spec.replicas; a
	// list's items are entered by the list's name, as kubectl explain
	// does (.spec.template.spec.containers.image).
	Path string
	// Type is the field's type as kubectl explain writes it: string,
	// integer, boolean, number, Object, []Object, []string,
	// map[string]string, int-or-string; Object for an embedded resource.
	Type     string
	Required bool
	// Description is the schema's, as it is (the server's text: escape it
	// before drawing it).
	Description string
	// Values are the values the field may take: an enum's, or true and
	// false; none for any other.
	Values []string
	// Fields are the field's own fields, sorted by name; none for a
	// scalar. AnyField: the field keeps fields the schema does not name
	// (x-kubernetes-preserve-unknown-fields).
	Fields   []Child
	AnyField bool
}

// Child is one field of an object: its name, type and whether the object
// requires it.
type Child struct {
	Name     string
	Type     string
	Required bool
}

// Explain says what the schema knows of the field at path, field names
// from the object's root (a list's items entered by the list's name, a
// map's values by any key); the root for an empty path. It reports false
// for a path the schema does not name.
func (s *Schema) Explain(path []string) (Field, bool) {
	node, required, ok := s.walk(path)
	if !ok {
		return Field{}, false
	}
	f := Field{
		Path:        "." + strings.Join(path, "."),
		Type:        typeName(node),
		Required:    required,
		Description: node.Description,
		Values:      values(node),
	}
	if len(path) == 0 {
		f.Path = s.gvk.Kind
	}
	obj := elem(node)
	f.AnyField = obj.XPreserveUnknownFields && len(obj.Properties) == 0 && obj.AdditionalProperties == nil
	f.Fields = children(obj)
	return f, true
}

// Fields are the fields of the object at path that the schema names,
// sorted by name, for completion; none for a path the schema does not name
// or a scalar.
func (s *Schema) Fields(path []string) []Child {
	node, _, ok := s.walk(path)
	if !ok {
		return nil
	}
	return children(elem(node))
}

// Values are the values the field at path may take: an enum's, or true
// and false for a boolean; none for any other field.
func (s *Schema) Values(path []string) []string {
	node, _, ok := s.walk(path)
	if !ok {
		return nil
	}
	return values(node)
}

// walk finds the schema of path, and whether its parent requires it.
func (s *Schema) walk(path []string) (*structuralschema.Structural, bool, bool) {
	node := s.structural
	required := false
	for _, name := range path {
		parent := elem(node)
		next, ok := parent.Properties[name]
		switch {
		case ok:
			node = &next
		case parent.AdditionalProperties != nil && parent.AdditionalProperties.Structural != nil:
			node = parent.AdditionalProperties.Structural
		default:
			return nil, false, false
		}
		required = parent.ValueValidation != nil && slices.Contains(parent.ValueValidation.Required, name)
	}
	return node, required, true
}

// elem is what a list holds, entered by the list's name; any other node
// as it is.
func elem(node *structuralschema.Structural) *structuralschema.Structural {
	for node.Type == "array" && node.Items != nil {
		node = node.Items
	}
	return node
}

func children(obj *structuralschema.Structural) []Child {
	var out []Child
	for name, p := range obj.Properties {
		required := obj.ValueValidation != nil && slices.Contains(obj.ValueValidation.Required, name)
		out = append(out, Child{Name: name, Type: typeName(&p), Required: required})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// typeName writes a schema's type as kubectl explain does.
func typeName(node *structuralschema.Structural) string {
	switch {
	case node.XIntOrString:
		return "int-or-string"
	case node.XEmbeddedResource:
		return "Object"
	}
	switch node.Type {
	case "array":
		if node.Items == nil {
			return "[]Object"
		}
		return "[]" + typeName(node.Items)
	case "object":
		if len(node.Properties) == 0 && node.AdditionalProperties != nil && node.AdditionalProperties.Structural != nil {
			return "map[string]" + typeName(node.AdditionalProperties.Structural)
		}
		return "Object"
	case "":
		return "Object"
	}
	return node.Type
}

// values are an enum's values, or a boolean's.
func values(node *structuralschema.Structural) []string {
	if node.Type == "boolean" {
		return []string{"true", "false"}
	}
	if node.ValueValidation == nil {
		return nil
	}
	var out []string
	for _, e := range node.ValueValidation.Enum {
		switch v := e.Object.(type) {
		case string:
			out = append(out, v)
		case nil:
		default:
			b, err := json.Marshal(v)
			if err == nil {
				out = append(out, string(b))
			}
		}
	}
	return out
}
