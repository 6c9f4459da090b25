package testwait

import (
	"fmt"
	"testing"
	"time"
)

func TestUntil(t *testing.T) {
	n := 0
	if !Until(10*time.Second, func() bool { n++; return n == 3 }) || n != 3 {
		t.Errorf("Until stopped after %d polls, want 3", n)
	}
	start := time.Now()
	if Until(3*Interval, func() bool { return false }) {
		t.Error("Until reported a condition that never held")
	}
	if took := time.Since(start); took < 3*Interval {
		t.Errorf("Until gave up after %s, before its timeout", took)
	}
	n = 0
	if !Until(0, func() bool { n++; return true }) || n != 1 {
		t.Errorf("a condition that holds at once: %d polls", n)
	}
}

// fakeT records a failure instead of ending the test.
type fakeT struct {
	testing.TB
	failed string
}

func (f *fakeT) Helper() {}
func (f *fakeT) Fatalf(format string, args ...any) {
	f.failed = fmt.Sprintf(format, args...)
}

func TestEventually(t *testing.T) {
	n := 0
	Eventually(t, 10*time.Second, "the second poll", func() bool { n++; return n == 2 })
	f := &fakeT{}
	Eventually(f, 2*Interval, "the screen to show foo", func() bool { return false })
	if want := "the screen to show foo: not within 100ms"; f.failed != want {
		t.Errorf("the failure says %q, want %q", f.failed, want)
	}
}

// TestNextSecond: it returns in a later whole second than the time given,
// and at once for a time already in an earlier second.
func TestNextSecond(t *testing.T) {
	for range 3 {
		before := time.Now()
		NextSecond(before)
		if now := time.Now(); now.Unix() <= before.Unix() {
			t.Fatalf("NextSecond(%s) returned at %s, in the same second", before.Format(time.StampMicro), now.Format(time.StampMicro))
		}
	}
	start := time.Now()
	NextSecond(start.Add(-2 * time.Second))
	if took := time.Since(start); took > Interval {
		t.Errorf("NextSecond of a past second waited %s", took)
	}
}
