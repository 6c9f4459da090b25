package model

import (
	"fmt"
	"sort"
	"time"
)

// FightMin is how many times a field's value must change hands between
// the same two writers to be a fight.
const FightMin = 3

// FieldWrite is one write as fights see it: who wrote, when, and the
// fields it changed.
type FieldWrite struct {
	Who   string
	At    time.Time
	Paths []string
	// ID names the write for the caller (a timeline entry's ID, a
	// version's index): Fight.IDs gives it back.
	ID int
}

// Fight is a field whose value changed hands between the same two writers
// at least FightMin times: an HPA and a GitOps controller on
// .spec.replicas.
type Fight struct {
	Path string
	// Between are the two writers, in the order they first set the field.
	Between [2]string
	// Count is how many times the field changed hands between them.
	Count int
	// Times are when it did: each write that took the field from the other.
	Times []time.Time
	// IDs are those writes' FieldWrite.ID, in the same order.
	IDs []int
}

// Fights finds the fights among writes, oldest first. A field changes
// hands when a writer sets it after another did; hand-overs to or from a
// third writer do not count for the pair.
func Fights(writes []FieldWrite) []Fight {
	type hand struct {
		last  string
		set   bool
		pairs map[[2]string]*Fight
		order [][2]string
	}
	byPath := map[string]*hand{}
	var paths []string
	for _, w := range writes {
		for _, p := range w.Paths {
			h := byPath[p]
			if h == nil {
				h = &hand{pairs: map[[2]string]*Fight{}}
				byPath[p] = h
				paths = append(paths, p)
			}
			if h.set && h.last != w.Who {
				key := [2]string{h.last, w.Who}
				if key[1] < key[0] {
					key[0], key[1] = key[1], key[0]
				}
				f := h.pairs[key]
				if f == nil {
					f = &Fight{Path: p, Between: [2]string{h.last, w.Who}}
					h.pairs[key] = f
					h.order = append(h.order, key)
				}
				f.Count++
				f.Times = append(f.Times, w.At)
				f.IDs = append(f.IDs, w.ID)
			}
			h.last, h.set = w.Who, true
		}
	}
	var out []Fight
	for _, p := range paths {
		for _, key := range byPath[p].order {
			if f := byPath[p].pairs[key]; f.Count >= FightMin {
				out = append(out, *f)
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Times[0].Before(out[j].Times[0]) })
	return out
}

// Banner says the fight in one line: `fight: .spec.replicas changed hands
// 4 times between hpa and argocd in 10 min`. The writers' names come from
// the server: escape them before drawing.
func (f Fight) Banner() string {
	return fmt.Sprintf("fight: %s changed hands %s between %s and %s in %s",
		f.Path, Count(f.Count, "time"), f.Between[0], f.Between[1], span(f.Times[len(f.Times)-1].Sub(f.Times[0])))
}

// span writes a duration as the banner does: seconds under a minute,
// minutes under two hours, else hours.
func span(d time.Duration) string {
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%d s", int(d.Round(time.Second)/time.Second))
	case d < 2*time.Hour:
		return fmt.Sprintf("%d min", int(d.Round(time.Minute)/time.Minute))
	}
	return fmt.Sprintf("%d h", int(d.Round(time.Hour)/time.Hour))
}

// TimelineFights finds the fights among the versions a timeline observed
// live, each credited to the field manager managedFields name (the only
// writer the watch tells). A fight's IDs are the entries' IDs.
func TimelineFights(entries []Entry) []Fight {
	var ws []FieldWrite
	for _, e := range entries {
		if e.Deleted || e.Manager == "" || len(e.Changes) == 0 {
			continue
		}
		w := FieldWrite{Who: e.Manager, At: e.Observed, ID: e.ID}
		for _, c := range e.Changes {
			w.Paths = append(w.Paths, c.Path)
		}
		ws = append(ws, w)
	}
	return Fights(ws)
}
