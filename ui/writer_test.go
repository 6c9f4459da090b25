package ui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kedit/kedit/kube"
	"github.com/kedit/kedit/model"
)

// TestUnknownWriterIsSaid: a version whose writer left no managedFields
// entry (dave's JSON patch that only removes .data.bar) is credited to
// no one: the timeline's list, its diff and the banner say so, and carol,
// whose entry predates the version, is not named for it.
func TestUnknownWriterIsSaid(t *testing.T) {
	carol := func(rv string, data map[string]any, owned ...string) *unstructured.Unstructured {
		return configMap(rv, data, "carol", 0, owned...)
	}
	sess := model.NewSession(ref)
	v1 := carol("812", map[string]any{"foo": "1", "bar": "1"}, "foo", "bar")
	if _, _, err := sess.Handle(model.Opened{Object: v1, At: t0}); err != nil {
		t.Fatal(err)
	}
	r := &fakeRunner{server: v1.DeepCopy()}
	m := drive(t, New(Config{Object: &Object{Session: sess, Runner: r}}), tea.WindowSizeMsg{Width: 120, Height: 30})
	m = edit(t, m, `foo: "1"`, `foo: mine`)
	v2 := carol("815", map[string]any{"foo": "1"}, "foo")
	r.server = v2
	m = drive(t, m, shownWatchEvent(kube.WatchEvent{Type: kube.ObjectModified, Object: v2.DeepCopy(), ResourceVersion: "815"}))
	out := plain(m)
	if !strings.Contains(out, "changed on server: rv 812 -> 815 by unknown writer (no managedFields entry changed): .data.bar") {
		t.Errorf("the banner does not say the writer is unknown:\n%s", out)
	}
	m = drive(t, m, keys("t")...)
	out = plain(m)
	if row := lineWith(out, "815"); !strings.Contains(row, "unknown writer") || strings.Contains(row, "carol") {
		t.Errorf("the timeline's row of rv 815:\n%s", out)
	}
	m = drive(t, m, keys("enter")...)
	out = timeless(m)
	if !strings.Contains(out, "rv 815 at hh:mm:ss by unknown writer (no managedFields entry changed), against rv 812") {
		t.Errorf("the diff's title:\n%s", out)
	}
}

// lineWith is the first line of out holding s.
func lineWith(out, s string) string {
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, s) {
			return l
		}
	}
	return ""
}

// TestSecretVersionDiffShowsMaskedLines: a version that changed only a
// Secret's value shows the value's lines, masked, as the object view's d
// does; not "no difference".
func TestSecretVersionDiffShowsMaskedLines(t *testing.T) {
	const old, rotated = "b2xkLXNlY3JldA==", "cm90YXRlZC1zZWNyZXQ="
	sess := model.NewSession(secretRef)
	if _, _, err := sess.Handle(model.Opened{Object: secret("10", map[string]any{"password": old}), At: t0}); err != nil {
		t.Fatal(err)
	}
	r := &fakeRunner{server: secret("11", map[string]any{"password": rotated})}
	m := drive(t, New(Config{Object: &Object{Session: sess, Runner: r}}), tea.WindowSizeMsg{Width: 100, Height: 30},
		shownWatchEvent(kube.WatchEvent{Type: kube.ObjectModified, Object: r.object()}))
	m = drive(t, m, keys("t", "enter")...)
	out := plain(m)
	for _, want := range []string{"changed: .data.password", "-   password: ••••", "+   password: ••••"} {
		if !strings.Contains(out, want) {
			t.Errorf("the version's diff lacks %q:\n%s", want, out)
		}
	}
	for _, v := range []string{old, rotated, "old-secret", "rotated-secret", "no difference"} {
		if strings.Contains(out, v) {
			t.Errorf("the version's diff shows %q:\n%s", v, out)
		}
	}
}
