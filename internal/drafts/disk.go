package drafts

import (
	"errors"
	"io/fs"
	"os"

	"github.com/kedit/kedit/internal/fsutil"
)

// disk is how the store changes its files. Each call is one step that a
// crash may come between; the tests put in its place a disk that crashes
// at a chosen step, and check what the next kedit finds.
type disk interface {
	// WriteFile replaces path with data, mode 0600, atomically
	// (fsutil.WriteFileAtomic).
	WriteFile(path string, data []byte) error
	// Remove removes path; a path that is missing already is no error.
	Remove(path string) error
	// Rename renames from to to, replacing to.
	Rename(from, to string) error
	// Link makes to a hard link to from; it never replaces to.
	Link(from, to string) error
}

// osDisk is the disk itself.
type osDisk struct{}

func (osDisk) WriteFile(path string, data []byte) error {
	return fsutil.WriteFileAtomic(path, data, 0o600)
}

func (osDisk) Remove(path string) error {
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

func (osDisk) Rename(from, to string) error { return os.Rename(from, to) }

func (osDisk) Link(from, to string) error { return os.Link(from, to) }

func (s *Store) disk() disk {
	if s.fs != nil {
		return s.fs
	}
	return osDisk{}
}
