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
	// Merged is the merged text, with a conflict block for every conflict;
	// with the zero TextOptions it equals the output of
	// `git merge-file -p --diff3 -L mine -L base -L theirs MINE BASE THEIRS`.
	Merged string
	// Hunks are the changed regions in order, clean and conflicting, as the
	// diff3 style finds them, whatever the options' Style and Favor.
	Hunks []Hunk
	// Conflicts counts the conflict blocks in Merged: the hunks with
	// Conflict set in the diff3 style, more or fewer once StyleMerge splits
	// and joins them, and none with a Favor.
	Conflicts int
}

// TextOptions tune a three-way text merge, as git merge-file's flags do.
// The zero value is `git merge-file --diff3 -L mine -L base -L theirs`.
type TextOptions struct {
	// Labels name the sides in the markers; nil means DefaultLabels. A
	// label is written after a space even when empty, as git writes a
	// label given as -L "".
	Labels *Labels
	// MarkerSize is the length of the conflict markers, 0 or less meaning
	// DefaultMarkerSize, as git merge-file's --marker-size. Merge3Text does
	// not lengthen markers by itself, since git does not.
	MarkerSize int
	// Style is how a conflict is written.
	Style Style
	// Favor resolves every conflict for one side, leaving none.
	Favor Favor
}

// Style is the way conflicts are written, git's merge.conflictStyle.
type Style int

const (
	// StyleDiff3 writes mine, base and theirs (git merge-file --diff3).
	StyleDiff3 Style = iota
	// StyleMerge writes mine and theirs only, and first narrows each
	// conflict to the lines where mine and theirs differ and joins
	// conflicts fewer than four lines apart (git merge-file's default).
	StyleMerge
	// StyleZDiff3 is StyleDiff3 with the lines mine and theirs share at
	// the start and end of a conflict moved out of it (--zdiff3).
	StyleZDiff3
)

// Favor says how a conflict is resolved without markers.
type Favor int

const (
	// FavorNone leaves conflicts as blocks.
	FavorNone Favor = iota
	// FavorMine takes mine's lines (git merge-file --ours).
	FavorMine
	// FavorTheirs takes theirs' lines (--theirs).
	FavorTheirs
	// FavorUnion takes mine's lines then theirs' (--union).
	FavorUnion
)
