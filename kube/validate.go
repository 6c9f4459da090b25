package kube

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/rest"

	"github.com/kedit/kedit/internal/words"
	"github.com/kedit/kedit/model"
)

// Validation is what the API server does with a field it does not know or
// a field given twice in a write (its fieldValidation parameter), as
// kubectl's --validate: refuse the write, take it and warn, or take it and
// drop the field silently.
type Validation string

// The values of --validate.
const (
	// ValidationStrict refuses a write with an unknown or duplicate field.
	ValidationStrict Validation = "strict"
	// ValidationWarn takes the write without the field and warns.
	ValidationWarn Validation = "warn"
	// ValidationIgnore takes the write without the field, silently.
	ValidationIgnore Validation = "ignore"
)

// ParseValidation reads the value of --validate: strict, warn or ignore,
// and kubectl's older true (strict) and false (ignore).
func ParseValidation(s string) (Validation, error) {
	switch strings.ToLower(s) {
	case "strict", "true":
		return ValidationStrict, nil
	case "warn":
		return ValidationWarn, nil
	case "ignore", "false":
		return ValidationIgnore, nil
	}
	return "", fmt.Errorf("unknown validation %q: use strict, warn or ignore", s)
}

// param is the fieldValidation parameter every write and dry run carries;
// strict when unset, as kubectl's default.
func (v Validation) param() string {
	switch v {
	case ValidationWarn:
		return metav1.FieldValidationWarn
	case ValidationIgnore:
		return metav1.FieldValidationIgnore
	}
	return metav1.FieldValidationStrict
}

// DropWords says what the server does under v (warn or ignore) with the
// field at path that it does not know or is given twice: it takes the
// object without it. "the server will drop imagePullPolicyy
// (--validate=warn)": short enough for a note at 80 columns.
func DropWords(path string, v Validation) string {
	return "the server will drop " + fieldName(path) + " (--validate=" + string(v) + ")"
}

// warnings collects the warnings the server sent with the requests made
// under one context (WithWarnings).
type warnings struct {
	mu   sync.Mutex
	list []string
}

type warningsKey struct{}

// withWarnings returns a context whose requests' warnings are collected
// in w.
func withWarnings(ctx context.Context, w *warnings) context.Context {
	return context.WithValue(ctx, warningsKey{}, w)
}

func (w *warnings) take() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.list...)
}

// contextWarnings hands each warning to the collector of the request's
// context, and drops it when there is none: stdout and stderr belong to
// the terminal UI, so client-go's default of printing them is no place.
type contextWarnings struct{ log func(string) }

// HandleWarningHeaderWithContext implements rest.WarningHandlerWithContext.
func (h contextWarnings) HandleWarningHeaderWithContext(ctx context.Context, code int, agent, text string) {
	if code != 299 || text == "" {
		return
	}
	if w, ok := ctx.Value(warningsKey{}).(*warnings); ok {
		w.mu.Lock()
		w.list = append(w.list, text)
		w.mu.Unlock()
	}
	if h.log != nil {
		h.log(text)
	}
}

// CollectWarnings makes c hand the server's warnings to the request that
// got them (a save reports them) instead of printing them; log, when not
// nil, also gets each (--debug's log).
func CollectWarnings(c *rest.Config, log func(string)) *rest.Config {
	c.WarningHandler = nil
	c.WarningHandlerWithContext = contextWarnings{log: log}
	return c
}

// unknownFieldRE finds the fields a strict decoding error names:
// `unknown field "spec.template.spec.containers[0].imagePullPolicyy"`,
// `duplicate field "metadata.labels.a"`.
var unknownFieldRE = regexp.MustCompile(`(unknown|duplicate) field "((?:[^"\\]|\\.)*)"`)

// strictRefusal turns the server's refusal of an unknown or duplicate field
// under strict validation of an update or a patch into an *InvalidError that names each field as
// the user wrote it: the list items by their keys in the object sent
// (`.spec.template.spec.containers[name="nginx"].imagePullPolicyy`), so
// that the draft's line of it can be found. Any other error is returned as
// it is.
func strictRefusal(t *Target, err error, sent *unstructured.Unstructured) error {
	if err == nil {
		return nil
	}
	var refused *RefusedError
	var invalid *InvalidError
	var msg string
	var inner error
	switch {
	case errors.As(err, &refused):
		msg, inner = serverMessage(refused.Err), refused.Err
	case errors.As(err, &invalid):
		msg, inner = serverMessage(invalid.Err), invalid.Err
	default:
		return err
	}
	if !strings.Contains(msg, "strict decoding error") {
		// A server-side apply's refusal ("field not declared in schema")
		// names the fields in the user's terms already; it stays the
		// server's own 500 it is, which may have landed.
		return err
	}
	var causes []model.FieldCause
	for _, m := range unknownFieldRE.FindAllStringSubmatch(msg, -1) {
		field := m[2]
		if s, err := strconv.Unquote(`"` + field + `"`); err == nil {
			field = s
		}
		causes = append(causes, model.FieldCause{Field: userPath(sent, field), Message: m[1] + " field", Type: string(metav1.CauseTypeFieldValueNotFound)})
	}
	if len(causes) == 0 {
		return err
	}
	code := 0
	if refused != nil {
		code = refused.Code
	}
	return &InvalidError{Target: t, Causes: causes, Code: code, Err: inner}
}

// pathSegRE reads one step of a strict decoding error's path: a name and
// the indexes after it (`containers[0]`).
var pathSegRE = regexp.MustCompile(`^([^\[]*)((?:\[\d+\])*)$`)

var indexRE = regexp.MustCompile(`\d+`)

// userPath is a field of a strict decoding error (`spec.containers[0].x`)
// as server-side apply's syntax names it, with each list item by the name
// it has in obj when it has one (`.spec.containers[name="nginx"].x`), else
// by its index; steps it cannot follow in obj are kept as they are.
func userPath(obj *unstructured.Unstructured, field string) string {
	var b strings.Builder
	var cur any
	if obj != nil {
		cur = obj.Object
	}
	for _, seg := range strings.Split(field, ".") {
		m := pathSegRE.FindStringSubmatch(seg)
		if m == nil {
			b.WriteString("." + seg)
			cur = nil
			continue
		}
		b.WriteString("." + m[1])
		if mm, ok := cur.(map[string]any); ok {
			cur = mm[m[1]]
		} else {
			cur = nil
		}
		for _, idx := range indexRE.FindAllString(m[2], -1) {
			i, _ := strconv.Atoi(idx)
			list, _ := cur.([]any)
			if i >= len(list) {
				b.WriteString("[" + idx + "]")
				cur = nil
				continue
			}
			cur = list[i]
			if item, ok := cur.(map[string]any); ok {
				if name, ok := item["name"].(string); ok {
					b.WriteString(`[name=` + strconv.Quote(name) + `]`)
					continue
				}
			}
			b.WriteString("[" + idx + "]")
		}
	}
	return b.String()
}

// sizeRefusal names the object and its size in words when the server
// refused it as too long without naming a field (`[]: Too long: may not
// be more than 1048576 bytes`, a ConfigMap's or a Secret's data over
// 1 MiB): the cause's field becomes the object, and its message says how
// large the data sent was.
func sizeRefusal(t *Target, err error, sent *unstructured.Unstructured) error {
	var invalid *InvalidError
	if !errors.As(err, &invalid) {
		return err
	}
	changed := false
	causes := append([]model.FieldCause(nil), invalid.Causes...)
	for i, c := range causes {
		if (c.Field != "" && c.Field != "[]") || !strings.Contains(c.Message, "Too long") {
			continue
		}
		size := dataSize(sent)
		what := "the object"
		if size > 0 {
			what = fmt.Sprintf("its data is %s (%s)", sizeWords(size), words.Count(size, "byte"))
		}
		causes[i].Field = t.String()
		causes[i].Message = what + "; " + c.Message
		changed = true
	}
	if !changed {
		return err
	}
	out := *invalid
	out.Causes = causes
	return &out
}

// dataSize is the size of a ConfigMap's or a Secret's data as the server
// counts it against its limit (the values of data and binaryData, and
// stringData's), 0 for other objects.
func dataSize(obj *unstructured.Unstructured) int {
	if obj == nil {
		return 0
	}
	n := 0
	for _, field := range []string{"data", "binaryData", "stringData"} {
		m, _, _ := unstructured.NestedMap(obj.Object, field)
		for k, v := range m {
			n += len(k)
			if s, ok := v.(string); ok {
				n += len(s)
			}
		}
	}
	return n
}

// sizeWords says a size in the largest binary unit it reaches:
// "1.2 MiB", "900.0 KiB".
func sizeWords(n int) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return words.Count(n, "byte")
}
