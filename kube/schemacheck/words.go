package schemacheck

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// The diagnostics in the schema's terms: the field's own name, then why.

// errorText says e, a refusal of the schema's validation, for its line;
// value is the value at e's field in the object checked, and st the
// schema there (nil when the path is not in it).
func errorText(e *field.Error, value any, found bool, st *structuralschema.Structural) string {
	name := lastName(e.Field)
	switch e.Type {
	case field.ErrorTypeRequired:
		return "a required field is missing: " + name
	case field.ErrorTypeNotSupported:
		return fmt.Sprintf("%s: %s is not one of %s", name, valueWords(e.BadValue), strings.Join(supported(e.Detail), ", "))
	case field.ErrorTypeTypeInvalid:
		if st != nil && st.XIntOrString && found {
			return fmt.Sprintf("%s: %s is %s, an integer or a string is expected", name, valueWords(value), kindWords(value))
		}
		if m := mustBeType.FindStringSubmatch(e.Detail); m != nil && found {
			if t, ok := formatTypes[m[1]]; ok {
				m[1] = t
			}
			if !jsonTypes[m[1]] {
				return fmt.Sprintf("%s: %s is not a valid %s", name, valueWords(value), m[1])
			}
			return fmt.Sprintf("%s: %s is %s, %s is expected", name, valueWords(value), kindWords(value), article(m[1]))
		}
	case field.ErrorTypeDuplicate:
		return fmt.Sprintf("%s: %s is given twice in a list whose items it names", name, valueWords(e.BadValue))
	case field.ErrorTypeInvalid:
		detail := e.Detail
		if _, after, ok := strings.Cut(detail, " in body "); ok {
			detail = after
		}
		// A rule of an object or a list names no value (OmitValueType):
		// the detail says it all.
		if _, omitted := e.BadValue.(field.OmitValueType); !omitted && e.BadValue != nil && e.BadValue != "" {
			return fmt.Sprintf("%s: %s %s", name, valueWords(e.BadValue), detail)
		}
		if name == "" {
			return detail
		}
		return name + ": " + detail
	}
	if name == "" {
		return e.ErrorBody()
	}
	return name + ": " + e.ErrorBody()
}

// jsonTypes are the types of a schema; a "must be of type" naming
// another is a format (uuid, date-time ...).
// formatTypes are the numeric formats a "must be of type" may name, as
// the types they are of.
var formatTypes = map[string]string{"int32": "integer", "int64": "integer", "float": "number", "double": "number"}

var jsonTypes = map[string]bool{"string": true, "integer": true, "number": true, "boolean": true, "object": true, "array": true, "null": true}

var mustBeType = regexp.MustCompile(`must be of type ([a-z]+)`)

// supported are the values an enum refusal lists, unquoted.
func supported(detail string) []string {
	_, list, ok := strings.Cut(detail, "supported values: ")
	if !ok {
		return []string{detail}
	}
	var out []string
	for _, v := range strings.Split(list, ", ") {
		out = append(out, strings.Trim(v, `"`))
	}
	return out
}

// valueWords quotes a string as YAML would show it, and writes anything
// else as it is.
func valueWords(v any) string {
	switch v := v.(type) {
	case string:
		if v == "" {
			return `""`
		}
		return fmt.Sprintf("%q", v)
	case nil:
		return "null"
	case map[string]any, []any:
		b, err := json.Marshal(v)
		if err != nil || len(b) > 40 {
			return kindWords(v)
		}
		return string(b)
	}
	return fmt.Sprint(v)
}

// kindWords is what kind of value v is, with its article.
func kindWords(v any) string {
	switch v.(type) {
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case int64, int, int32:
		return "an integer"
	case float64, float32:
		return "a number"
	case map[string]any:
		return "an object"
	case []any:
		return "a list"
	case nil:
		return "null"
	}
	return "a value"
}

// article puts "a" or "an" before a schema type's name.
func article(t string) string {
	switch t {
	case "integer", "object", "array":
		if t == "array" {
			return "a list"
		}
		return "an " + t
	}
	return "a " + t
}

// lastName is the last field named in path: name of
// spec.containers[0].name, containers of spec.containers[0].
func lastName(path string) string {
	if i := strings.LastIndex(path, "."); i >= 0 {
		path = path[i+1:]
	}
	if i := strings.Index(path, "["); i > 0 {
		path = path[:i]
	}
	return path
}

// unknownText says that the field at path is not in the schema, with the
// known field closest to it when one is close.
func (s *Schema) unknownText(path string) string {
	name := lastName(path)
	parent := strings.TrimSuffix(strings.TrimSuffix(path, name), ".")
	if near := closest(name, s.fieldsAt(parent)); near != "" {
		return fmt.Sprintf("%s: unknown field, did you mean %s?", name, near)
	}
	return name + ": unknown field"
}

// fieldsAt are the names of the fields the schema knows at path.
func (s *Schema) fieldsAt(path string) []string {
	st := s.schemaAt(path)
	if st == nil {
		return nil
	}
	return propertyNames(st)
}

// schemaAt is the schema of the field at path; nil where it has none.
func (s *Schema) schemaAt(path string) *structuralschema.Structural {
	st := s.structural
	for _, seg := range splitPath(path) {
		if st == nil {
			return nil
		}
		switch {
		case seg == "[]" && st.Items != nil:
			st = st.Items
		case seg == "[]" && st.AdditionalProperties != nil:
			st = st.AdditionalProperties.Structural
		case st.Properties != nil:
			p, ok := st.Properties[seg]
			if !ok {
				return nil
			}
			st = &p
		case st.AdditionalProperties != nil && st.AdditionalProperties.Structural != nil:
			st = st.AdditionalProperties.Structural
		default:
			return nil
		}
	}
	return st
}

// valueAt is the value at path in obj.
func valueAt(obj any, path string) (any, bool) {
	for path != "" {
		switch {
		case path[0] == '.':
			path = path[1:]
		case path[0] == '[':
			end := strings.IndexByte(path, ']')
			if end < 0 {
				return nil, false
			}
			key := path[1:end]
			path = path[end+1:]
			switch o := obj.(type) {
			case []any:
				i, err := strconv.Atoi(key)
				if err != nil || i < 0 || i >= len(o) {
					return nil, false
				}
				obj = o[i]
			case map[string]any:
				v, ok := o[key]
				if !ok {
					return nil, false
				}
				obj = v
			default:
				return nil, false
			}
		default:
			end := strings.IndexAny(path, ".[")
			if end < 0 {
				end = len(path)
			}
			o, ok := obj.(map[string]any)
			if !ok {
				return nil, false
			}
			v, ok := o[path[:end]]
			if !ok {
				return nil, false
			}
			obj, path = v, path[end:]
		}
	}
	return obj, true
}

func propertyNames(st *structuralschema.Structural) []string {
	names := make([]string, 0, len(st.Properties))
	for n := range st.Properties {
		names = append(names, n)
	}
	return names
}

// splitPath splits a field path into field names and "[]" for each list
// index or map key.
func splitPath(path string) []string {
	var out []string
	for path != "" {
		switch {
		case path[0] == '.':
			path = path[1:]
		case path[0] == '[':
			end := strings.IndexByte(path, ']')
			if end < 0 {
				return out
			}
			out = append(out, "[]")
			path = path[end+1:]
		default:
			end := strings.IndexAny(path, ".[")
			if end < 0 {
				end = len(path)
			}
			out = append(out, path[:end])
			path = path[end:]
		}
	}
	return out
}

// closest is the name among names nearest to typed, when it is near
// enough to be a typo of it: within a third of its length in edits, or
// the same but for case.
func closest(typed string, names []string) string {
	best, bestD := "", len(typed)/3+1
	for _, n := range names {
		if strings.EqualFold(n, typed) {
			return n
		}
		if d := distance(strings.ToLower(typed), strings.ToLower(n)); d < bestD || (d == bestD && best != "" && n < best) {
			best, bestD = n, d
		}
	}
	return best
}

// distance is the edit distance of a and b, a swap of two neighbours
// counting as one edit (optimal string alignment): mdoe is one from mode.
func distance(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}
