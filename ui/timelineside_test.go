package ui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/kedit/kedit/kube"
	"github.com/kedit/kedit/model"
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
	if back := lineWith(timeless(m), "> 812"); !strings.HasPrefix(back, "> 812  hh:mm:ss  kubectl-create") {
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
	m := drive(t, New(Config{Session: sess, Runner: r}), tea.WindowSizeMsg{Width: 80, Height: 24})
	v2 := configMap("815", map[string]any{"foo": long}, "dave", 5, "foo")
	r.server = v2
	m = drive(t, m, watchEventMsg{kube.WatchEvent{Type: kube.ObjectModified, Object: v2.DeepCopy(), ResourceVersion: "815"}})
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
