package kube

import (
	"context"
	"sync"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/watch"
)

// A user may be allowed to read an object but not to watch it (a Role
// with get, list and update, no watch, as locked-down clusters grant).
// The server is there all the same, so the Watch says Polling, not
// Reconnecting, and reads the object with a GET every PollInterval: live
// changes and conflicts are still seen, up to PollInterval late. The poll
// stands in for the watch inside the informer, so everything downstream
// (the cache Latest reads, the events) is the same either way.

// PollInterval is how often a Watch that may not watch reads its object.
const PollInterval = 2 * time.Second

// pollTimeout bounds one poll's GET, so that a network that swallows
// requests is said as a lost connection instead of stalling the poll.
const pollTimeout = 5 * PollInterval

// pollInstead answers a refused watch request: the Watch polls from now on,
// said as Polling. A watch-list request (the reflector's first, which must
// stream the initial state and a bookmark) gets the refusal back, so that
// the reflector falls back to a list and an ordinary watch request, which
// gets the poll.
func (w *Watch) pollInstead(ctx context.Context, opts metav1.ListOptions, refused error) (watch.Interface, error) {
	watchList := opts.SendInitialEvents != nil && *opts.SendInitialEvents
	w.mu.Lock()
	w.pollReason = classify(w.target, "watch", refused)
	if !watchList {
		// After a watch-list request, the list that follows says whether
		// the object can be read at all (Polling, or Refused).
		w.setConnectionLocked(Polling, w.pollReason)
	}
	w.mu.Unlock()
	if watchList {
		return nil, refused
	}
	last, _ := w.Latest()
	var timeout time.Duration
	if opts.TimeoutSeconds != nil {
		// The reflector asks for a watch of 5 to 10 minutes; once it is
		// over, the next request tries a watch again, so rights granted
		// meanwhile end the polling.
		timeout = time.Duration(*opts.TimeoutSeconds) * time.Second
	}
	return startPoll(ctx, timeout, func(ctx context.Context) []watch.Event {
		var events []watch.Event
		events, last = w.pollOnce(ctx, last)
		return events
	}), nil
}

// mayWatch ends the polling: a watch request succeeded.
func (w *Watch) mayWatch() {
	w.mu.Lock()
	w.pollReason = nil
	w.mu.Unlock()
}

// listByGet is the list of a user who may not list: the object alone, read
// with a GET, or nothing when it does not exist. A refused GET returns the
// list's refusal.
func (w *Watch) listByGet(ctx context.Context, refused error) (*unstructured.UnstructuredList, error) {
	obj, err := w.resource.Get(ctx, w.target.Name, metav1.GetOptions{})
	list := &unstructured.UnstructuredList{}
	switch {
	case err == nil:
		list.Items = []unstructured.Unstructured{*obj}
		list.SetResourceVersion(obj.GetResourceVersion())
	case !apierrors.IsNotFound(err):
		return nil, refused
	}
	w.mu.Lock()
	if w.pollReason == nil {
		w.pollReason = classify(w.target, "list", refused)
	}
	w.mu.Unlock()
	return list, nil
}

// pollWatch is the watch.Interface of a poll, a Watch's of its object or
// a Browse's of its list (browsepoll.go): every PollInterval, an event for
// each change once finds, until Stop, the end of the reflector's context
// or the timeout the reflector asked for.
type pollWatch struct {
	result chan watch.Event
	cancel context.CancelFunc
	wg     sync.WaitGroup
}

// startPoll starts a poll that asks once every PollInterval.
func startPoll(ctx context.Context, timeout time.Duration, once func(context.Context) []watch.Event) *pollWatch {
	ctx, cancel := context.WithCancel(ctx)
	p := &pollWatch{result: make(chan watch.Event), cancel: cancel}
	p.wg.Go(func() { p.run(ctx, timeout, once) })
	return p
}

// ResultChan implements watch.Interface.
func (p *pollWatch) ResultChan() <-chan watch.Event { return p.result }

// Stop implements watch.Interface: it returns once the poll has ended.
func (p *pollWatch) Stop() {
	p.cancel()
	p.wg.Wait()
}

func (p *pollWatch) run(ctx context.Context, timeout time.Duration, once func(context.Context) []watch.Event) {
	defer close(p.result)
	var end <-chan time.Time
	if timeout > 0 {
		t := time.NewTimer(timeout)
		defer t.Stop()
		end = t.C
	}
	tick := time.NewTicker(PollInterval)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-end:
			return
		case <-tick.C:
		}
		for _, ev := range once(ctx) {
			select {
			case p.result <- ev:
			case <-ctx.Done():
				return
			}
		}
	}
}

// pollOnce reads the object and returns what changed since last, and the
// object as it is now (last again when the read failed).
func (w *Watch) pollOnce(ctx context.Context, last *unstructured.Unstructured) ([]watch.Event, *unstructured.Unstructured) {
	get, cancel := context.WithTimeout(ctx, pollTimeout)
	obj, err := w.resource.Get(get, w.target.Name, metav1.GetOptions{})
	cancel()
	switch {
	case err == nil:
		w.setUp()
		return polledChanges(last, obj), obj
	case apierrors.IsNotFound(err):
		w.setUp()
		if last != nil {
			return []watch.Event{{Type: watch.Deleted, Object: last}}, nil
		}
		return nil, nil
	}
	// A refusal (Refused), or no answer (Reconnecting), unless stopping.
	w.observe(ctx, "get", err)
	return nil, last
}

// polledChanges are the watch events that take the informer from last to
// now: an object deleted and created again between two polls is two
// events, as a watch would have sent.
func polledChanges(last, now *unstructured.Unstructured) []watch.Event {
	switch {
	case last == nil:
		return []watch.Event{{Type: watch.Added, Object: now}}
	case last.GetUID() != now.GetUID():
		return []watch.Event{{Type: watch.Deleted, Object: last}, {Type: watch.Added, Object: now}}
	case last.GetResourceVersion() != now.GetResourceVersion():
		return []watch.Event{{Type: watch.Modified, Object: now}}
	}
	return nil
}
