package history

import (
	"time"

	"github.com/kedit/kedit/diff"
)

// Overwrite is one write's lost updates as the three-way view shows them:
// base, the version its writer last read; theirs, the version holding the
// changes it lost; mine, what it stored. The lost fields are the view's
// open items.
type Overwrite struct {
	// Write indexes the overwriting write in History.Versions.
	Write int
	// Base is the version its writer last read: -1 when that read came
	// before the log begins, and the version is unknown. BaseRead is when
	// it read it (zero when its request carried a resourceVersion).
	Base     int
	BaseRead time.Time
	// Theirs is the version holding the changes that were lost: the write
	// that made them when one did, else the last version before Write,
	// which holds them all.
	Theirs int
	// Losses are the lost updates, one per field.
	Losses []Loss
	// Conflicts are the losses as the conflict view lists them: the field
	// and its value in base (absent when base is unknown), in theirs (the
	// lost value) and in mine (what the write stored).
	Conflicts []diff.Conflict
}

// Overwrite returns the lost updates of version write; false when it lost
// none.
func (h *History) Overwrite(write int) (Overwrite, bool) {
	o := Overwrite{Write: write, Base: -1, Theirs: -1}
	for _, l := range h.LostUpdates {
		if l.OverwrittenBy != write {
			continue
		}
		if len(o.Losses) == 0 {
			o.Base, o.BaseRead, o.Theirs = l.Base, l.BaseRead, l.LostAt
		} else if o.Theirs != l.LostAt {
			o.Theirs = lastRecorded(h.Versions, write)
		}
		o.Losses = append(o.Losses, l)
	}
	if len(o.Losses) == 0 {
		return Overwrite{}, false
	}
	var base, mine map[string]any
	if o.Base >= 0 && h.Versions[o.Base].Object != nil {
		base = h.Versions[o.Base].Object.Object
	}
	if obj := h.Versions[write].Object; obj != nil {
		mine = obj.Object
	}
	for _, l := range o.Losses {
		o.Conflicts = append(o.Conflicts, diff.Conflict{Path: l.Path, Base: diff.ValueAt(base, l.Path), Theirs: l.Value,
			Mine: diff.ValueAt(mine, l.Path)})
	}
	return o, true
}

// lastRecorded is the last version before i the log holds an object of.
func lastRecorded(vs []Version, i int) int {
	for k := i - 1; k >= 0; k-- {
		if vs[k].Object != nil {
			return k
		}
	}
	return -1
}
