package main

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/kedit/kedit/diff"
	"github.com/kedit/kedit/diff/difftest"
	"github.com/kedit/kedit/internal/testgit"
	"github.com/kedit/kedit/internal/testseed"
)

// randomGitFlags draws a git merge-file command line's flags: styles,
// favors, a marker size and labels, in random order and number, so that
// the last of several styles or favors wins as in git.
func randomGitFlags(r *rand.Rand) []string {
	var flags [][]string
	for k := r.IntN(3); k > 0; k-- {
		flags = append(flags, []string{[]string{"--diff3", "--zdiff3"}[r.IntN(2)]})
	}
	for k := r.IntN(3); k > 0; k-- {
		flags = append(flags, []string{[]string{"--ours", "--theirs", "--union"}[r.IntN(3)]})
	}
	if r.IntN(3) == 0 {
		n := strconv.Itoa(r.IntN(14) - 2)
		if r.IntN(2) == 0 {
			flags = append(flags, []string{"--marker-size", n})
		} else {
			flags = append(flags, []string{"--marker-size=" + n})
		}
	}
	labels := []string{"ours", "", "a b", "HEAD", "été"}
	for k := r.IntN(4); k > 0; k-- {
		flags = append(flags, []string{"-L", labels[r.IntN(len(labels))]})
	}
	r.Shuffle(len(flags), func(i, j int) { flags[i], flags[j] = flags[j], flags[i] })
	var out []string
	for _, f := range flags {
		out = append(out, f...)
	}
	return out
}

// TestMergeCommandMatchesGitFlags runs kedit merge and git merge-file with
// the same random flags on generated texts and compares stdout and the exit
// status byte for byte. kedit is given --merge first, since its default
// style is diff3 and git's is merge; git's own style flags come after and
// win. The files have names other than mine, base and theirs, so that a
// side without -L shows git's rule (its file name) in both.
func TestMergeCommandMatchesGitFlags(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatalf("git is required: %v", err)
	}
	dir := t.TempDir()
	t.Chdir(dir)
	cases := 500
	if testing.Short() {
		cases = 100
	}
	seed := testseed.Fixed(t, 1789)
	g := difftest.NewCorpus(11, seed)
	r := g.Rand()
	names := []string{"a.txt", "o.txt", "b.txt"}
	failed := 0
	for i := 0; i < cases && failed < 5; i++ {
		mine, base, theirs := g.Next()
		if isManifest(mine, base, theirs) {
			// Merged field by field, or refused beside a text: kedit's own.
			continue
		}
		for k, text := range []string{mine, base, theirs} {
			if err := os.WriteFile(names[k], []byte(text), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		flags := randomGitFlags(r)
		// A side without -L is named by its file in git; without any -L
		// kedit names it mine, base, theirs, so give at least one.
		if !strings.Contains(strings.Join(flags, " "), "-L") {
			flags = append(flags, "-L", "x")
		}
		want, wantErr, wantCode := testgit.Run(t, dir, append(append([]string{"merge-file", "-p"}, flags...), names...)...)
		keditArgs := append([]string{"merge", "--merge"}, flags...)
		if r.IntN(2) == 0 {
			keditArgs = append(keditArgs, "-p")
		}
		if r.IntN(4) == 0 {
			keditArgs = append(keditArgs, "-q")
		}
		got, gotErr, code := runKedit(t, append(keditArgs, names...)...)
		if got != want || code != wantCode {
			failed++
			t.Errorf("case %d (seed %d): kedit %q and git merge-file -p %q differ\nmine: %q\nbase: %q\ntheirs: %q\n"+
				"git (exit %d, stderr %q):\n%q\nkedit (exit %d, stderr %q):\n%q",
				i, seed, keditArgs, flags, mine, base, theirs, wantCode, wantErr, want, code, gotErr, got)
		}
	}
}

// isManifest says whether kedit merge takes one of texts for a Kubernetes
// manifest.
func isManifest(texts ...string) bool {
	for _, s := range texts {
		if _, err := diff.DecodeObject([]byte(s)); err == nil {
			return true
		}
	}
	return false
}

// TestMergeCommandWritesMineAsGitDoes checks that -o MINE leaves MINE as
// git merge-file without -p leaves it.
func TestMergeCommandWritesMineAsGitDoes(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	write := func(name, text string) {
		if err := os.WriteFile(name, []byte(text), 0o640); err != nil {
			t.Fatal(err)
		}
	}
	texts := [3]string{"a\nm\nc\nd\n", "a\nb\nc\nd\n", "a\nt\nc\nD\n"}
	write("git-mine", texts[0])
	write("kedit-mine", texts[0])
	write("base", texts[1])
	write("theirs", texts[2])
	_, _, wantCode := testgit.Run(t, dir, "merge-file", "-L", "mine", "git-mine", "base", "theirs")
	_, _, code := runKedit(t, "merge", "-o", "kedit-mine", "--merge", "-L", "mine", "kedit-mine", "base", "theirs")
	want, _ := os.ReadFile("git-mine")
	got, _ := os.ReadFile("kedit-mine")
	if string(got) != string(want) || code != wantCode {
		t.Errorf("kedit -o MINE wrote (exit %d):\n%s\ngit merge-file wrote (exit %d):\n%s", code, got, wantCode, want)
	}
	if fi, _ := os.Stat("kedit-mine"); fi.Mode().Perm() != 0o640 {
		t.Errorf("MINE's mode %v, want 0640 kept", fi.Mode().Perm())
	}
}

// TestMergeCommandExitStatusIsGits checks the exit status against git's:
// the number of conflicts, capped at 127, and 255 for a missing file.
func TestMergeCommandExitStatusIsGits(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	for _, n := range []int{0, 1, 3, 126, 127, 128, 200} {
		mine, base, theirs := difftest.Conflicts(n)
		for name, s := range map[string]string{"mine": mine, "base": base, "theirs": theirs} {
			if err := os.WriteFile(name, []byte(s), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		_, _, want := testgit.Run(t, dir, "merge-file", "-p", "--diff3", "mine", "base", "theirs")
		_, _, code := runKedit(t, "merge", "mine", "base", "theirs")
		if code != want || code != min(n, 127) {
			t.Errorf("%d conflicts: kedit exit %d, git %d, want %d", n, code, want, min(n, 127))
		}
	}
	_, _, want := testgit.Run(t, dir, "merge-file", "-p", "mine", "nope", "theirs")
	_, stderr, code := runKedit(t, "merge", "mine", "nope", "theirs")
	if code != 255 || want != 255 || !strings.Contains(stderr, "nope") {
		t.Errorf("missing file: kedit exit %d (%q), git %d", code, stderr, want)
	}
}

// TestMergeCommandRefusesBinaryAsGit checks git's rule for binary files (a
// NUL in the first 8000 bytes) against git, message and exit status, with
// and without -q, and a file larger than git merges.
func TestMergeCommandRefusesBinaryAsGit(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	text := func(nulAt int) string {
		b := []byte(strings.Repeat("line\n", 2000))
		if nulAt >= 0 {
			b[nulAt] = 0
		}
		return string(b)
	}
	tests := []struct {
		name               string
		mine, base, theirs string
		refused            bool
	}{
		{"NUL in theirs at byte 7999", text(-1), text(-1), text(7999), true},
		{"NUL in mine at byte 0, base missing", text(0), "", text(-1), true},
		{"NUL at byte 8000 is text", text(-1), text(8000), text(-1), false},
		{"NUL in base", "a\n", "\x00", "b\n", true},
	}
	for _, tt := range tests {
		for _, quiet := range []bool{false, true} {
			name := fmt.Sprintf("%s, -q %v", tt.name, quiet)
			for f, s := range map[string]string{"m": tt.mine, "o": tt.base, "t": tt.theirs} {
				os.Remove(f)
				if s != "" {
					if err := os.WriteFile(f, []byte(s), 0o600); err != nil {
						t.Fatal(err)
					}
				}
			}
			args := []string{"-p", "m", "o", "t"}
			if quiet {
				args = append([]string{"-q"}, args...)
			}
			wantOut, wantErr, wantCode := testgit.Run(t, dir, append([]string{"merge-file", "--diff3", "-L", "mine", "-L", "base", "-L", "theirs"}, args...)...)
			out, stderr, code := runKedit(t, append([]string{"merge"}, args...)...)
			if code != wantCode || out != wantOut || (wantCode == 255) != tt.refused {
				t.Errorf("%s: kedit exit %d, git %d; stdout equal %v", name, code, wantCode, out == wantOut)
			}
			if tt.refused && stderr != wantErr {
				t.Errorf("%s: kedit said %q, git %q", name, stderr, wantErr)
			}
		}
	}

	// Git takes a file over 1023 MiB for binary; a sparse one costs
	// nothing, and kedit refuses it without reading it.
	if err := os.WriteFile("big", nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate("big", 1023<<20+1); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := runKedit(t, "merge", "big", "o", "t")
	if code != 255 || stderr != "error: Cannot merge binary files: big\n" {
		t.Errorf("huge file: exit %d, stderr %q", code, stderr)
	}
}

// TestMergeCommandFlagsOnManifests checks git's flags on manifests, which
// merge field by field: a favor resolves every conflict, --union is
// refused, and the labels, the style and the marker size shape the blocks.
func TestMergeCommandFlagsOnManifests(t *testing.T) {
	dir := filepath.Join("testdata", "merge", "configmap-same-key")
	files := []string{filepath.Join(dir, "mine.yaml"), filepath.Join(dir, "base.yaml"), filepath.Join(dir, "theirs.yaml")}
	run := func(flags ...string) (string, string, int) {
		return runKedit(t, append(append([]string{"merge"}, flags...), files...)...)
	}
	for flag, want := range map[string]string{"--ours": `foo: mine`, "--theirs": `foo: theirs`} {
		out, stderr, code := run(flag)
		if code != 0 || !strings.Contains(out, want) || strings.Contains(out, "<<<") || stderr != "" {
			t.Errorf("%s: exit %d, stderr %q, out:\n%s", flag, code, stderr, out)
		}
	}
	_, stderr, code := run("--union")
	if code != 255 || !strings.Contains(stderr, "--union: ") || !strings.Contains(stderr, "field by field") {
		t.Errorf("--union: exit %d, stderr %q", code, stderr)
	}
	out, _, code := run("--merge", "-L", "HEAD", "-L", "o", "-L", "feature", "--marker-size", "9")
	want := "<<<<<<<<< HEAD\n  foo: mine\n=========\n  foo: theirs\n>>>>>>>>> feature\n"
	if code != 1 || !strings.Contains(out, want) {
		t.Errorf("--merge -L ... --marker-size 9: exit %d, out:\n%s\nwant a block\n%s", code, out, want)
	}
	out, _, _ = run("--marker-size", "3", "-q")
	if !strings.Contains(out, "<<<<<<< mine\n  foo: mine\n||||||| base\n") {
		t.Errorf("--marker-size 3 on manifests: markers shorter than 7:\n%s", out)
	}
	_, stderr, code = run("--json", "--ours")
	if code != 129 || !strings.Contains(stderr, "--json") {
		t.Errorf("--json --ours: exit %d, stderr %q", code, stderr)
	}
}

// TestMergeCommandJSONWithMarkerSize checks that --json finds the blocks
// of the marker size asked for.
func TestMergeCommandJSONWithMarkerSize(t *testing.T) {
	dir := filepath.Join("testdata", "merge", "plain-text")
	stdout, _, code := runKedit(t, "merge", "--json", "--marker-size", "9", "-L", "HEAD",
		filepath.Join(dir, "mine.yaml"), filepath.Join(dir, "base.yaml"), filepath.Join(dir, "theirs.yaml"))
	var r struct {
		Conflicts []struct {
			Path string `json:"path"`
		} `json:"conflicts"`
		Merged string `json:"merged"`
	}
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatalf("%v: %s", err, stdout)
	}
	if code != 1 || len(r.Conflicts) != 1 || r.Conflicts[0].Path != "line 2" || !strings.Contains(r.Merged, "\n<<<<<<<<< HEAD\n") {
		t.Errorf("exit %d, report %s", code, stdout)
	}
}
