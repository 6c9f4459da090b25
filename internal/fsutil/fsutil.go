// Package fsutil holds kedit's rules for writing files: one atomic write
// (the draft store and `kedit merge -o` both use it) and one check of a
// private directory (the $EDITOR temporary files' and the draft store's).
package fsutil

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// WriteFileAtomic replaces path with data: it writes a temporary file next
// to path (created with O_EXCL, so nothing planted there is followed),
// syncs it, gives it perm, renames it over path and syncs the directory.
// A crash leaves either the old file or the new one, never a mix, and a
// reader never sees half of it. A symlink at path is replaced, not
// followed.
func WriteFileAtomic(path string, data []byte, perm fs.FileMode) (err error) {
	dir := filepath.Dir(path)
	// CreateTemp opens with O_EXCL and mode 0600; the leading dot keeps the
	// file out of listings of what is stored.
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			_ = f.Close()
			_ = os.Remove(tmp)
		}
	}()
	if err = f.Chmod(perm); err != nil {
		return err
	}
	if _, err = f.Write(data); err != nil {
		return err
	}
	if err = f.Sync(); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	if err = os.Rename(tmp, path); err != nil {
		return err
	}
	SyncDir(dir)
	return nil
}

// SyncDir syncs a directory so that a rename or removal in it survives a
// crash. Not every file system can sync a directory; the change is made
// either way, so a failure is not reported.
func SyncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		_ = d.Close()
	}
}

// NotPrivateError reports a directory that cannot hold private files: a
// symlink, something other than a directory, or a directory someone else
// owns.
type NotPrivateError struct {
	Path   string
	Reason string
}

// Error names the directory and what is wrong with it.
func (e *NotPrivateError) Error() string {
	return fmt.Sprintf("%s %s; kedit keeps its private files only in a directory of its own", e.Path, e.Reason)
}

// PrivateDir makes sure dir is a directory only the user can enter: it
// creates it with mode 0700 when it is missing (its parent must exist), and
// refuses one that is a symlink or is owned by another user. A directory of
// the user's with a wider mode is narrowed to 0700.
func PrivateDir(dir string) error {
	return privateDir(dir, os.Getuid())
}

func privateDir(dir string, uid int) error {
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		return &NotPrivateError{Path: dir, Reason: "is a symlink"}
	case !fi.IsDir():
		return &NotPrivateError{Path: dir, Reason: "is not a directory"}
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && int(st.Uid) != uid {
		return &NotPrivateError{Path: dir, Reason: fmt.Sprintf("is owned by uid %d, not %d", st.Uid, uid)}
	}
	if fi.Mode().Perm() != 0o700 {
		return os.Chmod(dir, 0o700)
	}
	return nil
}

// ProcessAlive reports whether a process with this pid exists. A pid that
// is not positive is never alive.
func ProcessAlive(pid int) bool {
	if pid <= 0 {
		return false
	}
	err := syscall.Kill(pid, 0)
	// EPERM: it exists, it is someone else's.
	return err == nil || errors.Is(err, syscall.EPERM)
}

// NotRegularError reports a path that kedit expected to be a file it
// wrote, holding something else: a symlink, a directory, a device.
type NotRegularError struct {
	Path string
	Mode fs.FileMode
}

// Error names the path and what it is.
func (e *NotRegularError) Error() string {
	what := "not a regular file"
	switch {
	case e.Mode&fs.ModeSymlink != 0:
		what = "a symlink"
	case e.Mode.IsDir():
		what = "a directory"
	}
	return fmt.Sprintf("%s is %s, not a file kedit wrote; kedit never follows or reads it", e.Path, what)
}

// ReadFileNoFollow reads the regular file at path. A symlink there is
// never followed, and anything but a regular file is a *NotRegularError.
func ReadFileNoFollow(path string) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if errors.Is(err, syscall.ELOOP) {
		return nil, &NotRegularError{Path: path, Mode: fs.ModeSymlink}
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, &NotRegularError{Path: path, Mode: fi.Mode()}
	}
	return io.ReadAll(f)
}
