package e2e

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/kedit/kedit/internal/testgit"
)

// readmeDriver is the git merge driver line the kedit merge section of the
// reference (docs/commands.md) tells users to configure, with the binary
// under test for kedit.
func readmeDriver(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "docs", "commands.md"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`git config merge\.kedit\.driver 'kedit( [^']*)'`).FindSubmatch(b)
	if m == nil {
		t.Fatal("docs/commands.md gives no git merge driver line")
	}
	return keditBinary(t) + string(m[1])
}

// gitRepo is a git repository in a temporary directory whose *.yaml and
// *.txt files merge with the real kedit binary as their merge driver.
type gitRepo struct {
	t   *testing.T
	dir string
}

func newGitRepo(t *testing.T) *gitRepo {
	t.Helper()
	r := &gitRepo{t: t, dir: t.TempDir()}
	r.git("init", "-q", "-b", "main")
	r.git("config", "user.name", "kedit test")
	r.git("config", "user.email", "kedit@example.com")
	r.git("config", "merge.kedit.name", "kedit merge")
	r.git("config", "merge.kedit.driver", readmeDriver(t))
	r.write(".gitattributes", "*.yaml merge=kedit\n*.txt merge=kedit conflict-marker-size=9\n")
	return r
}

// git runs git in the repository and fails the test unless it exits 0.
func (r *gitRepo) git(args ...string) string {
	r.t.Helper()
	out, stderr, code := testgit.Run(r.t, r.dir, args...)
	if code != 0 {
		r.t.Fatalf("git %s: exit %d\n%s%s", strings.Join(args, " "), code, out, stderr)
	}
	return out
}

func (r *gitRepo) write(name, text string) {
	r.t.Helper()
	if err := os.WriteFile(filepath.Join(r.dir, name), []byte(text), 0o644); err != nil {
		r.t.Fatal(err)
	}
}

func (r *gitRepo) read(name string) string {
	r.t.Helper()
	b, err := os.ReadFile(filepath.Join(r.dir, name))
	if err != nil {
		r.t.Fatal(err)
	}
	return string(b)
}

// commitAll commits every change on the current branch.
func (r *gitRepo) commitAll(msg string) {
	r.t.Helper()
	r.git("add", "-A")
	r.git("commit", "-q", "-m", msg)
}

// branches commits base on main, then mine on main and theirs on a branch
// feature made from base, each a map of file name to text.
func (r *gitRepo) branches(base, mine, theirs map[string]string) {
	r.t.Helper()
	for name, text := range base {
		r.write(name, text)
	}
	r.commitAll("base")
	r.git("checkout", "-q", "-b", "feature")
	for name, text := range theirs {
		r.write(name, text)
	}
	r.commitAll("theirs")
	r.git("checkout", "-q", "main")
	for name, text := range mine {
		r.write(name, text)
	}
	r.commitAll("mine")
}

// configMap is a ConfigMap with data's lines, as kedit writes it.
func configMap(data string) string {
	return "apiVersion: v1\ndata:\n" + data + "kind: ConfigMap\nmetadata:\n  name: app\n"
}

// TestMergeDriverInGit runs a real `git merge` in a repository whose
// .gitattributes hand *.yaml and *.txt to the real kedit binary, configured
// with the README's driver line: a merge that git's own line merge would stop on goes
// through, and a real conflict leaves kedit's blocks, with git's labels and
// git's conflict-marker-size, and the file unmerged.
func TestMergeDriverInGit(t *testing.T) {
	t.Run("clean", func(t *testing.T) {
		r := newGitRepo(t)
		base := configMap("  a: \"1\"\n")
		mine := configMap("  a: \"1\"\n  c: main\n")
		theirs := configMap("  a: \"1\"\n  b: feature\n")
		r.branches(map[string]string{"cm.yaml": base}, map[string]string{"cm.yaml": mine}, map[string]string{"cm.yaml": theirs})

		// Both sides add a line at the same place: git's line merge has a
		// conflict there, kedit's field merge has none.
		for name, text := range map[string]string{"m": mine, "o": base, "t": theirs} {
			r.write(name, text)
		}
		if _, _, code := testgit.Run(t, r.dir, "merge-file", "-p", "m", "o", "t"); code != 1 {
			t.Fatalf("git's line merge: exit %d, want the conflict this test is about", code)
		}
		for _, name := range []string{"m", "o", "t"} {
			os.Remove(filepath.Join(r.dir, name))
		}

		r.git("merge", "-q", "--no-edit", "feature")
		want := configMap("  a: \"1\"\n  b: feature\n  c: main\n")
		if got := r.read("cm.yaml"); got != want {
			t.Errorf("merged cm.yaml:\n%s\nwant:\n%s", got, want)
		}
		if st := r.git("status", "--porcelain"); st != "" {
			t.Errorf("git status after a clean merge: %q", st)
		}
		if parents := r.git("log", "-1", "--format=%P"); len(strings.Fields(parents)) != 2 {
			t.Errorf("HEAD is not a merge commit: parents %q", parents)
		}
	})

	t.Run("conflict", func(t *testing.T) {
		r := newGitRepo(t)
		r.branches(
			map[string]string{"cm.yaml": configMap("  a: \"1\"\n  b: x\n"), "notes.txt": "one\ntwo\nthree\n"},
			map[string]string{"cm.yaml": configMap("  a: \"2\"\n  b: x\n"), "notes.txt": "one\nTWO\nthree\n"},
			map[string]string{"cm.yaml": configMap("  a: \"3\"\n  b: yy\n"), "notes.txt": "one\n2\nthree\n"})

		out, stderr, code := testgit.Run(t, r.dir, "merge", "--no-edit", "feature")
		if code != 1 || !strings.Contains(out, "CONFLICT (content): Merge conflict in cm.yaml") {
			t.Fatalf("git merge: exit %d, want 1 with a conflict in cm.yaml\n%s%s", code, out, stderr)
		}
		if !strings.Contains(stderr, "kedit: conflict at .data.a") {
			t.Errorf("kedit's notice is not on git merge's stderr: %q", stderr)
		}
		want := configMap("<<<<<<< ours\n  a: \"2\"\n||||||| base\n  a: \"1\"\n=======\n  a: \"3\"\n>>>>>>> theirs\n  b: yy\n")
		if got := r.read("cm.yaml"); got != want {
			t.Errorf("cm.yaml:\n%s\nwant:\n%s", got, want)
		}
		wantTxt := "one\n<<<<<<<<< ours\nTWO\n||||||||| base\ntwo\n=========\n2\n>>>>>>>>> theirs\nthree\n"
		if got := r.read("notes.txt"); got != wantTxt {
			t.Errorf("notes.txt:\n%s\nwant (conflict-marker-size=9):\n%s", got, wantTxt)
		}
		st := r.git("status", "--porcelain")
		for _, want := range []string{"UU cm.yaml", "UU notes.txt"} {
			if !strings.Contains(st, want) {
				t.Errorf("git status %q lacks %q", st, want)
			}
		}
	})
}
