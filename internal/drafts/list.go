package drafts

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/kedit/kedit/internal/fsutil"
)

// Entry is one draft found in the store, for `kedit drafts`.
type Entry struct {
	// Context is the kubeconfig context; empty when there was none.
	Context string
	// Namespace is empty for cluster-scoped objects.
	Namespace string
	// Resource is resource.group, e.g. deployments.apps or configmaps.
	Resource string
	// Subresource is the part of the object the draft edits ("status",
	// "scale"); "" for the object itself.
	Subresource string
	Name        string
	Path        string
	// BaseResourceVersion is the version the draft was made from.
	BaseResourceVersion string
	// SavedAt is when the draft was last written.
	SavedAt time.Time
	// Size is the draft text's length in bytes.
	Size int
	// Kept is true for a draft set aside (<file>.<UTC time>.kept) because
	// it could not be recovered; nothing writes it again.
	Kept bool
	// Server is the API server the draft was made against, empty when an
	// older kedit did not record it.
	Server string
	// EditingPID is the pid of a running kedit writing this draft, 0 for
	// none.
	EditingPID int
}

// StrayError reports something in the draft directory that kedit did not
// put there: a symlink, a stray file or directory, a file that is not a
// draft.
type StrayError struct {
	Path   string
	Reason string
}

func (e *StrayError) Error() string {
	return fmt.Sprintf("the draft directory holds %s: %s; kedit leaves it alone (remove or move it)", e.Path, e.Reason)
}

// List returns every draft in the store, newest first, kept-aside ones
// included. Anything kedit did not write there is a *StrayError naming it:
// kedit never follows a symlink in the store, nor guesses what a foreign
// file is.
func (s *Store) List() ([]Entry, error) {
	var out []Entry
	err := filepath.WalkDir(s.Dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) && path == s.Dir {
				return fs.SkipAll
			}
			return err
		}
		if path == s.Dir {
			if !d.IsDir() {
				return &StrayError{Path: path, Reason: "not a directory"}
			}
			return nil
		}
		rel, err := filepath.Rel(s.Dir, path)
		if err != nil {
			return err
		}
		parts := strings.Split(filepath.ToSlash(rel), "/")
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			return &StrayError{Path: path, Reason: "a symlink"}
		case d.IsDir() && len(parts) < 4:
			return nil
		case d.IsDir():
			return &StrayError{Path: path, Reason: "a directory where kedit keeps only draft files"}
		case len(parts) != 4:
			return &StrayError{Path: path, Reason: "a file where kedit keeps only directories"}
		case !d.Type().IsRegular():
			return &StrayError{Path: path, Reason: "not a regular file"}
		}
		e, ok, err := entryOf(path, parts)
		if err != nil || !ok {
			return err
		}
		out = append(out, e)
		return nil
	})
	if err != nil {
		var se *StrayError
		if errors.As(err, &se) {
			return nil, err
		}
		return nil, fmt.Errorf("listing drafts in %s: %w", s.Dir, err)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].SavedAt.After(out[j].SavedAt) })
	return out, nil
}

// entryOf reads the file at path, Dir/<context>/<namespace>/<resource>/
// <file>. ok is false for the files that go with a draft (its lock, the
// base an older kedit kept beside it, a write cut short by a crash).
func entryOf(path string, parts []string) (Entry, bool, error) {
	file := parts[3]
	var name string
	var kept bool
	switch {
	case strings.HasPrefix(file, ".") && strings.Contains(file, ".tmp-"):
		return Entry{}, false, nil
	case strings.HasSuffix(file, draftExt+baseExt), strings.HasSuffix(file, draftExt+lockExt):
		return Entry{}, false, nil
	case strings.HasSuffix(file, draftExt):
		name = strings.TrimSuffix(file, draftExt)
	case strings.HasSuffix(file, keptExt) && strings.Contains(file, draftExt+"."):
		name, kept = file[:strings.Index(file, draftExt+".")], true
	default:
		return Entry{}, false, &StrayError{Path: path, Reason: "not a file kedit wrote"}
	}
	if i := strings.LastIndex(name, "_"); i >= 0 {
		name = name[:i] // <name>_2.yaml: escaped names never hold "_"
	}
	d, err := Read(path)
	if err != nil {
		return Entry{}, false, &StrayError{Path: path, Reason: strings.TrimPrefix(err.Error(), path+": ")}
	}
	e := Entry{Path: path, BaseResourceVersion: d.BaseResourceVersion, SavedAt: d.SavedAt, Size: len(d.Text), Kept: kept, Server: d.Server}
	e.Context = component(parts[0], noContextDir)
	e.Namespace = component(parts[1], clusterScopedDir)
	e.Resource = component(parts[2], "")
	e.Resource, e.Subresource, _ = strings.Cut(e.Resource, "/")
	e.Name = component(name, "")
	if !kept {
		e.EditingPID = LockHolder(path)
	}
	return e, true, nil
}

// component turns a path component back into what it names: "" for the
// placeholder, the escaped form itself when it cannot be turned back (a
// long name cut and hashed).
func component(s, placeholder string) string {
	if placeholder != "" && s == placeholder {
		return ""
	}
	if v, ok := unescapeComponent(s); ok {
		return v
	}
	return s
}

// DraftsOf returns the drafts of k on k's cluster (and those of older
// kedits, which did not record the cluster), kept-aside ones included,
// newest first.
func (s *Store) DraftsOf(k Key) ([]Entry, error) {
	all, err := s.List()
	if err != nil {
		return nil, err
	}
	dir := s.objectDir(k)
	name := escapeComponent(k.Name)
	var out []Entry
	for _, e := range all {
		if filepath.Dir(e.Path) != dir || !sameCluster(e.Server, k.Server) {
			continue
		}
		file := filepath.Base(e.Path)
		if e.Kept {
			file = file[:strings.Index(file, draftExt+".")+len(draftExt)]
		}
		if n, kind := slotOf(file, name); n > 0 && kind == draftExt {
			out = append(out, e)
		}
	}
	return out, nil
}

// ClusterDrafts returns the drafts of context's objects on server (and
// those of older kedits, which did not record the server) that can still
// be offered, newest first: the browser's draft marks and its :drafts
// list. Kept-aside drafts are left out, as opening their object does not
// offer them.
func (s *Store) ClusterDrafts(context, server string) ([]Entry, error) {
	all, err := s.List()
	if err != nil {
		return nil, err
	}
	var out []Entry
	for _, e := range all {
		if e.Context == context && !e.Kept && sameCluster(e.Server, server) {
			out = append(out, e)
		}
	}
	return out, nil
}

// sameCluster reports whether a draft recorded against draftServer may
// belong to server: two kubeconfigs may give one context name to two
// clusters. A side that did not record its server (an older kedit's draft)
// is taken as the same.
func sameCluster(draftServer, server string) bool {
	return draftServer == "" || server == "" || draftServer == server
}

// Remove removes the draft at path, which must be a draft (or a kept-aside
// one) in the store, with its base. A draft a running kedit is writing is
// not removed: the error names its pid.
func (s *Store) Remove(path string) error {
	abs, err := filepath.Abs(path)
	if err != nil {
		return err
	}
	rel, err := filepath.Rel(s.Dir, abs)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return fmt.Errorf("%s is not in the draft directory %s", path, s.Dir)
	}
	parts := strings.Split(filepath.ToSlash(rel), "/")
	fi, err := os.Lstat(abs)
	if err != nil {
		return err
	}
	if len(parts) != 4 || !fi.Mode().IsRegular() {
		return &StrayError{Path: abs, Reason: "not a draft kedit wrote"}
	}
	e, ok, err := entryOf(abs, parts)
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("%s goes with a draft; remove the draft itself", abs)
	}
	if e.Kept {
		if err := s.disk().Remove(abs); err != nil {
			return err
		}
		fsutil.SyncDir(filepath.Dir(abs))
		return nil
	}
	f, pid, err := lockFile(abs + lockExt)
	if errors.Is(err, errLocked) {
		return fmt.Errorf("%s is being edited by kedit (pid %d): quit it first", abs, pid)
	}
	if err != nil {
		return err
	}
	defer unlockFile(f, abs+lockExt)
	return s.removeDraftFiles(abs)
}
