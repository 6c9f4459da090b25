package ui

import (
	"context"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kedit/kedit/kube"
	"github.com/kedit/kedit/model"
)

// recreate deletes testmap on the fake server and creates it again as uid
// with data; watched says whether the watch reports it (as a delete and an
// add), or the app learns it only from a save.
func recreate(t *testing.T, m App, r *fakeRunner, uid string, data map[string]any, watched bool) App {
	t.Helper()
	last := r.object()
	again := configMap("820", data, "kubectl-create", 60, "foo", "bar", "newteam")
	again.SetUID(types.UID(uid))
	r.mu.Lock()
	r.server = again.DeepCopy()
	r.mu.Unlock()
	if !watched {
		return m
	}
	return drive(t, m,
		shownWatchEvent(kube.WatchEvent{Type: kube.ObjectDeleted, Object: last}),
		shownWatchEvent(kube.WatchEvent{Type: kube.ObjectAdded, Object: again.DeepCopy(), ResourceVersion: "820"}))
}

// TestRecreatedAsksBeforeSaving: the banner says the object was deleted
// and created again, with the new uid; s asks, with or without
// --auto-rebase; n keeps the draft and sends nothing; y goes onto the new
// object, through the conflict view whose title says theirs is a new
// object (--auto-rebase resubmits the clean rebase after the yes).
func TestRecreatedAsksBeforeSaving(t *testing.T) {
	for _, auto := range []bool{false, true} {
		t.Run("auto-rebase="+strconv.FormatBool(auto), func(t *testing.T) {
			r := &fakeRunner{}
			m := edit(t, newApp(t, 160, 40, r, func(c *Config) { c.AutoRebase = auto }), `foo: "1"`, `foo: mine`)
			m = recreate(t, m, r, "9f8e7d6c-5b4a-3210-fedc-ba9876543210", map[string]any{"foo": "1", "bar": "1", "newteam": "x"}, true)
			screen := plain(m)
			if !strings.Contains(screen, "deleted and created again on server") || !strings.Contains(screen, "uid 9f8e7d6c)") ||
				strings.Contains(screen, "9f8e7d6c-") || strings.Contains(screen, "changed on server") {
				t.Fatalf("banner:\n%s", screen)
			}
			m = drive(t, m, keys("s")...)
			if !strings.Contains(plain(m), newObjectQuestion) {
				t.Fatalf("no question:\n%s", plain(m))
			}
			m = drive(t, m, keys("n")...)
			if r.saves != 0 || m.sess.Draft() == nil || !strings.Contains(m.sess.Draft().Text, "foo: mine") {
				t.Fatalf("n: %d saves, draft %+v", r.saves, m.sess.Draft())
			}
			if got := m.status.Text(); !strings.Contains(got, "not saved; the draft is kept") {
				t.Errorf("status after n: %q", got)
			}
			m = drive(t, m, keys("s", "y")...)
			if !auto {
				screen = plain(m)
				if m.screen != screenConflict || !strings.Contains(screen, "theirs is a new object (created again at rv 820)") {
					t.Fatalf("after y, want the conflict view saying theirs is a new object:\n%s", screen)
				}
				if r.saves != 0 {
					t.Fatalf("%d saves before the user saw the merge", r.saves)
				}
				m = drive(t, m, keys("s")...)
			}
			if m.sess.State() != model.StateSaved {
				t.Fatalf("state %s:\n%s", m.sess.State(), plain(m))
			}
			obj := r.object()
			if obj.GetUID() != "9f8e7d6c-5b4a-3210-fedc-ba9876543210" || dataOf(obj, "foo") != "mine" || dataOf(obj, "newteam") != "x" {
				t.Errorf("server object uid %s data %v", obj.GetUID(), obj.Object["data"])
			}
			if got := m.status.Text(); !strings.Contains(got, "onto the new object (uid 9f8e7d6c)") {
				t.Errorf("status %q", got)
			}
		})
	}
}

// TestRecreatedFoundBySave: the watch did not report it; the save's
// conflict finds the other object, stops and asks.
func TestRecreatedFoundBySave(t *testing.T) {
	r := &fakeRunner{}
	m := edit(t, newApp(t, 160, 40, r, func(c *Config) { c.AutoRebase = true }), `foo: "1"`, `foo: mine`)
	m = recreate(t, m, r, "new-uid-1", map[string]any{"foo": "1", "bar": "2"}, false)
	m = drive(t, m, keys("s")...)
	if !strings.Contains(plain(m), newObjectQuestion) || m.sess.State() != model.StateFailed {
		t.Fatalf("state %s:\n%s", m.sess.State(), plain(m))
	}
	if r.saves != 1 {
		t.Errorf("%d saves, want only the one refused", r.saves)
	}
	m = drive(t, m, keys("y")...)
	if m.sess.State() != model.StateSaved || dataOf(r.object(), "foo") != "mine" || dataOf(r.object(), "bar") != "2" {
		t.Fatalf("state %s, server %v", m.sess.State(), r.object().Object["data"])
	}
}

// hotRunner is fakeRunner with another writer that patches .data.heartbeat
// just before each of the next beats saves reach the server, as a writer
// every 300 ms does to saves at human pace.
type hotRunner struct {
	*fakeRunner
	mu    sync.Mutex
	beats int
}

func (h *hotRunner) Perform(ctx context.Context, eff model.Effect) (model.Event, error) {
	if _, ok := eff.(model.Save); ok {
		h.mu.Lock()
		if h.beats > 0 {
			h.beats--
			h.fakeRunner.mu.Lock()
			obj := h.server.DeepCopy()
			rv, _ := strconv.Atoi(obj.GetResourceVersion())
			obj.SetResourceVersion(strconv.Itoa(rv + 1))
			_ = unstructured.SetNestedField(obj.Object, strconv.Itoa(rv), "data", "heartbeat")
			_ = unstructured.SetNestedSlice(obj.Object, []any{map[string]any{
				"manager": "heartbeater", "operation": "Update", "apiVersion": "v1",
				"time": t0.Add(time.Hour).Format(time.RFC3339), "fieldsType": "FieldsV1",
				"fieldsV1": map[string]any{"f:data": map[string]any{"f:heartbeat": map[string]any{}}},
			}}, "metadata", "managedFields")
			h.server = obj
			h.fakeRunner.mu.Unlock()
		}
		h.mu.Unlock()
	}
	return h.fakeRunner.Perform(ctx, eff)
}

// TestHotDataLandsAfterOneView: the first conflict with the heartbeat
// shows the rebase view; after its s, each new heartbeat is rebased and
// resubmitted at once, and the save lands saying what was merged.
func TestHotDataLandsAfterOneView(t *testing.T) {
	h := &hotRunner{fakeRunner: &fakeRunner{}, beats: 6}
	m := newAppWith(t, 160, 40, nil, map[string]any{"foo": "1", "heartbeat": "0"}, func(c *Config) { c.Object.Runner = h })
	h.server = m.sess.Base().Object.DeepCopy()
	m = edit(t, m, `foo: "1"`, `foo: mine`)
	m = drive(t, m, keys("s")...)
	if m.screen != screenConflict || !strings.Contains(plain(m), ".data.heartbeat") {
		t.Fatalf("the first heartbeat's rebase is not shown:\n%s", plain(m))
	}
	// After s, the rebases go back at once: the view's state never comes
	// again before the save lands.
	d := newDriver(t, m)
	d.send(keyMsg("s"))
	m = d.until(func(a App) bool {
		st := a.sess.State()
		return st == model.StateSaved || st == model.StateRebasing || st == model.StateResolving || st == model.StateFailed
	})
	m = d.settle()
	if m.sess.State() != model.StateSaved {
		t.Fatalf("state %s:\n%s", m.sess.State(), plain(m))
	}
	if got := dataOf(h.object(), "foo"); got != "mine" {
		t.Errorf("foo = %q on the server", got)
	}
	if got := m.status.Text(); !strings.Contains(got, "(rebased again onto rv ") || !strings.Contains(got, ": .data.heartbeat by heartbeater (5 in a row))") {
		t.Errorf("status %q", got)
	}
}

// TestHotDataWithAutoRebaseShowsNoView: with --auto-rebase the same
// object's save never shows the conflict view at all.
func TestHotDataWithAutoRebaseShowsNoView(t *testing.T) {
	h := &hotRunner{fakeRunner: &fakeRunner{}, beats: 6}
	m := newAppWith(t, 160, 40, nil, map[string]any{"foo": "1", "heartbeat": "0"}, func(c *Config) { c.Object.Runner = h; c.AutoRebase = true })
	h.server = m.sess.Base().Object.DeepCopy()
	m = edit(t, m, `foo: "1"`, `foo: mine`)
	d := newDriver(t, m)
	d.send(keyMsg("s"))
	d.until(func(a App) bool {
		if a.screen == screenConflict {
			t.Fatalf("the conflict view shows with --auto-rebase:\n%s", plain(a))
		}
		return a.sess.State() == model.StateSaved || a.sess.State() == model.StateFailed
	})
	m = d.settle()
	if m.sess.State() != model.StateSaved || dataOf(h.object(), "foo") != "mine" {
		t.Fatalf("state %s, server %v", m.sess.State(), h.object().Object["data"])
	}
}

// TestHotDataBoundSaysSo: a writer faster than every save: after
// MaxRebasesAgain rebases in a row the rebase waits in the view, and the
// status says why.
func TestHotDataBoundSaysSo(t *testing.T) {
	h := &hotRunner{fakeRunner: &fakeRunner{}, beats: model.MaxRebasesAgain + 3}
	m := newAppWith(t, 200, 40, nil, map[string]any{"foo": "1", "heartbeat": "0"}, func(c *Config) { c.Object.Runner = h })
	h.server = m.sess.Base().Object.DeepCopy()
	m = edit(t, m, `foo: "1"`, `foo: mine`)
	m = drive(t, m, keys("s", "s")...)
	if m.screen != screenConflict || m.sess.State() != model.StateRebasing {
		t.Fatalf("state %s:\n%s", m.sess.State(), plain(m))
	}
	want := "rebased again 20 times in a row and the object changed again each time: this rebase waits for you; s resubmits it"
	if got := m.status.Text(); got != want {
		t.Errorf("status %q, want %q", got, want)
	}
	m = drive(t, m, keys("s")...)
	if m.sess.State() != model.StateSaved {
		t.Fatalf("state %s after s", m.sess.State())
	}
}

// TestDeletedBannerOffersWhatWorks: the banner of an object deleted under
// a draft offers what s does (create it again), never a rebase, which has
// nothing to rebase onto; once it is created again, the rebase is offered.
func TestDeletedBannerOffersWhatWorks(t *testing.T) {
	r := &fakeRunner{}
	m := edit(t, newApp(t, 160, 40, r), `foo: "1"`, `foo: mine`)
	m = drive(t, m, shownWatchEvent(kube.WatchEvent{Type: kube.ObjectDeleted, Object: r.object()}))
	screen := plain(m)
	if !strings.Contains(screen, "deleted on server") || !strings.Contains(screen, "s offers to create it again from the draft") {
		t.Fatalf("no banner of the deletion:\n%s", screen)
	}
	if strings.Contains(screen, "rebase now") {
		t.Errorf("the banner of a deleted object offers a rebase:\n%s", screen)
	}
	// r anyway: what is true of the object, not the session's state.
	if screen := plain(drive(t, m, keys("r")...)); !strings.Contains(screen, "nothing to rebase onto") || strings.Contains(screen, "while editing") {
		t.Errorf("r on a deleted object:\n%s", screen)
	}
	m = recreate(t, m, r, "9f8e7d6c-5b4a-3210-fedc-ba9876543210", map[string]any{"foo": "1"}, true)
	if screen := plain(m); !strings.Contains(screen, "deleted and created again on server") || !strings.Contains(screen, "(r: rebase now)") {
		t.Errorf("the banner of the object created again:\n%s", screen)
	}
}
