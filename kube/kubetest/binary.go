package kubetest

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"syscall"
)

// RepoRoot finds the kedit module's root from the working directory, which
// `go test` sets to the package's directory.
func RepoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && bytes.HasPrefix(bytes.TrimSpace(b), []byte("module github.com/kedit/kedit\n")) {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("not inside the kedit module (no go.mod for github.com/kedit/kedit above the working directory)")
		}
		dir = parent
	}
}

// BinaryEnv names a localcluster binary built from the current sources,
// which Binary takes instead of building one: `make test` builds
// bin/localcluster once and hands it to every test binary, so that the
// API server (a link of most of Kubernetes) is not linked twice.
const BinaryEnv = "LOCALCLUSTER_BIN"

// Binary returns the path of a localcluster built from the current sources:
// $LOCALCLUSTER_BIN when set, else one built into the user cache directory
// when those sources changed. Test binaries running at once share one build
// through a lock file.
func Binary() (string, error) {
	if p := os.Getenv(BinaryEnv); p != "" {
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("$%s: %w", BinaryEnv, err)
		}
		return filepath.Abs(p)
	}
	root, err := RepoRoot()
	if err != nil {
		return "", err
	}
	src := filepath.Join(root, "localcluster")
	sum, err := sourceHash(src)
	if err != nil {
		return "", fmt.Errorf("hashing localcluster's sources: %w", err)
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	dir := filepath.Join(cache, "kedit", "localcluster")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "localcluster-"+sum[:16])
	if _, err := os.Stat(bin); err == nil {
		return bin, nil
	}

	lock, err := os.OpenFile(filepath.Join(dir, "build.lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return "", err
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		return "", fmt.Errorf("locking the localcluster build: %w", err)
	}
	defer syscall.Flock(int(lock.Fd()), syscall.LOCK_UN)
	if _, err := os.Stat(bin); err == nil {
		return bin, nil // another test binary built it while we waited
	}

	ldflags, err := os.ReadFile(filepath.Join(src, "ldflags"))
	if err != nil {
		return "", err
	}
	tmp := bin + ".tmp"
	cmd := exec.Command("go", "build", "-C", src, "-ldflags", strings.TrimSpace(string(ldflags)), "-o", tmp, ".")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("building localcluster (go build -C %s): %v\n%s", src, err, out.String())
	}
	if err := os.Rename(tmp, bin); err != nil {
		return "", err
	}
	return bin, nil
}

// sourceHash digests every file of the localcluster module except its
// tests, plus the Go version, so a changed source or toolchain rebuilds.
func sourceHash(src string) (string, error) {
	var files []string
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		files = append(files, path)
		return nil
	})
	if err != nil {
		return "", err
	}
	sort.Strings(files)
	h := sha256.New()
	fmt.Fprintln(h, runtime.Version())
	for _, f := range files {
		rel, _ := filepath.Rel(src, f)
		fmt.Fprintln(h, rel)
		r, err := os.Open(f)
		if err != nil {
			return "", err
		}
		_, err = io.Copy(h, r)
		r.Close()
		if err != nil {
			return "", err
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
