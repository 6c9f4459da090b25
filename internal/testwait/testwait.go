// Package testwait is the tests' one way to wait for something: poll a
// condition until it holds, never sleep and hope. A test waits for what it
// needs (a line on the screen, a request in a log, a file on disk), so it
// is as fast as the program and as patient as a loaded machine needs.
package testwait

import (
	"testing"
	"time"
)

// Interval is how often a condition is polled: often enough that what a
// test measures by polling (a change shown within 2 s) is not blurred by
// it, seldom enough that polling a terminal costs little.
const Interval = 50 * time.Millisecond

// Until polls cond every Interval until it holds or timeout has passed,
// and reports whether it held. A test that must see something NOT happen
// for a while (no request while idle) waits Until it happens and fails if
// it did.
func Until(timeout time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(timeout)
	for {
		if cond() {
			return true
		}
		if !time.Now().Before(deadline) {
			return false
		}
		time.Sleep(Interval)
	}
}

// Eventually polls cond until it holds and returns how long that took.
// After timeout the test fails, saying what it waited for. A wait whose
// failure should show more (the screen, a file) calls Until and says it.
func Eventually(t testing.TB, timeout time.Duration, what string, cond func() bool) time.Duration {
	t.Helper()
	start := time.Now()
	if !Until(timeout, cond) {
		t.Fatalf("%s: not within %s", what, timeout)
	}
	return time.Since(start)
}

// NextSecond returns once the clock reads a later whole second than t.
// The server stamps creationTimestamp and managedFields with whole seconds,
// so a write that must be seen as newer than another (an order by last
// change, by age) must be made in a later second: no state of the program
// can be polled for that, only the clock. t is taken after the earlier
// write has returned, so every stamp it left is at or before t's second.
func NextSecond(t time.Time) {
	next := t.Truncate(time.Second).Add(time.Second)
	Until(time.Until(next)+time.Second, func() bool { return !time.Now().Before(next) })
}
