package ui

import (
	"strings"
	"testing"

	"github.com/kedit/kedit/model"
)

// The in-app editor reopened while a save is in flight (ctrl+s, then i)
// stays open when the save's answer comes, and the status line says what
// it was: saved, or a conflict, whose view opens once the editor is left.

// reopenDuringSave saves the app's draft (s), reopens the editor (i)
// while r holds the save, then lets the save go to r.
func reopenDuringSave(t *testing.T, m App, r *fakeRunner) *driver {
	d := newDriver(t, m)
	d.send(keyMsg("s"))
	d.until(func(m App) bool { return m.Session().State() == model.StateSaving })
	d.send(keyMsg("i"))
	d.until(func(m App) bool { return m.screen == screenEditor })
	close(r.saving)
	return d
}

func TestEditorReopenedDuringASaveThatLands(t *testing.T) {
	r := &fakeRunner{saving: make(chan struct{})}
	d := reopenDuringSave(t, edit(t, newApp(t, 100, 30, r), `foo: "1"`, "foo: mine"), r)
	m := d.until(func(m App) bool { return m.Session().State() == model.StateSaved })
	if m.screen != screenEditor {
		t.Errorf("the save's answer closed the editor: screen %d", m.screen)
	}
	saved := r.object().GetResourceVersion()
	if st := m.status.Text(); !strings.Contains(st, "saved rv "+saved) || m.status.Busy() {
		t.Errorf("after the save landed the status says %q, busy %v", st, m.status.Busy())
	}
	// An edit in the reopened editor saves on the saved version without a
	// conflict.
	d.send(keyMsg("ctrl+f"))
	for _, k := range keys("foo: mine") {
		d.send(k)
	}
	d.send(keyMsg("esc"))
	d.send(keyMsg("end"))
	for _, k := range keys("X") {
		d.send(k)
	}
	d.send(keyMsg("ctrl+s"))
	m = d.until(func(m App) bool {
		return m.Session().State() == model.StateSaved && r.object().GetResourceVersion() != saved
	})
	if got := r.object().Object["data"].(map[string]any)["foo"]; got != "mineX" {
		t.Errorf("the server has foo %v, want mineX", got)
	}
	if m.screen != screenObject {
		t.Errorf("after the second save: screen %d", m.screen)
	}
}

func TestEditorReopenedDuringASaveThatConflicts(t *testing.T) {
	r := &fakeRunner{saving: make(chan struct{})}
	m := edit(t, newApp(t, 100, 30, r), `foo: "1"`, "foo: mine")
	theirs := r.object()
	theirs.Object["data"].(map[string]any)["foo"] = "theirs"
	theirs.SetResourceVersion("900")
	r.mu.Lock()
	r.server = theirs
	r.mu.Unlock()
	d := reopenDuringSave(t, m, r)
	m = d.until(func(m App) bool {
		st := m.Session().State()
		return st == model.StateRebasing || st == model.StateResolving
	})
	if m.screen != screenEditor {
		t.Errorf("the conflict closed the editor: screen %d", m.screen)
	}
	if st := m.status.Text(); !strings.Contains(st, "conflict view") || m.status.Busy() {
		t.Errorf("after the conflict the status says %q, busy %v", st, m.status.Busy())
	}
	d.send(keyMsg("esc"))
	m = d.settle()
	if m.screen != screenConflict {
		t.Errorf("leaving the editor during a conflict shows screen %d, want the conflict view", m.screen)
	}
	if d := m.Session().Draft(); d == nil || !strings.Contains(d.Text, "foo: mine") {
		t.Errorf("the draft was lost: %+v", d)
	}
}
