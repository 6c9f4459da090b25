package kube

import (
	"context"
	"errors"
	"net/http"
	"regexp"
	"sort"
	"strconv"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kedit/kedit/kube/schemacheck"
	"github.com/kedit/kedit/model"
)

// The server's own checks of a draft before it is saved: the save's own
// request, sent with dryRun=All, its refusal read into diagnostics on
// the draft's lines. Many limits live in the API server's validation
// code, not in the OpenAPI document the schema check reads (a replicas
// below 0, a Service port above 65535, a CronJob's schedule, a Job's
// restartPolicy): only the server can say them.

// ServerCheck asks the API server whether it would take draft, read from
// text (a Secret's text shows its values decoded), as the next version of
// base: the save the runner would send (its strategy, field manager and
// --validate) with dryRun=All, never a write, conditioned on base's
// resourceVersion. Each reason of a refusal is a diagnostic marked
// Server on its line of text; under --validate warn the fields the
// server would drop are Dropped diagnostics from its warnings. The
// request goes through the runner's client, so the request log keeps it
// as every request, a Secret's values masked.
//
// An error is a question the server did not judge: a *ConflictError
// (the object changed since base: no diagnostic, the banner says it), a
// *ForbiddenError (the user may not save it; MaySave asks first), an
// *UnavailableError (offline), or any other failure to ask.
func (r *Runner) ServerCheck(ctx context.Context, base, draft *unstructured.Unstructured, text string) ([]schemacheck.Diagnostic, error) {
	warned := &warnings{}
	_, err := Save(withWarnings(ctx, warned), r.Client, r.Target, r.Strategy, base, draft, SaveOptions{DryRun: true,
		MergeOptions: r.MergeOptions, FieldManager: r.FieldManager, Validation: r.Validation})
	return serverDiagnostics(text, err, warned.take(), r.Validation)
}

// serverDiagnostics reads a dry run's answer: err, the typed error of the
// save (nil when the server would take it), and its warnings under v.
func serverDiagnostics(text string, err error, warned []string, v Validation) ([]schemacheck.Diagnostic, error) {
	var causes []model.FieldCause
	var invalid *InvalidError
	var immutable *ImmutableError
	var refused *RefusedError
	var tooLarge *TooLargeError
	switch {
	case err == nil:
		return droppedOf(text, warned, v), nil
	case errors.As(err, &invalid):
		causes = invalid.Causes
		if len(causes) == 0 {
			causes = []model.FieldCause{{Message: serverMessage(invalid.Err)}}
		}
	case errors.As(err, &immutable):
		// Every cause, not only those of fields that never change.
		causes = causesOf(immutable.Err)
	case errors.As(err, &refused) && refused.Code >= http.StatusBadRequest && refused.Code < http.StatusInternalServerError &&
		refused.Code != http.StatusConflict:
		// A 400 of the server's own reading of the object: a refusal of
		// the draft. A 5xx is the server's trouble, not the draft's.
		causes = refused.Causes
		if len(causes) == 0 {
			causes = []model.FieldCause{{Message: refused.Message()}}
		}
	case errors.As(err, &tooLarge):
		causes = []model.FieldCause{{Message: serverMessage(tooLarge.Err)}}
	default:
		return nil, err
	}
	out := make([]schemacheck.Diagnostic, 0, len(causes))
	seen := map[schemacheck.Diagnostic]bool{}
	for _, c := range causes {
		if len(causes) > 1 && strings.Contains(c.Message, "some validation rules were not checked") {
			// The server's note that its rules wait for the other causes
			// to be fixed: no reason of its own.
			continue
		}
		d := causeDiagnostic(text, c)
		if !seen[d] {
			seen[d] = true
			out = append(out, d)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Line < out[j].Line })
	return out, nil
}

// causesOf are the field causes of an answer of the server, each once.
func causesOf(err error) []model.FieldCause {
	var out []model.FieldCause
	seen := map[model.FieldCause]bool{}
	for _, c := range statusCauses(err) {
		fc := model.FieldCause{Field: c.Field, Message: c.Message, Type: string(c.Type)}
		if !seen[fc] {
			seen[fc] = true
			out = append(out, fc)
		}
	}
	if len(out) == 0 {
		out = append(out, model.FieldCause{Message: serverMessage(err)})
	}
	return out
}

// causeDiagnostic is one cause of the server's refusal on its line of
// text, in the schema check's form: the field's name, then the server's
// words (a quoted value of more than a line cut short).
func causeDiagnostic(text string, c model.FieldCause) schemacheck.Diagnostic {
	path := strings.TrimPrefix(c.Field, ".")
	if path == "<nil>" {
		path = ""
	}
	msg := shortCause(cutValue(c.Message))
	if m := structFieldRE.FindStringSubmatch(c.Message); path == "" && m != nil {
		// The server could not read the object into its Go type: the
		// field is in the words (lists without their indexes).
		path, msg = m[2], "the server cannot read "+article(m[1])+" as "+m[3]
	}
	if name := fieldName(path); name != "" {
		msg = name + ": " + msg
	}
	return schemacheck.Diagnostic{Line: schemacheck.FieldLine(text, path), Path: path, Message: msg, Server: true}
}

// structFieldRE reads the field and the types of a body the server could
// not decode: `json: cannot unmarshal string into Go struct field
// DeploymentSpec.spec.replicas of type int32`.
var structFieldRE = regexp.MustCompile(`cannot unmarshal (\w+) into Go struct field \w+\.(\S+) of type (\S+)`)

// article is a JSON type's name with its article: a string, an object.
func article(kind string) string {
	if strings.ContainsRune("aeiou", rune(kind[0])) {
		return "an " + kind
	}
	return "a " + kind
}

// cutValue cuts out of a cause's message an unquoted value of more than
// a line (`Invalid value: {"Volumes":null,...}: field is immutable`, the
// server's Go value of a whole pod template): the field and the reason
// are what the user needs.
func cutValue(msg string) string {
	const head = "Invalid value: "
	i := strings.Index(msg, head)
	if i < 0 || i+len(head) >= len(msg) || !strings.ContainsRune("{[", rune(msg[i+len(head)])) {
		return msg
	}
	start := i + len(head)
	end := matching(msg[start:])
	if end < 120 {
		return msg
	}
	return msg[:start] + msg[start:start+1] + "…" + msg[start+end-1:start+end] + msg[start+end:]
}

// matching is the length of the bracketed value s begins with, quoted
// brackets skipped; len(s) when it does not close.
func matching(s string) int {
	depth, quoted := 0, false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case quoted && c == '\\':
			i++
		case c == '"':
			quoted = !quoted
		case quoted:
		case c == '{' || c == '[':
			depth++
		case c == '}' || c == ']':
			depth--
			if depth == 0 {
				return i + 1
			}
		}
	}
	return len(s)
}

// droppedOf are the fields the server's warnings say it would drop
// under v (fieldValidation=Warn: `unknown field "spec.x"`, `duplicate
// field ...`).
func droppedOf(text string, warned []string, v Validation) []schemacheck.Diagnostic {
	var out []schemacheck.Diagnostic
	for _, w := range warned {
		for _, m := range unknownFieldRE.FindAllStringSubmatch(w, -1) {
			path := m[2]
			if s, err := strconv.Unquote(`"` + path + `"`); err == nil {
				path = s
			}
			out = append(out, schemacheck.Diagnostic{Line: schemacheck.FieldLine(text, path), Path: path,
				Message: DropWords(path, v), Dropped: true, Server: true})
		}
	}
	return out
}

// fieldName is the last field a path names: image of
// spec.containers[0].image, containers of spec.containers[0].
func fieldName(path string) string {
	for strings.HasSuffix(path, "]") {
		i := strings.LastIndexByte(path, '[')
		if i < 0 {
			break
		}
		path = path[:i]
	}
	if i := strings.LastIndexByte(path, '.'); i >= 0 {
		path = path[i+1:]
	}
	return path
}

// MayServerCheck asks the API server, with one SelfSubjectAccessReview,
// whether the user may send the runner's save, which its dry run needs
// as much: nil when allowed, a *ForbiddenError when not (then no dry run
// is sent, and the user is told once why the server's checks are off),
// another error when the question could not be asked.
func (r *Runner) MayServerCheck(ctx context.Context) error {
	return MaySave(ctx, r.Client, r.Target, r.Strategy)
}

// IsConflict reports whether err is the server's 409: the object changed
// since the draft's base.
func IsConflict(err error) bool {
	var ce *ConflictError
	return errors.As(err, &ce) || apierrors.IsConflict(err)
}
