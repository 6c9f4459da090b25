package kube

import (
	"context"
	"sync"

	"github.com/go-logr/logr"
	"k8s.io/klog/v2"
)

// runs is the start and stop that Watch and Browse share: goroutines
// started once under a context of their own, ended by Stop, which is safe
// before Start and more than once. Its fields are guarded by the owner's
// mutex.
type runs struct {
	started bool
	cancel  context.CancelFunc
	// ctx is the running goroutines' context, to tell a stop from a
	// failure; nil before Start.
	ctx context.Context
	wg  sync.WaitGroup
}

// begin runs each of fns in a goroutine of its own under a context made
// from ctx, which Stop cancels. The caller holds its mutex and has checked
// that nothing was started.
func (r *runs) begin(ctx context.Context, fns ...func(context.Context)) {
	r.started = true
	if _, err := logr.FromContext(ctx); err != nil {
		// An informer logs through the context's logger, falling back to
		// klog's, which writes to stderr: that belongs to the renderer.
		// Without a logger from the caller (a --debug log file), stay
		// silent; the state events say what the user needs to know.
		ctx = klog.NewContext(ctx, logr.Discard())
	}
	ctx, r.cancel = context.WithCancel(ctx)
	r.ctx = ctx
	for _, fn := range fns {
		r.wg.Go(func() { fn(ctx) })
	}
}

// end cancels what begin started and waits for it. Never started, it
// calls closeOut instead, so that a reader of the owner's output does not
// wait for ever, and nothing starts afterwards. mu is the owner's mutex,
// not held by the caller.
func (r *runs) end(mu *sync.Mutex, closeOut func()) {
	mu.Lock()
	cancel := r.cancel
	if !r.started {
		r.started = true
		closeOut()
	}
	mu.Unlock()
	if cancel != nil {
		cancel()
	}
	r.wg.Wait()
}
