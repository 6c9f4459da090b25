package model

import (
	"errors"
	"time"
)

// The retry rule, in one place: a save is retried only when no answer
// came from the API server (it could not be reached, the connection broke,
// the request timed out, a gateway answered in its place, or it asked to
// come back later with 429 or 503). Any other answer is final: the draft
// is kept and nothing is sent until the user asks. Apart from that, a save
// whose answer was lost may have been stored all the same, so the next
// save reads the object back first (the lost-answer rule, verify).

// Reconnected says that the API server answers again: the watch connected
// (or, for a user who may not watch, a poll succeeded) after the
// connection was lost. A save waiting out its back-off is tried at once
// rather than when the back-off ends; otherwise it changes nothing.
type Reconnected struct{}

func (Reconnected) event() {}

// reconnected tries a waiting save now.
func (s *Session) reconnected() ([]Effect, error) {
	if !s.RetryWaiting() {
		return nil, nil
	}
	return s.saveRequested(SaveRequested{})
}

// RetryWaiting reports whether a save waits out its back-off after no
// answer came: RetrySave's delay, or the server answering again
// (Reconnected), sends it.
func (s *Session) RetryWaiting() bool {
	return s.state == StateFailed && s.failure != nil && s.failure.Kind.Retryable()
}

// LandingError is implemented by errors that know whether the save they
// failed may have been stored all the same: an answer lost on the way
// back, or a server that failed while or after writing (500). A save
// refused outright (a 422, a 429) was not stored.
type LandingError interface {
	error
	MayHaveLanded() bool
}

// MayHaveLanded reports whether the save that failed with err may have
// been stored: what err says (LandingError), else whether it is worth a
// retry (no answer came back).
func MayHaveLanded(err error) bool {
	var le LandingError
	if errors.As(err, &le) {
		return le.MayHaveLanded()
	}
	return KindOf(err).Retryable()
}

// DelayedError is implemented by errors that carry the server's
// Retry-After: the next try waits at least that long.
type DelayedError interface {
	error
	RetryAfter() time.Duration
}

// RetryAfterOf returns the wait the server asked for with err, 0 when it
// asked for none.
func RetryAfterOf(err error) time.Duration {
	var de DelayedError
	if errors.As(err, &de) {
		return de.RetryAfter()
	}
	return 0
}

// retryDelay is the wait before retry number n (from 1): retryBase
// doubling up to retryMax, and never shorter than the server asked for,
// up to maxRetryAfter.
func retryDelay(n int, err error) time.Duration {
	delay := min(retryBase<<min(n-1, 5), retryMax)
	return max(delay, min(RetryAfterOf(err), maxRetryAfter))
}

// maxRetryAfter bounds the wait a server may ask for: a Retry-After of
// hours is a misconfigured proxy, and the user can always press s.
const maxRetryAfter = 5 * time.Minute
