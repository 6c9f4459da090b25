// The conditional patch behind `kedit set`: one JSON Patch request whose
// test operations are its conditions. ("Set" alone, in kube and elsewhere,
// names a set of objects opened together.)

package kube

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
)

// Assignment sets the JSON value Value at the JSON pointer Path.
type Assignment struct {
	Path  string
	Value json.RawMessage
	// JSON is set when the value was given as JSON (PATH:=JSON), not as a
	// string (PATH=VALUE).
	JSON bool
}

// Condition must hold for a conditional patch to apply: the value at Path
// equals Value, or, with Absent, Path does not exist.
type Condition struct {
	Path   string
	Value  json.RawMessage
	Absent bool
}

// String writes the condition as it was given on the command line.
func (c Condition) String() string {
	if c.Absent {
		return "--if-absent " + c.Path
	}
	return "--if " + c.Path + "=" + displayValue(c.Value)
}

// ParseAssignment reads PATH=VALUE, where VALUE is a string, or PATH:=JSON,
// where JSON is any JSON value (a number, true, an object ...).
func ParseAssignment(arg string) (Assignment, error) {
	path, value, err := parsePathValue(arg)
	i := strings.IndexByte(arg, '=')
	return Assignment{Path: path, Value: value, JSON: i > 0 && arg[i-1] == ':'}, err
}

// ParseCondition reads the argument of --if, in ParseAssignment's forms.
func ParseCondition(arg string) (Condition, error) {
	path, value, err := parsePathValue(arg)
	return Condition{Path: path, Value: value}, err
}

// AbsentCondition is the condition of --if-absent PATH.
func AbsentCondition(path string) (Condition, error) {
	if err := validatePointer(path); err != nil {
		return Condition{}, err
	}
	return Condition{Path: path, Absent: true}, nil
}

func parsePathValue(arg string) (string, json.RawMessage, error) {
	i := strings.IndexByte(arg, '=')
	if i < 0 {
		return "", nil, fmt.Errorf("%q is not PATH=VALUE (or PATH:=JSON)", arg)
	}
	path, raw := arg[:i], arg[i+1:]
	var value json.RawMessage
	if p, ok := strings.CutSuffix(path, ":"); ok {
		path = p
		if !json.Valid([]byte(raw)) {
			return "", nil, fmt.Errorf("the value of %s is not valid JSON: %q (use PATH=VALUE for a string)", path, raw)
		}
		value = json.RawMessage(raw)
	} else {
		b, _ := json.Marshal(raw)
		value = b
	}
	if err := validatePointer(path); err != nil {
		return "", nil, err
	}
	return path, value, nil
}

// validatePointer checks a JSON pointer (RFC 6901): it starts with / and
// uses ~ only as ~0 or ~1.
func validatePointer(p string) error {
	if p == "" || p[0] != '/' || p == "/" {
		return fmt.Errorf("path %q is not a JSON pointer such as /data/foo", p)
	}
	for i := 0; i < len(p); i++ {
		if p[i] == '~' && (i+1 == len(p) || (p[i+1] != '0' && p[i+1] != '1')) {
			return fmt.Errorf("path %q: ~ must be written ~0, and a / inside a key ~1", p)
		}
	}
	return nil
}

// ConditionalPatch builds one JSON Patch: a test op for each condition,
// then an add op for each assignment. The API server applies a JSON Patch
// atomically, so either every condition holds and every value is set, or
// nothing changes.
func ConditionalPatch(assignments []Assignment, conditions []Condition) ([]byte, error) {
	if len(assignments) == 0 {
		return nil, errors.New("nothing to set: give at least one PATH=VALUE")
	}
	type op struct {
		Op    string          `json:"op"`
		Path  string          `json:"path"`
		Value json.RawMessage `json:"value"`
	}
	ops := make([]op, 0, len(conditions)+len(assignments))
	for _, c := range conditions {
		v := c.Value
		if c.Absent {
			// The server's JSON Patch treats a missing member as equal to
			// null, and a present one as not: that is "absent".
			v = json.RawMessage("null")
		}
		ops = append(ops, op{"test", c.Path, v})
	}
	for _, a := range assignments {
		// add replaces an existing member and creates a missing one (the
		// API server also creates missing parents).
		ops = append(ops, op{"add", a.Path, a.Value})
	}
	return json.Marshal(ops)
}

// ConditionFailedError says that a condition of a conditional patch did not
// hold; the object was left unchanged.
type ConditionFailedError struct {
	Condition Condition
	// Current is the value now at the condition's path; nil when absent.
	Current json.RawMessage
	// Hidden is set when Current is not shown because it is a Secret's.
	Hidden          bool
	ResourceVersion string
}

func (e *ConditionFailedError) Error() string {
	now := "absent"
	switch {
	case e.Hidden && e.Current != nil:
		now = "set (a Secret's value is not shown)"
	case e.Current != nil:
		now = displayValue(e.Current)
	}
	return fmt.Sprintf("condition %s does not hold: %s is %s (rv %s); nothing was changed", e.Condition, e.Condition.Path, now, e.ResourceVersion)
}

// displayValue shows a JSON string without its quotes and any other JSON
// value as it is.
func displayValue(v json.RawMessage) string {
	var s string
	if json.Unmarshal(v, &s) == nil {
		return strconv.Quote(s)
	}
	return string(v)
}

// SendConditionalPatch sends ConditionalPatch to the target in one request, as
// field manager manager (FieldManager when ""), and returns the new
// resourceVersion. When a condition does not hold it returns a
// *ConditionFailedError with the value now on the server.
func SendConditionalPatch(ctx context.Context, dc dynamic.Interface, t *Target, manager string, validation Validation, assignments []Assignment, conditions []Condition) (string, error) {
	obj, err := conditionalPatch(ctx, dc, t, manager, validation, assignments, conditions, false)
	if err != nil {
		return "", err
	}
	return obj.GetResourceVersion(), nil
}

// PatchedValue is the value a dry run of a conditional patch says the server
// would store at one assignment's path.
type PatchedValue struct {
	// Path is the assignment's JSON pointer.
	Path string
	// Value is the JSON value at Path; nil when Path would not exist (a
	// Secret's stringData, which the server moves into data).
	Value json.RawMessage
	// Hidden is set for a Secret's values, which are never shown.
	Hidden bool
}

// DryRunConditionalPatch sends the same patch with dryRun=All: the
// server checks the conditions, applies the patch to the version it has,
// runs validation and admission, and stores nothing. It returns the values
// the server would store at the assignments' paths, in their order, and
// the resourceVersion the patch applied to. A condition that does not hold
// gives a *ConditionFailedError, as SendConditionalPatch's does.
func DryRunConditionalPatch(ctx context.Context, dc dynamic.Interface, t *Target, manager string, validation Validation, assignments []Assignment, conditions []Condition) ([]PatchedValue, string, error) {
	obj, err := conditionalPatch(ctx, dc, t, manager, validation, assignments, conditions, true)
	if err != nil {
		return nil, "", err
	}
	doc, err := json.Marshal(obj.Object)
	if err != nil {
		return nil, "", fmt.Errorf("reading the dry run's result: %w", err)
	}
	out := make([]PatchedValue, len(assignments))
	for i, a := range assignments {
		out[i] = PatchedValue{Path: a.Path, Hidden: t.Ref().IsSecret()}
		if v, found := lookupPointer(doc, a.Path); found {
			out[i].Value = v
		}
	}
	return out, obj.GetResourceVersion(), nil
}

// conditionalPatch sends ConditionalPatch as manager, as a dry run when
// dryRun is set, and returns the object the server stored (or would
// store).
func conditionalPatch(ctx context.Context, dc dynamic.Interface, t *Target, manager string, validation Validation, assignments []Assignment, conditions []Condition, dryRun bool) (*unstructured.Unstructured, error) {
	patch, err := ConditionalPatch(assignments, conditions)
	if err != nil {
		return nil, err
	}
	opts := SaveOptions{FieldManager: manager, Validation: validation, DryRun: dryRun}
	ri := t.Resource(dc)
	obj, err := ri.Patch(ctx, t.Name, types.JSONPatchType, patch, opts.query().patch(nil))
	if err == nil {
		return obj, nil
	}
	if te := valueTypeError(t, assignments, err); te != nil {
		return nil, te
	}
	// A failed test op comes back as a bare 422 (no field causes), the same
	// as a patch that cannot apply; reading the object tells which.
	if apierrors.IsInvalid(err) && len(statusCauses(err)) == 0 {
		if current, gerr := ri.Get(ctx, t.Name, metav1.GetOptions{}); gerr == nil {
			if doc, merr := json.Marshal(current.Object); merr == nil {
				if why := explainRejectedPatch(t, doc, current.GetResourceVersion(), assignments, conditions); why != nil {
					return nil, why
				}
			}
		}
	}
	return nil, strictRefusal(t, classify(t, "patch", err), nil)
}

// explainRejectedPatch finds why the server refused a conditional patch
// without naming a field: a condition that does not hold on doc, or an
// assignment whose parent does not exist.
func explainRejectedPatch(t *Target, doc []byte, rv string, assignments []Assignment, conditions []Condition) error {
	for _, c := range conditions {
		v, found := lookupPointer(doc, c.Path)
		holds := (c.Absent && !found) || (!c.Absent && found && jsonEqual(v, c.Value))
		if !holds {
			fe := &ConditionFailedError{Condition: c, ResourceVersion: rv, Hidden: t.Ref().IsSecret()}
			if found {
				fe.Current = v
			}
			return fe
		}
	}
	for _, a := range assignments {
		if e := missingParent(t, doc, a); e != nil {
			return e
		}
	}
	return nil
}

// MissingParentError says that a value cannot be set because the map or
// list it goes in does not exist (an annotation of an object that has no
// annotations), and how to write it instead: the first missing one, set
// whole.
type MissingParentError struct {
	Target *Target
	// Path is the assignment's, Missing the first of its parents that does
	// not exist.
	Path, Missing string
	// Instead is the assignment that creates Missing with the value in it.
	Instead string
}

func (e *MissingParentError) Error() string {
	return fmt.Sprintf("cannot set %s on %s: %s does not exist; set it whole instead: %s", e.Path, e.Target, e.Missing, e.Instead)
}

// missingParent finds the first parent of a's path that doc lacks and
// builds the assignment that sets it whole, holding a's value.
func missingParent(t *Target, doc []byte, a Assignment) error {
	tokens := strings.Split(a.Path[1:], "/")
	for i := 1; i < len(tokens); i++ {
		parent := "/" + strings.Join(tokens[:i], "/")
		if _, found := lookupPointer(doc, parent); found {
			continue
		}
		value := a.Value
		for j := len(tokens) - 1; j >= i; j-- {
			var b []byte
			var err error
			if _, isIndex := strconv.Atoi(tokens[j]); isIndex == nil || tokens[j] == "-" {
				// An index of a list that does not exist: a list of one.
				b, err = json.Marshal([]json.RawMessage{value})
			} else {
				key := strings.ReplaceAll(strings.ReplaceAll(tokens[j], "~1", "/"), "~0", "~")
				b, err = json.Marshal(map[string]json.RawMessage{key: value})
			}
			if err != nil {
				return nil
			}
			value = b
		}
		return &MissingParentError{Target: t, Path: a.Path, Missing: parent, Instead: parent + ":=" + shellQuote(string(value))}
	}
	return nil
}

// shellQuote quotes s for a POSIX shell, so that a suggested command can be
// pasted as it is.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// lookupPointer returns the JSON value at pointer p in doc.
func lookupPointer(doc []byte, p string) (json.RawMessage, bool) {
	cur := json.RawMessage(doc)
	for _, tok := range strings.Split(p[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch t := bytes.TrimLeft(cur, " \t\r\n"); {
		case len(t) > 0 && t[0] == '{':
			var m map[string]json.RawMessage
			if json.Unmarshal(cur, &m) != nil {
				return nil, false
			}
			v, ok := m[tok]
			if !ok {
				return nil, false
			}
			cur = v
		case len(t) > 0 && t[0] == '[':
			var a []json.RawMessage
			i, err := strconv.Atoi(tok)
			if json.Unmarshal(cur, &a) != nil || err != nil || i < 0 || i >= len(a) {
				return nil, false
			}
			cur = a[i]
		default:
			return nil, false
		}
	}
	return cur, true
}

func jsonEqual(a, b json.RawMessage) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	xb, _ := json.Marshal(x)
	yb, _ := json.Marshal(y)
	return bytes.Equal(xb, yb)
}
