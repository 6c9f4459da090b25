package ui

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"k8s.io/apimachinery/pkg/api/meta"

	"github.com/kedit/kedit/internal/drafts"
	"github.com/kedit/kedit/kube"
	"github.com/kedit/kedit/model"
	"github.com/kedit/kedit/ui/common"
	"github.com/kedit/kedit/ui/internal/effect"
)

// fakeDrafts is a draft store's share for the app's tests: it records what
// the app asks of it.
type fakeDrafts struct {
	mu       sync.Mutex
	path     string
	stored   []*drafts.Draft
	others   []drafts.Editor
	problem  error
	memory   bool
	adopted  []string
	discards []string
	kept     []string
}

func (f *fakeDrafts) Path() string            { return f.path }
func (f *fakeDrafts) Stored() []*drafts.Draft { return f.stored }
func (f *fakeDrafts) Others() []drafts.Editor { return f.others }
func (f *fakeDrafts) Problem() error          { return f.problem }
func (f *fakeDrafts) MemoryOnly() bool        { return f.memory }
func (f *fakeDrafts) Warnings() []error       { return nil }

func (f *fakeDrafts) Adopt(path string) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.adopted = append(f.adopted, path)
	return path, nil
}

func (f *fakeDrafts) Discard(paths ...string) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.discards = append(f.discards, paths...)
	return f.path, nil
}

func (f *fakeDrafts) KeepAside(path string) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.kept = append(f.kept, path)
	return path + ".20261122T120000Z.kept", nil
}

func withDrafts(d Drafts) func(*Config) { return func(c *Config) { c.Object.Drafts = d } }

// TestQuitSaysWhereTheDraftIs: a draft that exists only in memory (a
// Secret's without --allow-secret-drafts, or one the disk refused) is said
// to be lost on quitting, by q and by the first ctrl+c; a second ctrl+c
// quits.
func TestQuitSaysWhereTheDraftIs(t *testing.T) {
	const lost = "the draft exists only in memory and will be lost"
	for _, tc := range []struct {
		name   string
		drafts *fakeDrafts
		fail   error
		want   string
	}{
		{"secret", &fakeDrafts{path: "/d/db.yaml", memory: true}, nil, lost + " (a Secret's draft is written to disk only with --allow-secret-drafts)"},
		{"disk refused", &fakeDrafts{path: "/d/testmap.yaml"}, &drafts.WriteError{Path: "/d/testmap.yaml", Err: syscall.EROFS}, lost},
		{"directory unusable", &fakeDrafts{path: "/d/testmap.yaml", problem: errors.New("/d is not a directory")}, nil, lost},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := newApp(t, 200, 24, nil, withDrafts(tc.drafts))
			m = edit(t, m, `foo: "1"`, "foo: mine")
			if tc.fail != nil {
				m = drive(t, m, effect.Performed{Of: m.id, Effect: model.WriteDraft{Seq: 1}, Err: tc.fail})
				if got := m.status.Text(); !strings.Contains(got, "read-only file system") || !strings.Contains(got, "editing goes on in memory") {
					t.Errorf("a refused write says %q", got)
				}
				// Once: the next refusal does not say it again.
				m.status.Info("")
				if m = drive(t, m, effect.Performed{Of: m.id, Effect: model.WriteDraft{Seq: 2}, Err: tc.fail}); m.status.Text() != "" {
					t.Errorf("the warning is repeated: %q", m.status.Text())
				}
			}
			next, cmd := m.Update(keyMsg("q"))
			m = next.(App)
			if isQuit(cmd) || !strings.Contains(plain(m), tc.want) {
				t.Fatalf("q asks:\n%s\nwant %q", plain(m), tc.want)
			}
			m = drive(t, m, keys("n")...)
			next, cmd = m.Update(tea.KeyMsg{Type: tea.KeyCtrlC})
			m = next.(App)
			if isQuit(cmd) || !strings.Contains(plain(m), tc.want) || !strings.Contains(plain(m), "ctrl+c again quits") {
				t.Fatalf("the first ctrl+c quits or asks:\n%s", plain(m))
			}
			if _, cmd = m.Update(tea.KeyMsg{Type: tea.KeyCtrlC}); !isQuit(cmd) {
				t.Error("the second ctrl+c does not quit")
			}
		})
	}

	// On disk, ctrl+c quits at once: the draft stays, and q says where.
	m := edit(t, newApp(t, 200, 24, nil, withDrafts(&fakeDrafts{path: "/d/testmap.yaml"})), `foo: "1"`, "foo: mine")
	if _, cmd := m.Update(tea.KeyMsg{Type: tea.KeyCtrlC}); !isQuit(cmd) {
		t.Error("ctrl+c with a draft on disk does not quit at once")
	}
	// A write that goes through again puts the draft back on disk.
	m = drive(t, m, effect.Performed{Of: m.id, Effect: model.WriteDraft{Seq: 1}, Err: &drafts.WriteError{Path: "/d/testmap.yaml", Err: syscall.ENOSPC}})
	m = drive(t, m, effect.Performed{Of: m.id, Effect: model.WriteDraft{Seq: 3}})
	// An older write's outcome, coming back last, changes nothing.
	m = drive(t, m, effect.Performed{Of: m.id, Effect: model.WriteDraft{Seq: 2}, Err: &drafts.WriteError{Path: "/d/testmap.yaml", Err: syscall.ENOSPC}})
	if m.inMemory() {
		t.Error("the draft is still said to be only in memory after a write went through")
	}
}

// TestInEditorSaveLeavesNoDraftFile: ctrl+s in the in-app editor writes
// the draft and saves it at once; with a slow disk the write finishes after
// the save's deletion of the draft. The file must not outlive the save.
func TestInEditorSaveLeavesNoDraftFile(t *testing.T) {
	store := &drafts.Store{Dir: filepath.Join(t.TempDir(), "kedit", "drafts")}
	target := &kube.Target{Context: ref.Context, Namespace: ref.Namespace, Name: ref.Name,
		Mapping: &meta.RESTMapping{Resource: ref.Resource, Scope: meta.RESTScopeNamespace}}
	drafts := store.Open(kube.DraftKey(target), "u-1")
	t.Cleanup(drafts.Close)
	r := &fakeRunner{drafts: drafts, slow: 100 * time.Millisecond}
	m := newApp(t, 80, 24, r, withDrafts(drafts))
	m = drive(t, m, keys("i")...)
	m = drive(t, m, keyMsg("down"), keyMsg("end"), tea.KeyMsg{Type: tea.KeyEnter})
	m = drive(t, m, keys("  baz: typed")...)
	m = drive(t, m, keys("ctrl+s")...)
	if m.Session().State() != model.StateSaved || dataOf(r.object(), "baz") != "typed" {
		t.Fatalf("ctrl+s: state %v", m.Session().State())
	}
	if _, err := os.Stat(drafts.Path()); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the saved draft is still on disk: %v", err)
	}

	// Two quick edits: the file ends with the latest.
	m = edit(t, m, `baz: typed`, `baz: first`)
	text, _ := m.Session().DraftText()
	d := newDriver(t, m)
	d.send(effect.EditorFinished{Original: text, Text: strings.Replace(text, "baz: first", "baz: second", 1)})
	d.send(effect.EditorFinished{Original: text, Text: strings.Replace(text, "baz: first", "baz: third", 1)})
	d.settle()
	b, err := os.ReadFile(drafts.Path())
	if err != nil || !strings.Contains(string(b), "baz: third") {
		t.Errorf("the draft file holds %q (%v), want the latest edit", b, err)
	}
}

// TestSpinnerSpinsDuringSave: the spinner's ticks run while the save is in
// flight, not after it.
func TestSpinnerSpinsDuringSave(t *testing.T) {
	r := &fakeRunner{saving: make(chan struct{})}
	m := edit(t, newApp(t, 80, 24, r), `foo: "1"`, "foo: mine")
	d := newDriver(t, m)
	d.ticks = true
	d.send(keyMsg("s"))
	frames := map[string]bool{}
	d.until(func(m App) bool {
		if m.status.Busy() {
			// The bar begins with the spinner's frame.
			frames[strings.Fields(ansi.Strip(m.status.View()))[0]] = true
		}
		return len(frames) >= 3
	})
	close(r.saving)
	m = d.settle()
	if m.Session().State() != model.StateSaved || m.status.Busy() {
		t.Errorf("after the save: state %v, spinner busy %v", m.Session().State(), m.status.Busy())
	}
}

// TestStaleStoredDraftIsKeptAside: a stored draft that cannot be recovered
// is moved aside, and the user told where.
func TestStaleStoredDraftIsKeptAside(t *testing.T) {
	stored := &drafts.Draft{Path: "/d/testmap.yaml", BaseResourceVersion: "3", SavedAt: t0, Text: []byte("data:\n  foo: old\n"), UID: "u-1"}
	fd := &fakeDrafts{path: "/d/testmap_2.yaml", stored: []*drafts.Draft{stored}}
	m := newApp(t, 200, 24, &fakeRunner{}, withDrafts(fd))
	if q := plain(m); !strings.Contains(q, "a draft of this object from rv 3") || !strings.Contains(q, "in /d/testmap.yaml") {
		t.Fatalf("the offer does not say which draft and where:\n%s", q)
	}
	m = drive(t, m, keys("y")...)
	if m.Session().Draft() != nil {
		t.Fatal("a draft that cannot be rebased was taken")
	}
	if len(fd.kept) != 1 || fd.kept[0] != stored.Path {
		t.Fatalf("kept aside %v, want %s", fd.kept, stored.Path)
	}
	if got := m.status.Text(); !strings.Contains(got, "resourceVersion 3") || !strings.Contains(got, "it is kept in /d/testmap.yaml.20261122T120000Z.kept") {
		t.Errorf("status %q does not say why and where it is kept", got)
	}
}

// TestRecoveryOffersEveryStoredDraft: every stored draft is offered, one of
// a deleted-and-recreated object with a warning; the one chosen is adopted,
// the others stay stored; another kedit editing the object is named.
func TestRecoveryOffersEveryStoredDraft(t *testing.T) {
	mine := "apiVersion: v1\ndata:\n  bar: \"1\"\n  foo: recovered\nkind: ConfigMap\nmetadata:\n  name: testmap\n  namespace: default\n"
	fd := &fakeDrafts{path: "/d/testmap_3.yaml", others: []drafts.Editor{{PID: 4242, Path: "/d/testmap_4.yaml"}}, stored: []*drafts.Draft{
		{Path: "/d/testmap.yaml", BaseResourceVersion: "812", SavedAt: t0, Text: []byte(mine), UID: "u-1"},
		{Path: "/d/testmap_2.yaml", BaseResourceVersion: "700", SavedAt: t0.Add(-time.Hour), Text: []byte(mine), UID: "u-0"},
	}}
	m := newApp(t, 200, 30, &fakeRunner{}, withDrafts(fd))
	q := plain(m)
	for _, want := range []string{"2 drafts of this object are stored:", "1) from rv 812", "2) from rv 700", "in /d/testmap_2.yaml -- WARNING: made on an earlier object of this name that was deleted since", "1-2 recovers that one"} {
		if !strings.Contains(q, want) {
			t.Errorf("the offer lacks %q:\n%s", want, q)
		}
	}
	if strings.Count(q, "WARNING") != 1 {
		t.Errorf("the warning is not on the recreated object's draft alone:\n%s", q)
	}
	m = drive(t, m, keys("2")...)
	if d := m.Session().Draft(); d == nil || d.Text != mine {
		t.Fatalf("2 did not recover the second draft: %+v", d)
	}
	if base := m.Session().Base().ResourceVersion; base != "812" {
		t.Errorf("the recreated object's draft moved base to %s", base)
	}
	if len(fd.adopted) != 1 || fd.adopted[0] != "/d/testmap_2.yaml" || len(fd.discards) != 0 {
		t.Errorf("adopted %v, discarded %v", fd.adopted, fd.discards)
	}
	if got := m.status.Text(); !strings.Contains(got, "1 other stored draft stays on disk") {
		t.Errorf("status %q", got)
	}

	other := newApp(t, 200, 30, &fakeRunner{}, withDrafts(&fakeDrafts{path: "/d/testmap_2.yaml", others: fd.others}))
	if got := other.status.Text(); got != "another kedit (pid 4242) is editing this object; this one stores its draft in /d/testmap_2.yaml" {
		t.Errorf("status %q", got)
	}

	// n discards them all.
	fd2 := &fakeDrafts{path: "/d/x.yaml", stored: fd.stored}
	m = drive(t, newApp(t, 200, 30, &fakeRunner{}, withDrafts(fd2)), keys("n")...)
	if len(fd2.discards) != 2 || m.Session().Draft() != nil {
		t.Errorf("n discarded %v", fd2.discards)
	}
}

// TestSignalEndsAfterEditor: a signal quits at once, keeping what the
// in-app editor holds; while $EDITOR runs it waits for it, and keeps what
// it wrote.
func TestSignalEndsAfterEditor(t *testing.T) {
	m := newApp(t, 80, 24, &fakeRunner{})
	m = drive(t, m, keys("i")...)
	m = drive(t, m, keyMsg("down"), keyMsg("end"), tea.KeyMsg{Type: tea.KeyEnter})
	m = drive(t, m, keys("  baz: typed")...)
	d := newDriver(t, m)
	d.send(SignalMsg{Signal: syscall.SIGHUP})
	m = d.settle()
	if !d.quit || m.Terminated() != syscall.SIGHUP {
		t.Fatalf("SIGHUP: quit %v, terminated %v", d.quit, m.Terminated())
	}
	if dr := m.Session().Draft(); dr == nil || !strings.Contains(dr.Text, "baz: typed") {
		t.Errorf("what the in-app editor held is not the draft: %+v", dr)
	}

	m = newApp(t, 80, 24, &fakeRunner{})
	text, _ := m.Session().DraftText()
	m.life.editorOpen = true // e was pressed: $EDITOR has the terminal
	d = newDriver(t, m)
	d.send(SignalMsg{Signal: syscall.SIGTERM})
	m = d.settle()
	if d.quit {
		t.Fatal("SIGTERM quit while $EDITOR runs")
	}
	d.send(effect.EditorFinished{Original: text, Text: strings.Replace(text, `foo: "1"`, "foo: edited", 1)})
	m = d.settle()
	if !d.quit || m.Terminated() != syscall.SIGTERM {
		t.Fatalf("after the editor returned: quit %v", d.quit)
	}
	if dr := m.Session().Draft(); dr == nil || !strings.Contains(dr.Text, "foo: edited") {
		t.Errorf("what $EDITOR wrote is not the draft: %+v", dr)
	}
}

// TestPickKeysAreInTheKeyMap: the keys that choose a stored draft are data.
func TestPickKeysAreInTheKeyMap(t *testing.T) {
	for i := 1; i <= 9; i++ {
		if !key.Matches(keyMsg(strconv.Itoa(i)), common.DefaultPromptKeyMap().Pick) {
			t.Errorf("%d does not pick", i)
		}
	}
}
