package diff

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/kedit/kedit/diff/difftest"
	"github.com/kedit/kedit/internal/testgit"
	"github.com/kedit/kedit/internal/testseed"
)

// gitMerger runs the real `git merge-file`, the reference Merge3Text must
// match, on files in one temporary directory.
type gitMerger struct {
	dir string
}

func newGitMerger(t testing.TB) *gitMerger {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatalf("git is required for the diff3 parity tests: %v", err)
	}
	return &gitMerger{dir: t.TempDir()}
}

// merge returns git's merged text and conflict count (its exit code, which
// git caps at 127) for `git merge-file -p --diff3`, the zero TextOptions.
func (g *gitMerger) merge(mine, base, theirs string) (string, int, error) {
	return g.mergeWith(gitArgs(TextOptions{}), mine, base, theirs)
}

// mergeWith runs `git merge-file -p` with flags on the three texts, in
// files named mine, base and theirs.
func (g *gitMerger) mergeWith(flags []string, mine, base, theirs string) (string, int, error) {
	for name, text := range map[string]string{"mine": mine, "base": base, "theirs": theirs} {
		if err := os.WriteFile(filepath.Join(g.dir, name), []byte(text), 0o600); err != nil {
			return "", 0, err
		}
	}
	args := append(append([]string{"merge-file", "-p"}, flags...), "mine", "base", "theirs")
	cmd := exec.Command("git", args...)
	cmd.Dir = g.dir
	cmd.Env = testgit.Env(g.dir)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	code := 0
	if err != nil {
		var exit *exec.ExitError
		if !errors.As(err, &exit) {
			return "", 0, fmt.Errorf("running git merge-file: %w", err)
		}
		code = exit.ExitCode()
		if code < 0 || code > 127 {
			return "", 0, fmt.Errorf("git merge-file failed (exit %d): %s", code, stderr.String())
		}
	}
	return string(out), code, nil
}

// gitArgs are the flags of git merge-file that ask for what opts ask of
// Merge3Text.
func gitArgs(opts TextOptions) []string {
	var args []string
	switch opts.Style {
	case StyleDiff3:
		args = append(args, "--diff3")
	case StyleZDiff3:
		args = append(args, "--zdiff3")
	}
	switch opts.Favor {
	case FavorMine:
		args = append(args, "--ours")
	case FavorTheirs:
		args = append(args, "--theirs")
	case FavorUnion:
		args = append(args, "--union")
	}
	if opts.MarkerSize != 0 {
		args = append(args, "--marker-size", strconv.Itoa(opts.MarkerSize))
	}
	labels := DefaultLabels
	if opts.Labels != nil {
		labels = *opts.Labels
	}
	return append(args, "-L", labels.Mine, "-L", labels.Base, "-L", labels.Theirs)
}

// checkAgainstGit fails t when Merge3Text and git disagree on the inputs.
func checkAgainstGit(t testing.TB, g *gitMerger, name, mine, base, theirs string) bool {
	t.Helper()
	want, wantN, err := g.merge(mine, base, theirs)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	got := Merge3Text(mine, base, theirs, TextOptions{})
	if got.Merged != want || min(got.Conflicts, 127) != wantN {
		t.Errorf("%s: Merge3Text differs from git merge-file\nmine:   %q\nbase:   %q\ntheirs: %q\n"+
			"git (%d conflicts):\n%q\nours (%d conflicts):\n%q",
			name, mine, base, theirs, wantN, want, got.Conflicts, got.Merged)
		return false
	}
	checkHunks(t, name, mine, base, theirs, got)
	return true
}

// checkHunks checks that the hunks agree with the texts and the merge:
// ranges in order and inside each side, lines equal to the ranges' text, and
// the conflict count.
func checkHunks(t testing.TB, name, mine, base, theirs string, m TextMerge) {
	t.Helper()
	sides := []struct {
		name  string
		lines []string
		rng   func(Hunk) LineRange
		text  func(Hunk) []string
	}{
		{"base", splitLines(base), func(h Hunk) LineRange { return h.Base }, func(h Hunk) []string { return h.BaseLines }},
		{"mine", splitLines(mine), func(h Hunk) LineRange { return h.Mine }, func(h Hunk) []string { return h.MineLines }},
		{"theirs", splitLines(theirs), func(h Hunk) LineRange { return h.Theirs }, func(h Hunk) []string { return h.TheirsLines }},
	}
	conflicts := 0
	for _, h := range m.Hunks {
		if h.Conflict {
			conflicts++
		}
	}
	if conflicts != m.Conflicts {
		t.Errorf("%s: %d conflicting hunks, Conflicts = %d", name, conflicts, m.Conflicts)
	}
	// Without conflicts the hunks alone rebuild the merge from mine: each
	// clean hunk holds one change (or the same change twice), so no change
	// of either side is dropped.
	if m.Conflicts == 0 {
		var b strings.Builder
		mineL := sides[1].lines
		at := 0
		for k, h := range m.Hunks {
			if h.Mine.Start < at || h.Mine.Start > len(mineL) {
				t.Errorf("%s: hunk %d: mine range %+v out of order", name, k, h.Mine)
				return
			}
			b.WriteString(strings.Join(mineL[at:h.Mine.Start], ""))
			baseText, mineText, theirsText := strings.Join(h.BaseLines, ""), strings.Join(h.MineLines, ""), strings.Join(h.TheirsLines, "")
			switch {
			case mineText == baseText:
				b.WriteString(theirsText)
			case theirsText == baseText || theirsText == mineText:
				b.WriteString(mineText)
			default:
				t.Errorf("%s: clean hunk %d changes both sides differently: %+v", name, k, h)
			}
			at = h.Mine.Start + h.Mine.Len
		}
		b.WriteString(strings.Join(mineL[min(at, len(mineL)):], ""))
		if b.String() != m.Merged {
			t.Errorf("%s: hunks rebuild %q, Merged is %q", name, b.String(), m.Merged)
		}
	}
	for _, s := range sides {
		end := 0
		for k, h := range m.Hunks {
			r := s.rng(h)
			if r.Start < end || r.Len < 0 || r.Start+r.Len > len(s.lines) {
				t.Errorf("%s: hunk %d: %s range %+v out of order or out of %d lines (previous end %d)",
					name, k, s.name, r, len(s.lines), end)
				return
			}
			if got, want := s.text(h), s.lines[r.Start:r.Start+r.Len]; strings.Join(got, "") != strings.Join(want, "") {
				t.Errorf("%s: hunk %d: %s lines %q, want %q", name, k, s.name, got, want)
			}
			end = r.Start + r.Len
		}
	}
}

// TestMerge3TextMatchesGit compares Merge3Text with `git merge-file --diff3`
// on a generated corpus, byte for byte and conflict count for conflict count.
func TestMerge3TextMatchesGit(t *testing.T) {
	git := newGitMerger(t)
	cases, bigCases, hugeCases := 800, 40, 6
	if testing.Short() {
		cases, bigCases, hugeCases = 150, 8, 1
	}
	seed := uint64(2026)
	// KEDIT_DIFF3_CASES=n,seed runs a longer corpus, for a soak test.
	if v := os.Getenv("KEDIT_DIFF3_CASES"); v != "" {
		if _, err := fmt.Sscanf(v, "%d,%d", &cases, &seed); err != nil {
			t.Fatalf("KEDIT_DIFF3_CASES=%q: want n,seed: %v", v, err)
		}
		bigCases, hugeCases = cases/20, cases/200
	}
	seed = testseed.Fixed(t, seed)
	g := difftest.NewCorpus(3, seed)
	failed := 0
	for i := 0; i < cases && failed < 5; i++ {
		mine, base, theirs := g.Next()
		if !checkAgainstGit(t, git, fmt.Sprintf("case %d", i), mine, base, theirs) {
			failed++
		}
	}
	for i := 0; i < bigCases && failed < 5; i++ {
		mine, base, theirs := g.Big()
		if !checkAgainstGit(t, git, fmt.Sprintf("big case %d", i), mine, base, theirs) {
			failed++
		}
	}
	for i := 0; i < hugeCases && failed < 5; i++ {
		mine, base, theirs := g.Huge()
		if !checkAgainstGit(t, git, fmt.Sprintf("huge case %d", i), mine, base, theirs) {
			failed++
		}
	}
}
