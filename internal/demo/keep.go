package demo

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// A kept demo: kedit demo --keep DIR makes the demo in DIR and leaves it
// there when it ends (the cluster's etcd data, its audit log, the drafts);
// kedit demo --dir DIR starts again on it, so that a class replays its
// history afterwards. A file in DIR marks it as a kept demo, and a lock
// on another keeps two demos off one directory: two etcds on one data
// directory would ruin it.

// keptFile marks a kept demo directory.
const keptFile = "kedit-demo"

// lockFile in a demo directory is locked (flock) while a demo runs on it.
const lockFile = "kedit.lock"

// keptNote is keptFile's content, for whoever finds the directory.
const keptNote = "A kept kedit demo: `kedit demo --dir DIR` starts again on it; audit.log is its API server's audit log.\n"

// Options says where a demo lives. With neither Keep nor Dir, it is a
// fresh temporary directory under Parent, removed when the demo ends.
type Options struct {
	// Parent holds the temporary directory (os.TempDir() when empty).
	Parent string
	// Keep is a new or empty directory to make the demo in, and to keep
	// when it ends.
	Keep string
	// Dir is a kept demo's directory to start again on; it is kept
	// again.
	Dir string
}

// NotKeptError says that --dir names no kept demo directory.
type NotKeptError struct {
	Dir string
	// Why says what is missing.
	Why string
}

func (e *NotKeptError) Error() string {
	return fmt.Sprintf("%s is not a kept demo directory (%s); kedit demo --keep %s makes one", e.Dir, e.Why, e.Dir)
}

// NotEmptyError says that --keep names a directory with something in it.
type NotEmptyError struct {
	Dir string
	// Kept: it holds a kept demo, for --dir.
	Kept bool
}

func (e *NotEmptyError) Error() string {
	if e.Kept {
		return fmt.Sprintf("%s holds a kept demo already; kedit demo --dir %s starts again on it", e.Dir, e.Dir)
	}
	return fmt.Sprintf("%s is not empty; --keep makes a demo in a new or empty directory", e.Dir)
}

// InUseError says that another demo runs on the directory.
type InUseError struct {
	Dir string
	// PID is that demo's kedit, 0 when unknown.
	PID int
}

func (e *InUseError) Error() string {
	who := "another kedit demo"
	if e.PID > 0 {
		who += " (pid " + strconv.Itoa(e.PID) + ")"
	}
	return fmt.Sprintf("%s is in use by %s; quit it first", e.Dir, who)
}

// keptDir is the directory o names to keep, made ready: Keep made (new or
// empty) and marked, or Dir checked to be a kept demo. Neither: "".
func keptDir(o Options) (string, error) {
	switch {
	case o.Keep != "" && o.Dir != "":
		return "", errors.New("--keep and --dir name one directory each; give one of them")
	case o.Keep != "":
		dir, err := filepath.Abs(o.Keep)
		if err != nil {
			return "", err
		}
		entries, err := os.ReadDir(dir)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			if err := os.MkdirAll(dir, 0o700); err != nil {
				return "", fmt.Errorf("making the demo's directory: %w", err)
			}
		case err != nil:
			return "", err
		case len(entries) > 0:
			return "", &NotEmptyError{Dir: dir, Kept: isKept(dir)}
		}
		if err := os.WriteFile(filepath.Join(dir, keptFile), []byte(keptNote), 0o600); err != nil {
			return "", err
		}
		return dir, nil
	case o.Dir != "":
		dir, err := filepath.Abs(o.Dir)
		if err != nil {
			return "", err
		}
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			return "", &NotKeptError{Dir: dir, Why: "no such directory"}
		}
		if !isKept(dir) {
			return "", &NotKeptError{Dir: dir, Why: "no " + keptFile + " file in it"}
		}
		if fi, err := os.Stat(filepath.Join(dir, "cluster")); err != nil || !fi.IsDir() {
			return "", &NotKeptError{Dir: dir, Why: "no cluster directory in it"}
		}
		return dir, nil
	}
	return "", nil
}

func isKept(dir string) bool {
	fi, err := os.Stat(filepath.Join(dir, keptFile))
	return err == nil && fi.Mode().IsRegular()
}

// lock takes dir's lock for as long as the demo runs (the lock goes with
// the process, however it ends), or says who holds it.
func lock(dir string) (*os.File, error) {
	f, err := os.OpenFile(filepath.Join(dir, lockFile), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			pid := 0
			if b, err := os.ReadFile(filepath.Join(dir, ownerFile)); err == nil {
				pid, _ = strconv.Atoi(strings.TrimSpace(string(b)))
			}
			return nil, &InUseError{Dir: dir, PID: pid}
		}
		return nil, fmt.Errorf("locking %s: %w", dir, err)
	}
	return f, nil
}
