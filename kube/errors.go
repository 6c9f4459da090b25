package kube

import (
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kedit/kedit/internal/words"
	"github.com/kedit/kedit/model"
)

// The typed errors below turn API failures into something the UI can say
// in words and branch on. Each wraps the original error.

// ConflictError: the object changed on the server since base (409), or a
// server-side apply was refused because other field managers own fields
// it sets.
type ConflictError struct {
	Target *Target
	// Managers lists, for a server-side apply conflict, each field and the
	// field manager that owns it; empty for a resourceVersion conflict.
	Managers []ManagerConflict
	// Current is, for a server-side apply conflict, the object as read
	// back after the refusal: base's content (else the conflict would be
	// a resourceVersion conflict), perhaps at a newer resourceVersion.
	Current *unstructured.Unstructured
	Err     error
}

// ManagerConflict is one field a server-side apply could not take because
// another field manager owns it.
type ManagerConflict struct {
	Field   string
	Manager string
}

func (e *ConflictError) Error() string {
	if len(e.Managers) == 0 {
		return fmt.Sprintf("%s changed on the server since you started editing (409 Conflict)", e.Target)
	}
	parts := make([]string, len(e.Managers))
	for i, m := range e.Managers {
		parts[i] = fmt.Sprintf("%s (owned by %s)", m.Field, m.Manager)
	}
	return fmt.Sprintf("%s: apply conflicts with other field managers: %s", e.Target, strings.Join(parts, ", "))
}
func (e *ConflictError) Unwrap() error { return e.Err }

// InvalidError: the server's validation refused the object (422).
type InvalidError struct {
	Target *Target
	Causes []model.FieldCause
	// Code is the answer's HTTP status when it is not 422: a field the
	// server does not know, refused under strict validation, is a 400 (a
	// server-side apply's a 500).
	Code int
	Err  error
}

// Status is the answer's HTTP status in words: "422 Unprocessable Entity".
func (e *InvalidError) Status() string {
	code := e.Code
	if code == 0 {
		code = http.StatusUnprocessableEntity
	}
	return fmt.Sprintf("%d %s", code, http.StatusText(code))
}

func (e *InvalidError) Error() string {
	if len(e.Causes) == 0 {
		return fmt.Sprintf("%s is invalid: %s", e.Target, serverMessage(e.Err))
	}
	parts := make([]string, len(e.Causes))
	for i, c := range e.Causes {
		parts[i] = c.Field + ": " + shortCause(c.Message)
	}
	return fmt.Sprintf("%s is invalid: %s", e.Target, strings.Join(parts, "; "))
}

// invalidValueRE finds the value a 422's cause quotes, which may be the
// whole object (a patch that does not decode).
var invalidValueRE = regexp.MustCompile(`Invalid value: "(?:[^"\\]|\\.)*"`)

// shortCause cuts a quoted value of more than a line out of a cause's
// message, saying how long it was: the field and the reason are what the
// user needs, not a dump of the object.
func shortCause(msg string) string {
	return invalidValueRE.ReplaceAllStringFunc(msg, func(v string) string {
		if len(v) <= 120 {
			return v
		}
		return fmt.Sprintf(`Invalid value: "%s…" (%s)`, v[len(`Invalid value: "`):len(`Invalid value: "`)+40], words.Count(len(v)-len(`Invalid value: ""`), "byte"))
	})
}
func (e *InvalidError) Unwrap() error { return e.Err }

// ImmutableError: the object, or one of its fields, cannot change.
type ImmutableError struct {
	Target *Target
	Causes []model.FieldCause
	Err    error
}

func (e *ImmutableError) Error() string {
	fields := make([]string, len(e.Causes))
	for i, c := range e.Causes {
		// The server's words say which rule: an immutable ConfigMap's
		// whole data, or one field that never changes.
		fields[i] = c.Field + ": " + shortCause(c.Message)
	}
	return fmt.Sprintf("%s cannot be changed: %s (delete and recreate it to change this)", e.Target, strings.Join(fields, "; "))
}
func (e *ImmutableError) Unwrap() error { return e.Err }

// ForbiddenError: RBAC does not allow the request (403).
type ForbiddenError struct {
	Target *Target
	Verb   string
	Err    error
}

func (e *ForbiddenError) Error() string {
	return fmt.Sprintf("not allowed to %s %s: %s", e.Verb, e.Target, serverMessage(e.Err))
}
func (e *ForbiddenError) Unwrap() error { return e.Err }

// Short says what is not allowed, without the server's words, for a
// header: "not allowed to watch configmaps in rb".
func (e *ForbiddenError) Short() string {
	return "not allowed to " + e.Verb + " " + e.Target.Objects()
}

// NotFoundError: the object does not exist (404), for example because it
// was deleted while it was being edited.
type NotFoundError struct {
	Target *Target
	Err    error
}

func (e *NotFoundError) Error() string {
	where := e.Target.Where()
	if where != "" {
		where = " in " + where
	}
	return fmt.Sprintf("%s not found%s", e.Target, where)
}
func (e *NotFoundError) Unwrap() error { return e.Err }

// TooLargeError: the object is over the API server's or etcd's size limit.
type TooLargeError struct {
	Target *Target
	Err    error
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s is too large for the server: %s", e.Target, serverMessage(e.Err))
}
func (e *TooLargeError) Unwrap() error { return e.Err }

// UnauthorizedError: the credentials were refused (401).
type UnauthorizedError struct {
	Err error
}

func (e *UnauthorizedError) Error() string {
	return "the server refused the credentials (401 Unauthorized): log in again or check the kubeconfig"
}
func (e *UnauthorizedError) Unwrap() error { return e.Err }

// serverMessage is the server's own message in a Status error.
func serverMessage(err error) string {
	var status apierrors.APIStatus
	if errors.As(err, &status) && status.Status().Message != "" {
		return status.Status().Message
	}
	return err.Error()
}

func statusCauses(err error) []metav1.StatusCause {
	var status apierrors.APIStatus
	if errors.As(err, &status) && status.Status().Details != nil {
		return status.Status().Details.Causes
	}
	return nil
}

// classify turns an error from a request about target into one of the
// typed errors above; an error it does not recognise is returned wrapped.
func classify(target *Target, verb string, err error) error {
	if err == nil {
		return nil
	}
	switch {
	case apierrors.IsConflict(err):
		ce := &ConflictError{Target: target, Err: err}
		for _, c := range statusCauses(err) {
			if c.Type == metav1.CauseTypeFieldManagerConflict {
				ce.Managers = append(ce.Managers, ManagerConflict{Field: c.Field, Manager: managerFromMessage(c.Message)})
			}
		}
		return ce
	case apierrors.IsInvalid(err):
		if target.Ref().IsSecret() {
			// The server's causes can repeat a value it refused.
			err = redactSecretError(target, err)
		}
		var causes, immutable []model.FieldCause
		seen := map[model.FieldCause]bool{}
		for _, c := range statusCauses(err) {
			fc := model.FieldCause{Field: c.Field, Message: c.Message, Type: string(c.Type)}
			if seen[fc] {
				continue // the server repeats a cause once per failed rule
			}
			seen[fc] = true
			causes = append(causes, fc)
			if strings.Contains(c.Message, "immutable") {
				immutable = append(immutable, fc)
			}
		}
		if len(immutable) > 0 {
			return &ImmutableError{Target: target, Causes: immutable, Err: err}
		}
		return &InvalidError{Target: target, Causes: causes, Err: err}
	case apierrors.IsForbidden(err):
		return &ForbiddenError{Target: target, Verb: verb, Err: err}
	case apierrors.IsNotFound(err):
		return &NotFoundError{Target: target, Err: err}
	case apierrors.IsRequestEntityTooLargeError(err), strings.Contains(err.Error(), "request is too large"):
		return &TooLargeError{Target: target, Err: err}
	case apierrors.IsUnauthorized(err):
		return &UnauthorizedError{Err: err}
	case noAnswer(err):
		return unavailable(err)
	}
	if target.Ref().IsSecret() {
		err = redactSecretError(target, err)
	}
	if refused := refusal(target, verb, err); refused != nil {
		return refused
	}
	return fmt.Errorf("%s %s: %w", verb, target, err)
}

// ErrorKind and FieldCauses let model.Session classify these errors
// without importing kube.

// ErrorKind implements model.KindedError.
func (e *ConflictError) ErrorKind() model.ErrorKind {
	if len(e.Managers) > 0 {
		return model.ErrorFieldManagerConflict
	}
	return model.ErrorConflict
}

// FieldCauses names each field and the manager that owns it, for an apply
// conflict.
func (e *ConflictError) FieldCauses() []model.FieldCause {
	out := make([]model.FieldCause, len(e.Managers))
	for i, m := range e.Managers {
		out[i] = model.FieldCause{Field: m.Field, Message: "owned by " + m.Manager, Type: string(metav1.CauseTypeFieldManagerConflict)}
	}
	return out
}

// FieldOwners names each field of a server-side apply conflict and its
// owner (model.OwnershipError).
func (e *ConflictError) OwnedFields() []model.OwnedField {
	out := make([]model.OwnedField, len(e.Managers))
	for i, m := range e.Managers {
		out[i] = model.OwnedField{Field: m.Field, Manager: m.Manager}
	}
	return out
}

// Live returns the object read back after a server-side apply conflict.
func (e *ConflictError) Live() *unstructured.Unstructured { return e.Current }

// ErrorKind implements model.KindedError.
func (e *InvalidError) ErrorKind() model.ErrorKind { return model.ErrorInvalid }

// FieldCauses implements model.CausedError.
func (e *InvalidError) FieldCauses() []model.FieldCause { return e.Causes }

// ErrorKind implements model.KindedError.
func (e *ImmutableError) ErrorKind() model.ErrorKind { return model.ErrorImmutable }

// FieldCauses implements model.CausedError.
func (e *ImmutableError) FieldCauses() []model.FieldCause { return e.Causes }

// ErrorKind implements model.KindedError.
func (e *ForbiddenError) ErrorKind() model.ErrorKind { return model.ErrorForbidden }

// ErrorKind implements model.KindedError.
func (e *NotFoundError) ErrorKind() model.ErrorKind { return model.ErrorNotFound }

// ErrorKind implements model.KindedError.
func (e *TooLargeError) ErrorKind() model.ErrorKind { return model.ErrorTooLarge }

// ErrorKind implements model.KindedError.
func (e *UnauthorizedError) ErrorKind() model.ErrorKind { return model.ErrorUnauthorized }

// managerFromMessage extracts the manager from a field-manager conflict
// cause, which reads `conflict with "kubectl-patch" using v1`.
func managerFromMessage(msg string) string {
	if _, rest, ok := strings.Cut(msg, `conflict with "`); ok {
		if m, _, ok := strings.Cut(rest, `"`); ok {
			return m
		}
	}
	return msg
}

var (
	_ model.KindedError  = (*ConflictError)(nil)
	_ model.CausedError  = (*ConflictError)(nil)
	_ model.KindedError  = (*InvalidError)(nil)
	_ model.CausedError  = (*InvalidError)(nil)
	_ model.KindedError  = (*ImmutableError)(nil)
	_ model.CausedError  = (*ImmutableError)(nil)
	_ model.KindedError  = (*ForbiddenError)(nil)
	_ model.KindedError  = (*NotFoundError)(nil)
	_ model.KindedError  = (*TooLargeError)(nil)
	_ model.KindedError  = (*UnauthorizedError)(nil)
	_ model.KindedError  = (*UnavailableError)(nil)
	_ model.LandingError = (*UnavailableError)(nil)
	_ model.DelayedError = (*UnavailableError)(nil)
	_ model.KindedError  = (*RefusedError)(nil)
	_ model.CausedError  = (*RefusedError)(nil)
	_ model.LandingError = (*RefusedError)(nil)
)
