package schemacheck

import (
	"encoding/json"
	"fmt"
)

// JSONSchema is the kind's schema as a JSON Schema (draft-07) document,
// for an editor's YAML language server: the references inlined, the
// x-kubernetes-* keywords kept as extensions, and, where the server
// prunes or refuses an unknown field (an object with properties and
// neither additionalProperties nor x-kubernetes-preserve-unknown-fields),
// additionalProperties false, so that a mistyped field is refused. A
// nullable field takes null, as the server does. Where the kind's status
// is a subresource, the status keeps only what an update of the object
// still refuses there (unknownStatus).
func (s *Schema) JSONSchema() ([]byte, error) {
	// A copy: the inlined schemas are shared between the places that
	// refer to them, and the Schema is read-only.
	raw, err := json.Marshal(s.root)
	if err != nil {
		return nil, fmt.Errorf("the JSON Schema of %s: %w", s.gvk, err)
	}
	var root map[string]any
	if err := json.Unmarshal(raw, &root); err != nil {
		return nil, fmt.Errorf("the JSON Schema of %s: %w", s.gvk, err)
	}
	toJSONSchema(root)
	if props, _ := root["properties"].(map[string]any); s.statusSubresource && props != nil {
		if status, ok := props["status"].(map[string]any); ok {
			unknownStatus(status, s.builtin)
		}
	}
	root["$schema"] = "http://json-schema.org/draft-07/schema#"
	root["title"] = s.gvk.Kind + " (" + s.gvk.GroupVersion().String() + "), from the cluster's OpenAPI"
	return json.MarshalIndent(root, "", " ")
}

// toJSONSchema turns the OpenAPI schema n into a JSON Schema in place.
func toJSONSchema(n map[string]any) {
	for _, k := range []string{"items", "not", "additionalProperties"} {
		if m, ok := n[k].(map[string]any); ok {
			toJSONSchema(m)
		}
	}
	for _, k := range []string{"allOf", "anyOf", "oneOf"} {
		if l, ok := n[k].([]any); ok {
			for _, e := range l {
				if m, ok := e.(map[string]any); ok {
					toJSONSchema(m)
				}
			}
		}
	}
	props, _ := n["properties"].(map[string]any)
	for _, p := range props {
		if m, ok := p.(map[string]any); ok {
			toJSONSchema(m)
		}
	}
	preserve, _ := n["x-kubernetes-preserve-unknown-fields"].(bool)
	if _, set := n["additionalProperties"]; !set && props != nil && !preserve {
		n["additionalProperties"] = false
	}
	if nullable, _ := n["nullable"].(bool); nullable {
		if t, ok := n["type"].(string); ok {
			n["type"] = []any{t, "null"}
		}
	}
	if intOrString, _ := n["x-kubernetes-int-or-string"].(bool); intOrString {
		// Said in the OpenAPI as an anyOf or a type string of format
		// int-or-string: either is one of the two.
		delete(n, "type")
		delete(n, "format")
		if _, set := n["anyOf"]; !set {
			n["anyOf"] = []any{map[string]any{"type": "integer"}, map[string]any{"type": "string"}}
		}
	}
	if f, _ := n["format"].(string); f == "int-or-string" {
		delete(n, "type")
		delete(n, "format")
		n["anyOf"] = []any{map[string]any{"type": "integer"}, map[string]any{"type": "string"}}
	}
}

// Where a status written through its own subresource is loosened: what
// the server does not check of the draft's status, since an update of the
// object keeps the status it holds. Of a built-in kind the strict read
// into the Go type still refuses a value of the wrong type or format;
// of a custom kind nothing but an unknown field is refused.
var (
	statusUnchecked = []string{"enum", "pattern", "required", "minimum", "maximum", "exclusiveMinimum",
		"exclusiveMaximum", "minLength", "maxLength", "minItems", "maxItems", "uniqueItems", "multipleOf",
		"minProperties", "maxProperties", "x-kubernetes-validations"}
	customStatusUnchecked = []string{"type", "format", "anyOf", "allOf", "oneOf", "not"}
)

// unknownStatus loosens the JSON Schema n of a status written through
// its own subresource in place: unknown fields stay refused, as the
// server's strict read refuses them, and what it does not check goes.
func unknownStatus(n map[string]any, builtin bool) {
	for _, k := range statusUnchecked {
		delete(n, k)
	}
	if !builtin {
		for _, k := range customStatusUnchecked {
			delete(n, k)
		}
	}
	if m, ok := n["items"].(map[string]any); ok {
		unknownStatus(m, builtin)
	}
	if m, ok := n["additionalProperties"].(map[string]any); ok {
		unknownStatus(m, builtin)
	}
	props, _ := n["properties"].(map[string]any)
	for _, p := range props {
		if m, ok := p.(map[string]any); ok {
			unknownStatus(m, builtin)
		}
	}
	for _, k := range []string{"allOf", "anyOf", "oneOf"} {
		if l, ok := n[k].([]any); ok {
			for _, e := range l {
				if m, ok := e.(map[string]any); ok {
					unknownStatus(m, builtin)
				}
			}
		}
	}
}
