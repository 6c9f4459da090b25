// Package memlimit keeps kedit's Go memory near what it holds: a soft
// memory limit (runtime/debug.SetMemoryLimit) that follows the live heap.
//
// Editing a mebibyte object makes bursts of garbage many times its size
// (its text parsed and rendered, a watch event decoded, the schema's
// check), and with the collector's default pacing (GOGC=100) the heap
// grows to twice what is live before it is collected, and the runtime
// keeps the freed pages a while: a peak RSS tens of mebibytes above what
// kedit holds. A limit a margin above the live heap makes the collector
// run and give pages back before that. It is soft and follows the live
// heap after every cycle, so a large set or browser list that holds more
// only moves the limit up: the collector never runs without end.
package memlimit

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
)

const (
	// Floor is the least limit: below it the collector would run for a
	// few mebibytes' sake.
	Floor = 32 << 20
	// Margin is the room above the live heap, besides half of it again:
	// a mebibyte object's burst fits in it between two cycles.
	Margin = 8 << 20
)

// For is the limit for a live heap of live bytes.
func For(live uint64) int64 {
	return max(Floor, int64(live+live/2)+Margin)
}

// Start sets the limit and keeps it following the live heap after every
// collection, unless GOMEMLIMIT is set (the user's word) or GOGC=off.
// It reports whether it did.
func Start() bool {
	if os.Getenv("GOMEMLIMIT") != "" || os.Getenv("GOGC") == "off" {
		return false
	}
	debug.SetMemoryLimit(For(0))
	arm()
	return true
}

// sentinel is garbage whose finalizer runs once per collection cycle.
type sentinel struct{ _ [64]byte }

// arm makes the next collection set the limit again.
func arm() {
	s := &sentinel{}
	runtime.SetFinalizer(s, func(*sentinel) {
		debug.SetMemoryLimit(For(liveHeap()))
		arm()
	})
}

// liveHeap is the heap the last collection found live.
func liveHeap() uint64 {
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(sample)
	if sample[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return sample[0].Value.Uint64()
}
