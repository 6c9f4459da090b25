// Package schemacheck checks a draft against the server's schema of its
// kind the way the API server does, with the server's own libraries, and
// says where each refusal is: a Diagnostic names the line, the field's
// path and why.
//
// A custom resource goes through what the server runs for it: the
// metadata's strict read and the pruning that finds unknown fields
// (apiextensions-apiserver's objectmeta and pruning), the schema's
// validation (apiextensions-apiserver's validation on kube-openapi's
// validator), its keyed lists and sets (listtype), its embedded resources,
// and its x-kubernetes-validations rules (CEL). A built-in kind is decoded
// strictly into its Go type, as the server decodes it, for unknown and
// duplicate fields and wrong types, and checked against its published
// schema for what that schema states (enums, required fields, formats).
// What the server decides by code kedit does not have (a name's syntax, a
// value's range that no schema states, admission) is not checked: the
// check never says a draft is refused where the server might take it.
package schemacheck

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	apiextensionsinternal "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	"k8s.io/apimachinery/pkg/runtime/schema"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	"k8s.io/client-go/kubernetes/scheme"
)

// Schema is the server's schema of one kind, ready to check objects of it.
// It is read-only once made: Check may run on many goroutines at once.
type Schema struct {
	gvk        schema.GroupVersionKind
	structural *structuralschema.Structural
	validator  validation.SchemaValidator
	// cel is the validator of the x-kubernetes-validations rules; nil when
	// the schema has none, or for a built-in kind, whose rules are the
	// server's code.
	cel *cel.Validator
	// builtin: the kind is one of client-go's, decoded strictly into its
	// Go type as the server decodes it.
	builtin bool
	// root is the kind's schema as the document has it, its references
	// inlined: what JSONSchema writes.
	root map[string]any
	// statusSubresource: the kind's status is written through its own
	// path (the document serves .../{name}/status for it), so an update
	// of the object keeps the status the server holds and validates none
	// of the draft's.
	statusSubresource bool
}

// GVK is the kind the schema is of.
func (s *Schema) GVK() schema.GroupVersionKind { return s.gvk }

// New makes the schema of gvk from doc, the server's OpenAPI v3 document
// of gvk's group-version (JSON, as /openapi/v3/apis/GROUP/VERSION serves
// it): the kind's schema with every reference to another of the
// document's schemas put in its place, as the server's own structural
// schema has it.
func New(doc []byte, gvk schema.GroupVersionKind) (*Schema, error) {
	// The document of a group-version holds every kind of it (core/v1's is
	// megabytes): each schema is read only when the kind's refers to it,
	// and each path only when it may be a status subresource's.
	var d struct {
		Components struct {
			Schemas map[string]json.RawMessage `json:"schemas"`
		} `json:"components"`
		Paths map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(doc, &d); err != nil {
		return nil, fmt.Errorf("parsing the OpenAPI v3 document of %s: %w", gvk.GroupVersion(), err)
	}
	name := kindSchemaName(d.Components.Schemas, gvk)
	if name == "" {
		return nil, fmt.Errorf("the OpenAPI v3 document of %s has no schema of kind %s", gvk.GroupVersion(), gvk.Kind)
	}
	in := &inliner{raw: d.Components.Schemas, all: map[string]map[string]any{}, done: map[string]map[string]any{}, open: map[string]bool{}}
	root := in.ref(name)
	raw, err := json.Marshal(root)
	if err != nil {
		return nil, fmt.Errorf("the schema of %s: %w", gvk, err)
	}
	var v1 apiextensionsv1.JSONSchemaProps
	if err := json.Unmarshal(raw, &v1); err != nil {
		return nil, fmt.Errorf("the schema of %s: %w", gvk, err)
	}
	var props apiextensionsinternal.JSONSchemaProps
	if err := apiextensionsv1.Convert_v1_JSONSchemaProps_To_apiextensions_JSONSchemaProps(&v1, &props, nil); err != nil {
		return nil, fmt.Errorf("the schema of %s: %w", gvk, err)
	}
	structural, err := structuralschema.NewStructural(&props)
	if err != nil {
		return nil, fmt.Errorf("the schema of %s: %w", gvk, err)
	}
	validator, _, err := validation.NewSchemaValidator(&props)
	if err != nil {
		return nil, fmt.Errorf("the schema of %s: %w", gvk, err)
	}
	s := &Schema{gvk: gvk, structural: structural, validator: validator, builtin: scheme.Scheme.Recognizes(gvk), root: root,
		statusSubresource: hasStatusPath(d.Paths, gvk)}
	if s.builtin {
		dropZeroDefaults(structural)
	}
	if !s.builtin && hasRules(structural) {
		s.cel = cel.NewValidator(structural, true, celconfig.PerCallLimit)
	}
	return s, nil
}

// dropZeroDefaults takes out of s the defaults that are zero values ("",
// 0, false, empty): a built-in kind's schema publishes them for fields
// its Go type always holds, but the server's code takes such a value as
// the field left out (a container's name "" is refused as missing).
func dropZeroDefaults(s *structuralschema.Structural) {
	if s == nil {
		return
	}
	switch d := s.Default.Object.(type) {
	case string:
		if d == "" {
			s.Default.Object = nil
		}
	case int64:
		if d == 0 {
			s.Default.Object = nil
		}
	case float64:
		if d == 0 {
			s.Default.Object = nil
		}
	case bool:
		if !d {
			s.Default.Object = nil
		}
	case map[string]any:
		if len(d) == 0 {
			s.Default.Object = nil
		}
	case []any:
		if len(d) == 0 {
			s.Default.Object = nil
		}
	}
	for k, p := range s.Properties {
		dropZeroDefaults(&p)
		s.Properties[k] = p
	}
	dropZeroDefaults(s.Items)
	if s.AdditionalProperties != nil {
		dropZeroDefaults(s.AdditionalProperties.Structural)
	}
}

// kindSchemaName is the name of the schema of gvk among schemas: the one
// whose x-kubernetes-group-version-kind names it. Only the schemas that
// name the kind are read whole.
func kindSchemaName(schemas map[string]json.RawMessage, gvk schema.GroupVersionKind) string {
	kind, _ := json.Marshal(gvk.Kind)
	for name, raw := range schemas {
		if !bytes.Contains(raw, kind) {
			continue
		}
		var s struct {
			GVK []map[string]any `json:"x-kubernetes-group-version-kind"`
		}
		if json.Unmarshal(raw, &s) != nil {
			continue
		}
		for _, m := range s.GVK {
			if m["group"] == gvk.Group && m["version"] == gvk.Version && m["kind"] == gvk.Kind {
				return name
			}
		}
	}
	return ""
}

// hasStatusPath reports whether paths serve a status subresource of
// gvk: a path ending in /status whose update is of that kind.
func hasStatusPath(raw map[string]json.RawMessage, gvk schema.GroupVersionKind) bool {
	for p, rawOps := range raw {
		if !strings.HasSuffix(p, "/{name}/status") {
			continue
		}
		var ops map[string]any
		if json.Unmarshal(rawOps, &ops) != nil {
			continue
		}
		for _, verb := range []string{"put", "patch"} {
			op, _ := ops[verb].(map[string]any)
			m, _ := op["x-kubernetes-group-version-kind"].(map[string]any)
			if m != nil && m["group"] == gvk.Group && m["version"] == gvk.Version && m["kind"] == gvk.Kind {
				return true
			}
		}
	}
	return false
}

// hasRules reports whether s has an x-kubernetes-validations rule
// anywhere.
func hasRules(s *structuralschema.Structural) bool {
	if s == nil {
		return false
	}
	if len(s.XValidations) > 0 {
		return true
	}
	for _, p := range s.Properties {
		if hasRules(&p) {
			return true
		}
	}
	if s.Items != nil && hasRules(s.Items) {
		return true
	}
	return s.AdditionalProperties != nil && s.AdditionalProperties.Structural != nil && hasRules(s.AdditionalProperties.Structural)
}

// inliner puts each $ref of a document's schemas in its place.
type inliner struct {
	// raw are the document's schemas as it has them; all those read so
	// far.
	raw  map[string]json.RawMessage
	all  map[string]map[string]any
	done map[string]map[string]any
	// open are the schemas being inlined: a reference to one of them is a
	// cycle (a schema that contains itself, as JSONSchemaProps does).
	open map[string]bool
}

const refPrefix = "#/components/schemas/"

// ref is the schema name, its references inlined. A schema that contains
// itself is cut where it would repeat, and checks nothing from there on.
func (in *inliner) ref(name string) map[string]any {
	if s, ok := in.done[name]; ok {
		return s
	}
	if in.open[name] {
		return map[string]any{"x-kubernetes-preserve-unknown-fields": true}
	}
	s, ok := in.schema(name)
	if !ok {
		// A reference the document does not resolve: check nothing there.
		return map[string]any{"x-kubernetes-preserve-unknown-fields": true}
	}
	in.open[name] = true
	out := in.node(s)
	delete(in.open, name)
	in.done[name] = out
	return out
}

// schema is the document's schema name, read once.
func (in *inliner) schema(name string) (map[string]any, bool) {
	if s, ok := in.all[name]; ok {
		return s, true
	}
	raw, ok := in.raw[name]
	if !ok {
		return nil, false
	}
	var s map[string]any
	if err := json.Unmarshal(raw, &s); err != nil || s == nil {
		return nil, false
	}
	in.all[name] = s
	return s, true
}

// node returns s with its references inlined. An allOf of one schema,
// the form OpenAPI v3 gives a reference that has a description or a
// default of its own, becomes that schema with them.
func (in *inliner) node(s map[string]any) map[string]any {
	if r, ok := s["$ref"].(string); ok {
		return in.ref(strings.TrimPrefix(r, refPrefix))
	}
	out := make(map[string]any, len(s))
	if all, ok := s["allOf"].([]any); ok && len(all) == 1 {
		if one, ok := all[0].(map[string]any); ok {
			for k, v := range in.node(one) {
				out[k] = v
			}
		}
	}
	for k, v := range s {
		switch k {
		case "allOf":
			if len(out) > 0 {
				continue
			}
			out[k] = in.list(v)
		case "anyOf", "oneOf":
			out[k] = in.list(v)
		case "properties":
			props, _ := v.(map[string]any)
			p := make(map[string]any, len(props))
			for name, ps := range props {
				if m, ok := ps.(map[string]any); ok {
					p[name] = in.node(m)
				}
			}
			out[k] = p
		case "items", "not":
			if m, ok := v.(map[string]any); ok {
				out[k] = in.node(m)
			} else {
				out[k] = v
			}
		case "additionalProperties":
			if m, ok := v.(map[string]any); ok {
				out[k] = in.node(m)
			} else {
				out[k] = v
			}
		case "x-kubernetes-group-version-kind":
			// Said of the document's schema, not of the object's.
		default:
			if _, set := out[k]; !set || k == "description" || k == "default" {
				out[k] = v
			}
		}
	}
	return out
}

// list inlines each schema of an allOf, anyOf or oneOf.
func (in *inliner) list(v any) any {
	l, ok := v.([]any)
	if !ok {
		return v
	}
	out := make([]any, len(l))
	for i, e := range l {
		if m, ok := e.(map[string]any); ok {
			out[i] = in.node(m)
		} else {
			out[i] = e
		}
	}
	return out
}
