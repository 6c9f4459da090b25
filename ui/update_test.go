package ui

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kedit/kedit/internal/drafts"
	"github.com/kedit/kedit/kube"
	"github.com/kedit/kedit/model"
	"github.com/kedit/kedit/ui/common"
	"github.com/kedit/kedit/ui/conflict"
	"github.com/kedit/kedit/ui/internal/effect"
	"github.com/kedit/kedit/ui/statusbar"
)

func dataOf(obj *unstructured.Unstructured, key string) string {
	v, _, _ := unstructured.NestedString(obj.Object, "data", key)
	return v
}

func isQuit(cmd tea.Cmd) bool {
	if cmd == nil {
		return false
	}
	_, ok := cmd().(tea.QuitMsg)
	return ok
}

// conflicted returns an app in the conflict view: foo is mine in the
// draft and theirs on the server.
func conflicted(t *testing.T, w int) (App, *fakeRunner) {
	r := &fakeRunner{}
	m := edit(t, newApp(t, w, 40, r), `foo: "1"`, `foo: mine`)
	m = theirsWrite(t, m, r, "foo", "theirs")
	m = drive(t, m, keys("s")...)
	if m.screen != screenConflict || m.Session().State() != model.StateResolving {
		t.Fatalf("after s: screen %v, state %v; want the conflict view", m.screen, m.Session().State())
	}
	return m, r
}

func TestConflictResolveAndResubmit(t *testing.T) {
	for _, tc := range []struct{ key, want string }{{"m", "mine"}, {"t", "theirs"}, {"b", "1"}, {"M", "mine"}, {"T", "theirs"}} {
		t.Run(tc.key, func(t *testing.T) {
			m, r := conflicted(t, 120)
			m = drive(t, m, keys("s")...)
			if got := m.status.Text(); !strings.Contains(got, "1 of 1 conflict is still open") {
				t.Errorf("resubmit with an open conflict says %q", got)
			}
			if r.saves != 1 {
				t.Errorf("%d saves sent, want only the first", r.saves)
			}
			m = drive(t, m, keys(tc.key)...)
			if m.Session().OpenConflicts() != 0 {
				t.Fatalf("%s leaves %d open", tc.key, m.Session().OpenConflicts())
			}
			m = drive(t, m, keys("ctrl+s")...)
			if m.Session().State() != model.StateSaved || m.screen != screenObject {
				t.Fatalf("after resubmit: state %v, screen %v", m.Session().State(), m.screen)
			}
			if got := dataOf(r.server, "foo"); got != tc.want {
				t.Errorf("foo = %q on the server, want %q", got, tc.want)
			}
			if got := m.status.Text(); got != "saved rv "+r.server.GetResourceVersion() {
				t.Errorf("status %q, want saved rv %s", got, r.server.GetResourceVersion())
			}
		})
	}
}

func TestConflictViewKeys(t *testing.T) {
	m, _ := conflicted(t, 120)
	if !m.conflict.Wide() {
		t.Error("120 columns are not side by side")
	}
	m = drive(t, m, keys("v")...)
	if m.conflict.Wide() {
		t.Error("v does not stack the columns")
	}
	m = drive(t, m, keys("n", "j", "down")...)
	if m.conflict.Selected() != 0 {
		t.Errorf("selection %d past the only conflict", m.conflict.Selected())
	}
	m = drive(t, m, keys("m", "esc")...)
	if m.screen != screenObject || m.Session().Draft() == nil || !strings.Contains(m.Session().Draft().Text, "foo: mine") {
		t.Fatal("esc does not go back to the draft unchanged")
	}
	if m.Session().Rebase() != nil || m.Session().State() != model.StateEditing {
		t.Fatalf("esc kept the rebase: state %v", m.Session().State())
	}
	m = drive(t, m, keys("c")...)
	if m.screen != screenObject {
		t.Error("c shows a rebase that was left")
	}
	// r starts a new rebase, with its conflict open again.
	m = drive(t, m, keys("r")...)
	if m.screen != screenConflict || m.Session().OpenConflicts() != 1 {
		t.Errorf("r after esc: screen %v, %d open conflicts; want the conflict view with 1", m.screen, m.Session().OpenConflicts())
	}

	narrow, _ := conflicted(t, 80)
	if narrow.conflict.Wide() {
		t.Error("80 columns are not stacked")
	}
}

func TestCleanRebase(t *testing.T) {
	r := &fakeRunner{}
	m := edit(t, newApp(t, 120, 40, r), `foo: "1"`, `foo: mine`)
	m = theirsWrite(t, m, r, "bar", "theirs")
	m = drive(t, m, keys("s")...)
	if m.screen != screenConflict || !strings.Contains(plain(m), "clean rebase: 2 changes merged onto theirs rv 815 (base rv 812)") ||
		strings.Contains(plain(m), "conflict: base") || strings.Contains(plain(m), "m mine") {
		t.Fatalf("a clean rebase is not shown:\n%s", plain(m))
	}
	m = drive(t, m, keys("s")...)
	if dataOf(r.server, "foo") != "mine" || dataOf(r.server, "bar") != "theirs" {
		t.Errorf("server data %v, want both changes", r.server.Object["data"])
	}
}

func TestAutoRebase(t *testing.T) {
	r := &fakeRunner{}
	m := edit(t, newApp(t, 120, 40, r, func(c *Config) { c.AutoRebase = true }), `foo: "1"`, `foo: mine`)
	m = theirsWrite(t, m, r, "bar", "theirs")
	m = drive(t, m, keys("s")...)
	if m.Session().State() != model.StateSaved || dataOf(r.server, "foo") != "mine" || dataOf(r.server, "bar") != "theirs" {
		t.Fatalf("state %v, server %v: want the clean rebase resubmitted", m.Session().State(), r.server.Object["data"])
	}
	if got := m.status.Text(); !strings.Contains(got, "saved rv 816 (auto-rebased onto rv 815, merged: .data.bar (theirs), .data.foo (mine))") {
		t.Errorf("status %q does not report the outcome", got)
	}
}

func TestQuitAsksWithDraft(t *testing.T) {
	m := newApp(t, 80, 24, nil, withDrafts(&fakeDrafts{path: "/state/kedit/drafts/testmap.yaml"}))
	if _, cmd := m.Update(keyMsg("q")); !isQuit(cmd) {
		t.Error("q without a draft does not quit")
	}
	m = edit(t, m, `foo: "1"`, "foo: mine")
	next, cmd := m.Update(keyMsg("q"))
	m = next.(App)
	if isQuit(cmd) || !strings.Contains(plain(m), "quit with an unsaved draft? It stays on disk in /state/kedit/drafts/testmap.yaml") {
		t.Fatal("q with a draft does not ask")
	}
	next, cmd = m.Update(keyMsg("n"))
	m = next.(App)
	if isQuit(cmd) || m.Session().Draft() == nil {
		t.Fatal("n does not keep the app and the draft")
	}
	m = drive(t, m, keys("q")...)
	if _, cmd := m.Update(keyMsg("y")); !isQuit(cmd) {
		t.Error("y does not quit")
	}
}

func TestDiscardAsks(t *testing.T) {
	m := edit(t, newApp(t, 80, 24, nil), `foo: "1"`, "foo: mine")
	m = drive(t, m, keys("x")...)
	if m.Session().Draft() == nil || !strings.Contains(plain(m), "discard the draft? (y/n)") {
		t.Fatal("x does not ask")
	}
	m = drive(t, m, keys("n")...)
	if m.Session().Draft() == nil {
		t.Fatal("n discarded the draft")
	}
	m = drive(t, m, keys("x", "y")...)
	if m.Session().Draft() != nil || m.Session().State() != model.StateViewing {
		t.Fatal("y does not discard the draft")
	}
}

func TestEditorResults(t *testing.T) {
	m := newApp(t, 80, 24, nil)
	text, _ := m.Session().DraftText()
	m = drive(t, m, effect.EditorFinished{Original: text, Text: text})
	if m.Session().Draft() != nil || m.status.Text() != "no change" {
		t.Errorf("an unchanged file made a draft, or says %q", m.status.Text())
	}
	m = drive(t, m, effect.EditorFinished{Original: text, Text: "data: [unclosed\n"})
	if d := m.Session().Draft(); d == nil || d.Text != "data: [unclosed\n" {
		t.Fatal("invalid YAML was not kept as the draft")
	}
	if got := m.status.Text(); !strings.Contains(got, "cannot be saved") {
		t.Errorf("invalid YAML says %q", got)
	}
	m = drive(t, m, effect.EditorFinished{Original: text, Err: errString("exit status 1")})
	if m.Session().Draft().Text != "data: [unclosed\n" || !strings.Contains(m.status.Text(), "editor: exit status 1") {
		t.Errorf("a failed editor changed the draft or says %q", m.status.Text())
	}
}

type errString string

func (e errString) Error() string { return string(e) }

func TestFailuresInWords(t *testing.T) {
	for _, tc := range []struct {
		kind model.ErrorKind
		want string
	}{
		{model.ErrorForbidden, "forbidden"},
		{model.ErrorNotFound, "deleted on the server; s creates it again"},
		{model.ErrorTooLarge, "too large"},
		{model.ErrorImmutable, "immutable"},
	} {
		r := &fakeRunner{fail: &apiError{Kind: tc.kind, Message: "no"}}
		m := edit(t, newApp(t, 120, 40, r), `foo: "1"`, "foo: mine")
		m = drive(t, m, keys("s")...)
		if got := m.status.Text(); !strings.Contains(got, tc.want) || !strings.Contains(got, "draft is kept") {
			t.Errorf("%v: status %q, want %q and that the draft is kept", tc.kind, got, tc.want)
		}
		if m.Session().Draft() == nil {
			t.Errorf("%v: the draft is lost", tc.kind)
		}
	}
}

func TestWatchEvents(t *testing.T) {
	ch := make(chan kube.WatchEvent, 1)
	m := newApp(t, 120, 40, nil, func(c *Config) { c.Object.Watch = watchOn(ch) })
	since := time.Date(2026, 11, 22, 12, 1, 3, 0, time.Local)
	next, cmd := m.Update(shownWatched(m, kube.WatchEvent{Type: kube.ConnectionChanged, Connection: kube.Connection{State: kube.Reconnecting, Since: since}}))
	m = next.(App)
	if !strings.Contains(plain(m), "reconnecting since 12:01:03") {
		t.Errorf("no reconnecting state in the header:\n%s", plain(m))
	}
	// The command that reads the channel is issued again.
	obj := configMap("900", map[string]any{"foo": "2"}, "kubectl-patch", 9, "foo")
	ch <- kube.WatchEvent{Type: kube.ObjectModified, Object: obj}
	if cmd == nil {
		t.Fatal("the watch is not read again after an event")
	}
	// Update, not drive: drive would run the next read, which waits.
	next, _ = m.Update(cmd())
	m = next.(App)
	if live, _ := m.Session().Live(); live.ResourceVersion != "900" || !strings.Contains(plain(m), "rv 900") {
		t.Errorf("live is rv %s after the event", live.ResourceVersion)
	}
	close(ch)
	next, _ = m.Update(effect.Watch(m.id, ch)())
	m = next.(App)
	if !strings.Contains(plain(m), "watch stopped") {
		t.Error("a closed watch is not shown")
	}
}

func TestServerTextIsEscaped(t *testing.T) {
	sess := model.NewSession(ref)
	obj := configMap("1", map[string]any{"evil": "\x1b]52;c;cGF3bmVk\x07\x1b[2J\r"}, "m\x1b[31m", 0, "evil")
	if _, _, err := sess.Handle(model.Opened{Object: obj, At: t0}); err != nil {
		t.Fatal(err)
	}
	m := drive(t, New(Config{Object: &Object{Session: sess}}), tea.WindowSizeMsg{Width: 120, Height: 40})
	// The draft is the user's text, but it holds the server's values.
	m = drive(t, m, effect.EditorFinished{Original: "", Text: "data:\n  evil: \"\x1b[2J\"\nraw: \x1b]52;c;x\x07\n"})
	for _, k := range []string{"", "d", "f"} {
		if k != "" {
			m = drive(t, m, keys(k)...)
		}
		if out := m.View(); strings.ContainsAny(out, "\x1b\x07\r") {
			t.Errorf("after %q the screen holds a raw control character: %q", k, out)
		}
	}
}

func TestCauseLine(t *testing.T) {
	lines := strings.Split(`metadata:
  labels:
    app: x
  name: web
spec:
  template:
    metadata:
      labels:
        app: y
    spec:
      containers:
      - image: nginx
        name: app`, "\n")
	for _, tc := range []struct {
		field string
		want  int
	}{
		{"metadata.labels", 1},
		{"metadata.name", 3},
		{"spec.template.metadata.labels", 7},
		{"spec.template.spec.containers[0].image", 11},
		{"spec.template.spec.containers[0].name", 12},
		{"spec.replicas", 4},
		{"data", -1},
	} {
		if got := common.CauseLine(lines, tc.field); got != tc.want {
			t.Errorf("CauseLine(%s) = %d, want %d", tc.field, got, tc.want)
		}
	}
}

func TestInAppEditor(t *testing.T) {
	r := &fakeRunner{}
	m := newApp(t, 80, 24, r)
	m = drive(t, m, keys("i")...)
	if m.screen != screenEditor {
		t.Fatal("i does not open the in-app editor")
	}
	// q and ? are typed, not obeyed; esc leaves without a change.
	m = drive(t, m, keys("esc")...)
	if m.screen != screenObject || m.Session().Draft() != nil {
		t.Fatal("esc without a change made a draft or stayed")
	}
	m = drive(t, m, keys("i")...)
	m = drive(t, m, keyMsg("down"), keyMsg("end"), tea.KeyMsg{Type: tea.KeyEnter})
	m = drive(t, m, keys("  baz: q?")...)
	if !m.editor.Changed() || m.screen != screenEditor {
		t.Fatal("typing did not change the text, or q/? left the editor")
	}
	m = drive(t, m, keys("esc")...)
	if d := m.Session().Draft(); m.screen != screenObject || d == nil || !strings.Contains(d.Text, "baz: q?") {
		t.Fatalf("esc did not keep the typed draft: %+v", d)
	}
	m = drive(t, m, keys("i")...)
	m = drive(t, m, keys("ctrl+s")...)
	if m.Session().State() != model.StateSaved || dataOf(r.server, "baz") != "q?" {
		t.Fatalf("ctrl+s in the editor: state %v, server %v", m.Session().State(), r.server.Object["data"])
	}
}

// TestMergedEditedWithBlockLeft: merged text edited with a block left in
// is refused, and the conflict view stays with its resolutions; the draft
// is untouched, and e or i offers the edited text again.
func TestMergedEditedWithBlockLeft(t *testing.T) {
	m, _ := conflicted(t, 120)
	draft := m.Session().Draft().Text
	merged, err := m.Session().MergedText()
	if err != nil || !strings.Contains(merged, "<<<<<<<") {
		t.Fatalf("merged text %q, %v: want a conflict block", merged, err)
	}
	edited := merged + "# looked at it\n"
	m = drive(t, m, effect.EditorFinished{Merged: true, Original: merged, Text: edited})
	if got := m.status.Text(); !strings.Contains(got, ".data.foo") || !strings.Contains(got, "resolutions are kept") {
		t.Errorf("status %q does not name the field of the block left in", got)
	}
	if m.screen != screenConflict || m.Session().Rebase() == nil || m.Session().State() != model.StateResolving {
		t.Fatalf("screen %v, state %v: the refusal left the conflict view", m.screen, m.Session().State())
	}
	if d := m.Session().Draft(); d == nil || d.Text != draft {
		t.Error("the draft was replaced by the refused text")
	}
	// i opens the edited text in the app; fixed there, the rebase is done.
	m = drive(t, m, keys("i")...)
	if m.screen != screenEditor || m.editor.Text() != edited {
		t.Fatalf("i opens %q, want the edited text", m.editor.Text())
	}
	fixed := strings.Replace(mustRender(t, m.Session().Rebase().Theirs.Object), "foo: theirs", "foo: fixed", 1)
	m = replaceText(t, m, fixed)
	m = drive(t, m, keys("esc")...)
	if d := m.Session().Draft(); m.screen != screenObject || m.Session().Rebase() != nil || d == nil || !strings.Contains(d.Text, "foo: fixed") {
		t.Fatalf("screen %v, draft %v: the fixed merge was not taken", m.screen, d)
	}
}

func TestResizeReflows(t *testing.T) {
	m, _ := conflicted(t, 120)
	m = drive(t, m, tea.WindowSizeMsg{Width: 80, Height: 24})
	if m.conflict.Wide() {
		t.Error("80 columns after a resize are still side by side")
	}
	if n := strings.Count(plain(m), "\n") + 1; n != 24 {
		t.Errorf("%d lines after resizing to 24", n)
	}
}

func TestRebaseKey(t *testing.T) {
	r := &fakeRunner{}
	m := edit(t, newApp(t, 120, 40, r), `foo: "1"`, `foo: mine`)
	m = drive(t, m, keys("r")...)
	if got := m.status.Text(); !strings.Contains(got, "already based on the latest") {
		t.Errorf("r with nothing new says %q", got)
	}
	m = theirsWrite(t, m, r, "foo", "theirs")
	if !strings.Contains(plain(m), "changed on server: rv 812 -> 815 by kubectl-patch: .data.foo") {
		t.Fatalf("no banner:\n%s", plain(m))
	}
	m = drive(t, m, keys("r")...)
	if m.screen != screenConflict || len(m.Session().Conflicts()) != 1 {
		t.Fatalf("r does not rebase through the conflict view: screen %v", m.screen)
	}
	m = drive(t, m, keys("esc", "r")...)
	if m.screen != screenConflict {
		t.Error("r during a rebase does not show it again")
	}
}

func TestNoColor(t *testing.T) {
	t.Setenv("NO_COLOR", "1")
	s := common.NewStyles()
	for name, st := range map[string]lipgloss.Style{"error": s.Error, "banner": s.Banner, "added": s.Added, "header": s.Header} {
		if _, ok := st.GetForeground().(lipgloss.NoColor); !ok {
			t.Errorf("%s has a foreground colour under NO_COLOR", name)
		}
		if _, ok := st.GetBackground().(lipgloss.NoColor); !ok {
			t.Errorf("%s has a background colour under NO_COLOR", name)
		}
	}
	t.Setenv("NO_COLOR", "")
	if _, ok := common.NewStyles().Error.GetForeground().(lipgloss.NoColor); ok {
		t.Error("no colour without NO_COLOR")
	}
}

func TestResolveSelectedConflict(t *testing.T) {
	r := &fakeRunner{}
	m := edit(t, newApp(t, 120, 40, r), `foo: "1"`, `foo: mine`)
	m = edit(t, m, `bar: "1"`, `bar: mine`)
	m = theirsWrite(t, m, r, "foo", "theirs")
	m = theirsWrite(t, m, r, "bar", "theirs")
	m = drive(t, m, keys("s")...)
	if n := len(m.Session().Conflicts()); n != 2 || !strings.Contains(plain(m), ": 2 conflicts") {
		t.Fatalf("%d conflicts:\n%s", n, plain(m))
	}
	// Conflicts come in field order: .data.bar, then .data.foo.
	drive(t, m, keys("n", "t", "p", "m", "s")...)
	if got := r.server.Object["data"]; dataOf(r.server, "bar") != "mine" || dataOf(r.server, "foo") != "theirs" {
		t.Errorf("server data %v, want bar mine and foo theirs", got)
	}
}

// TestConflictColumnsShowTheCollidingLines: a conflict deep inside a long
// config file is shown where it is, not cut off below the first lines.
func TestConflictColumnsShowTheCollidingLines(t *testing.T) {
	var lines []string
	for i := 1; i <= 60; i++ {
		lines = append(lines, fmt.Sprintf("setting%02d = %d", i, i))
	}
	config := func(line50 string) string {
		l := append([]string(nil), lines...)
		l[49] = line50
		return strings.Join(l, "\n") + "\n"
	}
	base := configMap("812", map[string]any{"app.conf": config("setting50 = 50")}, "kubectl-create", 0, "app.conf")
	mineObj := configMap("812", map[string]any{"app.conf": config("setting50 = mine")}, "kubectl-create", 0, "app.conf")
	theirs := configMap("815", map[string]any{"app.conf": config("setting50 = theirs")}, "kubectl-patch", 5, "app.conf")

	sess := model.NewSession(ref)
	for _, ev := range []model.Event{
		model.Opened{Object: base, At: t0},
		model.DraftEdited{Text: mustRender(t, mineObj)},
		model.SaveRequested{},
		model.SaveFailed{Err: &apiError{Kind: model.ErrorConflict}},
		model.Conflicted{Theirs: theirs, At: t0},
	} {
		if _, _, err := sess.Handle(ev); err != nil {
			t.Fatalf("%T: %v", ev, err)
		}
	}
	if len(sess.Conflicts()) != 1 {
		t.Fatalf("%d conflicts, want 1", len(sess.Conflicts()))
	}
	for _, size := range [][2]int{{120, 40}, {80, 24}} {
		v := conflict.New(conflict.DefaultKeyMap(), common.NewStyles())
		v.SetSize(size[0], size[1])
		v.SetContent(conflictContent(sess))
		screen := ansi.Strip(v.View())
		for _, want := range []string{"lines above", "setting50 = 50", "setting50 = theirs", "setting50 = mine"} {
			if !strings.Contains(screen, want) {
				t.Errorf("%dx%d: the columns do not show %q:\n%s", size[0], size[1], want, screen)
			}
		}
	}
}

func mustRender(t *testing.T, obj *unstructured.Unstructured) string {
	t.Helper()
	text, err := model.RenderYAML(obj)
	if err != nil {
		t.Fatal(err)
	}
	return text
}

func TestSecretDraftInMemoryIsInformationNotError(t *testing.T) {
	m := newApp(t, 120, 40, &fakeRunner{})
	m = drive(t, m, effect.Performed{Of: m.id, Effect: model.WriteDraft{Seq: 1}, Err: &drafts.SecretError{Target: "secrets/db"}})
	if m.status.Kind() != statusbar.KindInfo || !strings.Contains(m.status.Text(), "kept in memory only") {
		t.Errorf("status %v %q, want information that the draft stays in memory", m.status.Kind(), m.status.Text())
	}
	m = drive(t, m, effect.Performed{Of: m.id, Effect: model.WriteDraft{Seq: 2}, Err: &drafts.WriteError{Path: "/x.yaml", Err: errors.New("disk full")}})
	if m.status.Kind() != statusbar.KindError {
		t.Errorf("a failed draft write is shown as %v, want an error", m.status.Kind())
	}
}

// TestKeysThatArriveTogether: keys typed faster than the terminal is read
// come as one message; each still does what it does alone, and after i
// the rest is typed into the draft.
func TestKeysThatArriveTogether(t *testing.T) {
	m := drive(t, newApp(t, 120, 40, &fakeRunner{}), tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("f?")})
	if !m.object.ShowingAllFields() || !m.help.Shown() {
		t.Fatalf("f? as one message: all fields %v, full help %v", m.object.ShowingAllFields(), m.help.Shown())
	}
	m = drive(t, m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("?ixy")})
	if m.screen != screenEditor || !strings.Contains(m.editor.Text(), "xy") {
		t.Fatalf("?ixy as one message: screen %v, editor text %q", m.screen, m.editor.Text())
	}
}
