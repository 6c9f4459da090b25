package history

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"

	"github.com/kedit/kedit/diff"
	"github.com/kedit/kedit/internal/testseed"
)

// TestUndoPutsBackOnlyWhatWasLost plays random histories (the detector's
// random walks) and undoes each write's lost updates on the object as it
// is at the end: a lost field the overwrite's value still holds gets the
// lost value back; one changed again since keeps its newer value and says
// so; every other field is the object's as it is.
func TestUndoPutsBackOnlyWhatWasLost(t *testing.T) {
	walks := 60
	if testing.Short() {
		walks = 20
	}
	checked, kept := 0, 0
	base := testseed.Fixed(t, 0)
	for w := range walks {
		seed := base + uint64(w)
		s := newSim(rand.New(rand.NewPCG(seed, 7)))
		for range 40 {
			s.step()
		}
		h := Analyze(s.events)
		if len(h.Versions) == 0 || h.Versions[len(h.Versions)-1].Object == nil {
			continue
		}
		live := h.Versions[len(h.Versions)-1].Object
		byWrite := map[int][]Loss{}
		for _, l := range h.LostUpdates {
			byWrite[l.OverwrittenBy] = append(byWrite[l.OverwrittenBy], l)
		}
		for wi, losses := range byWrite {
			draft, notes := h.Undo(live, losses)
			if len(notes) != len(losses) {
				t.Fatalf("seed %d: %d notes for %d losses", seed, len(notes), len(losses))
			}
			lost := map[string]bool{}
			for i, l := range losses {
				lost[l.Path.String()] = true
				stored := diff.ValueAt(h.Versions[wi].Object.Object, l.Path)
				now := diff.ValueAt(live.Object, l.Path)
				got := diff.ValueAt(draft.Object, l.Path)
				switch {
				case sameValue(stored, now):
					if !notes[i].Restored || !sameValue(got, l.Value) {
						t.Fatalf("seed %d: %s still as the overwrite left it: draft %+v, want the lost %+v (note %+v)", seed, l.Path, got, l.Value, notes[i])
					}
				default:
					kept++
					if !notes[i].Kept || !sameValue(got, now) {
						t.Fatalf("seed %d: %s changed since the overwrite: draft %+v, want the newer %+v (note %+v)", seed, l.Path, got, now, notes[i])
					}
				}
				checked++
			}
			// Everything else is the object as it is now.
			for _, k := range append([]string{"keep"}, simKeys...) {
				p := fieldpath.MakePathOrDie("data", k)
				if lost[p.String()] {
					continue
				}
				if a, b := diff.ValueAt(draft.Object, p), diff.ValueAt(live.Object, p); !sameValue(a, b) {
					t.Fatalf("seed %d: undo changed %s, which was not lost: %+v, live %+v", seed, p, a, b)
				}
			}
			if !reflect.DeepEqual(draft.Object["metadata"], live.Object["metadata"]) {
				t.Fatalf("seed %d: undo changed metadata", seed)
			}
		}
	}
	if checked == kept || kept == 0 {
		t.Fatalf("of %d lost updates undone, %d changed since: the walks must play both", checked, kept)
	}
}
