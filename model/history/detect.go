package history

import (
	"fmt"
	"math"
	"reflect"
	"time"

	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"

	"github.com/kedit/kedit/diff"
)

// History is an object's history as an audit log tells it.
type History struct {
	// Versions are the object's versions, oldest first.
	Versions []Version
	// LostUpdates are the changes that later writes replaced unseen.
	LostUpdates []Loss
	// BlindWrites are the values that writes with no base replaced.
	BlindWrites []Loss
	// Reverted are the values writes set back to what they were before
	// another client's change, when that change is not counted lost: the
	// writer read the object after it (or tested nothing of it, and its
	// read is not in the log).
	Reverted []Loss
	// Fights are the fields two clients kept taking from each other.
	Fights []Fight
	// ToolChanges are the writes whose field manager differs from the one
	// of their client's write before: one user and user agent with two
	// tools, which the detector takes for one client.
	ToolChanges []ToolChange
	// Secret is set when the object is a Secret: its values are never to
	// be shown.
	Secret bool
	// Coverage says what of the history could not be judged.
	Coverage Coverage
}

// Loss is one field whose value a write replaced: a lost update, or the
// value a blind write replaced.
type Loss struct {
	// Path is the field.
	Path fieldpath.Path
	// Value is the field's value just before the overwrite (the change
	// that was lost); absent when the lost change removed the field.
	Value diff.FieldValue
	// LostAt is the index in Versions of the write whose change was lost,
	// OverwrittenBy the index of the write that replaced it.
	LostAt, OverwrittenBy int
	// Base is the index in Versions of the overwriting write's base: -1
	// when its writer read the object before the log's first version, and
	// for a blind write.
	Base int
	// BaseRead is when the overwriting write's client last read the
	// object; zero when its request carried a resourceVersion, and for a
	// blind write.
	BaseRead time.Time
	// Evidence says, in words, why the change counts as lost.
	Evidence string
}

// Analyze rebuilds the object's history from its events (in any order)
// and finds its lost updates, blind writes and fights. opts are diff's
// options for comparing versions (the schemas of custom resources).
func Analyze(events []Event, opts ...diff.Option) *History {
	sorted := sortEvents(events)
	vs, noops := versions(sorted, opts)
	h := &History{Versions: vs}
	for _, v := range vs {
		if diff.IsSecret(v.Object) {
			h.Secret = true
		}
	}
	reads := readsByClient(sorted, noops)
	for i := range vs {
		w := &vs[i]
		if !overwriter(vs, i) {
			continue
		}
		base, at, blind := baseOf(vs, i, reads[w.Client])
		judged := map[string]bool{}
		for _, l := range overwrites(vs, i, base) {
			if tested(vs, i, l.Path) || (blind && reverts(vs, l)) {
				continue
			}
			judged[l.Path.String()] = true
			l.BaseRead = at
			if blind {
				l.Base = -1
				l.Evidence = blindEvidence(vs, l)
				h.BlindWrites = append(h.BlindWrites, l)
				continue
			}
			l.Evidence = lostEvidence(vs, l)
			h.LostUpdates = append(h.LostUpdates, l)
		}
		for _, l := range overwrites(vs, i, -1) {
			if judged[l.Path.String()] || tested(vs, i, l.Path) || !reverts(vs, l) {
				continue
			}
			l.Base, l.BaseRead = base, at
			if blind {
				l.Base = -1
			}
			l.Evidence = revertEvidence(vs, l, blind)
			h.Reverted = append(h.Reverted, l)
		}
	}
	h.Fights = fights(vs)
	h.Coverage = coverageOf(vs, reads, sorted)
	h.ToolChanges = toolChanges(vs)
	return h
}

// reverts reports whether l's write set its field back to the value it
// held before the change l names: a change by another client (LostAt)
// that the write undid, whatever its writer had read.
func reverts(vs []Version, l Loss) bool {
	s, w := &vs[l.LostAt], &vs[l.OverwrittenBy]
	if s.creation || s.Object == nil || w.Object == nil {
		return false
	}
	was := diff.ValueAt(before(vs, l.LostAt), l.Path)
	return !reflect.DeepEqual(was, diff.ValueAt(s.Object.Object, l.Path)) && reflect.DeepEqual(was, diff.ValueAt(w.Object.Object, l.Path))
}

// ToolChange is a write whose field manager differs from the manager of
// the write before it by the same client (user and user agent): two tools
// of one user, such as kubectl edit and kubectl patch from one
// kubeconfig. Reads carry no field manager, so the detector cannot tell
// the tools apart: a change one lost to the other is not seen.
type ToolChange struct {
	// Write and Previous index the two writes in History.Versions.
	Write, Previous int
}

// toolChanges lists the writes whose manager differs from their client's
// previous write's. Only managers the requests named count: one that
// managedFields credit with a write may be another writer's, and would
// make a change of tool that never was.
func toolChanges(vs []Version) []ToolChange {
	last := map[Client]int{}
	var out []ToolChange
	for i := range vs {
		v := &vs[i]
		if v.Deleted || !v.managerNamed {
			continue
		}
		if j, ok := last[v.Client]; ok && vs[j].Manager != v.Manager {
			out = append(out, ToolChange{Write: i, Previous: j})
		}
		last[v.Client] = i
	}
	return out
}

// overwriter reports whether version i is a write that can replace
// another client's change and be judged for it: an update or patch whose
// stored object and changes are known.
func overwriter(vs []Version, i int) bool {
	v := &vs[i]
	return v.Recorded && !v.Deleted && !v.creation && !v.AfterGap && v.Err == nil && len(v.Changed) > 0
}

// interval is a span of time in which a client saw the object: a point
// for a get or list, the span of a watch (open-ended for a watch still
// open at the end of the log).
type interval struct{ from, to time.Time }

var forever = time.Unix(math.MaxInt32, 0)

// readsByClient gathers each client's reads of the object. The writes
// that stored nothing new count as reads: their client was sent the
// object as it was.
func readsByClient(events []Event, noops []Event) map[Client][]interval {
	out := map[Client][]interval{}
	add := func(ev Event) {
		if ev.Code != 0 && (ev.Code < 200 || ev.Code >= 300) {
			return
		}
		iv := interval{ev.Time, ev.Time}
		if ev.Verb == VerbWatch {
			iv = interval{ev.Received, ev.Time}
			if ev.Open {
				iv.to = forever
			}
		}
		out[ev.Client] = append(out[ev.Client], iv)
	}
	for _, ev := range events {
		switch ev.Verb {
		case VerbGet, VerbList, VerbWatch:
			add(ev)
		}
	}
	for _, ev := range noops {
		add(ev)
	}
	return out
}

// baseOf finds write i's base: the version before it when its request
// carried a resourceVersion (the server took it only as the latest),
// else the latest version its client may have seen when it last read the
// object before the write. at is that read's time. blind is set when
// there is neither.
//
// A read saw a write only if the write was stored before the read was
// answered, which the log does not say to the microsecond; a write the
// server had received by then counts as seen, so that no change is
// called lost that the reader may have had.
func baseOf(vs []Version, i int, reads []interval) (base int, at time.Time, blind bool) {
	w := &vs[i]
	if w.requestRV != "" {
		return i - 1, time.Time{}, false
	}
	var known time.Time
	for _, r := range reads {
		var t time.Time
		switch {
		case !r.from.Before(w.Received):
			continue // began with or after the write
		case r.to.Before(w.Received):
			t = r.to
		default:
			t = w.Received // a watch open when the write was sent
		}
		if t.After(known) {
			known = t
		}
	}
	if known.IsZero() {
		return -1, time.Time{}, true
	}
	base = -1
	for j := 0; j < i; j++ {
		if !vs[j].Received.After(known) {
			base = j
		}
	}
	return base, known, false
}

// overwrites lists the fields write i replaced that a client other than
// its own had set after base: for each field the write changed, the
// fields inside it that others last changed since base, else the field
// itself when its last setter is another client since base.
func overwrites(vs []Version, i, base int) []Loss {
	w := &vs[i]
	var out []Loss
	seen := map[string]bool{}
	add := func(p fieldpath.Path, setter int) bool {
		key := p.String()
		if setter <= base || vs[setter].Client == w.Client {
			return false
		}
		if !seen[key] {
			seen[key] = true
			out = append(out, Loss{Path: p, Value: diff.ValueAt(before(vs, i), p), LostAt: setter, OverwrittenBy: i, Base: base})
		}
		return true
	}
	for _, q := range w.Changed {
		deeper := false
		for k := i - 1; k > base && k >= 0 && !vs[k].creation; k-- {
			for _, c := range vs[k].Changed {
				if len(c.Path) > len(q.Path) && within(c.Path, q.Path) {
					if s, ok := setter(vs, i, c.Path); ok && s == k && add(c.Path, s) {
						deeper = true
					}
				}
			}
		}
		if deeper {
			continue
		}
		if s, ok := setter(vs, i, q.Path); ok {
			add(q.Path, s)
		}
	}
	return out
}

// setter finds the version that last set the field at p before version
// i: the latest one whose changes touch p (p itself, a field holding it,
// or a field inside it), or the creation of the object. ok is false when
// the log does not say: the object was created before the log began, or
// a write the log holds no object of came between.
func setter(vs []Version, i int, p fieldpath.Path) (int, bool) {
	for k := i - 1; k >= 0; k-- {
		v := &vs[k]
		if !v.Recorded || v.Err != nil {
			return 0, false
		}
		if v.creation {
			return k, true
		}
		for _, c := range v.Changed {
			if within(c.Path, p) || within(p, c.Path) {
				if v.AfterGap {
					return 0, false
				}
				return k, true
			}
		}
	}
	return 0, false
}

// before is the object just before version i.
func before(vs []Version, i int) map[string]any {
	for k := i - 1; k >= 0; k-- {
		if vs[k].Object != nil {
			return vs[k].Object.Object
		}
	}
	return nil
}

// within reports whether p is q or a field inside it.
func within(p, q fieldpath.Path) bool {
	if len(p) < len(q) {
		return false
	}
	return p[:len(q)].Equals(q)
}

func lostEvidence(vs []Version, l Loss) string {
	w, s := &vs[l.OverwrittenBy], &vs[l.LostAt]
	read := "before the log begins"
	if l.Base >= 0 {
		read = fmt.Sprintf("at %s (resourceVersion %s)", stamp(l.BaseRead), vs[l.Base].ResourceVersion)
	}
	return fmt.Sprintf("%s's %s carried no resourceVersion; %s last read the object %s, before %s set %s at %s (resourceVersion %s)%s",
		w.Client.User, w.Verb, w.Client.User, read, s.Client.User, l.Path, stamp(s.Time), s.ResourceVersion, recreatedSince(vs, l))
}

// revertEvidence says why a revert is one, and why it is not called a
// lost update: its writer may have seen the change it undid.
func revertEvidence(vs []Version, l Loss, blind bool) string {
	w, s := &vs[l.OverwrittenBy], &vs[l.LostAt]
	read := fmt.Sprintf("its request carried resourceVersion %s, later than that change", w.requestRV)
	switch {
	case blind:
		read = fmt.Sprintf("the log has no read of the object by %s before the write, so what %s saw is unknown", w.Client.User, w.Client.User)
	case w.requestRV == "" && l.Base >= 0:
		read = fmt.Sprintf("%s last read the object at %s (resourceVersion %s), after that change", w.Client.User, stamp(l.BaseRead), vs[l.Base].ResourceVersion)
	case w.requestRV == "":
		read = fmt.Sprintf("%s last read the object at %s, after that change", w.Client.User, stamp(l.BaseRead))
	}
	return fmt.Sprintf("%s's %s set %s back to the value it held before %s changed it at %s (resourceVersion %s); not called a lost update, as %s may have read it: %s%s",
		w.Client.User, w.Verb, l.Path, s.Client.User, stamp(s.Time), s.ResourceVersion, w.Client.User, read, recreatedSince(vs, l))
}

// recreatedSince says, when the object was deleted and created again
// between the overwriting write's base and the write, that its writer's
// read was of the deleted object; "" otherwise.
func recreatedSince(vs []Version, l Loss) string {
	if l.Base < 0 {
		return ""
	}
	for k := l.OverwrittenBy; k > l.Base; k-- {
		c := &vs[k]
		if !c.Recreated {
			continue
		}
		del := ""
		if d := &vs[k-1]; d.Deleted {
			del = fmt.Sprintf(" by %s at %s", d.Client.User, stamp(d.Time))
		}
		return fmt.Sprintf("; that read was of the deleted object (uid %s): it was deleted%s and created again (uid %s) by %s at %s (resourceVersion %s)",
			vs[l.Base].UID, del, c.UID, c.Client.User, stamp(c.Time), c.ResourceVersion)
	}
	return ""
}

func blindEvidence(vs []Version, l Loss) string {
	w, s := &vs[l.OverwrittenBy], &vs[l.LostAt]
	return fmt.Sprintf("%s's %s carried no resourceVersion and the log has no read of the object by %s before it; %s had set %s at %s (resourceVersion %s)",
		w.Client.User, w.Verb, w.Client.User, s.Client.User, l.Path, stamp(s.Time), s.ResourceVersion)
}

// stamp writes a time as the audit log does, to the microsecond.
func stamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000000Z") }
