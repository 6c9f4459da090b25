package editfile

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/kedit/kedit/internal/fsutil"
	"github.com/kedit/kedit/model"
)

// TestEditorFiles: $EDITOR's file is created O_EXCL, 0600, in a private
// 0700 directory ($XDG_RUNTIME_DIR/kedit, else kedit-<uid> in /dev/shm
// when it is a tmpfs, else in the temp directory), removed once read back;
// a killed kedit's leftover is removed at the next start, a running
// kedit's is not.
func TestEditorFiles(t *testing.T) {
	runtime := t.TempDir()
	t.Setenv("XDG_RUNTIME_DIR", runtime)
	path, err := Write("secret: value\n", model.FormatYAML)
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Dir(path) != filepath.Join(runtime, "kedit") {
		t.Errorf("file in %s, want $XDG_RUNTIME_DIR/kedit", filepath.Dir(path))
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("file mode %o", fi.Mode().Perm())
	}
	if fi, _ := os.Stat(filepath.Dir(path)); fi.Mode().Perm() != 0o700 {
		t.Errorf("directory mode %o", fi.Mode().Perm())
	}
	if err := os.WriteFile(path, []byte("secret: edited\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if msg := readBack(path, nil, "secret: value\n", false, nil); msg.Text != "secret: edited\n" || msg.Err != nil {
		t.Errorf("read back %+v", msg)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Error("the file is not removed once read back")
	}
	// A hang-up after the editor wrote: what it wrote is kept.
	path, _ = Write("a: 1\n", model.FormatYAML)
	_ = os.WriteFile(path, []byte("a: 2\n"), 0o600)
	if msg := readBack(path, nil, "a: 1\n", false, errors.New("could not restore the terminal")); msg.Text != "a: 2\n" {
		t.Errorf("after a failed terminal restore: %+v", msg)
	}

	dir := filepath.Join(runtime, "kedit")
	dead := filepath.Join(dir, "edit-"+strconv.Itoa(deadPID(t))+"-1.yaml")
	alive := filepath.Join(dir, "edit-1-1.yaml") // init never ends
	mine, _ := Write("x", model.FormatYAML)
	foreign := filepath.Join(dir, "notes.txt")
	for _, p := range []string{dead, alive, foreign} {
		if err := os.WriteFile(p, nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := RemoveStale(false); err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]bool{dead: false, alive: true, mine: true, foreign: true} {
		if _, err := os.Stat(p); (err == nil) != want {
			t.Errorf("%s exists: %v, want %v", filepath.Base(p), err == nil, want)
		}
	}
	if err := RemoveStale(true); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(mine); err == nil {
		t.Error("this kedit's own file stays as it ends")
	}

	// Without XDG_RUNTIME_DIR and without a tmpfs at /dev/shm: kedit-<uid>
	// in the temp directory.
	t.Setenv("XDG_RUNTIME_DIR", "")
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	setShmDir(t, t.TempDir())
	if fsutil.IsTmpfs(shmDir) {
		t.Fatalf("the test's stand-in for a disk, %s, is a tmpfs", shmDir)
	}
	if got, err := Dir(); err != nil || got != filepath.Join(tmp, "kedit-"+strconv.Itoa(os.Getuid())) {
		t.Errorf("Dir = %s, %v", got, err)
	}
	// A symlink there is refused, never followed.
	t.Setenv("TMPDIR", t.TempDir())
	if err := os.Symlink(t.TempDir(), filepath.Join(os.TempDir(), "kedit-"+strconv.Itoa(os.Getuid()))); err != nil {
		t.Fatal(err)
	}
	if _, err := Write("x", model.FormatYAML); err == nil || !strings.Contains(err.Error(), "symlink") {
		t.Errorf("a symlinked directory: %v", err)
	}
}

// deadPID returns the pid of a process that has ended.
func deadPID(t *testing.T) int {
	t.Helper()
	p, err := os.StartProcess("/bin/true", []string{"true"}, &os.ProcAttr{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Wait(); err != nil {
		t.Fatal(err)
	}
	return p.Pid
}

// setShmDir points Dir's shared-memory fallback at dir for the test.
func setShmDir(t *testing.T, dir string) {
	old := shmDir
	shmDir = dir
	t.Cleanup(func() { shmDir = old })
}

// TestDirPrefersATmpfs: without XDG_RUNTIME_DIR, $EDITOR's files go
// to kedit-<uid> in /dev/shm when that is a tmpfs (the file system holds
// them in memory), else to the temp directory. Which of the two this
// machine gets is read from /dev/shm itself, so both answers are checked
// against the rule.
func TestDirPrefersATmpfs(t *testing.T) {
	t.Setenv("XDG_RUNTIME_DIR", "")
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	want := filepath.Join(tmp, "kedit-"+strconv.Itoa(os.Getuid()))
	if fsutil.IsTmpfs("/dev/shm") {
		want = filepath.Join("/dev/shm", "kedit-"+strconv.Itoa(os.Getuid()))
	}
	got, err := Dir()
	if err != nil || got != want {
		t.Fatalf("Dir = %s, %v; want %s", got, err, want)
	}
	if fi, err := os.Lstat(got); err != nil || !fi.IsDir() || fi.Mode().Perm() != 0o700 {
		t.Errorf("%s: %v, %v", got, fi, err)
	}
	// A relative XDG_RUNTIME_DIR is not one (the spec wants it absolute).
	t.Setenv("XDG_RUNTIME_DIR", "run")
	if again, err := Dir(); err != nil || again != want {
		t.Errorf("with a relative XDG_RUNTIME_DIR: %s, %v", again, err)
	}
}

// TestFileOf names the $EDITOR file each side file belongs to.
func TestFileOf(t *testing.T) {
	for name, want := range map[string]string{
		"edit-12-34.yaml":        "edit-12-34.yaml",
		".edit-12-34.yaml.swp":   "edit-12-34.yaml",
		".edit-12-34.yaml.swo":   "edit-12-34.yaml",
		".edit-12-34.yaml.swn":   "edit-12-34.yaml",
		"edit-12-34.yaml~":       "edit-12-34.yaml",
		"#edit-12-34.yaml#":      "edit-12-34.yaml",
		".#edit-12-34.yaml":      "edit-12-34.yaml",
		".edit-12-34.yaml.tmp":   ".edit-12-34.yaml.tmp",
		"notes.txt":              "notes.txt",
		"#":                      "#",
		".sw":                    ".sw",
		"edit-12-34.yaml.orig~~": "edit-12-34.yaml.orig~",
	} {
		if got := fileOf(name); got != want {
			t.Errorf("fileOf(%q) = %q, want %q", name, got, want)
		}
	}
}

// TestEditorSideFilesGoWithTheFile: what an editor leaves beside the file
// (vim's swap files, backups, Emacs's auto-save and lock) holds the same
// decoded values, so it is removed with the file when it is read back, and
// with a killed kedit's file at the next start; another file's are kept.
func TestEditorSideFilesGoWithTheFile(t *testing.T) {
	runtime := t.TempDir()
	t.Setenv("XDG_RUNTIME_DIR", runtime)
	path, err := Write("password: hunter2\n", model.FormatYAML)
	if err != nil {
		t.Fatal(err)
	}
	dir, base := filepath.Split(path)
	other, err := Write("b: 2\n", model.FormatYAML)
	if err != nil {
		t.Fatal(err)
	}
	sides := func(base string) []string {
		return []string{"." + base + ".swp", "." + base + ".swo", base + "~", "#" + base + "#"}
	}
	plant := func(names ...string) {
		for _, n := range names {
			if err := os.WriteFile(filepath.Join(dir, n), []byte("password: hunter2\n"), 0o600); err != nil {
				t.Fatal(err)
			}
		}
	}
	plant(sides(base)...)
	plant(sides(filepath.Base(other))...)
	if err := os.Symlink("user@host.1:1", filepath.Join(dir, ".#"+base)); err != nil {
		t.Fatal(err)
	}
	if msg := readBack(path, nil, "password: hunter2\n", false, nil); msg.Err != nil {
		t.Fatal(msg.Err)
	}
	left := map[string]bool{}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		left[e.Name()] = true
	}
	for _, n := range append(sides(base), base, ".#"+base) {
		if left[n] {
			t.Errorf("%s is left after the file was read back", n)
		}
	}
	for _, n := range append(sides(filepath.Base(other)), filepath.Base(other)) {
		if !left[n] {
			t.Errorf("another file's %s was removed", n)
		}
	}

	// A killed kedit's side files go at the next start, with its file.
	dead := "edit-" + strconv.Itoa(deadPID(t)) + "-1.yaml"
	plant(append(sides(dead), dead)...)
	if err := RemoveStale(false); err != nil {
		t.Fatal(err)
	}
	for _, n := range append(sides(dead), dead) {
		if _, err := os.Lstat(filepath.Join(dir, n)); err == nil {
			t.Errorf("a killed kedit's %s is left", n)
		}
	}
	for _, n := range sides(filepath.Base(other)) {
		if _, err := os.Lstat(filepath.Join(dir, n)); err != nil {
			t.Errorf("a running kedit's %s was removed: %v", n, err)
		}
	}
}

// TestCommandGetsTheTerminal: $EDITOR reads the terminal itself, not
// the program's input (kedit's paste filter), which os/exec would copy
// into a pipe, leaving the editor without a terminal.
func TestCommandGetsTheTerminal(t *testing.T) {
	for _, editor := range []string{"vi", "code --wait"} {
		t.Setenv("KUBE_EDITOR", editor)
		if c := Command("/tmp/x.yaml"); c.Stdin != os.Stdin {
			t.Errorf("%s: the editor's input is %v, want os.Stdin", editor, c.Stdin)
		}
	}
}
