package drafts

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestDraftList(t *testing.T) {
	s, _ := newTestDraftStore(t, false)
	if got, err := s.List(); err != nil || len(got) != 0 {
		t.Fatalf("List of an empty store = %v, %v", got, err)
	}
	now := time.Date(2026, 11, 22, 4, 0, 0, 0, time.UTC)
	s.now = func() time.Time { now = now.Add(time.Minute); return now }
	a := configMapKey("arn:aws:eks:x:cluster/prod", "team-a", "settings")
	b := draftKey("", "", "customresourcedefinitions.apiextensions.k8s.io", "widgets.example.com")
	oa := open(t, s, a, "u")
	mustWrite(t, oa, 1, "812", "data: {}\n")
	ob := open(t, s, b, "u")
	mustWrite(t, ob, 1, "9", "spec: {}\n")
	// A stored draft set aside, and a second kedit's draft of a.
	old := open(t, s, a, "u")
	mustWrite(t, old, 1, "3", "old\n")
	old.crash()
	o := open(t, s, a, "u")
	kept, err := o.KeepAside(o.Stored()[0].Path)
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.List()
	if err != nil {
		t.Fatal(err)
	}
	want := []Entry{
		{Context: a.Context, Namespace: "team-a", Resource: "configmaps", Name: "settings", Path: kept, BaseResourceVersion: "3", Size: 4, Kept: true},
		{Context: "", Namespace: "", Resource: "customresourcedefinitions.apiextensions.k8s.io", Name: "widgets.example.com", Path: s.Path(b), BaseResourceVersion: "9", Size: 9, EditingPID: os.Getpid()},
		{Context: a.Context, Namespace: "team-a", Resource: "configmaps", Name: "settings", Path: s.Path(a), BaseResourceVersion: "812", Size: 9, EditingPID: os.Getpid()},
	}
	if len(got) != len(want) {
		t.Fatalf("List = %+v", got)
	}
	for i, e := range got {
		e.SavedAt, e.Server = time.Time{}, ""
		if e != want[i] {
			t.Errorf("entry %d = %+v\nwant %+v", i, e, want[i])
		}
	}
	of, err := s.DraftsOf(a)
	if err != nil || len(of) != 2 {
		t.Errorf("DraftsOf = %+v, %v; want a's draft and the kept one", of, err)
	}
}

// TestDraftListNamesStrays: whatever else is in the draft directory is an
// error that names it, never a crash, and no symlink is followed.
func TestDraftListNamesStrays(t *testing.T) {
	for _, tc := range []struct {
		name  string
		plant func(t *testing.T, dir string) string
		want  string
	}{
		{"stray file", func(t *testing.T, dir string) string {
			p := filepath.Join(dir, "notes.txt")
			return p + "|" + write(t, p)
		}, "not a file kedit wrote"},
		{"not a draft", func(t *testing.T, dir string) string {
			p := filepath.Join(dir, "fake.yaml")
			return p + "|" + write(t, p)
		}, "not a kedit draft"},
		{"symlinked draft", func(t *testing.T, dir string) string {
			p := filepath.Join(dir, "linked.yaml")
			return p + "|" + symlink(t, p)
		}, "a symlink"},
		{"symlinked directory", func(t *testing.T, dir string) string {
			p := filepath.Join(filepath.Dir(dir), "secrets")
			return p + "|" + symlink(t, p)
		}, "a symlink"},
		{"file among directories", func(t *testing.T, dir string) string {
			p := filepath.Join(filepath.Dir(filepath.Dir(dir)), "README")
			return p + "|" + write(t, p)
		}, "where kedit keeps only directories"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, _ := newTestDraftStore(t, false)
			o := open(t, s, configMapKey("c", "ns", "fine"), "u")
			mustWrite(t, o, 1, "1", "x: 1\n")
			path, _, _ := strings.Cut(tc.plant(t, filepath.Dir(o.Path())), "|")
			_, err := s.List()
			var se *StrayError
			if !errors.As(err, &se) || se.Path != path || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("List = %v, want a *StrayError naming %s: %s", err, path, tc.want)
			}
		})
	}
}

func write(t *testing.T, path string) string {
	t.Helper()
	if err := os.WriteFile(path, []byte("apiVersion: v1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return ""
}

func symlink(t *testing.T, path string) string {
	t.Helper()
	if err := os.Symlink(t.TempDir(), path); err != nil {
		t.Fatal(err)
	}
	return ""
}

func TestDraftRemove(t *testing.T) {
	s, _ := newTestDraftStore(t, false)
	tgt := configMapKey("c", "ns", "rm")
	editing := open(t, s, tgt, "u")
	busy := mustWrite(t, editing, 1, "1", "being edited\n")
	if err := s.Remove(busy); err == nil || !strings.Contains(err.Error(), "being edited by kedit (pid") {
		t.Errorf("Remove of a draft being edited = %v", err)
	}
	editing.crash()
	if err := s.Remove(busy); err != nil {
		t.Fatalf("Remove of a dead kedit's draft: %v", err)
	}
	if _, err := os.Stat(busy); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the draft is still there: %v", err)
	}
	outside := filepath.Join(t.TempDir(), "x.yaml")
	write(t, outside)
	if err := s.Remove(outside); err == nil || !strings.Contains(err.Error(), "not in the draft directory") {
		t.Errorf("Remove outside the store = %v", err)
	}
	if _, err := os.Stat(outside); err != nil {
		t.Error("a file outside the store was removed")
	}
}

// TestClusterDrafts: the browser's marks and :drafts are the drafts of one
// context on one cluster that opening their object would offer.
func TestClusterDrafts(t *testing.T) {
	s, _ := newTestDraftStore(t, false)
	a := configMapKey("dev", "team-a", "settings")
	mustWrite(t, open(t, s, a, "u"), 1, "812", "data: {}\n")
	// The same context name on another cluster, and another context.
	other := configMapKey("dev", "team-a", "elsewhere")
	other.Server = "https://cluster-b.example:6443"
	mustWrite(t, open(t, s, other, "u"), 1, "5", "data: {}\n")
	mustWrite(t, open(t, s, configMapKey("prod", "team-a", "prod-only"), "u"), 1, "7", "data: {}\n")
	// A draft set aside cannot be offered.
	old := configMapKey("dev", "team-a", "old")
	o := open(t, s, old, "u")
	mustWrite(t, o, 1, "3", "old\n")
	o.crash()
	o = open(t, s, old, "u")
	if _, err := o.KeepAside(o.Stored()[0].Path); err != nil {
		t.Fatal(err)
	}
	got, err := s.ClusterDrafts("dev", a.Server)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Name != "settings" || got[0].Resource != "configmaps" || got[0].Namespace != "team-a" {
		t.Errorf("ClusterDrafts = %+v; want only dev's settings on cluster a", got)
	}
}
