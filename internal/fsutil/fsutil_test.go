package fsutil

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWriteFileAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.yaml")
	for i, want := range []string{"first\n", "second, longer\n", ""} {
		if err := WriteFileAtomic(path, []byte(want), 0o600); err != nil {
			t.Fatalf("write %d: %v", i, err)
		}
		got, err := os.ReadFile(path)
		if err != nil || string(got) != want {
			t.Fatalf("write %d: read %q, %v; want %q", i, got, err, want)
		}
		if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
			t.Errorf("mode %o, want 600", fi.Mode().Perm())
		}
	}
	if err := WriteFileAtomic(path, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o644 {
		t.Errorf("mode %o, want the 644 asked for", fi.Mode().Perm())
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("the directory holds %d entries, want only the file", len(entries))
	}

	// A symlink planted at the path is replaced, never followed.
	victim := filepath.Join(t.TempDir(), "victim")
	if err := os.WriteFile(victim, []byte("untouched"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.yaml")
	if err := os.Symlink(victim, link); err != nil {
		t.Fatal(err)
	}
	if err := WriteFileAtomic(link, []byte("mine"), 0o600); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(victim); string(b) != "untouched" {
		t.Errorf("the write followed the symlink: the target holds %q", b)
	}
	if fi, _ := os.Lstat(link); fi.Mode()&os.ModeSymlink != 0 {
		t.Error("the symlink is still there")
	}

	// A failed rename (the path is a directory) leaves no temporary file.
	blocked := filepath.Join(dir, "blocked")
	if err := os.MkdirAll(filepath.Join(blocked, "child"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := WriteFileAtomic(blocked, []byte("x"), 0o600); err == nil {
		t.Fatal("a write over a directory succeeded")
	}
	entries, _ = os.ReadDir(dir)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".tmp-") {
			t.Errorf("temporary file left behind: %s", e.Name())
		}
	}
}

func TestPrivateDir(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "kedit")
	if err := PrivateDir(dir); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() || fi.Mode().Perm() != 0o700 {
		t.Fatalf("created %v, %v; want a 0700 directory", fi, err)
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := PrivateDir(dir); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(dir); fi.Mode().Perm() != 0o700 {
		t.Errorf("a too open directory stays %o", fi.Mode().Perm())
	}

	var np *NotPrivateError
	link := filepath.Join(parent, "link")
	if err := os.Symlink(t.TempDir(), link); err != nil {
		t.Fatal(err)
	}
	if err := PrivateDir(link); !errors.As(err, &np) || !strings.Contains(err.Error(), "symlink") {
		t.Errorf("a symlink: %v, want it refused", err)
	}
	file := filepath.Join(parent, "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := PrivateDir(file); !errors.As(err, &np) {
		t.Errorf("a file: %v, want it refused", err)
	}
	if err := privateDir(dir, os.Getuid()+1); !errors.As(err, &np) || !strings.Contains(err.Error(), "owned by uid") {
		t.Errorf("another user's directory: %v, want it refused", err)
	}
}

func TestProcessAlive(t *testing.T) {
	if !ProcessAlive(os.Getpid()) {
		t.Error("this process is not alive")
	}
	if ProcessAlive(0) || ProcessAlive(-1) {
		t.Error("pid 0 or -1 is alive")
	}
}

func TestReadFileNoFollow(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "draft.yaml")
	if err := os.WriteFile(file, []byte("text"), 0o600); err != nil {
		t.Fatal(err)
	}
	if b, err := ReadFileNoFollow(file); err != nil || string(b) != "text" {
		t.Fatalf("read %q, %v", b, err)
	}
	link := filepath.Join(dir, "link.yaml")
	if err := os.Symlink(file, link); err != nil {
		t.Fatal(err)
	}
	var nr *NotRegularError
	if _, err := ReadFileNoFollow(link); !errors.As(err, &nr) || !strings.Contains(err.Error(), "symlink") {
		t.Errorf("a symlink: %v, want it refused", err)
	}
	if _, err := ReadFileNoFollow(dir); !errors.As(err, &nr) || !strings.Contains(err.Error(), "directory") {
		t.Errorf("a directory: %v, want it refused", err)
	}
	if _, err := ReadFileNoFollow(filepath.Join(dir, "missing")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a missing file: %v, want not exist", err)
	}
}
