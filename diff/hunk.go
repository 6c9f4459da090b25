package diff

// Labels name the three sides in conflict markers.
type Labels struct {
	Mine, Base, Theirs string
}

// DefaultLabels are the labels kedit writes in conflict blocks:
// `<<<<<<< mine`, `||||||| base`, `>>>>>>> theirs`.
var DefaultLabels = Labels{Mine: "mine", Base: "base", Theirs: "theirs"}

// LineRange is a run of lines of one side: Start is the 0-based index of its
// first line and Len how many lines it has (0 for an empty run, which then
// sits before line Start).
type LineRange struct {
	Start, Len int
}

// Hunk is one region of a three-way text merge where at least one side
// differs from base. Lines keep their trailing "\n" (the last line of a text
// that lacks a final newline has none).
type Hunk struct {
	// Conflict is true when mine and theirs changed the region differently.
	Conflict bool
	// Side is the side a clean region comes from: SideMine or SideTheirs
	// when only that side changed it, SideBoth when both made the same
	// change. It is zero for a conflict.
	Side Side
	// Base, Mine and Theirs locate the region in each side.
	Base, Mine, Theirs LineRange
	// BaseLines, MineLines and TheirsLines are the region's text on each side.
	BaseLines, MineLines, TheirsLines []string
}

// TextMerge is the result of a three-way text merge.
type TextMerge struct {
	// Merged is the merged text, with a diff3-style block for every conflict;
	// it equals the output of
	// `git merge-file -p --diff3 -L mine -L base -L theirs MINE BASE THEIRS`.
	Merged string
	// Hunks are the changed regions in order, clean and conflicting.
	Hunks []Hunk
	// Conflicts counts the hunks with Conflict set.
	Conflicts int
}

// TextOptions tune a three-way text merge. The zero value uses DefaultLabels
// and git's default marker size of 7.
type TextOptions struct {
	Labels Labels
	// MarkerSize is the length of the conflict markers, 0 meaning
	// DefaultMarkerSize, as git merge-file's --marker-size. Merge3Text does
	// not lengthen markers by itself, since git does not; pass
	// MarkerSizeFor(mine, base, theirs) for markers that no line of the
	// texts can be taken for.
	MarkerSize int
}
