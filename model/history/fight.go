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
		out = append(out, Fight{Path: f.Path, Clients: [2]Client{clients[f.Between[0]], clients[f.Between[1]]}, Count: f.Count, Times: f.Times, Versions: f.IDs})
	}
	return out
}
