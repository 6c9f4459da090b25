package diff

import (
	"fmt"

	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

// FieldValue is one side's value of a field. Present is false when that side
// has no such field, which is not the same as a field set to null (Present
// true, Value nil).
type FieldValue struct {
	Present bool
	// Value is the field's value in unstructured form (string, int64,
	// float64, bool, nil, map[string]any, []any). Values of a Secret's data
	// are decoded from base64.
	Value any
}

// ChangeKind says how a field changed from base.
type ChangeKind int

// The kinds of change, as structured-merge-diff's comparison names them.
const (
	// Added means the field is new.
	Added ChangeKind = iota + 1
	// Modified means the field changed its value.
	Modified
	// Removed means the field is gone.
	Removed
)

// String returns "added", "modified" or "removed".
func (k ChangeKind) String() string {
	switch k {
	case Added:
		return "added"
	case Modified:
		return "modified"
	case Removed:
		return "removed"
	}
	return fmt.Sprintf("ChangeKind(%d)", int(k))
}

// Change is a change from base that went into the merged object without a
// conflict.
type Change struct {
	// Path is the field in server-side apply's syntax, e.g. `.data.foo`.
	Path fieldpath.Path
	Side Side
	Kind ChangeKind
	// Base is the field's value in base, Value its value on Side (mine's
	// for SideBoth); Value is absent for a removal. For a Secret's data
	// they are decoded.
	Base, Value FieldValue
	// Hunk is set when the change is one region of a line merge of a
	// multi-line string both sides changed: the lines Side changed there
	// (Base and Value are then the whole texts). A line merge lists one
	// change per region, so that each side's lines are named.
	Hunk *Hunk
}

// Where names the change's field, and for a region of a line merge its
// lines in base: `.data.app.conf line 5`.
func (c Change) Where() string { return where(c.Path, c.Hunk) }

// Conflict is a field that mine and theirs changed in different ways, or
// one region of a multi-line string where their lines collide.
type Conflict struct {
	// Path is the field in server-side apply's syntax:
	// `.data.foo`, `.spec.template.spec.containers[name="app"].image`.
	Path fieldpath.Path
	// Base, Mine and Theirs are the field's value in each version.
	Base, Mine, Theirs FieldValue
	// Hunks is set when the field is a multi-line string both sides
	// changed: the line merge of the three texts. Each region where their
	// lines collide is a conflict of its own, which Hunk points at; the
	// clean regions are in ObjectMerge.Changes. It is nil for other
	// conflicts.
	Hunks []Hunk
	// Hunk is the colliding region of Hunks this conflict is about, nil
	// when the conflict is the whole field. Resolving it chooses that
	// region's lines only: the field's other regions keep their own
	// resolutions and the clean changes of both sides.
	Hunk *Hunk
	// Owner is set for a conflict of server-side apply
	// (OwnershipConflicts): the field manager that owns the field on the
	// server.
	Owner string
}

// Where names the conflict's field, and for a colliding region of a
// multi-line string its lines in base: `.data.app.conf lines 10–12`.
func (c Conflict) Where() string { return where(c.Path, c.Hunk) }

// where names a field, with the lines of h in base when h is set. A region
// that inserts lines without replacing any is named by the line it follows.
func where(p fieldpath.Path, h *Hunk) string {
	s := p.String()
	if h == nil {
		return s
	}
	r := h.Base
	switch {
	case r.Len == 0 && r.Start == 0:
		return s + " before line 1"
	case r.Len == 0:
		return fmt.Sprintf("%s after line %d", s, r.Start)
	case r.Len == 1:
		return fmt.Sprintf("%s line %d", s, r.Start+1)
	}
	return fmt.Sprintf("%s lines %d–%d", s, r.Start+1, r.Start+r.Len)
}

// Choice is how a conflict is resolved.
type Choice int

// The ways to resolve a conflict.
const (
	// Unresolved leaves (or puts back) the conflict open.
	Unresolved Choice = iota
	// TakeMine takes mine's value of the field (or its absence).
	TakeMine
	// TakeTheirs takes theirs' value of the field (or its absence).
	TakeTheirs
	// TakeBase takes base's value, undoing both changes.
	TakeBase
	// TakeCustom takes Resolution.Value.
	TakeCustom
)

// Resolution resolves one conflict.
type Resolution struct {
	Choice Choice
	// Value is the field's value for TakeCustom; Present false removes the
	// field. For a Secret's data it is the decoded value. For a conflict
	// that is one region of a multi-line string (Conflict.Hunk) it is the
	// region's lines, a string, and the field stays.
	Value FieldValue
}
