package kube

import (
	"context"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/metadata"
)

// A user may be allowed to list a collection but not to watch it, as a
// Watch's user may read an object and not watch it (poll.go). The list is
// there all the same, so the Browse says Polling, not Refused (which
// says the rows cannot be read), and lists again every PollInterval: the
// rows follow other writers' changes up to PollInterval late, not at the
// reflector's back-off of up to half a minute. The poll stands in for the
// watch inside the informer, as a Watch's does.

// pollInstead answers a refused watch request of the Browse: it polls from
// now on, said as Polling. A watch-list request (the reflector's first)
// gets the refusal back, so that the reflector falls back to a list and
// an ordinary watch request, which gets the poll.
func (b *Browse) pollInstead(ctx context.Context, ri metadata.ResourceInterface, opts metav1.ListOptions, refused error) (watch.Interface, error) {
	if opts.SendInitialEvents != nil && *opts.SendInitialEvents {
		return nil, refused
	}
	reason := classifyList(b.coll, "watch", refused)
	b.setConnection(Polling, reason)
	var timeout time.Duration
	if opts.TimeoutSeconds != nil {
		// Once the reflector's watch time is over, the next request
		// tries a watch again: rights granted meanwhile end the polling.
		timeout = time.Duration(*opts.TimeoutSeconds) * time.Second
	}
	last := map[string]*metav1.PartialObjectMetadata{}
	for _, o := range b.informer.GetStore().List() {
		if m, ok := o.(*metav1.PartialObjectMetadata); ok {
			last[m.Namespace+"/"+m.Name] = m
		}
	}
	return startPoll(ctx, timeout, func(ctx context.Context) []watch.Event {
		get, cancel := context.WithTimeout(ctx, pollTimeout)
		list, err := ri.List(get, metav1.ListOptions{LabelSelector: opts.LabelSelector, FieldSelector: opts.FieldSelector})
		cancel()
		if err != nil {
			// A refusal of the list itself (Refused), or no answer
			// (Reconnecting), unless stopping.
			b.observe(ctx, "list", err)
			return nil
		}
		b.setConnection(Polling, reason)
		var events []watch.Event
		events, last = listedChanges(last, list.Items)
		return events
	}), nil
}

// listedChanges are the watch events that take a list from last to now:
// added, modified (another resourceVersion), deleted, and an object
// deleted and created again between two polls as two events, as a watch
// would have sent.
func listedChanges(last map[string]*metav1.PartialObjectMetadata, items []metav1.PartialObjectMetadata) ([]watch.Event, map[string]*metav1.PartialObjectMetadata) {
	now := make(map[string]*metav1.PartialObjectMetadata, len(items))
	var events []watch.Event
	for i := range items {
		m := &items[i]
		k := m.Namespace + "/" + m.Name
		now[k] = m
		switch old, ok := last[k]; {
		case !ok:
			events = append(events, watch.Event{Type: watch.Added, Object: m})
		case old.UID != m.UID:
			events = append(events, watch.Event{Type: watch.Deleted, Object: old}, watch.Event{Type: watch.Added, Object: m})
		case old.ResourceVersion != m.ResourceVersion:
			events = append(events, watch.Event{Type: watch.Modified, Object: m})
		}
	}
	for k, old := range last {
		if _, ok := now[k]; !ok {
			events = append(events, watch.Event{Type: watch.Deleted, Object: old})
		}
	}
	return events, now
}
