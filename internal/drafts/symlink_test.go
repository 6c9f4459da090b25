package drafts

import (
	"os"
	"path/filepath"
	"testing"
)

// TestPlantedSymlinksAreNeverFollowed completes the test of the draft path
// and its lock: a symlink planted where an older kedit kept a draft's base
// (which a write removes), where a second kedit writes its own draft, or
// in place of the object's directory is never followed; what it points at
// stays untouched, whether kedit refuses the directory or writes beside
// the link.
func TestPlantedSymlinksAreNeverFollowed(t *testing.T) {
	base := map[string]any{"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"name": "planted", "resourceVersion": "1"}}
	victimFile := func(t *testing.T) string {
		p := filepath.Join(t.TempDir(), "victim")
		if err := os.WriteFile(p, []byte("untouched"), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	untouched := func(t *testing.T, victim string) {
		t.Helper()
		if b, err := os.ReadFile(victim); err != nil || string(b) != "untouched" {
			t.Fatalf("the file a planted symlink points at was written: %q, %v", b, err)
		}
	}

	t.Run("base beside the draft", func(t *testing.T) {
		s, _ := newTestDraftStore(t, false)
		tgt := configMapKey("c", "ns", "planted")
		victim := victimFile(t)
		if err := s.mkdirPrivate(filepath.Dir(s.Path(tgt))); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(victim, s.Path(tgt)+baseExt); err != nil {
			t.Fatal(err)
		}
		o := open(t, s, tgt, "u")
		_, _ = o.Write(1, "1", []byte("data:\n  foo: through the link?\n"), base)
		untouched(t, victim)
	})

	t.Run("a second kedit's draft", func(t *testing.T) {
		s, _ := newTestDraftStore(t, false)
		tgt := configMapKey("c", "ns", "planted")
		first := open(t, s, tgt, "u")
		mustWrite(t, first, 1, "1", "first\n")
		victim := victimFile(t)
		second := s.slotPath(tgt, 2)
		for _, p := range []string{second, second + lockExt, second + baseExt} {
			if err := os.Symlink(victim, p); err != nil {
				t.Fatal(err)
			}
		}
		o := open(t, s, tgt, "u")
		_, _ = o.Write(1, "1", []byte("through the link?\n"), base)
		untouched(t, victim)
		if o.Path() == second {
			t.Errorf("the second kedit took the slot a symlink holds: %s", o.Path())
		}
	})

	t.Run("the object's directory", func(t *testing.T) {
		s, _ := newTestDraftStore(t, false)
		tgt := configMapKey("c", "ns", "planted")
		elsewhere := t.TempDir()
		dir := filepath.Dir(s.Path(tgt))
		if err := s.mkdirPrivate(filepath.Dir(dir)); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(elsewhere, dir); err != nil {
			t.Fatal(err)
		}
		o := open(t, s, tgt, "u")
		_, _ = o.Write(1, "1", []byte("through the link?\n"), base)
		if entries, _ := os.ReadDir(elsewhere); len(entries) != 0 {
			t.Fatalf("kedit wrote %d files through a symlinked directory", len(entries))
		}
		if o.Problem() == nil {
			t.Error("a symlinked draft directory was not reported")
		}
	})
}
