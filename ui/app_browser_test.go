package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/kedit/kedit/model"
	"github.com/kedit/kedit/ui/browser"
	"github.com/kedit/kedit/ui/internal/effect"
)

// The app's browser: going from the list to an object and back, the
// drafts kept on the way, and the quit question for drafts only in
// memory. A fake Cluster stands in for main's; the sessions, the draft
// store and the keys are the real ones.

const fakeServer = "https://kind-dev.example:6443"

// TestAppOpensAndComesBack: enter opens the selected object; esc goes back
// to the list with the object's watch stopped and its draft marked; enter
// again shows the draft, without the recovery question and without
// opening the object afresh.
func TestAppOpensAndComesBack(t *testing.T) {
	c := newFakeCluster(t)
	c.add("configmaps", "default", "other")
	c.add("configmaps", "default", "testmap")
	m := browserApp(t, c, c.collection("configmaps", "default", false), 120, 40)
	m = drive(t, m, keys("j")...)
	if selected(m) != "testmap" {
		t.Fatalf("selected %q", selected(m))
	}
	m = drive(t, m, tea.KeyMsg{Type: tea.KeyEnter})
	if m.screen != screenObject || m.Session() == nil || m.Session().Ref().Name != "testmap" {
		t.Fatalf("enter shows screen %d:\n%s", m.screen, plain(m))
	}
	if started, running := c.watching(); started != 1 || running != 1 {
		t.Errorf("%d watches started, %d running; want the object's one", started, running)
	}
	if v := plain(m); !strings.Contains(v, "ConfigMap/testmap") || !strings.Contains(v, "esc list") {
		t.Errorf("the object view:\n%s", v)
	}

	m = editDraft(t, m, "mine")
	m = drive(t, m, keyMsg("esc"))
	if m.screen != screenBrowser || m.Session() != nil {
		t.Fatalf("esc shows screen %d:\n%s", m.screen, plain(m))
	}
	if _, running := c.watching(); running != 0 {
		t.Errorf("%d watches still running after esc", running)
	}
	if c.closed != 0 {
		t.Error("the object with a draft was let go of")
	}
	if got := mark(m, "testmap"); got != "stored" {
		t.Errorf("DRAFT of testmap is %q:\n%s", got, plain(m))
	}
	if selected(m) != "testmap" || !strings.Contains(m.status.Text(), "stays on disk in "+c.store.Dir) {
		t.Errorf("selected %q, status %q", selected(m), m.status.Text())
	}
	if on, _ := c.store.ClusterDrafts("kind-dev", fakeServer); len(on) != 1 || on[0].Name != "testmap" {
		t.Errorf("the store holds %+v", on)
	}

	m = drive(t, m, tea.KeyMsg{Type: tea.KeyEnter})
	if m.screen != screenObject || m.confirm.kind != confirmNone {
		t.Fatalf("enter again: screen %d, question %q", m.screen, m.question())
	}
	if d := m.Session().Draft(); d == nil || !strings.Contains(d.Text, "foo: mine") {
		t.Errorf("the draft did not come back: %+v", d)
	}
	if c.opened != 1 {
		t.Errorf("the object was opened %d times", c.opened)
	}
	if started, running := c.watching(); started != 2 || running != 1 {
		t.Errorf("%d watches started, %d running", started, running)
	}
	if !strings.Contains(plain(m), "unsaved draft") {
		t.Errorf("no draft shown:\n%s", plain(m))
	}
}

// TestAppStartedOnAnObjectGoesBackToItsList: kedit TYPE/NAME starts on
// the object; esc goes to the list of its type in its namespace, with
// the object selected once the list arrives.
func TestAppStartedOnAnObjectGoesBackToItsList(t *testing.T) {
	c := newFakeCluster(t)
	for _, n := range []string{"a", "b", "testmap", "z"} {
		c.add("configmaps", "team-a", n)
	}
	obj, err := c.Open(context.Background(), c.collection("configmaps", "team-a", false).Target("team-a", "testmap"))
	if err != nil {
		t.Fatal(err)
	}
	m := drive(t, New(Config{Cluster: c, Object: obj}), tea.WindowSizeMsg{Width: 80, Height: 24})
	if started, running := c.watching(); started != 1 || running != 1 {
		t.Fatalf("watches: %d started, %d running", started, running)
	}
	m = drive(t, m, keyMsg("esc"))
	if m.screen != screenBrowser {
		t.Fatalf("esc shows screen %d", m.screen)
	}
	coll := m.browsing.listed
	if coll.Resource() != "configmaps" || coll.Namespace != "team-a" || coll.AllNamespaces || coll.Server != fakeServer {
		t.Errorf("back to %+v", coll)
	}
	if c.closed != 1 {
		t.Errorf("the object left without a draft was not let go of (%d)", c.closed)
	}
	m = listed(t, c, m)
	if selected(m) != "testmap" {
		t.Errorf("selected %q:\n%s", selected(m), plain(m))
	}
	// Opened afresh, as nothing was kept.
	m = drive(t, m, tea.KeyMsg{Type: tea.KeyEnter})
	if c.opened != 2 || m.screen != screenObject {
		t.Errorf("opened %d times, screen %d", c.opened, m.screen)
	}
}

// TestAppWithoutClusterKeepsEscFree: an app on one object alone (no list
// to go back to) leaves esc unbound in the object view, as before.
func TestAppWithoutClusterKeepsEscFree(t *testing.T) {
	m := newApp(t, 120, 40, &fakeRunner{})
	m = drive(t, m, keyMsg("esc"))
	if m.screen != screenObject || strings.Contains(plain(m), "esc list") {
		t.Errorf("esc without a list: screen %d\n%s", m.screen, plain(m))
	}
}

// TestAppQuitAsksForDraftsInMemory: a Secret's draft left in memory is
// marked memory; q in the browser asks before losing it, and so do q and
// ctrl+c in another object's view.
func TestAppQuitAsksForDraftsInMemory(t *testing.T) {
	c := newFakeCluster(t)
	c.add("secrets", "default", "db")
	c.add("configmaps", "default", "testmap")
	m := browserApp(t, c, c.collection("secrets", "default", false), 120, 40)
	m = drive(t, m, tea.KeyMsg{Type: tea.KeyEnter})
	m = editDraft(t, m, "mine")
	m = drive(t, m, keyMsg("esc"))
	if got := mark(m, "db"); got != "memory" {
		t.Fatalf("DRAFT of db is %q:\n%s", got, plain(m))
	}
	if !strings.Contains(m.status.Text(), "kept in memory only") {
		t.Errorf("status %q", m.status.Text())
	}
	if on, _ := c.store.ClusterDrafts("kind-dev", fakeServer); len(on) != 0 {
		t.Errorf("a Secret's draft reached the disk: %+v", on)
	}

	d := newDriver(t, m)
	d.send(keyMsg("q"))
	m = d.settle()
	const lost = "the draft of secrets/db exists only in memory and will be lost: quit anyway? (y/n)"
	if d.quit || m.question() != lost {
		t.Fatalf("q: quit %v, question %q", d.quit, m.question())
	}
	d.send(keyMsg("n"))
	if m = d.settle(); d.quit || m.confirm.kind != confirmNone {
		t.Fatal("n quits")
	}

	// Another object, without a draft: q and ctrl+c still ask.
	m = drive(t, m, keys(":")...)
	m = drive(t, m, keyMsg("cm"), tea.KeyMsg{Type: tea.KeyEnter})
	m = listed(t, c, m)
	m = drive(t, m, tea.KeyMsg{Type: tea.KeyEnter})
	if m.screen != screenObject || m.Session().Ref().Name != "testmap" {
		t.Fatalf("screen %d:\n%s", m.screen, plain(m))
	}
	if m = drive(t, m, keyMsg("q")); m.question() != lost {
		t.Errorf("q in the object view asks %q", m.question())
	}
	m = drive(t, m, keyMsg("n"))
	d = newDriver(t, m)
	d.send(tea.KeyMsg{Type: tea.KeyCtrlC})
	if m = d.settle(); d.quit || !strings.Contains(string(m.question()), "ctrl+c again quits") {
		t.Fatalf("the first ctrl+c: quit %v, question %q", d.quit, m.question())
	}
	d.send(tea.KeyMsg{Type: tea.KeyCtrlC})
	d.settle()
	if !d.quit {
		t.Error("the second ctrl+c does not quit")
	}

	// With a draft on disk here too, the question says both.
	m = editDraft(t, m, "mine")
	m = drive(t, m, keyMsg("n"), keyMsg("q"))
	if q := string(m.question()); !strings.HasPrefix(q, "this draft stays on disk in ") || !strings.HasSuffix(q, ", but "+lost) {
		t.Errorf("q with drafts here and in memory: %q", q)
	}
	d = newDriver(t, m)
	d.send(keyMsg("y"))
	d.settle()
	if !d.quit {
		t.Error("y does not quit")
	}
}

// TestAppLeaveFindsTheOutcomesAfterIt: esc right after an edit goes back
// at once, and the draft's write, back later, reaches its own object, left
// with the draft. A draft discarded right before esc: the object is let go
// of once its deletion is back, and the list's mark goes with it.
func TestAppLeaveFindsTheOutcomesAfterIt(t *testing.T) {
	c := newFakeCluster(t)
	k := c.add("configmaps", "default", "testmap")
	m := browserApp(t, c, c.collection("configmaps", "default", false), 120, 40)
	m = drive(t, m, tea.KeyMsg{Type: tea.KeyEnter})
	c.runners[k].slow = 200 * time.Millisecond
	text, _ := m.Session().DraftText()
	d := newDriver(t, m)
	d.send(effect.EditorFinished{Original: text, Text: strings.Replace(text, `foo: "1"`, "foo: mine", 1)})
	d.send(keyMsg("esc"))
	if d.m.screen != screenBrowser {
		t.Fatalf("esc with a write on its way: screen %d", d.m.screen)
	}
	m = d.settle()
	if m.screen != screenBrowser || mark(m, "testmap") != "stored" {
		t.Fatalf("after the write: screen %d\n%s", m.screen, plain(m))
	}
	st := m.left()[k]
	if st.inflight != 0 || st.storeSeq == 0 {
		t.Errorf("the kept object: %d outcomes outstanding, store seq %d", st.inflight, st.storeSeq)
	}

	m = drive(t, m, tea.KeyMsg{Type: tea.KeyEnter})
	if m.screen != screenObject || m.Session().Draft() == nil {
		t.Fatalf("enter on the kept object: screen %d, draft %v", m.screen, m.Session().Draft() != nil)
	}
	d = newDriver(t, m)
	d.send(keyMsg("x"))
	d.send(keyMsg("y"))
	d.send(keyMsg("esc"))
	if d.m.screen != screenBrowser || len(d.m.objects.closing) != 1 || c.closedCount() != 0 {
		t.Fatalf("esc with a deletion on its way: screen %d, %d closing, %d let go of", d.m.screen, len(d.m.objects.closing), c.closedCount())
	}
	m = d.settle()
	if len(m.objects.closing) != 0 || len(m.left()) != 0 || c.closedCount() != 1 || mark(m, "testmap") != "" {
		t.Errorf("after the deletion: %d closing, %d left, %d let go of, mark %q", len(m.objects.closing), len(m.left()), c.closedCount(), mark(m, "testmap"))
	}

	// A second enter while an object opens opens it once.
	c.add("configmaps", "default", "zz")
	m = drive(t, m, browser.SnapshotMsg{List: m.browser.List(), Snapshot: browserSnapshot(c.listSnapshot(m.browsing.listed))}, keyMsg("end"))
	d = newDriver(t, m)
	d.send(tea.KeyMsg{Type: tea.KeyEnter})
	d.send(tea.KeyMsg{Type: tea.KeyEnter})
	if m = d.settle(); m.screen != screenObject || m.Session().Ref().Name != "zz" || c.opened != 2 || c.closedCount() != 1 {
		t.Errorf("enter twice: screen %d, %d opened, %d let go of", m.screen, c.opened, c.closed)
	}
}

// TestAppEscDuringSaveStays: a save on its way keeps the object view.
func TestAppEscDuringSaveStays(t *testing.T) {
	c := newFakeCluster(t)
	k := c.add("configmaps", "default", "testmap")
	m := browserApp(t, c, c.collection("configmaps", "default", false), 120, 40)
	m = drive(t, m, tea.KeyMsg{Type: tea.KeyEnter})
	m = editDraft(t, m, "mine")
	r := c.runners[k]
	r.saving = make(chan struct{})
	d := newDriver(t, m)
	d.send(keyMsg("s"))
	d.send(keyMsg("esc"))
	if d.m.screen != screenObject || !strings.Contains(d.m.status.Text(), "a save is on its way") {
		t.Errorf("esc while saving: screen %d, status %q", d.m.screen, d.m.status.Text())
	}
	close(r.saving)
	m = d.settle()
	if m.screen != screenObject || !strings.Contains(m.status.Text(), "saved rv 11") {
		t.Errorf("after the save: screen %d, status %q", m.screen, m.status.Text())
	}
	// Saved: nothing to keep, so going back lets go of the object.
	m = drive(t, m, keyMsg("esc"))
	if m.screen != screenBrowser || len(m.left()) != 0 || c.closed != 1 || mark(m, "testmap") != "" {
		t.Errorf("back after the save: screen %d, kept %d, closed %d, mark %q", m.screen, len(m.left()), c.closed, mark(m, "testmap"))
	}
}

// TestAppComesBackToAChangedObject: the object is read again when taken up
// again, as nothing watched it meanwhile: a deletion shows.
func TestAppComesBackToAChangedObject(t *testing.T) {
	c := newFakeCluster(t)
	k := c.add("configmaps", "default", "testmap")
	m := browserApp(t, c, c.collection("configmaps", "default", false), 120, 40)
	m = drive(t, m, tea.KeyMsg{Type: tea.KeyEnter})
	m = editDraft(t, m, "mine")
	m = drive(t, m, keyMsg("esc"))
	c.remove(k)
	m = drive(t, m, tea.KeyMsg{Type: tea.KeyEnter})
	if _, deleted := m.Session().Live(); !deleted {
		t.Errorf("the deletion meanwhile is not seen:\n%s", plain(m))
	}
	if m.Session().Draft() == nil {
		t.Error("the draft is gone")
	}
}

// TestLeftObjectsSaveIsTriedAgain: a save that got no answer is tried
// again once its back-off is over also when its object was left for the
// browser meanwhile, as for the object shown and a set's. Another writer
// changed the object meanwhile, so the retry meets a conflict, which
// --auto-rebase resubmits at once: the status line says so, and then the
// save, each named by the object; the object, its draft saved, is let go
// of and its DRAFT mark goes.
func TestLeftObjectsSaveIsTriedAgain(t *testing.T) {
	c := newFakeCluster(t)
	c.add("configmaps", "default", "testmap")
	m := browserApp(t, c, c.collection("configmaps", "default", false), 160, 30)
	m.cfg.AutoRebase = true
	m = drive(t, m, tea.KeyMsg{Type: tea.KeyEnter})
	m = editDraft(t, m, "mine")
	r := c.runners[keyOf(m.target)]
	r.failOnce = []error{&busyErr{apiError{Kind: model.ErrorUnavailable, Message: "the server is shutting down"}, 0}}

	d := newDriver(t, m)
	d.send(keyMsg("s"))
	d.until(func(m App) bool { return strings.Contains(m.status.Text(), "retrying (attempt 1), next try in 1s") })
	d.send(keyMsg("esc"))
	m = d.until(func(m App) bool { return m.screen == screenBrowser })
	if mark(m, "testmap") != "stored" {
		t.Fatalf("the draft left for the browser is not marked:\n%s", plain(m))
	}
	theirsOnServer(t, c, "testmap", "bar", "theirs")
	m = d.until(func(m App) bool {
		return strings.HasPrefix(m.status.Text(), "configmaps/testmap: auto-rebased onto rv 13")
	})
	if s := m.status.Text(); !strings.Contains(s, ".data.bar (theirs)") || !strings.Contains(s, ".data.foo (mine)") {
		t.Errorf("the announcement: %q", s)
	}
	m = d.settle()
	if s := m.status.Text(); !strings.HasPrefix(s, "configmaps/testmap: saved rv 14 (auto-rebased onto rv 13") {
		t.Errorf("the status line once the save is back: %q", s)
	}
	if r.saves != 3 || r.server.Object["data"].(map[string]any)["foo"] != "mine" || r.server.Object["data"].(map[string]any)["bar"] != "theirs" {
		t.Errorf("%d saves, the server holds %v", r.saves, r.server.Object["data"])
	}
	if mark(m, "testmap") != "" || c.closed != 1 {
		t.Errorf("mark %q, %d closed, once its draft is saved:\n%s", mark(m, "testmap"), c.closed, plain(m))
	}
}

// TestLeftObjectsRetryMeetsAConflict: without --auto-rebase, the save of
// an object left for the browser, tried again, that meets a change on the
// server says so with the object's name; the draft stays, marked, and
// enter takes it up with its rebase.
func TestLeftObjectsRetryMeetsAConflict(t *testing.T) {
	c := newFakeCluster(t)
	c.add("configmaps", "default", "testmap")
	m := browserApp(t, c, c.collection("configmaps", "default", false), 160, 30)
	m = drive(t, m, tea.KeyMsg{Type: tea.KeyEnter})
	m = editDraft(t, m, "mine")
	r := c.runners[keyOf(m.target)]
	r.failOnce = []error{&busyErr{apiError{Kind: model.ErrorUnavailable, Message: "the server is shutting down"}, 0}}
	d := newDriver(t, m)
	d.send(keyMsg("s"))
	d.until(func(m App) bool { return strings.Contains(m.status.Text(), "retrying (attempt 1)") })
	d.send(keyMsg("esc"))
	theirsOnServer(t, c, "testmap", "foo", "theirs")
	m = d.settle()
	if s := m.status.Text(); s != "configmaps/testmap: the save met a change on the server; the draft is kept: enter opens it, c its conflicts" {
		t.Errorf("the status line: %q", s)
	}
	if mark(m, "testmap") != "stored" || c.closed != 0 {
		t.Fatalf("mark %q, %d closed:\n%s", mark(m, "testmap"), c.closed, plain(m))
	}
	m = drive(t, m, tea.KeyMsg{Type: tea.KeyEnter}, keyMsg("c"))
	if m.screen != screenConflict || m.Session().OpenConflicts() != 1 {
		t.Errorf("screen %d, %d conflicts open:\n%s", m.screen, m.Session().OpenConflicts(), plain(m))
	}
}
