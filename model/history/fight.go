package history

import (
	"sort"
	"time"
)

// FightMin is how many times a field's value must change hands between
// the same two clients to be a fight.
const FightMin = 3

// Fight is a field whose value changed hands between the same two clients
// at least FightMin times: an HPA and a GitOps controller on
// .spec.replicas.
type Fight struct {
	// Path is the field, as the timeline names it.
	Path string
	// Clients are the two clients, in the order they first set the field.
	Clients [2]Client
	// Count is how many times the field changed hands between them.
	Count int
	// Times are when it did: each write that took the field from the other.
	Times []time.Time
}

// fights finds the fights among the versions.
func fights(vs []Version) []Fight {
	type hand struct {
		last  Client
		set   bool
		pairs map[[2]Client]*Fight
	}
	byPath := map[string]*hand{}
	var order []string
	for _, v := range vs {
		if !v.Recorded || v.AfterGap || v.Deleted {
			continue
		}
		for _, c := range v.Changed {
			p := c.Path.String()
			h := byPath[p]
			if h == nil {
				h = &hand{pairs: map[[2]Client]*Fight{}}
				byPath[p] = h
				order = append(order, p)
			}
			if h.set && h.last != v.Client {
				key := [2]Client{h.last, v.Client}
				if key[1].String() < key[0].String() {
					key[0], key[1] = key[1], key[0]
				}
				f := h.pairs[key]
				if f == nil {
					f = &Fight{Path: p, Clients: [2]Client{h.last, v.Client}}
					h.pairs[key] = f
				}
				f.Count++
				f.Times = append(f.Times, v.Time)
			}
			h.last, h.set = v.Client, true
		}
	}
	var out []Fight
	for _, p := range order {
		var fs []Fight
		for _, f := range byPath[p].pairs {
			if f.Count >= FightMin {
				fs = append(fs, *f)
			}
		}
		sort.Slice(fs, func(i, j int) bool { return fs[i].Times[0].Before(fs[j].Times[0]) })
		out = append(out, fs...)
	}
	return out
}
