package kube

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kedit/kedit/model"
)

// An answer is never called "no answer". A request that got no answer from
// the API server is worth sending again (the session retries it with
// back-off, reading the object back first when the write may have been
// done): the server could not be reached, the connection broke, the
// request timed out, a gateway answered in its place, or the server asked
// to come back later. Every other answer is final: it is said as a
// refusal, naming the field when the server named one, and nothing is sent
// again until the user asks.

// noAnswer reports whether err says that no answer came from the API
// server (the retry rule):
//   - no HTTP answer at all: connection refused or reset, EOF, a timeout,
//     any transport failure;
//   - a timeout said by the server or a gateway (504, or the server's own
//     ServerTimeout: it may still be doing the work);
//   - 429 Too Many Requests and 503 Service Unavailable: come back later;
//   - 502 Bad Gateway, and any 5xx that is not the API server's own answer
//     (its body is not a Kubernetes Status: a proxy's or a load balancer's
//     page), which say nothing of what the server did.
//
// Any other status the API server answers with (a 4xx, its own 500) is an
// answer.
func noAnswer(err error) bool {
	if apierrors.IsTimeout(err) || apierrors.IsServerTimeout(err) ||
		apierrors.IsTooManyRequests(err) || apierrors.IsServiceUnavailable(err) {
		return true
	}
	var status apierrors.APIStatus
	if errors.As(err, &status) {
		code := int(status.Status().Code)
		return code == http.StatusBadGateway || code == http.StatusGatewayTimeout ||
			(code >= http.StatusInternalServerError && apierrors.IsUnexpectedServerError(err))
	}
	var netErr net.Error
	return errors.As(err, &netErr) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) ||
		strings.Contains(err.Error(), "connection refused") || strings.Contains(err.Error(), "EOF")
}

// unavailable is the UnavailableError for err, which noAnswer accepted.
func unavailable(err error) *UnavailableError {
	e := &UnavailableError{Err: err, Timeout: apierrors.IsServerTimeout(err) || apierrors.IsTimeout(err) || isNetTimeout(err)}
	var status apierrors.APIStatus
	if errors.As(err, &status) {
		e.Code = int(status.Status().Code)
		e.Gateway = apierrors.IsUnexpectedServerError(err) || e.Code == http.StatusBadGateway
		// The API server's own 429 and 503 refuse the request before
		// doing anything; a gateway's say nothing of what happened behind
		// it, but a 429 is a rate limit in front of the server, which
		// forwarded nothing.
		e.Busy = e.Code == http.StatusTooManyRequests || (e.Code == http.StatusServiceUnavailable && !e.Gateway)
	}
	e.NotSent = notSent(err)
	if secs, ok := apierrors.SuggestsClientDelay(err); ok && secs > 0 {
		e.After = time.Duration(secs) * time.Second
	}
	return e
}

// notSent reports whether err says the request never reached a server:
// the connection could not be made (refused, no route, a name that does
// not resolve), so nothing was written.
func notSent(err error) bool {
	var op *net.OpError
	if errors.As(err, &op) && op.Op == "dial" {
		return true
	}
	var dns *net.DNSError
	return errors.As(err, &dns) || errors.Is(err, syscall.ECONNREFUSED) ||
		strings.Contains(err.Error(), "connection refused")
}

func isNetTimeout(err error) bool {
	var netErr net.Error
	return errors.As(err, &netErr) && netErr.Timeout()
}

// UnavailableError: no answer came from the API server, as noAnswer
// says; the same request may work later.
type UnavailableError struct {
	// Timeout is set when the server or the request timed out, rather than
	// the server being unreachable.
	Timeout bool
	// Code is the HTTP status that stood for the answer (429, 502, 503,
	// 504, a gateway's 5xx); 0 when there was none.
	Code int
	// Gateway is set when the status came from something between kedit
	// and the API server (a proxy or a load balancer), not from the
	// server.
	Gateway bool
	// Busy is set when the request was refused before anything was done
	// (429, the API server's own 503): nothing was written.
	Busy bool
	// NotSent is set when no connection to a server could be made: the
	// request never left kedit, so nothing was written.
	NotSent bool
	// After is how long the server asked to wait (Retry-After); 0 when it
	// did not say.
	After time.Duration
	Err   error
}

func (e *UnavailableError) Error() string {
	if e.Timeout {
		return "the API server did not answer in time: " + e.Err.Error()
	}
	if e.Code == 0 {
		return "the API server is unavailable: " + e.Err.Error()
	}
	status := fmt.Sprintf("%d %s", e.Code, http.StatusText(e.Code))
	msg := serverMessage(e.Err)
	if strings.Contains(strings.ToLower(msg), "<html") {
		// A 5xx body may be a proxy's whole HTML page: its code says enough.
		msg = "an HTML page"
	}
	msg = oneLine(msg, 200)
	switch {
	case e.Gateway:
		return fmt.Sprintf("%s from a proxy or load balancer, not the API server: %s", status, msg)
	case e.Busy:
		return fmt.Sprintf("the API server is busy (%s): %s", status, msg)
	}
	return fmt.Sprintf("the API server answered %s: %s", status, msg)
}
func (e *UnavailableError) Unwrap() error { return e.Err }

// ErrorKind implements model.KindedError.
func (e *UnavailableError) ErrorKind() model.ErrorKind {
	if e.Timeout {
		return model.ErrorTimeout
	}
	return model.ErrorUnavailable
}

// MayHaveLanded implements model.LandingError: only a request refused
// before anything was done (Busy), or never sent (NotSent), surely wrote
// nothing.
func (e *UnavailableError) MayHaveLanded() bool { return !e.Busy && !e.NotSent }

// RetryAfter implements model.DelayedError.
func (e *UnavailableError) RetryAfter() time.Duration { return e.After }

// RefusedError: the API server answered, with a refusal that has no more
// specific type in this package (a 400, a 405, a 500 of its own such as a
// server-side apply that cannot build the object). It is final.
type RefusedError struct {
	Target *Target
	Verb   string
	// Code is the HTTP status of the answer.
	Code int
	// Causes name the fields the server named, from its causes or, when
	// it gave none, from its message (".spec.bogus: field not declared in
	// schema").
	Causes []model.FieldCause
	Err    error
}

func (e *RefusedError) Error() string {
	msg := e.Message()
	if len(e.Causes) > 0 {
		parts := make([]string, len(e.Causes))
		for i, c := range e.Causes {
			parts[i] = c.Field + ": " + oneLine(c.Message, 200)
		}
		msg = strings.Join(parts, "; ")
	}
	return fmt.Sprintf("the API server refused the %s of %s (%s): %s", e.Verb, e.Target, e.Status(), msg)
}
func (e *RefusedError) Unwrap() error { return e.Err }

// Status is the answer's HTTP status in words: "500 Internal Server Error".
func (e *RefusedError) Status() string { return fmt.Sprintf("%d %s", e.Code, http.StatusText(e.Code)) }

// Message is the server's message, on one line.
func (e *RefusedError) Message() string { return oneLine(serverMessage(e.Err), 300) }

// ErrorKind implements model.KindedError.
func (e *RefusedError) ErrorKind() model.ErrorKind { return model.ErrorRefused }

// FieldCauses implements model.CausedError.
func (e *RefusedError) FieldCauses() []model.FieldCause { return e.Causes }

// MayHaveLanded implements model.LandingError: a server that failed with
// a 5xx of its own may have failed after storing the object, so the next
// save reads it back first; a 4xx stored nothing.
func (e *RefusedError) MayHaveLanded() bool { return e.Code >= http.StatusInternalServerError }

// refusal is the RefusedError for an answer of the API server's own (a
// Status) that classify has no more specific type for; nil for an error
// that is not such an answer.
func refusal(target *Target, verb string, err error) *RefusedError {
	var status apierrors.APIStatus
	if !errors.As(err, &status) || status.Status().Code == 0 {
		return nil
	}
	e := &RefusedError{Target: target, Verb: verb, Code: int(status.Status().Code), Err: err}
	for _, c := range statusCauses(err) {
		if c.Field != "" && c.Type != metav1.CauseTypeUnexpectedServerResponse {
			e.Causes = append(e.Causes, model.FieldCause{Field: c.Field, Message: c.Message, Type: string(c.Type)})
		}
	}
	if len(e.Causes) == 0 {
		e.Causes = fieldsInMessage(status.Status().Message)
	}
	return e
}

// fieldsInMessage finds the fields a message names in the form the API
// server's field validation uses, one a line: "failed to create typed
// patch object (ns/w; kedit.example.com/v1, Kind=Widget): .spec.bogus:
// field not declared in schema" names .spec.bogus.
func fieldsInMessage(msg string) []model.FieldCause {
	var out []model.FieldCause
	for _, line := range strings.Split(msg, "\n") {
		parts := strings.Split(strings.TrimSpace(line), ": ")
		for i := 0; i+1 < len(parts); i++ {
			p := parts[i]
			if len(p) > 1 && p[0] == '.' && !strings.ContainsAny(p, " \t") {
				out = append(out, model.FieldCause{Field: p, Message: strings.Join(parts[i+1:], ": ")})
				break
			}
		}
	}
	return out
}

// oneLine is s on one line, cut to at most n bytes (at a character
// boundary) with "…" when cut.
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
