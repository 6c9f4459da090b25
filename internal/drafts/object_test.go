package drafts

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestDraftWritesSettleOnTheLatest: the session's draft writes and deletes
// run as concurrent commands, and a slow disk lets an older one finish
// last. Whatever the order, once they settle the file holds the latest
// draft, and after a save there is none.
func TestDraftWritesSettleOnTheLatest(t *testing.T) {
	s, _ := newTestDraftStore(t, false)
	tgt := configMapKey("c", "ns", "slow")

	// The draft is written and saved at once (ctrl+s in the editor): the
	// write is slow, the delete that follows the save runs meanwhile.
	o := open(t, s, tgt, "u")
	entered := make(chan struct{})
	release := make(chan struct{})
	// Only the first write is held; a select with a default here would
	// let it through whenever it came before the test waits on entered.
	var first sync.Once
	o.slowWrite = func() {
		first.Do(func() {
			entered <- struct{}{}
			<-release
		})
	}
	var wg sync.WaitGroup
	wg.Go(func() { _, _ = o.Write(1, "1", []byte("saved text\n"), nil) })
	<-entered
	wg.Go(func() { _ = o.Delete(2) })
	time.AfterFunc(50*time.Millisecond, func() { close(release) })
	wg.Wait()
	if _, err := os.Stat(o.Path()); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("after the save a draft file remains: %v", err)
	}

	// The delete overtakes the write altogether: the write, older, is
	// dropped.
	o.slowWrite = nil
	if err := o.Delete(4); err != nil {
		t.Fatal(err)
	}
	mustWrite(t, o, 3, "1", "saved text\n")
	if _, err := os.Stat(o.Path()); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a write older than the delete was done: %v", err)
	}

	// Two quick edits: the older one finishes last and is dropped.
	mustWrite(t, o, 6, "1", "newer\n")
	mustWrite(t, o, 5, "1", "older\n")
	if d, err := Read(o.Path()); err != nil || string(d.Text) != "newer\n" {
		t.Fatalf("the file holds %q (%v), want the newer text", d.Text, err)
	}

	// Many writes and a delete at once, in any order: the highest wins.
	var writes sync.WaitGroup
	for i := range 30 {
		writes.Go(func() { _, _ = o.Write(uint64(10+i), "1", []byte(strings.Repeat("x", i)), nil) })
	}
	writes.Wait()
	if d, _ := Read(o.Path()); len(d.Text) != 29 {
		t.Errorf("after concurrent writes the file holds %d bytes, want the latest's 29", len(d.Text))
	}
}

// TestUnwritableDraftDir: a draft directory that cannot be used is said
// once, by Problem, and every write fails with a *WriteError; a disk
// that refuses a write later fails that write alone.
func TestUnwritableDraftDir(t *testing.T) {
	s, state := newTestDraftStore(t, false)
	// A file where the kedit directory should be: as unusable as a
	// read-only disk, and as unusable for root.
	if err := os.WriteFile(filepath.Join(state, "kedit"), []byte("not a directory"), 0o600); err != nil {
		t.Fatal(err)
	}
	o := open(t, s, configMapKey("c", "ns", "ro"), "u")
	if o.Problem() == nil || !strings.Contains(o.Problem().Error(), "not a directory") {
		t.Fatalf("Problem() = %v, want the directory named as unusable", o.Problem())
	}
	var we *WriteError
	if _, err := o.Write(1, "1", []byte("x"), nil); !errors.As(err, &we) || !strings.Contains(err.Error(), "exists only in memory") {
		t.Errorf("Write = %v, want a *WriteError saying the draft is only in memory", err)
	}

	s2, _ := newTestDraftStore(t, false)
	tgt := configMapKey("c", "ns", "full")
	o2 := open(t, s2, tgt, "u")
	mustWrite(t, o2, 1, "1", "first\n")
	// The object's directory goes away under kedit and a file takes its
	// place: the next write fails, and a later one succeeds again.
	dir := filepath.Dir(o2.Path())
	moved := dir + ".moved"
	if err := os.Rename(dir, moved); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dir, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := o2.Write(2, "1", []byte("second\n"), nil); !errors.As(err, &we) {
		t.Fatalf("Write into a file = %v, want a *WriteError", err)
	}
	if err := os.Remove(dir); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(moved, dir); err != nil {
		t.Fatal(err)
	}
	if mustWrite(t, o2, 3, "1", "third\n"); o2.Problem() != nil {
		t.Error("a failed write made the store unusable for good")
	}
}

// TestTwoKeditsNeverShareAFile: a second kedit on the same object is told
// which kedit edits it and writes a file of its own; one's save never
// removes the other's draft; a lock a killed kedit left is taken over and
// its draft offered.
func TestTwoKeditsNeverShareAFile(t *testing.T) {
	s, _ := newTestDraftStore(t, false)
	tgt := configMapKey("c", "ns", "shared")
	a := open(t, s, tgt, "u")
	b := open(t, s, tgt, "u")
	if a.Path() == b.Path() {
		t.Fatalf("both kedits write %s", a.Path())
	}
	if others := b.Others(); len(others) != 1 || others[0].PID != os.Getpid() || others[0].Path != a.Path() {
		t.Errorf("b.Others() = %+v, want a's pid and file", others)
	}
	if filepath.Base(b.Path()) != "shared_2.yaml" {
		t.Errorf("b writes %s, want shared_2.yaml", b.Path())
	}
	mustWrite(t, a, 1, "1", "a's draft\n")
	mustWrite(t, b, 1, "1", "b's draft\n")
	if err := a.Delete(2); err != nil { // a saved
		t.Fatal(err)
	}
	if d, err := Read(b.Path()); err != nil || string(d.Text) != "b's draft\n" {
		t.Fatalf("b's draft after a's save: %v, %v", d, err)
	}
	b.crash() // kill -9
	c := open(t, s, tgt, "u")
	stored := c.Stored()
	if len(stored) != 1 || string(stored[0].Text) != "b's draft\n" {
		t.Fatalf("c is offered %+v, want b's draft", stored)
	}
	if len(c.Others()) != 1 || c.Others()[0].Path != a.Path() {
		t.Errorf("c.Others() = %+v, want a only (b is dead)", c.Others())
	}
	// c recovers it: the draft goes on in b's file.
	if path, err := c.Adopt(stored[0].Path); err != nil || path != b.Path() {
		t.Fatalf("Adopt = %s, %v", path, err)
	}
	mustWrite(t, c, 1, "1", "c goes on\n")
	if d, _ := Read(b.Path()); string(d.Text) != "c goes on\n" {
		t.Errorf("the recovered draft's file holds %q", d.Text)
	}
}

// TestRecoveryListsEveryDraft: after two kedits were killed, the next one
// offers both drafts; one declined is removed, and this kedit's draft then
// takes the first name.
func TestRecoveryListsEveryDraft(t *testing.T) {
	s, _ := newTestDraftStore(t, false)
	now := time.Date(2026, 11, 22, 4, 0, 0, 0, time.UTC)
	s.now = func() time.Time { now = now.Add(time.Minute); return now }
	tgt := configMapKey("c", "ns", "two")
	a, b := open(t, s, tgt, "u"), open(t, s, tgt, "u")
	mustWrite(t, a, 1, "1", "older\n")
	mustWrite(t, b, 1, "1", "newer\n")
	a.crash()
	b.crash()
	c := open(t, s, tgt, "u")
	stored := c.Stored()
	if len(stored) != 2 || string(stored[0].Text) != "newer\n" || string(stored[1].Text) != "older\n" {
		t.Fatalf("stored = %d drafts, want both, newest first", len(stored))
	}
	if filepath.Base(c.Path()) != "two_3.yaml" {
		t.Errorf("c writes %s while both are stored", c.Path())
	}
	path, err := c.Discard(stored[0].Path, stored[1].Path)
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Base(path) != "two.yaml" {
		t.Errorf("after discarding both, c writes %s, want two.yaml", path)
	}
	for _, d := range stored {
		if _, err := os.Stat(d.Path); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("discarded %s is still there", d.Path)
		}
	}
}

// TestDraftsKeyedByClusterAndObject: a draft made on another cluster
// whose context has the same name is neither offered nor written over; a
// draft records the object's uid.
func TestDraftsKeyedByClusterAndObject(t *testing.T) {
	s, _ := newTestDraftStore(t, false)
	onA := configMapKey("localcluster", "ns", "cm")
	a := open(t, s, onA, "uid-a")
	aPath := mustWrite(t, a, 1, "1", "made on cluster a\n")
	a.Close()

	onB := configMapKey("localcluster", "ns", "cm")
	onB.Server = "https://cluster-b.example:6443"
	b := open(t, s, onB, "uid-b")
	if len(b.Stored()) != 0 {
		t.Fatalf("cluster b is offered cluster a's draft: %+v", b.Stored())
	}
	if bPath := mustWrite(t, b, 1, "1", "made on cluster b\n"); bPath == aPath {
		t.Fatal("cluster b's draft went into cluster a's file")
	}
	if d, _ := Read(aPath); string(d.Text) != "made on cluster a\n" || d.UID != "uid-a" {
		t.Errorf("cluster a's draft is now %q, uid %q", d.Text, d.UID)
	}
	b.Close()

	again := open(t, s, onA, "uid-a")
	if st := again.Stored(); len(st) != 1 || st[0].Path != aPath || st[0].UID != "uid-a" {
		t.Errorf("cluster a is offered %+v, want its own draft with its uid", st)
	}
}

// TestKeptDraftIsNeverWrittenAgain: a draft that cannot be recovered is
// moved to <file>.<UTC time>.kept, and the edits that follow go to the
// draft's own file, never to the kept one.
func TestKeptDraftIsNeverWrittenAgain(t *testing.T) {
	s, _ := newTestDraftStore(t, false)
	s.now = func() time.Time { return time.Date(2026, 11, 22, 4, 1, 3, 0, time.UTC) }
	tgt := configMapKey("c", "ns", "stale")
	old := open(t, s, tgt, "u")
	mustWrite(t, old, 1, "3", "unrecoverable\n")
	old.crash()

	o := open(t, s, tgt, "u")
	stored := o.Stored()
	if len(stored) != 1 {
		t.Fatalf("%d stored", len(stored))
	}
	before, _ := os.ReadFile(stored[0].Path)
	kept, err := o.KeepAside(stored[0].Path)
	if err != nil {
		t.Fatal(err)
	}
	if want := stored[0].Path + ".20261122T040103Z.kept"; kept != want {
		t.Errorf("kept at %s, want %s", kept, want)
	}
	if b, _ := os.ReadFile(kept); string(b) != string(before) {
		t.Error("the kept file is not the stored draft byte for byte")
	}
	for i := range 3 {
		mustWrite(t, o, uint64(i+1), "9", "new edit\n")
	}
	if err := o.Delete(9); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(kept); string(b) != string(before) {
		t.Error("the kept file was written again")
	}
	if filepath.Base(o.Path()) != "stale.yaml" {
		t.Errorf("edits go to %s", o.Path())
	}
	// A second one the same second is not written over the first.
	again := open(t, s, tgt, "u")
	mustWrite(t, again, 1, "3", "another\n")
	again.crash()
	o2 := open(t, s, tgt, "u")
	kept2, err := o2.KeepAside(o2.Stored()[0].Path)
	if err != nil || kept2 == kept {
		t.Fatalf("second kept file %s, %v", kept2, err)
	}
	if b, _ := os.ReadFile(kept); string(b) != string(before) {
		t.Error("a second keep replaced the first kept file")
	}
}

// TestSymlinkInDraftDirIsNeverFollowed: a symlink planted at a draft's name
// makes the store unusable for this object (said by Problem); nothing is
// written through it.
func TestSymlinkInDraftDirIsNeverFollowed(t *testing.T) {
	s, _ := newTestDraftStore(t, false)
	tgt := configMapKey("c", "ns", "planted")
	path := s.Path(tgt)
	if err := s.mkdirPrivate(filepath.Dir(path)); err != nil {
		t.Fatal(err)
	}
	victim := filepath.Join(t.TempDir(), "victim")
	if err := os.WriteFile(victim, []byte("untouched"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{path, path + lockExt} {
		if err := os.Symlink(victim, p); err != nil {
			t.Fatal(err)
		}
		o := open(t, s, tgt, "u")
		if o.Problem() == nil || !strings.Contains(o.Problem().Error(), "symlink") {
			t.Errorf("symlink at %s: Problem() = %v", filepath.Base(p), o.Problem())
		}
		_, _ = o.Write(1, "1", []byte("through the link?"), map[string]any{"metadata": map[string]any{"resourceVersion": "1"}})
		if b, _ := os.ReadFile(victim); string(b) != "untouched" {
			t.Fatalf("symlink at %s: the write went through it", filepath.Base(p))
		}
		o.Close()
		if err := os.Remove(p); err != nil {
			t.Fatal(err)
		}
	}
}
