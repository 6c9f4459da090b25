package drafts

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"sync"

	"github.com/kedit/kedit/internal/fsutil"
)

// Object is one kedit's share of the draft store for the object it edits:
// the file its own draft goes to, and the drafts earlier runs left that it
// may offer for recovery.
//
// Two kedits never write one file. Each draft file has a lock file beside
// it (<draft>.lock) that the kedit writing it holds with flock(2); the
// kernel lets go of it when that kedit ends, however it ends, so a lock a
// dead kedit left is simply taken over. A second kedit on the same object
// finds the first's lock held and takes the next free name.
//
// Writes and deletes of the draft are ordered by the session's Seq: one
// older than the last performed is dropped, so whatever order concurrent
// commands run in, once they settle the file holds the latest draft, and
// no file remains after a save.
type Object struct {
	store *Store
	key   Key
	uid   string
	dir   string
	// memoryOnly is a Secret without --allow-secret-drafts.
	memoryOnly bool
	// problem is why the store cannot be used at all; every write fails
	// with it.
	problem  error
	warnings []error
	others   []Editor

	mu sync.Mutex
	// applied is the Seq of the last write or delete performed.
	applied uint64
	// own is the draft file this kedit writes; held has the locks of
	// own and of every stored draft it may offer, by file.
	own  string
	held map[string]*os.File
	// wrote: own holds a draft this kedit wrote since own became its file
	// (not one it adopted and has not written since).
	wrote  bool
	stored []*Draft
	// baseJSON is the last base written, as JSON, and baseRV its
	// resourceVersion: a base is encoded once per version, not once per
	// write.
	baseRV   string
	baseJSON []byte
	// slowWrite, when set, runs before each write: tests slow the disk.
	slowWrite func()
}

// Editor is another kedit editing the same object: its pid and the file
// its draft goes to.
type Editor struct {
	PID  int
	Path string
}

// Open takes this kedit's share of k's drafts: it locks a draft file of its
// own and the stored drafts of k on this cluster (k.Server) that no running
// kedit holds, to offer them. uid is the object's uid, recorded with each
// draft. Open never fails: when the store cannot be used, Problem says
// why, and drafts stay in memory.
func (s *Store) Open(k Key, uid string) *Object {
	o := &Object{store: s, key: k, uid: uid, dir: s.objectDir(k), held: map[string]*os.File{},
		memoryOnly: k.Secret != nil && !s.AllowSecrets}
	o.own = s.slotPath(k, 1)
	if err := o.claim(); err != nil {
		o.problem = fmt.Errorf("the draft directory cannot be used: %w", err)
		o.release()
		o.stored, o.own = nil, s.slotPath(k, 1)
	}
	sort.SliceStable(o.stored, func(i, j int) bool { return o.stored[i].SavedAt.After(o.stored[j].SavedAt) })
	return o
}

// claim scans the object's directory, locks what it may, and picks own.
func (o *Object) claim() error {
	if err := o.store.mkdirPrivate(o.dir); err != nil {
		return err
	}
	entries, err := os.ReadDir(o.dir)
	if err != nil {
		return err
	}
	name := escapeComponent(o.key.Name)
	seen := map[int]bool{}
	for _, e := range entries {
		n, kind := slotOf(e.Name(), name)
		if n == 0 {
			continue
		}
		if kind == draftExt && !e.Type().IsRegular() {
			return &fsutil.NotRegularError{Path: filepath.Join(o.dir, e.Name()), Mode: e.Type()}
		}
		seen[n] = true
	}
	nums := make([]int, 0, len(seen))
	for n := range seen {
		nums = append(nums, n)
	}
	slices.Sort(nums)
	own := 0
	for _, n := range nums {
		path := o.store.slotPath(o.key, n)
		f, pid, err := lockFile(path + lockExt)
		if errors.Is(err, errLocked) {
			o.others = append(o.others, Editor{PID: pid, Path: path})
			continue
		}
		if err != nil {
			return err
		}
		d, err := o.read(path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			if own == 0 {
				own = n
				o.held[path] = f
			} else {
				unlockFile(f, path+lockExt)
			}
		case err != nil:
			// Not a draft kedit wrote: left as it is, and never written.
			o.warnings = append(o.warnings, err)
			unlockFile(f, "")
		case !sameCluster(d.Server, o.key.Server):
			// Another cluster's object: not this one to offer or write.
			unlockFile(f, "")
		default:
			o.held[path] = f
			o.stored = append(o.stored, d)
		}
	}
	for n := 1; own == 0; n++ {
		if seen[n] {
			continue
		}
		path := o.store.slotPath(o.key, n)
		f, _, err := lockFile(path + lockExt)
		if errors.Is(err, errLocked) {
			continue // another kedit took it just now
		}
		if err != nil {
			return err
		}
		own = n
		o.held[path] = f
	}
	o.own = o.store.slotPath(o.key, own)
	return nil
}

// read reads the draft at path as Read does; a Secret's text, stored with
// its values base64-encoded, is decoded to the text the user edits.
func (o *Object) read(path string) (*Draft, error) {
	d, err := Read(path)
	if err != nil || o.key.Secret == nil {
		return d, err
	}
	text, err := o.key.Secret.Load(string(d.Text))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	d.Text = []byte(text)
	return d, nil
}

// Stored returns the drafts of the object that earlier runs left on this
// cluster and no running kedit holds, newest first: those to offer for
// recovery.
func (o *Object) Stored() []*Draft { return slices.Clone(o.stored) }

// Others returns the other kedits editing the object now.
func (o *Object) Others() []Editor { return slices.Clone(o.others) }

// Problem says why drafts cannot be written to disk at all (the draft
// directory is not a directory, is read-only, holds a symlink ...); nil
// when they can.
func (o *Object) Problem() error { return o.problem }

// Warnings are files in the object's directory that kedit left alone
// because it did not write them.
func (o *Object) Warnings() []error { return slices.Clone(o.warnings) }

// MemoryOnly reports whether drafts stay in memory by choice: a Secret
// without --allow-secret-drafts.
func (o *Object) MemoryOnly() bool { return o.memoryOnly }

// Path returns the file this kedit's draft is written to.
func (o *Object) Path() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.own
}

// Write is WriteFormat of a YAML draft.
func (o *Object) Write(seq uint64, baseRV string, text []byte, base map[string]any) (string, error) {
	return o.WriteFormat(seq, "", baseRV, text, base)
}

// WriteFormat stores the draft (text, in format, "" for YAML, made from
// base at baseRV; base is the object as JSON decodes it, nil when there is
// none) as the session's effect number seq, unless a later effect was
// already performed. It returns the file written; a *SecretError for a
// Secret kept in memory, a *WriteError when the disk refused.
func (o *Object) WriteFormat(seq uint64, format, baseRV string, text []byte, base map[string]any) (string, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.slowWrite != nil {
		o.slowWrite()
	}
	if seq <= o.applied {
		return o.own, nil // a later write or delete has been done
	}
	o.applied = seq
	switch {
	case o.memoryOnly:
		return "", &SecretError{Target: o.key.String()}
	case o.problem != nil:
		return "", &WriteError{Path: o.own, Err: o.problem}
	}
	if o.key.Secret != nil {
		// On disk as the API server holds it: values base64-encoded,
		// never the decoded text the user edits.
		text = []byte(o.key.Secret.Store(string(text)))
	}
	baseJSON, err := o.encodeBase(base)
	if err != nil {
		return "", &WriteError{Path: o.own, Err: fmt.Errorf("encoding the base: %w", err)}
	}
	file, err := o.store.formatDraft(o.key, o.uid, format, baseRV, baseJSON, text)
	if err != nil {
		return "", &WriteError{Path: o.own, Err: err}
	}
	if err := o.store.mkdirPrivate(o.dir); err != nil {
		return "", &WriteError{Path: o.own, Err: err}
	}
	if err := o.store.writeDraft(o.own, file); err != nil {
		return "", &WriteError{Path: o.own, Err: err}
	}
	o.wrote = true
	return o.own, nil
}

// Delete removes the draft (it was saved or discarded) as the session's
// effect number seq, unless a later effect was already performed.
func (o *Object) Delete(seq uint64) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if seq <= o.applied {
		return nil
	}
	o.applied = seq
	if o.problem != nil {
		return nil
	}
	if err := o.store.removeDraftFiles(o.own); err != nil {
		return fmt.Errorf("removing the draft %s: %w", o.own, err)
	}
	return nil
}

// Adopt makes the stored draft at path this kedit's own: the user
// recovered it, so the draft goes on in that file. A write that overtook
// the adoption is newer than the stored draft and replaces it.
func (o *Object) Adopt(path string) (string, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if err := o.mine(path); err != nil {
		return o.own, err
	}
	if path == o.own {
		return o.own, nil
	}
	if _, err := os.Lstat(o.own); err == nil && o.wrote {
		// Written after the recovery, so newer than the stored draft; its
		// base is in it, and a base an older kedit kept beside the stored
		// draft goes. (A draft adopted before and not written since is
		// not newer: it stays where it is, a stored draft again.)
		err := o.store.disk().Rename(o.own, path)
		if err == nil {
			err = o.store.disk().Remove(path + baseExt)
		}
		if err != nil {
			return o.own, fmt.Errorf("recovering %s: %w", path, err)
		}
	}
	o.switchOwn(path)
	return o.own, nil
}

// Discard removes stored drafts the user declined to recover, and returns
// the file this kedit's draft goes to now.
func (o *Object) Discard(paths ...string) (string, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, p := range paths {
		if err := o.mine(p); err != nil {
			return o.own, err
		}
		if err := o.store.removeDraftFiles(p); err != nil {
			return o.own, fmt.Errorf("removing the stored draft %s: %w", p, err)
		}
		o.forget(p)
	}
	return o.own, nil
}

// KeepAside moves a stored draft that cannot be recovered out of the way,
// to <file>.<UTC time>.kept beside it, and returns that path. Nothing
// writes a kept file again.
func (o *Object) KeepAside(path string) (string, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if err := o.mine(path); err != nil {
		return "", err
	}
	kept, err := o.store.keepAside(path)
	if err != nil {
		return kept, fmt.Errorf("keeping the stored draft %s aside: %w", path, err)
	}
	o.forget(path)
	return kept, nil
}

// mine checks that path is a stored draft this kedit holds.
func (o *Object) mine(path string) error {
	stored := slices.ContainsFunc(o.stored, func(d *Draft) bool { return d.Path == path })
	if _, held := o.held[path]; !held || !stored {
		return fmt.Errorf("%s is not a stored draft this kedit holds", path)
	}
	return nil
}

// forget drops a stored draft that is gone from the disk. Its file becomes
// own when own has not been written yet and is numbered higher, so that a
// lone kedit keeps writing <name>.yaml; otherwise its lock is let go.
func (o *Object) forget(path string) {
	o.stored = slices.DeleteFunc(o.stored, func(d *Draft) bool { return d.Path == path })
	if _, err := os.Lstat(o.own); err != nil && o.num(path) < o.num(o.own) {
		o.switchOwn(path)
		return
	}
	if f := o.held[path]; f != nil {
		unlockFile(f, path+lockExt)
		delete(o.held, path)
	}
}

// num is the number of one of the object's draft files.
func (o *Object) num(path string) int {
	n, _ := slotOf(filepath.Base(path), escapeComponent(o.key.Name))
	return n
}

// switchOwn makes path own and lets go of the old own's lock.
func (o *Object) switchOwn(path string) {
	if f := o.held[o.own]; f != nil && o.own != path {
		unlockFile(f, o.own+lockExt)
		delete(o.held, o.own)
	}
	o.own, o.wrote = path, false
	o.stored = slices.DeleteFunc(o.stored, func(d *Draft) bool { return d.Path == path })
}

// Close lets go of every lock this kedit holds. Drafts stay on disk.
func (o *Object) Close() {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.release()
}

func (o *Object) release() {
	for path, f := range o.held {
		unlockFile(f, path+lockExt)
	}
	o.held = map[string]*os.File{}
}
