package kube

import (
	"context"
	"errors"
	"fmt"
	"io"
	"reflect"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/watch"
)

// ConnectionState says how a Watch's or a Browse's link to the API server
// stands: one vocabulary for both.
type ConnectionState int

const (
	// Connecting: no list or watch request has ended yet.
	Connecting ConnectionState = iota
	// Connected: the latest request succeeded.
	Connected
	// Reconnecting: the connection is lost and the informer retries with
	// backoff.
	Reconnecting
	// Refused: the server answered, but refuses the list or watch
	// (forbidden, or the credentials). The informer still retries, so the
	// list appears once the user is given the rights.
	Refused
	// Polling: the server answers, but the user may read the object and
	// not watch it, so a Watch reads it with a GET every PollInterval
	// instead; Err says which request was refused (a *ForbiddenError).
	// Changes and conflicts are still seen, up to PollInterval late.
	Polling
	// Stopped: the watch ended and nothing more comes from it (its
	// channel was closed). Only the reader of the channel sees it: a
	// Watch never sends it.
	Stopped
)

// String names the state for logs and tests.
func (s ConnectionState) String() string {
	switch s {
	case Connecting:
		return "connecting"
	case Connected:
		return "connected"
	case Reconnecting:
		return "reconnecting"
	case Refused:
		return "refused"
	case Polling:
		return "polling"
	case Stopped:
		return "stopped"
	}
	return fmt.Sprintf("ConnectionState(%d)", int(s))
}

// Up reports whether the server answers in this state: a save waiting out
// its back-off is worth trying again once the link is up.
func (s ConnectionState) Up() bool { return s == Connected || s == Polling }

// Connection is the state of a Watch's or a Browse's link to the API
// server.
type Connection struct {
	State ConnectionState
	// Since is when the state began; for Reconnecting, when the connection
	// was lost (the same through one outage, so the UI can say
	// "reconnecting since 12:01:03").
	Since time.Time
	// Err is, for Reconnecting, the latest failure; for Refused the
	// refusal (a *ForbiddenListError or an *UnauthorizedError for a
	// Browse, a *ForbiddenError or an *UnauthorizedError for a Watch);
	// for Polling the refused watch (a *ForbiddenError).
	Err error
}

// connState is a Connection and the rule by which it changes, the same
// for Watch and Browse. It is guarded by its owner's mutex, under which
// the owner also publishes the change, so that the states are published
// in the order they were taken.
type connState struct {
	conn    Connection
	lastErr string
}

// change takes state with err as its cause and reports whether that is
// news: the same state with the same cause is not (the UI already shows
// it). Through one outage Since stays when it began.
func (c *connState) change(state ConnectionState, err error) bool {
	msg := ""
	if err != nil {
		msg = err.Error()
	}
	if state == c.conn.State && msg == c.lastErr {
		return false
	}
	if state != c.conn.State {
		c.conn.Since = time.Now()
	}
	c.conn.State, c.conn.Err, c.lastErr = state, err, msg
	return true
}

// The rules by which Watch and Browse tell a lost connection from the
// informer's ordinary work, in one place.

// notLost reports whether a failed list or watch request says nothing about
// the connection: the informer is stopping, or the resourceVersion expired
// (410 Gone), which the reflector answers with a relist.
func notLost(ctx context.Context, err error) bool {
	return ctx.Err() != nil || apierrors.IsResourceExpired(err) || apierrors.IsGone(err)
}

// watchEndNotLost is notLost for the error a ListAndWatch ended with, where
// a watch the server closed normally (EOF) is not a lost connection either.
func watchEndNotLost(ctx context.Context, err error) bool {
	return notLost(ctx, err) || errors.Is(err, io.EOF)
}

// requestState is the connection state the outcome err of a list, watch
// or poll request says, the one mapping for a Watch, a Browse and a set's
// groups: Connected when it succeeded; Refused when the server answered
// and says no (forbidden, or the credentials), with refusal(err), the
// error naming the verb refused; else Reconnecting, with err. ok is false
// when the outcome says nothing of the connection (notLost).
func requestState(ctx context.Context, err error, refusal func(error) error) (state ConnectionState, cause error, ok bool) {
	switch {
	case err == nil:
		return Connected, nil, true
	case notLost(ctx, err):
		return 0, nil, false
	case apierrors.IsForbidden(err), apierrors.IsUnauthorized(err):
		// The server is there and says no: not an outage.
		return Refused, refusal(err), true
	}
	return Reconnecting, err, true
}

// watchEndLost reports whether the error a ListAndWatch ended with (the
// reflector's WatchErrorHandler, which retries after a backoff) is a lost
// connection: not a watch closed normally or a relist due
// (watchEndNotLost), nor a refusal, which the request's own outcome has
// said, naming the verb (requestState).
func watchEndLost(ctx context.Context, err error) bool {
	return !watchEndNotLost(ctx, err) && !apierrors.IsForbidden(err) && !apierrors.IsUnauthorized(err)
}

// lostConnection reports whether a request's error says the server could
// not be reached: any answer of the server's own (a status such as 404 or
// 403) means it is there.
func lostConnection(ctx context.Context, err error) bool {
	if err == nil || ctx.Err() != nil {
		return false
	}
	var status apierrors.APIStatus
	// 503 is a server that is there but will not serve: as good as gone.
	return !errors.As(err, &status) || apierrors.IsServiceUnavailable(err)
}

// errWatchCut is the state's cause for a watch request whose connection
// broke before it was answered.
var errWatchCut = errors.New("the watch request got no answer: the connection broke")

// emptyWatchType is the type of client-go's empty watch, which it returns
// without an error for a watch request whose connection broke.
var emptyWatchType = reflect.TypeOf(watch.NewEmptyWatch())

// isEmptyWatch reports whether wi is client-go's empty watch: no request
// was answered.
func isEmptyWatch(wi watch.Interface) bool { return reflect.TypeOf(wi) == emptyWatchType }
