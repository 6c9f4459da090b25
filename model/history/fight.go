package history

import (
	"time"

	"github.com/kedit/kedit/model"
)

// FightMin is how many times a field's value must change hands between
// the same two clients to be a fight (model's rule).
const FightMin = model.FightMin

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
	// Versions are those writes, as indexes in History.Versions.
	Versions []int
}

// fights finds the fights among the versions, by model.Fights' rule, with
// clients as the writers.
func fights(vs []Version) []Fight {
	clients := map[string]Client{}
	var ws []model.FieldWrite
	for i, v := range vs {
		if !v.Recorded || v.AfterGap || v.Deleted {
			continue
		}
		key := v.Client.User + "\x00" + v.Client.UserAgent
		clients[key] = v.Client
		w := model.FieldWrite{Who: key, At: v.Time, ID: i}
		for _, c := range v.Changed {
			w.Paths = append(w.Paths, c.Path.String())
		}
		ws = append(ws, w)
	}
	var out []Fight
	for _, f := range model.Fights(ws) {
		fight := Fight{Path: f.Path, Clients: [2]Client{clients[f.Between[0]], clients[f.Between[1]]}}
		for k, id := range f.IDs {
			// A write that tested the field took it knowing the value it
			// replaced: no hand-over between two blind sides.
			if testedChange(vs, id, f.Path) {
				continue
			}
			fight.Count++
			fight.Times, fight.Versions = append(fight.Times, f.Times[k]), append(fight.Versions, id)
		}
		// A side whose every take tested the field only ever took it
		// knowing what it replaced: the other side's takes are answers to
		// a writer that asks first, not a fight.
		if fight.Count >= FightMin && takers(vs, fight.Versions) == 2 {
			out = append(out, fight)
		}
	}
	return out
}

// testedChange reports whether version i changed the field named path
// and its JSON Patch tested it.
func testedChange(vs []Version, i int, path string) bool {
	for _, c := range vs[i].Changed {
		if c.Path.String() == path {
			return tested(vs, i, c.Path)
		}
	}
	return false
}

// takers counts the clients among the writes of versions ids.
func takers(vs []Version, ids []int) int {
	seen := map[Client]bool{}
	for _, i := range ids {
		seen[vs[i].Client] = true
	}
	return len(seen)
}
