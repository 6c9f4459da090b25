package kube

import (
	"errors"
	"regexp"
	"strconv"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// A Secret's values never reach kedit's output: not the status
// bar, not a log. The API server's refusal of a Secret can repeat a value
// (field.Invalid writes the value it refuses, quoted), so kedit hides what
// the server quotes before the error goes anywhere.

// hiddenValue stands for what the server quoted in a refusal of a Secret.
const hiddenValue = "<value hidden>"

// quotedValueRE finds what a server message quotes: a Go-quoted string, or
// bytes written as Go would write them.
var quotedValueRE = regexp.MustCompile(`"(?:[^"\\]|\\.)*"|\[\](?:byte|uint8)\{[^}]*\}`)

// redactSecretMessage hides every value msg quotes, but the Secret's own
// name and namespace, which the server quotes to say what it refused.
func redactSecretMessage(t *Target, msg string) string {
	return quotedValueRE.ReplaceAllStringFunc(msg, func(q string) string {
		if s, err := strconv.Unquote(q); err == nil && (s == t.Name || s == t.Namespace) {
			return q
		}
		return hiddenValue
	})
}

// redactSecretError returns err, an API error about t, a Secret, with its
// message and its causes' messages redacted (the fields they name stay,
// so the user still sees where the server's complaint is). Errors that are
// no API status carry nothing the server said and are returned as they
// are.
func redactSecretError(t *Target, err error) error {
	var status apierrors.APIStatus
	if !errors.As(err, &status) {
		return err
	}
	st := status.Status()
	st.Message = redactSecretMessage(t, st.Message)
	if st.Details != nil {
		d := *st.Details
		d.Causes = append([]metav1.StatusCause(nil), d.Causes...)
		for i := range d.Causes {
			d.Causes[i].Message = redactSecretMessage(t, d.Causes[i].Message)
		}
		st.Details = &d
	}
	return &apierrors.StatusError{ErrStatus: st}
}
