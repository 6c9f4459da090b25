package ui

import (
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kedit/kedit/model"
)

// apiError is a ready-made model.KindedError and model.CausedError for
// the app's tests, which need a failure of any kind without a server (the
// errors kube returns are its own typed errors): its kind, the server's
// message, its field causes, and for a field manager conflict the fields'
// owners (a model.OwnershipError).
type apiError struct {
	Kind    model.ErrorKind
	Message string
	Causes  []model.FieldCause
	Owners  []model.OwnedField
}

// Error returns the message, then each field cause.
func (e *apiError) Error() string {
	msg := e.Message
	if msg == "" {
		msg = e.Kind.String()
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

// ErrorKind returns e.Kind.
func (e *apiError) ErrorKind() model.ErrorKind { return e.Kind }

// FieldCauses returns e.Causes.
func (e *apiError) FieldCauses() []model.FieldCause { return e.Causes }

// OwnedFields returns e.Owners.
func (e *apiError) OwnedFields() []model.OwnedField { return e.Owners }

// Live returns no object: the session reads theirs.
func (e *apiError) Live() *unstructured.Unstructured { return nil }
