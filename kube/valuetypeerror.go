package kube

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
)

// ValueTypeError says that the server refused a value because the field
// wants another JSON type than the one sent: PATH=VALUE sends a string,
// and /spec/replicas wants an integer, which PATH:=JSON sends.
type ValueTypeError struct {
	Target *Target
	Path   string
	// Want is the type the field wants, in words: "an integer".
	Want string
	// Value is the JSON value sent.
	Value json.RawMessage
	// Instead is the assignment to write, when the value was given as a
	// string (PATH=VALUE): PATH:=VALUE, or PATH:=JSON when VALUE is no
	// JSON.
	Instead string
}

func (e *ValueTypeError) Error() string {
	var s string
	if e.Instead == "" || json.Unmarshal(e.Value, &s) != nil {
		return fmt.Sprintf("cannot set %s on %s: it wants %s, not %s", e.Path, e.Target, e.Want, e.Value)
	}
	return fmt.Sprintf("cannot set %s on %s: it wants %s, and %s=%s sets the string %s; write %s",
		e.Path, e.Target, e.Want, e.Path, s, strconv.Quote(s), e.Instead)
}

// The two ways the API server says a value has the wrong type: a built-in
// type's decoder ("json: cannot unmarshal string into Go struct field
// DeploymentSpec.spec.replicas of type int32"), and a custom resource's
// schema ("spec.replicas in body must be of type integer: \"string\"").
var (
	goTypeRE     = regexp.MustCompile(`cannot unmarshal (\w+) into Go struct field \w+\.([\w.]+) of type ([\w.\[\]*]+)`)
	schemaTypeRE = regexp.MustCompile(`([\w.\[\]]+) in body must be of type (\w+)`)
)

// valueTypeError turns the server's refusal of a value of the wrong type
// into a ValueTypeError naming the assignment and the type it wants; nil
// when err is no such refusal. The server's own message quotes the whole
// object, which says nothing more.
func valueTypeError(t *Target, assignments []Assignment, err error) error {
	if !apierrors.IsInvalid(err) && !apierrors.IsBadRequest(err) {
		return nil
	}
	msg := err.Error()
	var field, want string
	if m := goTypeRE.FindStringSubmatch(msg); m != nil {
		field, want = m[2], typeInWords(m[3])
	} else if m := schemaTypeRE.FindStringSubmatch(msg); m != nil {
		field, want = m[1], typeInWords(m[2])
	} else {
		return nil
	}
	for _, a := range assignments {
		if dotted(a.Path) != stripIndexes(field) {
			continue
		}
		te := &ValueTypeError{Target: t, Path: a.Path, Want: want, Value: a.Value}
		var s string
		if !a.JSON && json.Unmarshal(a.Value, &s) == nil {
			// PATH=VALUE: the same text as JSON is most likely what was meant.
			if json.Valid([]byte(s)) {
				te.Instead = a.Path + ":=" + s
			} else {
				te.Instead = a.Path + ":=JSON"
			}
		}
		return te
	}
	return nil
}

// typeInWords names a Go or OpenAPI type for people.
func typeInWords(typ string) string {
	typ = strings.TrimLeft(typ, "*")
	switch {
	case strings.HasPrefix(typ, "int"), strings.HasPrefix(typ, "uint"), typ == "integer":
		return "an integer"
	case strings.HasPrefix(typ, "float"), typ == "number":
		return "a number"
	case typ == "bool", typ == "boolean":
		return "a boolean (true or false)"
	case typ == "string":
		return "a string"
	case strings.HasPrefix(typ, "[]"), typ == "array":
		return "a list"
	case strings.HasPrefix(typ, "map"), typ == "object":
		return "an object"
	}
	return "a " + typ
}

// dotted turns a JSON pointer into the server's dotted field path without
// list indexes: /spec/template/spec/containers/0/image is
// spec.template.spec.containers.image.
func dotted(p string) string {
	var parts []string
	for _, tok := range strings.Split(p[1:], "/") {
		if _, err := strconv.Atoi(tok); err == nil {
			continue
		}
		parts = append(parts, strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~"))
	}
	return strings.Join(parts, ".")
}

// stripIndexes drops the [0] of a field path as the server writes it.
func stripIndexes(field string) string {
	for {
		i := strings.IndexByte(field, '[')
		if i < 0 {
			return field
		}
		j := strings.IndexByte(field[i:], ']')
		if j < 0 {
			return field
		}
		field = field[:i] + field[i+j+1:]
	}
}
