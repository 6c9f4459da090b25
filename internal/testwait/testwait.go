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

// Eventually polls cond until it returns nil and returns how long that
// took. After timeout the test fails with cond's last error, which says
// what was awaited and what there was instead.
func Eventually(t testing.TB, timeout time.Duration, cond func() error) time.Duration {
	t.Helper()
	start := time.Now()
	var err error
	if Until(timeout, func() bool { err = cond(); return err == nil }) {
		return time.Since(start)
	}
	t.Fatalf("not within %s: %v", timeout, err)
	return 0
}
