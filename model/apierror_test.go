package model

import (
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// APIError is a ready-made KindedError and CausedError for model's tests,
// which need an error of any kind without a server: the errors kube
// returns are its own typed errors.
type APIError struct {
	// Kind classifies the failure.
	Kind ErrorKind
	// Message says what happened, for people.
	Message string
	// Causes are the server's field causes, if any.
	Causes []FieldCause
	// Owners are, for a field manager conflict, the fields and their
	// owners; with them the error is an OwnershipError.
	Owners []OwnedField
	// LiveObject is the object on the server, for an OwnershipError.
	LiveObject *unstructured.Unstructured
	// Err is the underlying API error, if any.
	Err error
}

// Error returns the message, then each field cause.
func (e *APIError) Error() string {
	msg := e.Message
	if msg == "" && e.Err != nil {
		msg = e.Err.Error()
	}
	if msg == "" {
		msg = e.Kind.String()
	}
	if len(e.Causes) == 0 {
		return msg
	}
	var b strings.Builder
	b.WriteString(msg)
	for _, c := range e.Causes {
		b.WriteString("; ")
		if c.Field != "" {
			b.WriteString(c.Field + ": ")
		}
		b.WriteString(c.Message)
	}
	return b.String()
}

// Unwrap returns the underlying API error.
func (e *APIError) Unwrap() error { return e.Err }

// ErrorKind returns e.Kind.
func (e *APIError) ErrorKind() ErrorKind { return e.Kind }

// FieldCauses returns e.Causes.
func (e *APIError) FieldCauses() []FieldCause { return e.Causes }

// FieldOwners returns e.Owners.
func (e *APIError) OwnedFields() []OwnedField { return e.Owners }

// Live returns e.LiveObject.
func (e *APIError) Live() *unstructured.Unstructured { return e.LiveObject }
