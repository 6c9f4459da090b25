package diff

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/kedit/kedit/diff/difftest"
	"github.com/kedit/kedit/internal/testseed"
)

// flagFocus names the option each round of randomOptions is about, so
// that every git flag gets its share of the cases.
var flagFocus = []string{"merge", "zdiff3", "ours", "theirs", "union", "marker-size", "labels", "any"}

var labelChoices = []string{"", "x", "ours", "a b", "été", "HEAD:conf.yaml", "<<<", " "}

// randomOptions draws TextOptions with the focus flag set and the other
// options mostly left alone (all at random for "any").
func randomOptions(r *rand.Rand, focus string) TextOptions {
	var o TextOptions
	style := func() Style { return Style(r.IntN(3)) }
	favor := func() Favor { return Favor(r.IntN(4)) }
	size := func() int {
		if r.IntN(10) == 0 {
			return 20 + r.IntN(40)
		}
		return r.IntN(15) - 2
	}
	labels := func() *Labels {
		pick := func() string { return labelChoices[r.IntN(len(labelChoices))] }
		return &Labels{Mine: pick(), Base: pick(), Theirs: pick()}
	}
	switch focus {
	case "merge":
		o.Style = StyleMerge
	case "zdiff3":
		o.Style = StyleZDiff3
	case "ours", "theirs", "union":
		// Git's default style with a favor is merge, which narrows the
		// conflicts the union then joins: try every style.
		o.Favor = map[string]Favor{"ours": FavorMine, "theirs": FavorTheirs, "union": FavorUnion}[focus]
		o.Style = style()
	case "marker-size":
		o.MarkerSize = size()
		o.Style = style()
	case "labels":
		o.Labels = labels()
		o.Style = style()
	default:
		o.Style, o.Favor, o.MarkerSize = style(), favor(), size()
		if r.IntN(2) == 0 {
			o.Labels = labels()
		}
	}
	return o
}

// checkOptionsAgainstGit fails t when Merge3Text with opts and git merge-file
// with the matching flags disagree on the inputs.
func checkOptionsAgainstGit(t testing.TB, g *gitMerger, name string, opts TextOptions, mine, base, theirs string) bool {
	t.Helper()
	flags := gitArgs(opts)
	want, wantN, err := g.mergeWith(flags, mine, base, theirs)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	got := Merge3Text(mine, base, theirs, opts)
	if got.Merged != want || min(got.Conflicts, 127) != wantN {
		t.Errorf("%s: Merge3Text differs from git merge-file -p %s\nmine:   %q\nbase:   %q\ntheirs: %q\n"+
			"git (%d conflicts):\n%q\nours (%d conflicts):\n%q",
			name, strings.Join(flags, " "), mine, base, theirs, wantN, want, got.Conflicts, got.Merged)
		return false
	}
	return true
}

// TestMerge3TextFlagsMatchGit compares Merge3Text with git merge-file under
// each of git's flags (the merge and zdiff3 styles, --ours, --theirs,
// --union, --marker-size, -L) and their combinations, on generated cases,
// byte for byte and conflict count for conflict count.
// KEDIT_GITFLAGS_CASES=n,seed runs a longer corpus (make stress).
func TestMerge3TextFlagsMatchGit(t *testing.T) {
	git := newGitMerger(t)
	cases, bigCases := 2000, 16
	if testing.Short() {
		cases, bigCases = 400, 2
	}
	seed := uint64(2039)
	if v := os.Getenv("KEDIT_GITFLAGS_CASES"); v != "" {
		if _, err := fmt.Sscanf(v, "%d,%d", &cases, &seed); err != nil {
			t.Fatalf("KEDIT_GITFLAGS_CASES=%q: want n,seed: %v", v, err)
		}
		bigCases = cases / 100
	}
	seed = testseed.Fixed(t, seed)
	t.Logf("%d cases and %d big ones, seed %d", cases, bigCases, seed)
	g := difftest.NewCorpus(5, seed)
	r := g.Rand()
	failed := 0
	for i := 0; i < cases+bigCases && failed < 5; i++ {
		focus := flagFocus[i%len(flagFocus)]
		var mine, base, theirs string
		if i < cases {
			mine, base, theirs = g.Next()
		} else {
			mine, base, theirs = g.Big()
		}
		opts := randomOptions(r, focus)
		if !checkOptionsAgainstGit(t, git, fmt.Sprintf("case %d (%s, seed %d)", i, focus, seed), opts, mine, base, theirs) {
			failed++
		}
	}
}

// TestMerge3TextFlags pins each style and favor on one conflict, against
// git as well.
func TestMerge3TextFlags(t *testing.T) {
	// One conflict whose sides share their first and last lines, and a
	// clean change of theirs after it.
	base := lines("a", "b", "c", "d", "e", "f", "g", "h")
	mine := lines("a", "X", "b1", "Y", "d", "e", "f", "g", "h")
	theirs := lines("a", "X", "b2", "Y", "d", "e", "f", "g", "H")
	tests := []struct {
		name      string
		opts      TextOptions
		want      string
		conflicts int
	}{
		{"diff3", TextOptions{},
			lines("a", "<<<<<<< mine", "X", "b1", "Y", "||||||| base", "b", "c", "=======", "X", "b2", "Y", ">>>>>>> theirs", "d", "e", "f", "g", "H"), 1},
		{"zdiff3", TextOptions{Style: StyleZDiff3},
			lines("a", "X", "<<<<<<< mine", "b1", "||||||| base", "b", "c", "=======", "b2", ">>>>>>> theirs", "Y", "d", "e", "f", "g", "H"), 1},
		{"merge", TextOptions{Style: StyleMerge},
			lines("a", "X", "<<<<<<< mine", "b1", "=======", "b2", ">>>>>>> theirs", "Y", "d", "e", "f", "g", "H"), 1},
		{"ours", TextOptions{Favor: FavorMine}, lines("a", "X", "b1", "Y", "d", "e", "f", "g", "H"), 0},
		{"theirs", TextOptions{Favor: FavorTheirs}, lines("a", "X", "b2", "Y", "d", "e", "f", "g", "H"), 0},
		{"union diff3", TextOptions{Favor: FavorUnion}, lines("a", "X", "b1", "Y", "X", "b2", "Y", "d", "e", "f", "g", "H"), 0},
		{"union merge", TextOptions{Favor: FavorUnion, Style: StyleMerge}, lines("a", "X", "b1", "b2", "Y", "d", "e", "f", "g", "H"), 0},
		{"marker size and labels", TextOptions{Style: StyleMerge, MarkerSize: 3, Labels: &Labels{Mine: "", Base: "o", Theirs: "B"}},
			lines("a", "X", "<<< ", "b1", "===", "b2", ">>> B", "Y", "d", "e", "f", "g", "H"), 1},
	}
	git := newGitMerger(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Merge3Text(mine, base, theirs, tt.opts)
			if got.Merged != tt.want || got.Conflicts != tt.conflicts {
				t.Errorf("Merged (%d conflicts) =\n%s\nwant (%d):\n%s", got.Conflicts, got.Merged, tt.conflicts, tt.want)
			}
			// The hunks are the diff3 regions whatever the options.
			if len(got.Hunks) != 2 || !got.Hunks[0].Conflict || got.Hunks[1].Conflict {
				t.Errorf("hunks %+v", got.Hunks)
			}
			checkOptionsAgainstGit(t, git, tt.name, tt.opts, mine, base, theirs)
		})
	}
}

// TestMerge3TextFlagsLineEnds pins how a favor and a style treat a side
// without a final newline and CRLF texts, against git.
func TestMerge3TextFlagsLineEnds(t *testing.T) {
	tests := []struct {
		name               string
		mine, base, theirs string
		opts               TextOptions
		want               string
	}{
		{"union adds the missing line end", "a\nm", "a\nb", "a\nt", TextOptions{Favor: FavorUnion}, "a\nm\nt"},
		{"union adds CRLF in a CRLF text", "a\r\nm", "a\r\nb", "a\r\nt", TextOptions{Favor: FavorUnion}, "a\r\nm\r\nt"},
		{"ours keeps mine's missing line end", "a\nm", "a\nb", "a\nt\n", TextOptions{Favor: FavorMine}, "a\nm"},
		{"theirs keeps theirs' missing line end", "a\nm\n", "a\nb", "a\nt", TextOptions{Favor: FavorTheirs}, "a\nt"},
		{"merge style in CRLF", "a\r\nm\r\n", "a\r\nb\r\n", "a\r\nt", TextOptions{Style: StyleMerge},
			"a\r\n<<<<<<< mine\r\nm\r\n=======\r\nt\r\n>>>>>>> theirs\r\n"},
		{"merge style joins conflicts across lines without letters", lines("m1", "}", "", "}", "{", "m2"), lines("b1", "}", "", "}", "{", "b2"),
			lines("t1", "}", "", "}", "{", "t2"), TextOptions{Style: StyleMerge},
			lines("<<<<<<< mine", "m1", "}", "", "}", "{", "m2", "=======", "t1", "}", "", "}", "{", "t2", ">>>>>>> theirs")},
		{"merge style keeps conflicts apart across four lines with letters", lines("m1", "w", "x", "y", "z", "m2"), lines("b1", "w", "x", "y", "z", "b2"),
			lines("t1", "w", "x", "y", "z", "t2"), TextOptions{Style: StyleMerge},
			lines("<<<<<<< mine", "m1", "=======", "t1", ">>>>>>> theirs", "w", "x", "y", "z", "<<<<<<< mine", "m2", "=======", "t2", ">>>>>>> theirs")},
	}
	git := newGitMerger(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Merge3Text(tt.mine, tt.base, tt.theirs, tt.opts)
			if got.Merged != tt.want {
				t.Errorf("Merged = %q, want %q", got.Merged, tt.want)
			}
			checkOptionsAgainstGit(t, git, tt.name, tt.opts, tt.mine, tt.base, tt.theirs)
		})
	}
}

// TestIsBinary checks git's rule: a NUL in the first 8000 bytes.
func TestIsBinary(t *testing.T) {
	for _, tt := range []struct {
		data string
		want bool
	}{
		{"", false},
		{"text\n", false},
		{"a\x00b", true},
		{strings.Repeat("a", 7999) + "\x00", true},
		{strings.Repeat("a", 8000) + "\x00", false},
	} {
		if got := IsBinary([]byte(tt.data)); got != tt.want {
			t.Errorf("IsBinary(%d bytes, NUL at %d) = %v", len(tt.data), strings.IndexByte(tt.data, 0), got)
		}
	}
}
