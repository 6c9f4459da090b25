package diff

import (
	"reflect"
	"strings"
	"testing"
)

// lines joins its arguments with "\n" after each, for short test texts.
func lines(ls ...string) string {
	if len(ls) == 0 {
		return ""
	}
	return strings.Join(ls, "\n") + "\n"
}

func TestMerge3Text(t *testing.T) {
	conflict := func(mine, base, theirs string) string {
		return "<<<<<<< mine\n" + mine + "||||||| base\n" + base + "=======\n" + theirs + ">>>>>>> theirs\n"
	}
	tests := []struct {
		name               string
		mine, base, theirs string
		opts               TextOptions
		want               string
		conflicts          int
		hunks              []Hunk // checked when not nil
		skipGit            bool   // options git merge-file's command line in the parity check does not use
	}{
		{
			name: "no changes",
			mine: lines("a", "b"), base: lines("a", "b"), theirs: lines("a", "b"),
			want: lines("a", "b"), hunks: []Hunk{},
		},
		{
			name: "only mine changed",
			mine: lines("a", "B", "c"), base: lines("a", "b", "c"), theirs: lines("a", "b", "c"),
			want: lines("a", "B", "c"),
			hunks: []Hunk{{
				Side: SideMine, Base: LineRange{1, 1}, Mine: LineRange{1, 1}, Theirs: LineRange{1, 1},
				BaseLines: []string{"b\n"}, MineLines: []string{"B\n"}, TheirsLines: []string{"b\n"},
			}},
		},
		{
			name: "only theirs changed",
			mine: lines("a", "b", "c"), base: lines("a", "b", "c"), theirs: lines("a", "b", "C"),
			want: lines("a", "b", "C"),
		},
		{
			name: "each side changed a different line",
			mine: lines("A", "b", "c", "d"), base: lines("a", "b", "c", "d"), theirs: lines("a", "b", "c", "D"),
			want: lines("A", "b", "c", "D"),
			hunks: []Hunk{{
				Side: SideMine, Base: LineRange{0, 1}, Mine: LineRange{0, 1}, Theirs: LineRange{0, 1},
				BaseLines: []string{"a\n"}, MineLines: []string{"A\n"}, TheirsLines: []string{"a\n"},
			}, {
				Side: SideTheirs, Base: LineRange{3, 1}, Mine: LineRange{3, 1}, Theirs: LineRange{3, 1},
				BaseLines: []string{"d\n"}, MineLines: []string{"d\n"}, TheirsLines: []string{"D\n"},
			}},
		},
		{
			name: "identical change on both sides is taken once",
			mine: lines("a", "X", "c", "Y"), base: lines("a", "b", "c", "d"), theirs: lines("a", "X", "c", "d"),
			want: lines("a", "X", "c", "Y"),
			hunks: []Hunk{{
				Side: SideBoth, Base: LineRange{1, 1}, Mine: LineRange{1, 1}, Theirs: LineRange{1, 1},
				BaseLines: []string{"b\n"}, MineLines: []string{"X\n"}, TheirsLines: []string{"X\n"},
			}, {
				Side: SideMine, Base: LineRange{3, 1}, Mine: LineRange{3, 1}, Theirs: LineRange{3, 1},
				BaseLines: []string{"d\n"}, MineLines: []string{"Y\n"}, TheirsLines: []string{"d\n"},
			}},
		},
		{
			name: "overlapping different changes conflict",
			mine: lines("a", "mine", "c"), base: lines("a", "b", "c"), theirs: lines("a", "theirs", "c"),
			want:      "a\n" + conflict(lines("mine"), lines("b"), lines("theirs")) + "c\n",
			conflicts: 1,
			hunks: []Hunk{{
				Conflict: true,
				Base:     LineRange{1, 1}, Mine: LineRange{1, 1}, Theirs: LineRange{1, 1},
				BaseLines: []string{"b\n"}, MineLines: []string{"mine\n"}, TheirsLines: []string{"theirs\n"},
			}},
		},
		{
			name: "partly overlapping changes widen the conflict",
			mine: lines("a", "M", "M", "d", "e"), base: lines("a", "b", "c", "d", "e"), theirs: lines("a", "b", "T", "T", "e"),
			want:      "a\n" + conflict(lines("M", "M", "d"), lines("b", "c", "d"), lines("b", "T", "T")) + "e\n",
			conflicts: 1,
		},
		{
			// git treats changes that touch without a line between as one
			// region, hence a conflict.
			name: "adjacent changes conflict",
			mine: lines("a", "B", "c", "d"), base: lines("a", "b", "c", "d"), theirs: lines("a", "b", "C", "d"),
			want:      "a\n" + conflict(lines("B", "c"), lines("b", "c"), lines("b", "C")) + "d\n",
			conflicts: 1,
		},
		{
			name: "changes one line apart merge",
			mine: lines("a", "B", "c", "d", "e"), base: lines("a", "b", "c", "d", "e"), theirs: lines("a", "b", "c", "D", "e"),
			want: lines("a", "B", "c", "D", "e"),
		},
		{
			name: "insert at start on one side, at end on the other",
			mine: lines("start", "a", "b"), base: lines("a", "b"), theirs: lines("a", "b", "end"),
			want: lines("start", "a", "b", "end"),
		},
		{
			name: "different inserts at the same place conflict",
			mine: lines("a", "m", "b"), base: lines("a", "b"), theirs: lines("a", "t", "b"),
			want:      "a\n" + conflict(lines("m"), "", lines("t")) + "b\n",
			conflicts: 1,
		},
		{
			name: "different inserts at start conflict",
			mine: lines("m", "a"), base: lines("a"), theirs: lines("t", "a"),
			want:      conflict(lines("m"), "", lines("t")) + "a\n",
			conflicts: 1,
		},
		{
			name: "delete on one side",
			mine: lines("a", "c"), base: lines("a", "b", "c"), theirs: lines("a", "b", "c", "d"),
			want: lines("a", "c", "d"),
		},
		{
			name: "same delete on both sides",
			mine: lines("a", "c"), base: lines("a", "b", "c"), theirs: lines("a", "c"),
			want: lines("a", "c"),
		},
		{
			name: "delete against modify conflicts",
			mine: lines("a", "c"), base: lines("a", "b", "c"), theirs: lines("a", "B", "c"),
			want:      "a\n" + conflict("", lines("b"), lines("B")) + "c\n",
			conflicts: 1,
		},
		{
			name: "all empty",
			want: "", hunks: []Hunk{},
		},
		{
			name: "empty base, both add the same",
			mine: lines("x"), theirs: lines("x"),
			want: lines("x"),
		},
		{
			name: "empty base, both add differently",
			mine: lines("m"), theirs: lines("t"),
			want:      conflict(lines("m"), "", lines("t")),
			conflicts: 1,
		},
		{
			name: "mine empties the file",
			mine: "", base: lines("a", "b"), theirs: lines("a", "b"),
			want: "",
		},
		{
			name: "mine empties the file, theirs edits it",
			mine: "", base: lines("a", "b"), theirs: lines("a", "B"),
			want:      conflict("", lines("a", "b"), lines("a", "B")),
			conflicts: 1,
		},
		{
			name: "no final newline kept from an unchanged end",
			mine: "A\nb", base: "a\nb", theirs: "a\nb",
			want: "A\nb",
		},
		{
			name: "final newline added by one side",
			mine: "a\nb", base: "a\nb", theirs: "a\nb\n",
			want: "a\nb\n",
		},
		{
			name: "final newline added by one side, other edits elsewhere",
			mine: "A\nb\nc", base: "a\nb\nc", theirs: "a\nb\nc\n",
			want: "A\nb\nc\n",
		},
		{
			// Inside a block every side ends with a newline, so that the
			// markers stay on lines of their own.
			name: "conflict on last lines without final newline",
			mine: "a\nm", base: "a\nb", theirs: "a\nt",
			want:      "a\n" + conflict("m\n", "b\n", "t\n"),
			conflicts: 1,
			hunks: []Hunk{{
				Conflict: true,
				Base:     LineRange{1, 1}, Mine: LineRange{1, 1}, Theirs: LineRange{1, 1},
				BaseLines: []string{"b"}, MineLines: []string{"m"}, TheirsLines: []string{"t"},
			}},
		},
		{
			name: "final newline removed on one side, added line on the other",
			mine: "a\nb", base: "a\nb\n", theirs: "a\nb\nc\n",
			want:      "a\n" + conflict("b\n", "b\n", "b\nc\n"),
			conflicts: 1,
		},
		{
			name: "crlf conflict uses crlf markers",
			mine: "a\r\nm\r\nc\r\n", base: "a\r\nb\r\nc\r\n", theirs: "a\r\nt\r\nc\r\n",
			want:      "a\r\n<<<<<<< mine\r\nm\r\n||||||| base\r\nb\r\n=======\r\nt\r\n>>>>>>> theirs\r\nc\r\n",
			conflicts: 1,
		},
		{
			name: "crlf clean merge",
			mine: "A\r\nb\r\nc\r\n", base: "a\r\nb\r\nc\r\n", theirs: "a\r\nb\r\nC\r\n",
			want: "A\r\nb\r\nC\r\n",
		},
		{
			name: "crlf conflict without final newline adds crlf",
			mine: "a\r\nm", base: "a\r\nb", theirs: "a\r\nt",
			want:      "a\r\n<<<<<<< mine\r\nm\r\n||||||| base\r\nb\r\n=======\r\nt\r\n>>>>>>> theirs\r\n",
			conflicts: 1,
		},
		{
			name: "lines like markers are merged as text",
			mine: lines("a", "=======", "m"), base: lines("a", "=======", "b"), theirs: lines("a", "=======", "t"),
			want:      lines("a", "=======") + conflict(lines("m"), lines("b"), lines("t")),
			conflicts: 1,
		},
		{
			name: "marker size option",
			mine: lines("=======", "m"), base: lines("=======", "b"), theirs: lines("=======", "t"),
			opts:      TextOptions{MarkerSize: 8},
			want:      lines("=======", "<<<<<<<< mine", "m", "|||||||| base", "b", "========", "t", ">>>>>>>> theirs"),
			conflicts: 1, skipGit: true,
		},
		{
			name: "labels option",
			mine: lines("m"), base: lines("b"), theirs: lines("t"),
			opts:      TextOptions{Labels: &Labels{Mine: "draft", Base: "v1", Theirs: "live"}},
			want:      lines("<<<<<<< draft", "m", "||||||| v1", "b", "=======", "t", ">>>>>>> live"),
			conflicts: 1, skipGit: true,
		},
		{
			name: "two conflicts",
			mine: lines("m1", "x", "y", "z", "m2"), base: lines("b1", "x", "y", "z", "b2"), theirs: lines("t1", "x", "y", "z", "t2"),
			want:      conflict(lines("m1"), lines("b1"), lines("t1")) + lines("x", "y", "z") + conflict(lines("m2"), lines("b2"), lines("t2")),
			conflicts: 2,
		},
	}
	git := newGitMerger(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Merge3Text(tt.mine, tt.base, tt.theirs, tt.opts)
			if got.Merged != tt.want {
				t.Errorf("Merged =\n%q\nwant\n%q", got.Merged, tt.want)
			}
			if got.Conflicts != tt.conflicts {
				t.Errorf("Conflicts = %d, want %d", got.Conflicts, tt.conflicts)
			}
			if tt.hunks != nil && !(len(tt.hunks) == 0 && len(got.Hunks) == 0) && !reflect.DeepEqual(got.Hunks, tt.hunks) {
				t.Errorf("Hunks =\n%+v\nwant\n%+v", got.Hunks, tt.hunks)
			}
			checkHunks(t, tt.name, tt.mine, tt.base, tt.theirs, got)
			if !tt.skipGit {
				checkAgainstGit(t, git, tt.name, tt.mine, tt.base, tt.theirs)
			}
		})
	}
}
