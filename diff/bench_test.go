package diff

import (
	"testing"

	"github.com/kedit/kedit/diff/internal/textgen"
)

// benchTexts are the texts of BENCHMARKS.md's text rows: a 20,000-line,
// about 1 MiB YAML base and two sides with 50 edits each, 4 of them on the
// same lines (conflicts) and 2 the same on both sides. testdata/gentext
// writes the same texts to files for whole-process timings.
func benchTexts() (mine, base, theirs string) {
	base = textgen.YAML(1, 20000)
	mine, theirs = textgen.Sides(2, base, 50, 4)
	return mine, base, theirs
}

func BenchmarkMerge3TextYAML(b *testing.B) {
	mine, base, theirs := benchTexts()
	b.SetBytes(int64(len(base)))
	b.ReportAllocs()
	for b.Loop() {
		Merge3Text(mine, base, theirs, TextOptions{})
	}
}

func BenchmarkLineDiffYAML(b *testing.B) {
	mine, base, _ := benchTexts()
	b.SetBytes(int64(len(base)))
	b.ReportAllocs()
	for b.Loop() {
		LineDiff(base, mine)
	}
}

// TestBenchTextsMatchGit keeps the benchmark honest: on its texts the
// merge equals git's and has the planned conflicts.
func TestBenchTextsMatchGit(t *testing.T) {
	mine, base, theirs := benchTexts()
	if len(base) < 900_000 || len(base) > 1_200_000 {
		t.Errorf("base is %d bytes, want about 1 MiB", len(base))
	}
	checkAgainstGit(t, newGitMerger(t), "bench texts", mine, base, theirs)
	if m := Merge3Text(mine, base, theirs, TextOptions{}); m.Conflicts != 4 {
		t.Errorf("%d conflicts, want 4", m.Conflicts)
	}
}
