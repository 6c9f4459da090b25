package drafts

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"syscall"

	"github.com/kedit/kedit/internal/fsutil"
)

// errLocked says that another process holds a lock file.
var errLocked = errors.New("locked by another process")

// lockFile opens (creating it, never through a symlink) and flock's the
// lock file at path, and writes this process's pid in it. When another
// process holds it, the error is errLocked and pid is that process's, as
// it wrote it.
func lockFile(path string) (f *os.File, pid int, err error) {
	for range 5 {
		f, err = os.OpenFile(path, os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW, 0o600)
		if errors.Is(err, syscall.ELOOP) {
			return nil, 0, &fsutil.NotRegularError{Path: path, Mode: fs.ModeSymlink}
		}
		if err != nil {
			return nil, 0, err
		}
		if err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
			b := make([]byte, 32)
			n, _ := f.ReadAt(b, 0)
			f.Close()
			if errors.Is(err, syscall.EWOULDBLOCK) {
				pid, _ = strconv.Atoi(strings.TrimSpace(string(b[:n])))
				return nil, pid, errLocked
			}
			return nil, 0, err
		}
		// The holder before may have removed the file between our open and
		// our lock: the lock must be on the file the path names now.
		fi, err1 := f.Stat()
		cur, err2 := os.Lstat(path)
		if err1 == nil && err2 == nil && os.SameFile(fi, cur) {
			if !fi.Mode().IsRegular() {
				f.Close()
				return nil, 0, &fsutil.NotRegularError{Path: path, Mode: fi.Mode()}
			}
			if err := f.Truncate(0); err == nil {
				_, _ = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
			}
			return f, 0, nil
		}
		f.Close()
	}
	return nil, 0, fmt.Errorf("locking %s: it keeps being replaced", path)
}

// unlockFile removes the lock file at path (unless path is empty) while it
// still holds it, then lets go of the lock.
func unlockFile(f *os.File, path string) {
	if path != "" {
		_ = os.Remove(path)
	}
	_ = f.Close()
}

// LockHolder returns the pid a kedit wrote in the lock file of the draft
// at path, when that process is still running; 0 otherwise. It only reads:
// taking the lock, even for a moment, could make a kedit starting just
// then think the draft is being edited.
func LockHolder(path string) int {
	b, err := fsutil.ReadFileNoFollow(path + lockExt)
	if err != nil {
		return 0
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	if !fsutil.ProcessAlive(pid) {
		return 0
	}
	return pid
}
