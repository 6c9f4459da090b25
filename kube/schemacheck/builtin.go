package schemacheck

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/runtime"
	kjson "k8s.io/apimachinery/pkg/runtime/serializer/json"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/client-go/kubernetes/scheme"
)

// A built-in kind is decoded strictly into its Go type, as the server
// decodes it; what the decode refuses is read from its errors.

// builtinUnique are the keyed lists of built-in kinds whose duplicate
// keys the server refuses. It checks them in code, not by the schema's
// x-kubernetes-list-type, and takes duplicates in the others (two env
// entries of one name are kept, the last one winning), so only these
// are flagged.
var builtinUnique = []string{".containers", ".initContainers", ".ephemeralContainers", ".volumes"}

// builtinUniqueOf are such lists of one kind, by their path.
var builtinUniqueOf = map[string][]string{"Service": {"spec.ports"}}

// builtinDuplicates keeps the duplicate keys of errs that the server
// refuses in a built-in kind.
func builtinDuplicates(kind string, errs field.ErrorList) field.ErrorList {
	var out field.ErrorList
	for _, e := range errs {
		if e.Type != field.ErrorTypeDuplicate {
			continue
		}
		list := e.Field
		if i := strings.LastIndex(list, "["); i > 0 {
			list = list[:i]
		}
		if slices.ContainsFunc(builtinUnique, func(u string) bool { return strings.HasSuffix(list, u) }) ||
			slices.Contains(builtinUniqueOf[kind], list) {
			out = append(out, e)
		}
	}
	return out
}

// decoded is one failure of the strict decode.
type decoded struct {
	kind decodedKind
	path string
	text string
}

type decodedKind int

const (
	unknownField decodedKind = iota
	duplicateField
	wrongType
)

// decode decodes raw strictly into the kind's Go type and returns it
// (nil when it does not decode) and what the server would refuse in it.
func (s *Schema) decode(raw []byte) (runtime.Object, []decoded) {
	gvk := s.gvk
	typed, _, err := strictDecoder.Decode(raw, &gvk, nil)
	if err == nil {
		return typed, nil
	}
	var out []decoded
	if strict, ok := runtime.AsStrictDecodingError(err); ok {
		for _, e := range strict.Errors() {
			msg := e.Error()
			switch {
			case strings.HasPrefix(msg, "unknown field "):
				out = append(out, decoded{kind: unknownField, path: unquote(strings.TrimPrefix(msg, "unknown field "))})
			case strings.HasPrefix(msg, "duplicate field "):
				out = append(out, decoded{kind: duplicateField, path: unquote(strings.TrimPrefix(msg, "duplicate field "))})
			}
		}
		return typed, out
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Field != "" {
		out = append(out, decoded{kind: wrongType, path: te.Field, text: typeWords(te.Type.String())})
	}
	return nil, out
}

// dropZero removes the fields of x that are null, "" or 0, as a Go type
// cannot tell them from a field left out.
func dropZero(x any) {
	switch x := x.(type) {
	case map[string]any:
		for k, v := range x {
			if v == nil || v == "" || v == int64(0) {
				delete(x, k)
				continue
			}
			dropZero(v)
		}
	case []any:
		for _, v := range x {
			dropZero(v)
		}
	}
}

// typeErrorUnder reports whether errs has a wrong type at path or inside
// it: the schema's word on it, more precise than the decode's, which
// names no list's index (containers.image).
func typeErrorUnder(errs field.ErrorList, path string) bool {
	for _, e := range errs {
		f := withoutIndexes(e.Field)
		if e.Type == field.ErrorTypeTypeInvalid && (f == path || strings.HasPrefix(f, path+".")) {
			return true
		}
	}
	return false
}

// withoutIndexes is path without its lists' indexes and maps' keys in
// brackets: spec.containers.image of spec.containers[0].image.
func withoutIndexes(path string) string {
	var b strings.Builder
	depth := 0
	for _, r := range path {
		switch {
		case r == '[':
			depth++
		case r == ']':
			depth--
		case depth == 0:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// unquote takes the quotes off a strict decoding error's field.
func unquote(s string) string {
	var out string
	if err := json.Unmarshal([]byte(s), &out); err != nil {
		return strings.Trim(s, `"`)
	}
	return out
}

// typeWords says a Go type as the schema would.
func typeWords(t string) string {
	switch {
	case strings.HasPrefix(t, "int"), strings.HasPrefix(t, "uint"):
		return "an integer"
	case strings.HasPrefix(t, "float"):
		return "a number"
	case t == "string":
		return "a string"
	case t == "bool":
		return "a boolean"
	case strings.HasPrefix(t, "[]"):
		return "a list"
	case strings.HasPrefix(t, "map["):
		return "a map"
	}
	return "an object"
}

// strictDecoder decodes a built-in kind as the API server does with
// fieldValidation=Strict: into its Go type, reporting unknown and
// duplicate fields.
var strictDecoder = kjson.NewSerializerWithOptions(kjson.DefaultMetaFactory, scheme.Scheme, scheme.Scheme,
	kjson.SerializerOptions{Strict: true})
