package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kedit/kedit/diff"
	"github.com/kedit/kedit/diff/difftest"
	"github.com/kedit/kedit/internal/testgit"
	"github.com/kedit/kedit/internal/testseed"
)

// kedit merge as git merge-file's drop-in, through the built binary: its
// exit statuses are the process's own (main's os.Exit), which only the
// binary shows.

// writeFiles writes name → text into dir; an empty text removes the file.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		path := filepath.Join(dir, name)
		os.Remove(path)
		if text == "" {
			continue
		}
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

// TestE2EMergeExitStatusIsGits: the kedit binary exits as git merge-file
// does: the number of conflicts, 127 at most; 255 for a missing file and
// for a binary one (a NUL in the first 8,000 bytes), with git's words on
// stderr; 129 for a usage error. Each beside the git on the machine.
func TestE2EMergeExitStatusIsGits(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, n := range []int{0, 1, 3, 127, 130} {
		mine, base, theirs := difftest.Conflicts(n)
		writeFiles(t, dir, map[string]string{"m": mine, "o": base, "t": theirs})
		want, _, wantCode := testgit.Run(t, dir, "merge-file", "-p", "--diff3", "-L", "mine", "-L", "base", "-L", "theirs", "m", "o", "t")
		got, stderr, code := runBinaryIn(t, dir, "", "merge", "m", "o", "t")
		if code != wantCode || code != min(n, 127) || got != want {
			t.Errorf("%d conflicts: kedit exit %d, git %d, want %d; stdout equal %v", n, code, wantCode, min(n, 127), got == want)
		}
		if wantNote := fmt.Sprintf("kedit: %d conflicts\n", n); n > 1 && stderr != wantNote {
			t.Errorf("%d conflicts: stderr %q, want %q", n, stderr, wantNote)
		}
		if _, stderr, _ := runBinaryIn(t, dir, "", "merge", "-q", "m", "o", "t"); stderr != "" {
			t.Errorf("-q: stderr %q", stderr)
		}
	}

	binary := strings.Repeat("line\n", 100) + "\x00" + strings.Repeat("line\n", 100)
	for _, tc := range []struct {
		name    string
		files   map[string]string
		args    []string
		code    int
		message string // all of stderr, when git's
	}{
		{"missing base", map[string]string{"m": "a\n", "o": "", "t": "b\n"}, []string{"m", "o", "t"}, 255, ""},
		{"binary theirs", map[string]string{"m": "a\n", "o": "a\n", "t": binary}, []string{"m", "o", "t"}, 255, "error: Cannot merge binary files: t\n"},
		{"binary mine", map[string]string{"m": binary, "o": "a\n", "t": "a\n"}, []string{"m", "o", "t"}, 255, "error: Cannot merge binary files: m\n"},
		{"two files", map[string]string{"m": "a\n", "o": "a\n", "t": "a\n"}, []string{"m", "o"}, 129, ""},
		{"an unknown flag", map[string]string{"m": "a\n", "o": "a\n", "t": "a\n"}, []string{"--no-such-flag", "m", "o", "t"}, 129, ""},
	} {
		writeFiles(t, dir, tc.files)
		_, gitErr, wantCode := testgit.Run(t, dir, append([]string{"merge-file", "-p"}, tc.args...)...)
		got, stderr, code := runBinaryIn(t, dir, "", append([]string{"merge"}, tc.args...)...)
		if code != tc.code || wantCode != tc.code {
			t.Errorf("%s: kedit exit %d, git %d, want %d (stderr %q)", tc.name, code, wantCode, tc.code, stderr)
		}
		if got != "" {
			t.Errorf("%s: kedit wrote %q on stdout", tc.name, got)
		}
		if tc.message != "" && (stderr != tc.message || gitErr != tc.message) {
			t.Errorf("%s: kedit said %q, git %q, want %q", tc.name, stderr, gitErr, tc.message)
		}
		if tc.message == "" && stderr == "" {
			t.Errorf("%s: kedit said nothing", tc.name)
		}
	}
}

// gitFlagSets are git merge-file's flags, one set per run: each style,
// each favor, the marker size, -q and the labels.
var gitFlagSets = [][]string{
	{"-L", "x"},
	{"--diff3", "-L", "x"},
	{"--zdiff3", "-L", "HEAD", "-L", "o"},
	{"--ours", "-L", "x"},
	{"--theirs", "-L", "x"},
	{"--union", "-L", "x"},
	{"--marker-size", "9", "--diff3", "-L", "a b", "-L", "", "-L", "été"},
	{"--marker-size=3", "-L", "x"},
	{"-q", "--zdiff3", "-L", "x"},
}

// TestE2EMergeFlagsAreGits: the kedit binary with each of git's flags
// writes git merge-file's bytes and exits with its status, on random
// texts: kedit merge --merge FLAGS beside git merge-file -p FLAGS (kedit's
// own default style is diff3, and a style in FLAGS comes after and wins),
// kedit merge without flags beside git merge-file -p --diff3 with kedit's
// labels, and -o MINE beside git merge-file writing MINE.
func TestE2EMergeFlagsAreGits(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	seed := testseed.Fixed(t, 2003)
	g := difftest.NewCorpus(23, seed)
	// A few texts: the package's tests compare thousands with git; these
	// show that the binary is the same merge.
	failed := 0
	for i, texts := 0, 0; texts < 6 && failed < 3; i++ {
		mine, base, theirs := g.Next()
		if manifest(mine, base, theirs) {
			continue // merged field by field: kedit's own
		}
		texts++
		writeFiles(t, dir, map[string]string{"a.txt": mine, "o.txt": base, "b.txt": theirs})
		runs := [][2][]string{{
			{"merge", "a.txt", "o.txt", "b.txt"},
			{"merge-file", "-p", "--diff3", "-L", "mine", "-L", "base", "-L", "theirs", "a.txt", "o.txt", "b.txt"},
		}}
		for _, flags := range gitFlagSets {
			runs = append(runs, [2][]string{
				append(append([]string{"merge", "--merge", "-p"}, flags...), "a.txt", "o.txt", "b.txt"),
				append(append([]string{"merge-file", "-p"}, flags...), "a.txt", "o.txt", "b.txt"),
			})
		}
		for _, run := range runs {
			want, _, wantCode := testgit.Run(t, dir, run[1]...)
			got, _, code := runBinaryIn(t, dir, "", run[0]...)
			if got != want || code != wantCode {
				failed++
				t.Errorf("case %d (seed %d): kedit %q exit %d, git %q exit %d\nmine %q\nbase %q\ntheirs %q\nkedit:\n%q\ngit:\n%q",
					i, seed, run[0], code, run[1], wantCode, mine, base, theirs, got, want)
			}
		}

		// -o MINE is git merge-file without -p: the result in MINE.
		writeFiles(t, dir, map[string]string{"git-mine": mine, "kedit-mine": mine})
		_, _, wantCode := testgit.Run(t, dir, "merge-file", "-L", "x", "git-mine", "o.txt", "b.txt")
		out, _, code := runBinaryIn(t, dir, "", "merge", "--merge", "-o", "kedit-mine", "-L", "x", "kedit-mine", "o.txt", "b.txt")
		wantMine, _ := os.ReadFile(filepath.Join(dir, "git-mine"))
		gotMine, _ := os.ReadFile(filepath.Join(dir, "kedit-mine"))
		if string(gotMine) != string(wantMine) || code != wantCode || out != "" {
			failed++
			t.Errorf("case %d (seed %d): -o MINE wrote (exit %d, stdout %q)\n%q\ngit merge-file wrote (exit %d)\n%q",
				i, seed, code, out, gotMine, wantCode, wantMine)
		}
	}
}

// manifest says whether kedit merge takes one of texts for a Kubernetes
// manifest.
func manifest(texts ...string) bool {
	for _, s := range texts {
		if _, err := diff.DecodeObject([]byte(s)); err == nil {
			return true
		}
	}
	return false
}
