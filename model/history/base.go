package history

import (
	"math"
	"strings"
	"time"
)

// read is a span of time in which a client saw the object: a point for a
// get or list, the span of a watch (open-ended for a watch still open at
// the end of the log).
type read struct {
	from, to time.Time
	verb     string
	// own marks a get that a write's command made itself (ownread.go):
	// not what its user saw.
	own bool
}

var forever = time.Unix(math.MaxInt32, 0)

// writeKey names a write among the events: where the log holds it, and
// when it was received.
type writeKey struct {
	source   string
	received time.Time
}

// clientReads are each client's reads of the object, and the reads the
// commands of writes made themselves, by write.
type clientReads struct {
	by  map[Client][]*read
	own map[writeKey]*read
	// logged is set when the log holds a get, list or watch of the
	// object: its policy logs reads.
	logged bool
}

// readsByClient gathers each client's reads of the object. The writes
// that stored nothing new count as reads: their client was sent the
// object as it was (but kubectl's, whose user is shown only that nothing
// changed). A get that a write's command made itself is marked
// own, whether the write succeeded or not.
func readsByClient(events []Event, noops []Event) clientReads {
	cr := clientReads{by: map[Client][]*read{}, own: map[writeKey]*read{}}
	add := func(ev Event) {
		if ev.Code != 0 && (ev.Code < 200 || ev.Code >= 300) {
			return
		}
		r := &read{from: ev.Time, to: ev.Time, verb: ev.Verb}
		if ev.Verb == VerbWatch {
			r.from = ev.Received
			if ev.Open {
				r.to = forever
			}
		}
		cr.by[ev.Client] = append(cr.by[ev.Client], r)
	}
	for _, ev := range events {
		switch {
		case ev.Verb == VerbGet || ev.Verb == VerbList || ev.Verb == VerbWatch:
			add(ev)
			cr.logged = true
		case ev.IsWrite():
			cr.markOwn(ev)
		}
	}
	for _, ev := range noops {
		// kubectl prints "(no change)", kedit set the resourceVersion, not
		// the object the write got back: their user saw nothing.
		if !strings.HasPrefix(ev.Client.UserAgent, "kubectl/") && !strings.HasPrefix(ev.Client.UserAgent, "kedit/") {
			add(ev)
		}
	}
	return cr
}

// markOwn marks the get that write ev's command made itself, if it makes
// one: its client's last get before ev, answered within the command's gap.
func (cr clientReads) markOwn(ev Event) {
	gap := ownReadGap
	switch readsFirstOf(ev.Manager, ev.Subresource, ev.Client.UserAgent) {
	case readsNothing:
		return
	case readsWithoutRV:
		if ev.RequestRV == "" {
			return // it sent a file without one, and read nothing
		}
		gap = ownReplaceGap
	}
	var last *read
	for _, r := range cr.by[ev.Client] {
		if r.verb == VerbGet && !r.own && !r.to.After(ev.Received) && (last == nil || r.to.After(last.to)) {
			last = r
		}
	}
	if last != nil && ev.Received.Sub(last.to) <= gap {
		last.own = true
		cr.own[writeKey{ev.Source, ev.Received}] = last
	}
}

// base is what a write's writer had seen when it wrote.
type base struct {
	// index is the latest version the writer may have seen: the version
	// before the write when its request carried a resourceVersion of its
	// own, else the latest one stored before its last read; -1 when that
	// read came before the log's first version, and for a blind write.
	index int
	// at is when the writer last read the object; zero when its request
	// carried a resourceVersion of its own, and for a blind write.
	at time.Time
	// blind is set when the write carried no resourceVersion of its own
	// and its client has no read of the object before it in the log.
	blind bool
	// own is the get the write's command made itself, left out; nil when
	// it made none. ownRV is set when the resourceVersion its request
	// carried is that get's (kubectl replace of a file without one).
	own   *read
	ownRV bool
	// early is the client's last read before the object was created,
	// which did not read it; nil when there is none.
	early *read
}

// baseOf finds write i's base: the version before it when its request
// carried a resourceVersion of its own (the server took it only as the
// latest), else the latest version its client may have seen when it last
// read the object before the write, its command's own read left out. A
// read answered before the object was created (in the log) did not read
// it.
//
// A read saw a write only if the write was stored before the read was
// answered, which the log does not say to the microsecond; a write the
// server had received by then counts as seen, so that no change is
// called lost that the reader may have had.
func baseOf(vs []Version, i int, cr clientReads) base {
	w := &vs[i]
	b := base{index: -1, own: cr.own[writeKey{w.Source, w.Received}]}
	b.ownRV = b.own != nil && w.requestRV != ""
	if w.requestRV != "" && !b.ownRV {
		b.index = i - 1
		return b
	}
	created := createdAt(vs)
	var known time.Time
	for _, r := range cr.by[w.Client] {
		var t time.Time
		switch {
		case r.own || !r.from.Before(w.Received):
			continue // the command's own, or began with or after the write
		case r.to.Before(w.Received):
			t = r.to
		default:
			t = w.Received // a watch open when the write was sent
		}
		if !created.IsZero() && t.Before(created) {
			if b.early == nil || r.to.After(b.early.to) {
				b.early = r
			}
			continue
		}
		if t.After(known) {
			known = t
		}
	}
	if known.IsZero() {
		b.blind = true
		return b
	}
	b.at = known
	for j := 0; j < i; j++ {
		if !vs[j].Received.After(known) {
			b.index = j
		}
	}
	return b
}

// createdAt is when the server received the request that created the
// object, when the log holds it: its first version is a create. Zero
// when the object was created before the log began.
func createdAt(vs []Version) time.Time {
	if len(vs) > 0 && vs[0].creation && !vs[0].Recreated {
		return vs[0].Received
	}
	return time.Time{}
}
