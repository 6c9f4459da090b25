package ui

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/kedit/kedit/kube"
	"github.com/kedit/kedit/model"
	"github.com/kedit/kedit/model/history"
)

// TestTimelineScrollsSideways: at 60 columns a row's changed fields go
// past the edge; l scrolls the list right, the selection's marker and
// the RV column in place and a "…" where the row goes on to the left,
// until the row's end shows; h scrolls back. The title and the audit
// log's line wrap rather than being cut.
func TestTimelineScrollsSideways(t *testing.T) {
	m, _ := auditApp(t, 60, 15, &fakeRunner{})
	m = drive(t, m, keys("t")...)
	out := timeless(m)
	row := lineWith(out, "> 812")
	if !strings.HasSuffix(row, "…") || strings.Contains(row, "kedit saw") {
		t.Fatalf("at 60 columns the row is not cut:\n%s", out)
	}
	for _, want := range []string{"it, 2 more from the audit log, newest first", "undoes it"} {
		if !strings.Contains(out, want) {
			t.Errorf("the timeline lacks %q:\n%s", want, out)
		}
	}
	m = drive(t, m, keys("l")...)
	out = timeless(m)
	row = lineWith(out, "> 812")
	if !strings.HasPrefix(row, "> 812  …") || !strings.HasSuffix(strings.TrimRight(row, " "), "the first version kedit saw") {
		t.Errorf("scrolled right, the row of rv 812 is %q:\n%s", row, out)
	}
	if title := lineWith(out, "RV"); !strings.HasPrefix(title, "  RV   …") {
		t.Errorf("the column titles do not scroll with the rows: %q", title)
	}
	m = drive(t, m, keys("l")...)
	if again := lineWith(timeless(m), "> 812"); again != row {
		t.Errorf("l past the end of the widest row moved it on: %q, was %q", again, row)
	}
	m = drive(t, m, keys("h")...)
	if back := lineWith(timeless(m), "> 812"); !strings.HasPrefix(back, "> 812  hh:mm:ss  kubectl-edit") {
		t.Errorf("h does not scroll back: %q", back)
	}
}

// TestTimelineDiffScrollsSideways: a version's diff with a line wider
// than the screen is cut with a "…", and l shows the rest of it, as in
// the object view.
func TestTimelineDiffScrollsSideways(t *testing.T) {
	long := strings.Repeat("x", 150) + "END"
	sess := model.NewSession(ref)
	v1 := configMap("812", map[string]any{"foo": "1"}, "carol", 0, "foo")
	if _, _, err := sess.Handle(model.Opened{Object: v1, At: t0}); err != nil {
		t.Fatal(err)
	}
	r := &fakeRunner{server: v1.DeepCopy()}
	m := drive(t, New(Config{Object: &Object{Session: sess, Runner: r}}), tea.WindowSizeMsg{Width: 80, Height: 24})
	v2 := configMap("815", map[string]any{"foo": long}, "dave", 5, "foo")
	r.server = v2
	m = drive(t, m, shownWatchEvent(kube.WatchEvent{Type: kube.ObjectModified, Object: v2.DeepCopy(), ResourceVersion: "815"}))
	m = drive(t, m, keys("t", "enter")...)
	out := plain(m)
	line := lineWith(out, "+   foo: ")
	if line == "" || !strings.HasSuffix(strings.TrimRight(line, " "), "…") || strings.Contains(out, "END") {
		t.Fatalf("the diff's long line is not cut at 80 columns:\n%s", out)
	}
	if !strings.Contains(out, "→/l right") {
		t.Errorf("the footer does not offer →/l:\n%s", out)
	}
	for range 4 {
		m = drive(t, m, keys("l")...)
	}
	out = plain(m)
	if line := lineWith(out, "END"); !strings.HasPrefix(line, "…") {
		t.Errorf("scrolled right, the line's end does not show after a …:\n%s", out)
	}
	m = drive(t, m, keys("esc")...)
	if out := plain(m); !strings.Contains(out, "> 815") {
		t.Errorf("esc does not go back to the list:\n%s", out)
	}
}

// TestLostHeaderFitsWithLongNames: with users as long as service
// accounts' names, the versions' titles do not fit their columns at 120
// columns, nor the title 80; nothing of them is cut: the title keeps its
// rv and count, the versions their rvs, and what they leave out is said
// in the hint, which wraps. At 400 columns they fit and show in full.
func TestLostHeaderFitsWithLongNames(t *testing.T) {
	writer := history.Client{User: "system:serviceaccount:platform-tools:release-bot", UserAgent: "kubectl/v1.33.1"}
	other := history.Client{User: "system:serviceaccount:platform-tools:config-syncer", UserAgent: "kubectl/v1.33.1"}
	at := func(sec int) time.Time { return t0.Add(time.Duration(sec) * time.Second) }
	events := []history.Event{
		{Verb: history.VerbCreate, Client: admin, Manager: "kubectl-create", Received: at(0), Time: at(0), Code: 201,
			Object: configMap("810", map[string]any{"foo": "1"}, "kubectl-create", 0, "foo")},
		{Verb: history.VerbGet, Client: writer, Received: at(1), Time: at(1), Code: 200},
		{Verb: history.VerbPatch, Client: other, Manager: "config-syncer-controller", Received: at(2), Time: at(2), Code: 200,
			Object: configMap("811", map[string]any{"foo": "synced"}, "config-syncer-controller", 2, "foo")},
		{Verb: history.VerbPatch, Client: writer, Manager: "release-bot-deployer", Received: at(5), Time: at(5), Code: 200,
			Object: configMap("812", map[string]any{"foo": "1"}, "release-bot-deployer", 5, "foo")},
	}
	hist := history.Analyze(events)
	if len(hist.LostUpdates) != 1 {
		t.Fatalf("lost updates %+v", hist.LostUpdates)
	}
	read := func(context.Context) (*history.History, error) { return hist, nil }
	full := []string{
		"system:serviceaccount:platform-tools:release-bot's release-bot-deployer replaced 1 change it had not read",
		"base (rv 810: system:serviceaccount:platform-tools:release-bot's last read)",
		"theirs (rv 811 by system:serviceaccount:platform-tools:config-syncer (config-syncer-controller))",
		"mine (rv 812 by system:serviceaccount:platform-tools:release-bot (release-bot-deployer))",
	}
	for _, v := range []struct {
		w, h  int
		short bool
	}{{120, 40, false}, {80, 30, true}, {400, 40, false}} {
		m := newApp(t, v.w, v.h, &fakeRunner{}, func(c *Config) { c.Object.History = read })
		m = drive(t, m, keys("t", "enter")...)
		out := timeless(m)
		lines := strings.Split(out, "\n")
		top := lines[:slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, "> open") })]
		for _, l := range top {
			if strings.Contains(l, "…") {
				t.Errorf("at %d columns a line of the header is cut: %q", v.w, l)
			}
		}
		if joined := strings.Join(top, " "); !strings.HasPrefix(joined, "LOST at rv 812") {
			t.Errorf("at %d columns the title: %q", v.w, top[0])
		} else if v.short && !strings.HasPrefix(top[0], "LOST at rv 812 (1 open)") {
			t.Errorf("at %d columns the title is not the short one: %q", v.w, top[0])
		}
		// The hint wraps at spaces and after hyphens.
		said := strings.Join(strings.Fields(strings.ReplaceAll(out, "-\n", "-")), " ")
		for _, want := range full {
			if !strings.Contains(said, want) {
				t.Errorf("at %d columns the lost updates do not say %q:\n%s", v.w, want, out)
			}
		}
		if v.w <= 120 && !strings.Contains(out, "theirs (rv 811)  ") && !strings.Contains(out, "theirs (rv 811)\n") {
			t.Errorf("at %d columns the versions are not titled by their rvs:\n%s", v.w, out)
		}
	}
}

// TestPageStackGoesBackToWhatWasUnder: a view opened over another goes
// back to it when closed, and one that only looks stays open while the
// object changes under it: the timeline over the object view, a new
// version meanwhile, esc back to the object view; the preview likewise;
// a conflict takes over from any view, and its abandon goes to the
// object view with nothing under it.
func TestPageStackGoesBackToWhatWasUnder(t *testing.T) {
	r := &fakeRunner{}
	m := newApp(t, 120, 30, r)
	m = drive(t, m, keys("t")...)
	if m.screen != screenTimeline || len(m.under) != 1 || m.under[0] != screenObject {
		t.Fatalf("t: screen %d over %v", m.screen, m.under)
	}
	obj := configMap("813", map[string]any{"foo": "1", "bar": "2"}, "kubectl-patch", 9, "bar")
	m = drive(t, m, shownWatchEvent(kube.WatchEvent{Type: kube.ObjectModified, Object: obj, ResourceVersion: "813"}))
	if m.screen != screenTimeline {
		t.Fatalf("a new version closed the timeline: screen %d", m.screen)
	}
	m = drive(t, m, keys("esc")...)
	if m.screen != screenObject || len(m.under) != 0 {
		t.Fatalf("esc: screen %d over %v", m.screen, m.under)
	}
	m = edit(t, m, `foo: "1"`, "foo: mine")
	m = drive(t, m, keys("p")...)
	if m.screen != screenPreview {
		t.Fatalf("p: screen %d", m.screen)
	}
	m = drive(t, m, keys("esc")...)
	if m.screen != screenObject || len(m.under) != 0 {
		t.Fatalf("esc from the preview: screen %d over %v", m.screen, m.under)
	}
	theirs := configMap("814", map[string]any{"foo": "theirs", "bar": "2"}, "kubectl-patch", 9, "foo")
	r.server = theirs.DeepCopy()
	// s, then t while the save is on its way: its conflict comes back
	// over the timeline.
	d := newDriver(t, m)
	d.send(keyMsg("s"))
	d.send(keyMsg("t"))
	if d.m.screen != screenTimeline {
		t.Fatalf("t while saving: screen %d", d.m.screen)
	}
	m = d.settle()
	if m.screen != screenConflict || len(m.under) != 0 {
		t.Fatalf("a conflict from the timeline: screen %d over %v", m.screen, m.under)
	}
}
