package model

import (
	"testing"
	"time"
)

// landingError is an APIError that says whether its save may have been
// stored (LandingError).
type landingError struct {
	APIError
	landed bool
}

func (e *landingError) MayHaveLanded() bool { return e.landed }

// delayedError is an APIError with the server's Retry-After.
type delayedError struct {
	APIError
	after time.Duration
}

func (e *delayedError) RetryAfter() time.Duration { return e.after }

// TestAnAnswerIsFinal: a save the server answered with a refusal (a 400, a
// 422, its own 500) is never retried: the failure is said, the draft kept,
// and nothing is sent until the user asks. Only no answer is retried.
func TestAnAnswerIsFinal(t *testing.T) {
	for _, err := range []error{
		&APIError{Kind: ErrorRefused, Causes: []FieldCause{{Field: ".spec.bogus", Message: "field not declared in schema"}}},
		&landingError{APIError{Kind: ErrorRefused}, true},
		&APIError{Kind: ErrorInvalid},
		&APIError{Kind: ErrorForbidden},
		&APIError{Kind: ErrorUnknown},
	} {
		s := editing(t, "2")
		draft := s.Draft().Text
		must(t, s, SaveRequested{})
		effects := must(t, s, SaveFailed{Err: err})
		wantState(t, s, StateFailed)
		if len(effects) != 0 {
			t.Errorf("%s: effects %s after an answer, want none", KindOf(err), describe(effects))
		}
		if f := s.Failure(); f == nil || f.Attempt != 0 || f.Kind.Retryable() {
			t.Errorf("%s: failure %+v, want a final one", KindOf(err), f)
		}
		if s.Draft().Text != draft {
			t.Errorf("%s: the draft changed", KindOf(err))
		}
		if effects := must(t, s, Reconnected{}); len(effects) != 0 {
			t.Errorf("%s: the server being back sent %s after a final answer", KindOf(err), describe(effects))
		}
	}
}

// TestAnswerThatMayHaveLandedIsReadBackFirst: the API server's own 500 is
// final, but the save may have been stored before it failed: the user's
// next save reads the object back first. A refusal that stored nothing
// (a 429 or 503 of the API server's own, a 422) is sent again directly.
func TestAnswerThatMayHaveLandedIsReadBackFirst(t *testing.T) {
	for _, tc := range []struct {
		err    error
		verify bool
	}{
		{&landingError{APIError{Kind: ErrorRefused}, true}, true},
		{&landingError{APIError{Kind: ErrorUnavailable}, false}, false},
		{&APIError{Kind: ErrorTimeout}, true},
		{&APIError{Kind: ErrorInvalid}, false},
	} {
		s := editing(t, "2")
		must(t, s, SaveRequested{})
		must(t, s, SaveFailed{Err: tc.err})
		if s.SaveUncertain() != tc.verify {
			t.Errorf("%s: uncertain %v, want %v", tc.err, s.SaveUncertain(), tc.verify)
		}
		effects := must(t, s, SaveRequested{})
		if got := len(effectsOf[VerifySave](effects)) == 1; got != tc.verify {
			t.Errorf("%s: effects %s, read back first: %v, want %v", tc.err, describe(effects), got, tc.verify)
		}
	}
}

// TestRetryHonoursRetryAfter: a server that says when to come back is not
// asked sooner; a Retry-After shorter than the back-off changes nothing,
// and one of hours is bounded.
func TestRetryHonoursRetryAfter(t *testing.T) {
	for _, tc := range []struct {
		after, want time.Duration
	}{
		{0, retryBase},
		{7 * time.Second, 7 * time.Second},
		{time.Millisecond, retryBase},
		{3 * time.Hour, maxRetryAfter},
	} {
		s := editing(t, "2")
		must(t, s, SaveRequested{})
		effects := must(t, s, SaveFailed{Err: &delayedError{APIError{Kind: ErrorUnavailable}, tc.after}})
		r := effectsOf[RetrySave](effects)
		if len(r) != 1 || r[0].Delay != tc.want {
			t.Errorf("Retry-After %s: effects %s %+v, want a retry after %s", tc.after, describe(effects), r, tc.want)
		}
	}
}

// TestReconnectedTriesTheWaitingSaveNow: a save waiting out its back-off
// after no answer is tried as soon as the server answers again, by the
// same path as the user's s: the object read back first when the answer
// may have been lost.
func TestReconnectedTriesTheWaitingSaveNow(t *testing.T) {
	s := editing(t, "2")
	must(t, s, SaveRequested{})
	for range 5 {
		must(t, s, SaveFailed{Err: &APIError{Kind: ErrorUnavailable}})
		if effects := must(t, s, SaveRequested{}); len(effectsOf[VerifySave](effects)) != 1 {
			t.Fatalf("effects %s", describe(effects))
		}
	}
	must(t, s, SaveFailed{Err: &APIError{Kind: ErrorUnavailable}})
	if f := s.Failure(); f == nil || f.Attempt != 6 {
		t.Fatalf("failure %+v, want attempt 6", f)
	}
	effects := must(t, s, Reconnected{})
	if len(effectsOf[VerifySave](effects)) != 1 || s.State() != StateSaving {
		t.Fatalf("effects %s, state %s: the waiting save was not tried", describe(effects), s.State())
	}
	// Nothing waits now: being back again changes nothing.
	if effects := must(t, s, Reconnected{}); len(effects) != 0 {
		t.Errorf("effects %s while a save is in flight", describe(effects))
	}
	must(t, s, SaveVerified{Object: cm("1", "foo", "1", "bar", "1")})
	must(t, s, Saved{Object: cm("2", "foo", "2", "bar", "1")})
	wantState(t, s, StateSaved)
	if effects := must(t, s, Reconnected{}); len(effects) != 0 {
		t.Errorf("effects %s after the save", describe(effects))
	}
}

// TestFailedReadBackKeepsTheSaveUncertain: the read back of a lost save
// refused (403 on the GET, a 500): whether the save was stored is still
// unknown, so the next save reads back again, never resends blindly. An
// object found gone can only be created again.
func TestFailedReadBackKeepsTheSaveUncertain(t *testing.T) {
	for _, kind := range []ErrorKind{ErrorForbidden, ErrorRefused, ErrorUnauthorized} {
		s := lostSave(t)
		must(t, s, SaveFailed{Err: &APIError{Kind: kind}})
		if !s.SaveUncertain() {
			t.Fatalf("%s on the read back: the save is no longer uncertain", kind)
		}
		if effects := must(t, s, SaveRequested{}); len(effectsOf[VerifySave](effects)) != 1 {
			t.Fatalf("%s on the read back, then s: effects %s, want another read back", kind, describe(effects))
		}
	}
	s := lostSave(t)
	must(t, s, SaveFailed{Err: &APIError{Kind: ErrorNotFound}})
	if s.SaveUncertain() {
		t.Error("an object gone keeps the save uncertain")
	}
}
