package diff

import (
	"fmt"
	"strings"
	"testing"

	"github.com/kedit/kedit/diff/difftest"
)

// The fuzz targets share seeds: the table tests' texts plus a few shapes
// with CRLF, markers and missing newlines. The committed corpus under
// testdata/fuzz adds generated cases and inputs that once failed.
var fuzzSeeds = [][3]string{
	{"", "", ""},
	{"a\nB\nc\n", "a\nb\nc\n", "a\nb\nC\n"},
	{"a\nm\nc\n", "a\nb\nc\n", "a\nt\nc\n"},
	{"a\nm", "a\nb", "a\nt"},
	{"a\r\nm\r\n", "a\r\nb\r\n", "a\r\nt\r\n"},
	{"}\n\n}\n", "}\n}\n", "}\n}\n\n"},
	{"=======\nm\n", "=======\nb\n", "=======\nt\n"},
	{"x\n", "", "y"},
}

// FuzzMerge3TextOneSide checks that a change on one side only is taken
// whole: merge(x, base, base) = x and merge(base, base, x) = x.
func FuzzMerge3TextOneSide(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, x, base string) {
		for _, m := range []TextMerge{
			Merge3Text(x, base, base, TextOptions{}),
			Merge3Text(base, base, x, TextOptions{}),
		} {
			if m.Merged != x || m.Conflicts != 0 {
				t.Fatalf("merge of %q into base %q gave %q with %d conflicts", x, base, m.Merged, m.Conflicts)
			}
		}
	})
}

// FuzzMerge3TextSameChange checks that the same change on both sides is
// taken once: merge(x, base, x) = x.
func FuzzMerge3TextSameChange(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, x, base string) {
		m := Merge3Text(x, base, x, TextOptions{})
		if m.Merged != x || m.Conflicts != 0 {
			t.Fatalf("merge(%q, %q, %q) gave %q with %d conflicts", x, base, x, m.Merged, m.Conflicts)
		}
	})
}

// FuzzMerge3TextSwap checks that swapping mine and theirs swaps the sides
// of every hunk, conflicts included.
func FuzzMerge3TextSwap(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s[0], s[1], s[2])
	}
	f.Fuzz(func(t *testing.T, mine, base, theirs string) {
		a := Merge3Text(mine, base, theirs, TextOptions{})
		b := Merge3Text(theirs, base, mine, TextOptions{})
		if a.Conflicts != b.Conflicts || len(a.Hunks) != len(b.Hunks) {
			t.Fatalf("%d conflicts in %d hunks, swapped %d in %d", a.Conflicts, len(a.Hunks), b.Conflicts, len(b.Hunks))
		}
		for k := range a.Hunks {
			ha, hb := a.Hunks[k], b.Hunks[k]
			if ha.Conflict != hb.Conflict || ha.Base != hb.Base || ha.Mine != hb.Theirs || ha.Theirs != hb.Mine {
				t.Fatalf("hunk %d: %+v, swapped %+v", k, ha, hb)
			}
		}
		if a.Conflicts == 0 && a.Merged != b.Merged {
			t.Fatalf("clean merge %q, swapped %q", a.Merged, b.Merged)
		}
	})
}

// FuzzMerge3TextNoPanic feeds anything to Merge3Text and LineDiff and checks that the results hang together.
func FuzzMerge3TextNoPanic(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s[0], s[1], s[2], 0)
	}
	f.Add("a\nb", "\n", "\r\n", 3)
	f.Fuzz(func(t *testing.T, mine, base, theirs string, size int) {
		m := Merge3Text(mine, base, theirs, TextOptions{MarkerSize: size % 64})
		checkHunks(t, "fuzz", mine, base, theirs, m)
		checkLineEdits(t, base, mine, LineDiff(base, mine))
		checkLineEdits(t, base, mine, lineDiffXdiff(base, mine))
	})
}

// FuzzMerge3TextGit compares Merge3Text with git merge-file. It runs git
// for every input, so it is slow; leave it going for a while.
func FuzzMerge3TextGit(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s[0], s[1], s[2])
	}
	git := newGitMerger(f)
	f.Fuzz(func(t *testing.T, mine, base, theirs string) {
		// git merge-file refuses what it takes for binary: a NUL byte in
		// the first 8000 bytes.
		for _, s := range []string{mine, base, theirs} {
			if strings.IndexByte(s[:min(len(s), 8000)], 0) >= 0 {
				t.Skip("git treats texts with NUL as binary")
			}
		}
		checkAgainstGit(t, git, "fuzz", mine, base, theirs)
	})
}

// FuzzMerge3TextGitGen compares Merge3Text with git merge-file on texts the
// corpus generator makes from the fuzzed seed: structured edits (repeated
// lines, shared and overlapping changes) that byte mutation rarely builds.
func FuzzMerge3TextGitGen(f *testing.F) {
	for _, seed := range []uint64{0, 1, 2, 3, 2026} {
		f.Add(seed)
	}
	git := newGitMerger(f)
	f.Fuzz(func(t *testing.T, seed uint64) {
		g := difftest.NewCorpus(seed, seed>>7)
		mine, base, theirs := g.Next()
		checkAgainstGit(t, git, fmt.Sprintf("seed %d", seed), mine, base, theirs)
	})
}

// FuzzMerge3TextGitFlags compares Merge3Text with git merge-file under git's
// flags: style, favor and marker size come from the fuzzed numbers. It runs
// git for every input; leave it going for a while.
func FuzzMerge3TextGitFlags(f *testing.F) {
	for i, s := range fuzzSeeds {
		f.Add(s[0], s[1], s[2], uint8(i), uint8(i/3), int8(i-2))
	}
	git := newGitMerger(f)
	f.Fuzz(func(t *testing.T, mine, base, theirs string, style, favor uint8, size int8) {
		for _, s := range []string{mine, base, theirs} {
			if IsBinary([]byte(s)) {
				t.Skip("git refuses binary texts")
			}
		}
		opts := TextOptions{Style: Style(style % 3), Favor: Favor(favor % 4), MarkerSize: int(size % 20)}
		checkOptionsAgainstGit(t, git, "fuzz", opts, mine, base, theirs)
	})
}
