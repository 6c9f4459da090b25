package model

import (
	"errors"
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kedit/kedit/internal/words"
)

// ErrorKind classifies why the API server refused a save. kube/ maps API
// status errors to these; the session decides from the kind alone what to
// do next (rebase, offer to recreate, retry with back-off, or stop), and the
// UI picks its words from it.
type ErrorKind int

// The kinds of save failure.
const (
	// ErrorUnknown is any failure kedit has no better word for.
	ErrorUnknown ErrorKind = iota
	// ErrorConflict is a 409 on the resourceVersion precondition: someone
	// else wrote the object since base. It starts a rebase.
	ErrorConflict
	// ErrorInvalid is a 422, with the field causes.
	ErrorInvalid
	// ErrorForbidden is a 403: the user may not update this object.
	ErrorForbidden
	// ErrorNotFound is a 404: the object was deleted while editing. The
	// draft can be created again with Recreate.
	ErrorNotFound
	// ErrorTooLarge is a 413 or etcd's "request is too large".
	ErrorTooLarge
	// ErrorImmutable is an update of an immutable ConfigMap or Secret, or
	// of an immutable field.
	ErrorImmutable
	// ErrorUnauthorized is a 401: the credentials are not accepted.
	ErrorUnauthorized
	// ErrorUnavailable is no answer from the API server: it could not be
	// reached, the connection broke, a gateway answered in its place, or
	// it asked to come back later (429, 503). The save is retried.
	ErrorUnavailable
	// ErrorTimeout is a request or server timeout: no answer in time. The
	// save is retried.
	ErrorTimeout
	// ErrorFieldManagerConflict is server-side apply refusing to take
	// fields another manager owns; the causes name each field and owner.
	// When the error is an OwnershipError the session turns it into a
	// rebase whose conflicts are those fields.
	ErrorFieldManagerConflict
	// ErrorApplyCannotRemove is a save kube/ did not send: server-side
	// apply cannot remove a field another manager owns, and the draft
	// removes one. SaveRequested{AsUpdate: true} sends it as an update.
	ErrorApplyCannotRemove
	// ErrorRecreated is a save that met, instead of the object its draft
	// was made on, an object of the same name created again since (another
	// uid): nothing is merged onto it or sent to it before the user says
	// yes (SaveRequested{OntoNewObject: true}). The error is a
	// *RecreatedError.
	ErrorRecreated
	// ErrorRefused is any other answer of the API server's own that
	// refuses the save (a 400, a 500 of its own such as a server-side
	// apply that cannot build the object): final, never retried. The
	// causes name the field when the server named one.
	ErrorRefused
)

var errorKindNames = [...]string{
	ErrorUnknown:              "unknown",
	ErrorConflict:             "conflict",
	ErrorInvalid:              "invalid",
	ErrorForbidden:            "forbidden",
	ErrorNotFound:             "not found",
	ErrorTooLarge:             "too large",
	ErrorImmutable:            "immutable",
	ErrorUnauthorized:         "unauthorized",
	ErrorUnavailable:          "unavailable",
	ErrorTimeout:              "timeout",
	ErrorFieldManagerConflict: "field manager conflict",
	ErrorApplyCannotRemove:    "apply cannot remove",
	ErrorRecreated:            "created again",
	ErrorRefused:              "refused",
}

// String returns the kind in words, e.g. "too large".
func (k ErrorKind) String() string {
	if k >= 0 && int(k) < len(errorKindNames) {
		return errorKindNames[k]
	}
	return fmt.Sprintf("ErrorKind(%d)", int(k))
}

// Retryable reports whether no answer came (the retry rule, retry.go),
// so that the session schedules a retry with back-off; any answer is
// final.
func (k ErrorKind) Retryable() bool {
	return k == ErrorUnavailable || k == ErrorTimeout
}

// FieldCause is one reason the server gave for refusing a save: a field and
// what is wrong with it, or for a field manager conflict, the manager that
// owns it.
type FieldCause struct {
	// Field is the field as the server names it, e.g. "metadata.labels".
	Field string
	// Message is the server's message for that field.
	Message string
	// Type is the server's cause type, e.g. "FieldValueInvalid".
	Type string
}

// FieldManager is the field manager kedit writes under unless
// --field-manager names another (Session.SetFieldManager), as update and as
// server-side apply.
const FieldManager = "kedit"

// OwnedField is a field and the field manager that owns it.
type OwnedField struct {
	// Field is the field in server-side apply's syntax, e.g. `.data.foo`.
	Field string
	// Manager is the field manager, e.g. "kubectl-patch".
	Manager string
}

// OwnershipError is implemented by a server-side apply the server refused
// because other field managers own fields it sets, while the object was
// as base had it: the session makes those fields conflicts to resolve.
type OwnershipError interface {
	KindedError
	// FieldOwners names each field and its owner.
	OwnedFields() []OwnedField
	// Live is the object on the server when the apply was refused, with
	// base's content but perhaps a newer resourceVersion (kedit moving
	// its own fields to its apply manager writes the object); nil when
	// unknown, which means base.
	Live() *unstructured.Unstructured
}

// KindedError is implemented by kube/'s typed errors, so that model needs
// no import of kube to classify them.
type KindedError interface {
	error
	ErrorKind() ErrorKind
}

// CausedError is implemented by errors that carry field causes (invalid,
// field manager conflict).
type CausedError interface {
	error
	FieldCauses() []FieldCause
}

// KindOf returns the kind of the first error in err's chain that has one,
// and ErrorUnknown otherwise.
func KindOf(err error) ErrorKind {
	var k KindedError
	if errors.As(err, &k) {
		return k.ErrorKind()
	}
	return ErrorUnknown
}

// OwnersOf returns the fields and owners of the first OwnershipError in
// err's chain, and that error; nil when there is none or it names no field.
func OwnersOf(err error) ([]OwnedField, OwnershipError) {
	var oe OwnershipError
	if errors.As(err, &oe) && len(oe.OwnedFields()) > 0 {
		return oe.OwnedFields(), oe
	}
	return nil, nil
}

// CausesOf returns the field causes of the first error in err's chain that
// has them.
func CausesOf(err error) []FieldCause {
	var c CausedError
	if errors.As(err, &c) {
		return c.FieldCauses()
	}
	return nil
}

// DraftError reports a draft that cannot be saved as it stands: text that
// does not parse, a conflict block left in it, or a change of the object's
// identity. The text itself is kept.
type DraftError struct {
	// Line is the 1-based line the problem is on, 0 when it has none.
	Line int
	// Column is the 1-based column (in characters) on Line, 0 when the
	// parser does not tell it (YAML's does not).
	Column int
	// Field is the field concerned, when known, e.g. "metadata.name".
	Field string
	// Msg says what is wrong, for people.
	Msg string
	// Err is the parser's error, if any.
	Err error
}

// Error names the line and field, then says what is wrong.
func (e *DraftError) Error() string {
	var b strings.Builder
	b.WriteString("draft")
	if e.Line > 0 {
		fmt.Fprintf(&b, ", line %d", e.Line)
	}
	if e.Column > 0 {
		fmt.Fprintf(&b, ", column %d", e.Column)
	}
	if e.Field != "" {
		b.WriteString(", " + e.Field)
	}
	b.WriteString(": " + e.Msg)
	return b.String()
}

// Unwrap returns the parser's error.
func (e *DraftError) Unwrap() error { return e.Err }

// StateError reports an intent the session cannot take in its current
// state, such as a resubmit while nothing is being rebased.
type StateError struct {
	// Event names what was asked, e.g. "resubmit".
	Event string
	// State is the session's state at the time.
	State State
	// Reason says why, for people.
	Reason string
}

// Error says what could not be done, in which state, and why.
func (e *StateError) Error() string {
	if e.Reason != "" {
		return fmt.Sprintf("cannot %s while %s: %s", e.Event, e.State, e.Reason)
	}
	return fmt.Sprintf("cannot %s while %s", e.Event, e.State)
}

// OpenConflictsError refuses a resubmit while conflicts are open.
type OpenConflictsError struct {
	// Open is how many conflicts are still open.
	Open int
	// Total is how many conflicts the rebase found.
	Total int
}

// Error says how many conflicts are open and what to do.
func (e *OpenConflictsError) Error() string {
	return fmt.Sprintf("%d of %s %s still open: resolve %s before resubmitting",
		e.Open, words.Count(e.Total, "conflict"), words.Agree(e.Open, "is", "are"), words.Agree(e.Open, "it", "them"))
}

// Count says n things in words: "1 conflict", "2 conflicts", "0 changes".
// It is words.Count, kedit's one rule for counting in a message.
func Count(n int, thing string) string { return words.Count(n, thing) }

// StaleDraftError refuses to recover a stored draft that was made from a
// version the session cannot merge from: the store recorded base's
// resourceVersion but not base itself, and the object has moved on since.
// Taking the draft over the current object would undo the changes made in
// between without anyone deciding to, so the draft stays in the store.
type StaleDraftError struct {
	// DraftBase is the resourceVersion the draft was made from.
	DraftBase string
	// Current is the object's resourceVersion now.
	Current string
}

// Error says which versions the draft and the object are at.
func (e *StaleDraftError) Error() string {
	return fmt.Sprintf("the stored draft was made from resourceVersion %s, the object is now at %s, and base was not stored: cannot rebase it", e.DraftBase, e.Current)
}

// ErrNotOpen is returned for any event before Opened.
var ErrNotOpen = errors.New("the session has no object yet")

// ErrNoDraft is returned for a save, rebase or recreate without a draft.
var ErrNoDraft = errors.New("there is no draft")

// ErrNoResourceVersion is returned instead of a save whose resourceVersion
// would be empty: without it the server would take the write
// unconditionally, over whatever changed in between.
var ErrNoResourceVersion = errors.New("refusing to save without a resourceVersion: the save could overwrite a change made meanwhile")
