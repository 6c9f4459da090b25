package history

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/kedit/kedit/diff"
	"github.com/kedit/kedit/internal/testseed"
	"github.com/kedit/kedit/model"
)

// liveFrom is the live timeline of a kedit that opened the object at
// version from of h and watched every version after it, each seen a
// little after the log recorded it.
func liveFrom(h *History, from int) []model.Entry {
	var tl model.Timeline
	for i, v := range h.Versions[from:] {
		switch {
		case v.Deleted:
			if last := lastRecorded(h.Versions, from+i); last >= 0 {
				// The watch gives a deletion the object's last state, at
				// the deletion's resourceVersion (the sim's next).
				obj := h.Versions[last].Object.DeepCopy()
				rv, _ := strconv.Atoi(obj.GetResourceVersion())
				obj.SetResourceVersion(strconv.Itoa(rv + 1))
				tl.Observe(obj, v.Time.Add(time.Millisecond), true)
			}
		case v.Object != nil:
			tl.Observe(v.Object, v.Time.Add(time.Millisecond), false)
		}
	}
	return tl.Entries()
}

// TestRowsHoldEveryVersionOnceInOrder plays random histories and opens a
// live timeline at a random version of each: the rows hold every version
// of the log and every live entry once, each list in its order, a version
// both hold on one row (the same resourceVersion), the log's versions
// from before kedit opened the object first, LOST exactly on the writes
// that lost other clients' changes and REVERTED exactly on those that set
// a value back.
func TestRowsHoldEveryVersionOnceInOrder(t *testing.T) {
	base := testseed.Fixed(t, 21)
	for w := range 60 {
		seed := base + uint64(w)
		s := newSim(rand.New(rand.NewPCG(seed, 3)))
		for range 30 {
			s.step()
		}
		h := Analyze(s.events)
		if len(h.Versions) == 0 {
			continue
		}
		from := s.r.IntN(len(h.Versions))
		for from > 0 && h.Versions[from].Deleted {
			from-- // kedit opens an object, not its deletion
		}
		live := liveFrom(h, from)
		rows := Rows(h, live)
		var versions, entries []int
		lost, reverted := map[int]bool{}, map[int]bool{}
		for _, l := range h.LostUpdates {
			lost[l.OverwrittenBy] = true
		}
		for _, l := range h.Reverted {
			reverted[l.OverwrittenBy] = true
		}
		seenLive := false
		for i, r := range rows {
			if r.Version >= 0 {
				versions = append(versions, r.Version)
				if r.Lost != lost[r.Version] || r.Reverted != reverted[r.Version] {
					t.Fatalf("seed %d: row %d (version %d) LOST %v REVERTED %v, want %v %v", seed, i, r.Version, r.Lost, r.Reverted, lost[r.Version], reverted[r.Version])
				}
			} else if r.Lost || r.Reverted {
				t.Fatalf("seed %d: row %d is LOST without a version of the log", seed, i)
			}
			if r.Entry == nil {
				if seenLive && r.Version < from {
					t.Fatalf("seed %d: version %d, from before kedit opened the object (at %d), after a live row", seed, r.Version, from)
				}
				continue
			}
			seenLive = true
			entries = append(entries, r.Entry.ID)
			if r.Version < 0 {
				// The log records every write of the walk at
				// RequestResponse: each version kedit saw is the log's too.
				t.Fatalf("seed %d: live rv %s (deleted %v) has no version of the log beside it", seed, r.Entry.ResourceVersion, r.Entry.Deleted)
			}
			if r.Version >= 0 && !r.Entry.Deleted && r.Entry.ResourceVersion != h.Versions[r.Version].ResourceVersion {
				t.Fatalf("seed %d: row %d pairs live rv %s with the log's %s", seed, i, r.Entry.ResourceVersion, h.Versions[r.Version].ResourceVersion)
			}
		}
		if want := seq(len(h.Versions)); !slices.Equal(versions, want) {
			t.Fatalf("seed %d: the rows hold the log's versions %v, want %v", seed, versions, want)
		}
		var ids []int
		for _, e := range live {
			ids = append(ids, e.ID)
		}
		if !slices.Equal(entries, ids) {
			t.Fatalf("seed %d: the rows hold the live entries %v, want %v", seed, entries, ids)
		}
		if len(rows) != len(h.Versions)+len(live)-paired(rows) {
			t.Fatalf("seed %d: %d rows for %d versions and %d entries", seed, len(rows), len(h.Versions), len(live))
		}
	}
}

func seq(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

func paired(rows []Row) int {
	n := 0
	for _, r := range rows {
		if r.Version >= 0 && r.Entry != nil {
			n++
		}
	}
	return n
}

// TestRowsWithoutALog are the live entries alone, a live fight marked.
func TestRowsWithoutALog(t *testing.T) {
	t0 := time.Date(2025, 3, 1, 10, 0, 0, 0, time.UTC)
	var live []model.Entry
	for i, m := range []string{"kubectl-create", "hpa", "argocd", "hpa", "argocd"} {
		e := model.Entry{ID: i, ResourceVersion: string(rune('1' + i)), Manager: m, Observed: t0.Add(time.Duration(i) * time.Minute)}
		if i > 0 {
			e.Changes = []model.FieldChange{{Path: ".spec.replicas"}}
		}
		live = append(live, e)
	}
	rows := Rows(nil, live)
	if len(rows) != 5 {
		t.Fatalf("%d rows", len(rows))
	}
	for i, r := range rows {
		want := i >= 2
		if r.Version != -1 || r.Entry.ID != i || r.Lost || (len(r.Fights) > 0) != want {
			t.Errorf("row %d: %+v", i, r)
		}
	}
}

// TestOverwriteIsTheThreeWayOfALostUpdate: bob's change to a, and carol's
// to b, both lost by alice's write from an old read: base is what alice
// read, theirs the version before hers (holding both), mine hers.
func TestOverwriteIsTheThreeWayOfALostUpdate(t *testing.T) {
	s := newSim(rand.New(rand.NewPCG(1, 1)))
	alice, bob := s.clients[0], s.clients[1]
	carol := Client{User: "carol", UserAgent: "kubectl/v1.33.0"}
	s.seen[carol] = -2
	s.read(alice)
	s.read(bob)
	s.read(carol)
	s.write(bob, map[string]string{"keep": "1", "a": "bob", "b": "0"}, true)
	s.read(carol)
	s.write(carol, map[string]string{"keep": "1", "a": "bob", "b": "carol"}, true)
	s.write(alice, map[string]string{"keep": "1", "a": "alice", "b": "alice"}, false)
	h := Analyze(s.events)
	if len(h.Versions) != 4 || len(h.LostUpdates) != 2 {
		t.Fatalf("%d versions, lost %+v", len(h.Versions), h.LostUpdates)
	}
	if _, ok := h.Overwrite(1); ok {
		t.Errorf("bob's write lost nothing")
	}
	o, ok := h.Overwrite(3)
	if !ok || o.Base != 0 || o.Theirs != 2 || len(o.Conflicts) != 2 {
		t.Fatalf("overwrite %+v", o)
	}
	for _, c := range o.Conflicts {
		k := c.Path.String()
		want := map[string][3]string{".data.a": {"0", "bob", "alice"}, ".data.b": {"0", "carol", "alice"}}[k]
		if c.Base.Value != want[0] || c.Theirs.Value != want[1] || c.Mine.Value != want[2] {
			t.Errorf("%s: base %v theirs %v mine %v, want %v", k, c.Base.Value, c.Theirs.Value, c.Mine.Value, want)
		}
	}
	// Undone on the object as it is: both values back.
	draft, notes := h.Undo(h.Versions[3].Object, o.Losses)
	for _, n := range notes {
		if !n.Restored {
			t.Errorf("note %+v", n)
		}
	}
	if a, b := diff.ValueAt(draft.Object, o.Losses[0].Path), diff.ValueAt(draft.Object, o.Losses[1].Path); a.Value == "alice" || b.Value == "alice" {
		t.Errorf("undo left alice's values: %v %v", a.Value, b.Value)
	}
}

// read records a get of the object by c.
func (s *sim) read(c Client) {
	s.event(c, VerbGet, 200, nil, "")
	s.seen[c] = len(s.versions) - 1
}

// write stores data by c: an update with the latest resourceVersion, or
// a patch with none, made from what c last read.
func (s *sim) write(c Client, data map[string]string, withRV bool) {
	if withRV {
		s.store(c, VerbUpdate, "kedit", data, -3, s.versions[len(s.versions)-1].rv)
		return
	}
	s.store(c, VerbPatch, "kubectl-edit", data, s.base(c), "")
}
