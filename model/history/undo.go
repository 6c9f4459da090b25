package history

import (
	"reflect"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kedit/kedit/diff"
)

// UndoNote says what Undo did with one lost update.
type UndoNote struct {
	// Path is the lost field.
	Path string
	// Restored is set when the draft puts the lost value back.
	Restored bool
	// Kept is set when the field changed again since the overwrite: the
	// draft keeps the newer value, for nothing is overwritten in the name
	// of undoing.
	Kept bool
	// Failed is set when the field could not be set in the object as it
	// is now (its place in it is gone).
	Failed bool
}

// Undo makes the draft that undoes overwrites: live (the object as it is
// now) with the lost values of losses put back. A field whose value is no
// longer what the overwriting write stored was changed again since: the
// draft keeps the newer value, and its note says so. live is not changed.
// Saving the draft is an ordinary save, with live's resourceVersion.
func (h *History) Undo(live *unstructured.Unstructured, losses []Loss) (*unstructured.Unstructured, []UndoNote) {
	draft := live.DeepCopy()
	var notes []UndoNote
	for _, l := range losses {
		n := UndoNote{Path: l.Path.String()}
		var stored map[string]any
		if w := h.Versions[l.OverwrittenBy].Object; w != nil {
			stored = w.Object
		}
		now := diff.ValueAt(draft.Object, l.Path)
		if !sameValue(diff.ValueAt(stored, l.Path), now) {
			n.Kept = true
		} else if obj, ok := diff.WithValueAt(draft.Object, l.Path, l.Value); ok {
			draft.Object, n.Restored = obj, true
		} else {
			n.Failed = true
		}
		notes = append(notes, n)
	}
	return draft, notes
}

func sameValue(a, b diff.FieldValue) bool {
	return a.Present == b.Present && reflect.DeepEqual(a.Value, b.Value)
}
