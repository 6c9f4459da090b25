package diff

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
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
// git caps at 127).
func (g *gitMerger) merge(mine, base, theirs string) (string, int, error) {
	for name, text := range map[string]string{"mine": mine, "base": base, "theirs": theirs} {
		if err := os.WriteFile(filepath.Join(g.dir, name), []byte(text), 0o600); err != nil {
			return "", 0, err
		}
	}
	cmd := exec.Command("git", "merge-file", "-p", "--diff3",
		"-L", "mine", "-L", "base", "-L", "theirs", "mine", "base", "theirs")
	cmd.Dir = g.dir
	// Keep any user or system configuration out of the reference run.
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null",
		"GIT_CEILING_DIRECTORIES="+filepath.Dir(g.dir))
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

// corpusGen makes base texts and two edited sides, deterministically from
// its seed, with the shapes that make diff3 hard: repeated lines, blank
// lines, edits both sides share, overlapping and adjacent edits, missing
// final newlines, CRLF and lines that look like conflict markers.
type corpusGen struct {
	r *rand.Rand
}

var (
	// Few distinct lines, so that many alignments cost the same.
	vocabSmall = []string{"a", "b", "c", "}", "", "{", "x"}
	// Shaped like YAML and code, with the usual repeated closers.
	vocabCode = []string{
		"}", "", "\t}", "\treturn nil", "if err != nil {", "\treturn err", "func f() {",
		"apiVersion: v1", "kind: ConfigMap", "metadata:", "  name: app", "data:",
		"  key: value", "  - name: app", "    image: nginx", "    ports:", "    - containerPort: 80",
		"#", "---", "foo", "bar", "baz", "qux",
	}
	vocabMarkers = []string{"<<<<<<< x", "=======", ">>>>>>> y", "||||||| z", "<<<<<<<", "======="}
)

func (g *corpusGen) line(vocab []string) string {
	if g.r.IntN(8) == 0 {
		return fmt.Sprintf("line %d", g.r.IntN(50))
	}
	if g.r.IntN(60) == 0 {
		return vocabMarkers[g.r.IntN(len(vocabMarkers))]
	}
	return vocab[g.r.IntN(len(vocab))]
}

func (g *corpusGen) lines(vocab []string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = g.line(vocab)
	}
	return out
}

// edit replaces del lines of base at pos with ins.
type edit struct {
	pos, del int
	ins      []string
}

func (g *corpusGen) edit(vocab []string, n int) edit {
	pos := g.r.IntN(n + 1)
	e := edit{pos: pos}
	switch g.r.IntN(4) {
	case 0: // insert
		e.ins = g.lines(vocab, 1+g.r.IntN(4))
	case 1: // delete
		e.del = min(1+g.r.IntN(4), n-pos)
	default: // replace
		e.del = min(1+g.r.IntN(3), n-pos)
		e.ins = g.lines(vocab, 1+g.r.IntN(3))
	}
	return e
}

// apply applies the edits that do not overlap an earlier one.
func apply(base []string, edits []edit) []string {
	sort.SliceStable(edits, func(a, b int) bool { return edits[a].pos < edits[b].pos })
	var out []string
	at := 0
	for _, e := range edits {
		if e.pos < at {
			continue
		}
		out = append(out, base[at:e.pos]...)
		out = append(out, e.ins...)
		at = e.pos + e.del
	}
	return append(out, base[at:]...)
}

// join writes lines with LF or CRLF ends, sometimes without the last one.
func (g *corpusGen) join(lines []string, crlf bool) string {
	if len(lines) == 0 {
		return ""
	}
	eol := "\n"
	if crlf {
		eol = "\r\n"
	}
	s := strings.Join(lines, eol) + eol
	if g.r.IntN(5) == 0 {
		s = strings.TrimSuffix(s, eol)
	}
	return s
}

func (g *corpusGen) next() (mine, base, theirs string) {
	vocab := vocabSmall
	if g.r.IntN(2) == 0 {
		vocab = vocabCode
	}
	n := g.r.IntN(40)
	if g.r.IntN(10) == 0 {
		n = g.r.IntN(4)
	}
	return g.make(vocab, n, 5)
}

// big makes long texts with many edits per side, so that the edit cost
// passes xdiff's thresholds (256) and its cut-off heuristics decide the
// alignment.
func (g *corpusGen) big() (mine, base, theirs string) {
	vocab := vocabSmall
	if g.r.IntN(2) == 0 {
		vocab = vocabCode
	}
	return g.make(vocab, 1000+g.r.IntN(3000), 100+g.r.IntN(400))
}

// huge makes texts long enough (over 32k lines that have matches on the
// other side) that xdiff's cost limit rises above its heuristic trigger, so
// that its snake heuristic, not only the cost cut-off, picks splits.
func (g *corpusGen) huge() (mine, base, theirs string) {
	vocab := make([]string, 3000)
	for i := range vocab {
		vocab[i] = fmt.Sprintf("v%d", i)
	}
	vocab = append(vocab, vocabCode...)
	return g.make(vocab, 34000+g.r.IntN(4000), 500+g.r.IntN(3000))
}

func (g *corpusGen) make(vocab []string, n, maxEdits int) (mine, base, theirs string) {
	baseL := g.lines(vocab, n)

	// Edits both sides make (identical or overlapping changes), then each
	// side's own.
	shared := make([]edit, g.r.IntN(3))
	for i := range shared {
		shared[i] = g.edit(vocab, n)
	}
	side := func() []string {
		var es []edit
		for _, e := range shared {
			if g.r.IntN(3) > 0 {
				es = append(es, e)
			}
		}
		for k := g.r.IntN(maxEdits); k > 0; k-- {
			es = append(es, g.edit(vocab, n))
		}
		return apply(baseL, es)
	}
	mineL, theirsL := side(), side()

	crlf := g.r.IntN(8) == 0
	base = g.join(baseL, crlf)
	mine = g.join(mineL, crlf != (g.r.IntN(20) == 0))
	theirs = g.join(theirsL, crlf != (g.r.IntN(20) == 0))
	return mine, base, theirs
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
	g := &corpusGen{r: rand.New(rand.NewPCG(3, seed))}
	failed := 0
	for i := 0; i < cases && failed < 5; i++ {
		mine, base, theirs := g.next()
		if !checkAgainstGit(t, git, fmt.Sprintf("case %d", i), mine, base, theirs) {
			failed++
		}
	}
	for i := 0; i < bigCases && failed < 5; i++ {
		mine, base, theirs := g.big()
		if !checkAgainstGit(t, git, fmt.Sprintf("big case %d", i), mine, base, theirs) {
			failed++
		}
	}
	for i := 0; i < hugeCases && failed < 5; i++ {
		mine, base, theirs := g.huge()
		if !checkAgainstGit(t, git, fmt.Sprintf("huge case %d", i), mine, base, theirs) {
			failed++
		}
	}
}
