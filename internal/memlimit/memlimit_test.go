package memlimit

import (
	"runtime"
	"runtime/debug"
	"testing"

	"github.com/kedit/kedit/internal/testwait"
	"time"
)

// TestLimitFollowsTheLiveHeap: the limit is the floor for a small heap,
// and half again above a large one plus the margin, so that it is never
// below what is live.
func TestLimitFollowsTheLiveHeap(t *testing.T) {
	for _, tc := range []struct {
		live uint64
		want int64
	}{{0, Floor}, {10 << 20, Floor}, {100 << 20, 158 << 20}} {
		if got := For(tc.live); got != tc.want {
			t.Errorf("For(%d MiB) = %d MiB, want %d", tc.live>>20, got>>20, tc.want>>20)
		}
		if For(tc.live) <= int64(tc.live) {
			t.Errorf("For(%d) is not above the live heap", tc.live)
		}
	}
}

// TestStartFollowsACollection: once started, a heap that holds more than
// the floor moves the limit above it after a collection; GOMEMLIMIT set
// leaves the limit to the user.
func TestStartFollowsACollection(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	t.Setenv("GOMEMLIMIT", "")
	if !Start() {
		t.Fatal("not started")
	}
	held := make([][]byte, 0, 64)
	for range 64 {
		held = append(held, make([]byte, 1<<20))
	}
	if !testwait.Until(10*time.Second, func() bool {
		runtime.GC()
		return debug.SetMemoryLimit(-1) >= int64(64<<20)+int64(32<<20)
	}) {
		t.Fatalf("the limit %d MiB did not follow a live heap of 64 MiB", debug.SetMemoryLimit(-1)>>20)
	}
	runtime.KeepAlive(held)

	t.Setenv("GOMEMLIMIT", "1GiB")
	if Start() {
		t.Error("started over GOMEMLIMIT")
	}
}
