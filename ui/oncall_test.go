package ui

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kedit/kedit/internal/demo"
	"github.com/kedit/kedit/kube"
	"github.com/kedit/kedit/model"
)

func init() {
	// The timeline and blame show local times: the golden files hold UTC's.
	time.Local = time.UTC
}

// keditOwns makes what the fake server stores say that kedit wrote it, as
// the real server's managedFields would.
func keditOwns(obj *unstructured.Unstructured) {
	obj.SetManagedFields(nil)
	_ = unstructured.SetNestedSlice(obj.Object, []any{map[string]any{
		"manager": model.FieldManager, "operation": "Update", "apiVersion": "v1",
		"time": t0.Add(2 * time.Minute).Format(time.RFC3339), "fieldsType": "FieldsV1",
		"fieldsV1": map[string]any{"f:data": map[string]any{"f:foo": map[string]any{}, "f:bar": map[string]any{}}},
	}}, "metadata", "managedFields")
}

// clock matches the times the timeline shows, which for the watch's
// events are when the test ran.
var clock = regexp.MustCompile(`\b\d\d:\d\d:\d\d\b`)

// timeless is the screen with every time as hh:mm:ss.
func timeless(m App) string { return clock.ReplaceAllString(plain(m), "hh:mm:ss") }

// checkScreen checks that the screen fills the terminal exactly.
func checkScreen(t *testing.T, out string, w, h int) {
	t.Helper()
	if n := strings.Count(out, "\n") + 1; n != h {
		t.Errorf("the screen has %d lines, want %d", n, h)
	}
	for i, l := range strings.Split(out, "\n") {
		if lw := ansi.StringWidth(l); lw > w {
			t.Errorf("line %d is %d wide, more than %d: %q", i+1, lw, w, l)
		}
	}
}

// timelineApp opens testmap, lets kubectl-patch change foo (rv 815) and
// saves bar as kedit (rv 816): three versions on the timeline.
func timelineApp(t *testing.T, w, h int) (App, *fakeRunner) {
	t.Helper()
	r := &fakeRunner{stored: keditOwns}
	m := newApp(t, w, h, r)
	m = theirsWrite(t, m, r, "foo", "theirs")
	m = edit(t, m, `bar: "1"`, `bar: mine`)
	m = drive(t, m, keys("s")...)
	if got := m.Session().Base().ResourceVersion; got != "816" {
		t.Fatalf("after the save base is rv %s, want 816", got)
	}
	return m, r
}

func TestTimelineOpensListsAndCloses(t *testing.T) {
	m, _ := timelineApp(t, 100, 30)
	m = drive(t, m, keys("t")...)
	if m.screen != screenTimeline {
		t.Fatalf("t opens screen %v, want the timeline", m.screen)
	}
	out := timeless(m)
	if !strings.Contains(out, "timeline of ConfigMap/testmap: 3 versions since kedit opened it, newest first") {
		t.Errorf("no title:\n%s", out)
	}
	// Newest first: kedit's save, kubectl-patch's write, the first version.
	var order []string
	for _, l := range strings.Split(out, "\n") {
		for _, rv := range []string{"816", "815", "812"} {
			if strings.HasPrefix(strings.TrimLeft(l, "> "), rv+" ") {
				order = append(order, rv)
			}
		}
	}
	if strings.Join(order, ",") != "816,815,812" {
		t.Errorf("rows in the order %v, want 816,815,812:\n%s", order, out)
	}
	for _, want := range []string{
		"> 816  hh:mm:ss  kedit           Update     .data.bar",
		"  815  hh:mm:ss  kubectl-patch   Update     .data.foo",
		"  812  hh:mm:ss  kubectl-create  Update     opened: the first version kedit saw",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no row %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "dropped") {
		t.Errorf("a dropped count with nothing dropped:\n%s", out)
	}

	// t closes it, and so does esc.
	if m = drive(t, m, keys("t")...); m.screen != screenObject {
		t.Errorf("t again leaves screen %v", m.screen)
	}
	// The newest version is base: taking it makes no draft, and says so.
	if m = drive(t, m, keys("t", "y", "y")...); m.Session().Draft() != nil || m.status.Text() != "rv 816 has what base has: no draft to make" {
		t.Errorf("y on base's version: draft %v, status %q", m.Session().Draft() != nil, m.status.Text())
	}
	if m = drive(t, m, keys("t", "esc")...); m.screen != screenObject {
		t.Errorf("esc leaves screen %v", m.screen)
	}
}

func TestTimelineEnterShowsTheDiff(t *testing.T) {
	m, _ := timelineApp(t, 100, 30)
	// The second newest: kubectl-patch's foo.
	m = drive(t, m, keys("t", "j", "enter")...)
	out := timeless(m)
	if !m.timeline.ShowingDiff() {
		t.Fatalf("enter shows no diff:\n%s", out)
	}
	for _, want := range []string{"rv 815 at hh:mm:ss by kubectl-patch (Update), against rv 812", "changed: .data.foo",
		`-   foo: "1"`, "+   foo: theirs"} {
		if !strings.Contains(out, want) {
			t.Errorf("the diff lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "bar: mine") {
		t.Errorf("the diff shows a later version's change:\n%s", out)
	}
	// esc goes back to the list, still on that version; enter again does too.
	m = drive(t, m, keys("esc")...)
	if m.screen != screenTimeline || m.timeline.ShowingDiff() {
		t.Fatalf("esc in the diff: screen %v, diff %v; want the list", m.screen, m.timeline.ShowingDiff())
	}
	if _, rv, _ := m.timeline.Selected(); rv != "815" {
		t.Errorf("after the diff rv %s is selected, want 815", rv)
	}
	m = drive(t, m, keys("enter", "enter")...)
	if m.timeline.ShowingDiff() {
		t.Error("enter in the diff does not go back to the list")
	}
	// The oldest version kept is shown whole.
	m = drive(t, m, keys("G", "enter")...)
	if out := plain(m); !strings.Contains(out, "the oldest version kept: shown whole") || !strings.Contains(out, "+ kind: ConfigMap") {
		t.Errorf("the first version's diff:\n%s", out)
	}
}

func TestTimelineTakeMakesTheDraftAfterAConfirmation(t *testing.T) {
	m, r := timelineApp(t, 100, 30)
	// rv 815 had bar "1": the save at 816 changed it. n keeps everything.
	m = drive(t, m, keys("t", "j", "y")...)
	if q := plain(m); !strings.Contains(q, "make rv 815 the draft? s then saves it over rv 816 (y/n)") {
		t.Fatalf("y does not ask:\n%s", q)
	}
	m = drive(t, m, keys("n")...)
	if m.Session().Draft() != nil || m.screen != screenTimeline {
		t.Fatalf("n made a draft (%v) or left the timeline (%v)", m.Session().Draft() != nil, m.screen)
	}
	m = drive(t, m, keys("y", "y")...)
	d := m.Session().Draft()
	if d == nil || d.Object == nil {
		t.Fatalf("y, y made no draft: %+v", d)
	}
	if got := dataOf(d.Object, "bar"); got != "1" {
		t.Errorf("the draft's bar is %q, want rv 815's \"1\"", got)
	}
	if d.Object.GetResourceVersion() != "816" {
		t.Errorf("the draft carries rv %s, want base's 816", d.Object.GetResourceVersion())
	}
	if m.screen != screenObject || !strings.Contains(m.status.Text(), "rv 815 is the draft, based on rv 816") {
		t.Errorf("screen %v, status %q", m.screen, m.status.Text())
	}
	// It goes through the normal save: a change made meanwhile to the same
	// field is a conflict.
	m = theirsWrite(t, m, r, "bar", "theirs")
	m = drive(t, m, keys("s")...)
	if m.screen != screenConflict || len(m.Session().Conflicts()) != 1 {
		t.Fatalf("the save after a write to bar: screen %v, %d conflicts; want the conflict view with 1", m.screen, len(m.Session().Conflicts()))
	}
	// Resolved to mine, the lost value is back on the server.
	m = drive(t, m, keys("m", "s")...)
	if got := dataOf(r.object(), "bar"); got != "1" {
		t.Errorf("bar on the server is %q, want the value brought back, \"1\"", got)
	}
}

func TestTimelineReplacesADraftOnlyAfterSayingSo(t *testing.T) {
	m, _ := timelineApp(t, 100, 30)
	m = edit(t, m, `foo: theirs`, `foo: typed`)
	m = drive(t, m, keys("t", "j", "y")...)
	if q := plain(m); !strings.Contains(q, "make rv 815 the draft? it replaces the draft you have;") {
		t.Errorf("the question does not say the draft is replaced:\n%s", q)
	}
}

func TestTimelineDeletesAndRecreations(t *testing.T) {
	m := newApp(t, 100, 30, &fakeRunner{})
	last := configMap("812", map[string]any{"foo": "1", "bar": "1"}, "kubectl-create", 0, "foo", "bar")
	again := configMap("900", map[string]any{"foo": "2"}, "kubectl-create", 60, "foo")
	again.SetUID("u-2")
	m = drive(t, m,
		shownWatchEvent(kube.WatchEvent{Type: kube.ObjectDeleted, Object: last}),
		shownWatchEvent(kube.WatchEvent{Type: kube.ObjectAdded, Object: again}),
		keyMsg("t"))
	out := timeless(m)
	for _, want := range []string{
		"> 900  hh:mm:ss  kubectl-create  Update     created again (new uid): .data.bar, .data.foo",
		"  812  hh:mm:ss  -               Delete     deleted (its last state)",
		"  812  hh:mm:ss  kubectl-create  Update     opened: the first version kedit saw",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no row %q:\n%s", want, out)
		}
	}
}

func TestTimelineSaysHowManyWereDropped(t *testing.T) {
	sess := model.NewSession(ref)
	at := t0
	obj := configMap("1000", map[string]any{"foo": "0"}, "writer", 0, "foo")
	if _, _, err := sess.Handle(model.Opened{Object: obj, At: at}); err != nil {
		t.Fatal(err)
	}
	// Two more versions than the timeline keeps.
	for i := 1; i < model.MaxTimeline+2; i++ {
		at = at.Add(time.Second)
		v := obj.DeepCopy()
		v.SetResourceVersion(strconv.Itoa(1000 + i))
		_ = unstructured.SetNestedField(v.Object, strconv.Itoa(i), "data", "foo")
		if _, _, err := sess.Handle(model.LiveChanged{Type: model.LiveModified, Object: v, At: at}); err != nil {
			t.Fatal(err)
		}
	}
	if sess.TimelineDropped() != 2 {
		t.Fatalf("the session dropped %d versions, want 2", sess.TimelineDropped())
	}
	m := drive(t, New(Config{Object: &Object{Session: sess}}), tea.WindowSizeMsg{Width: 100, Height: 30}, keyMsg("t"))
	out := plain(m)
	if !strings.Contains(out, "1000 versions since kedit opened it") ||
		!strings.Contains(out, "2 older versions dropped (the timeline keeps at most 1000 versions and 32 MiB)") {
		t.Errorf("the view does not say what was dropped:\n%s", out)
	}
	// The oldest kept version is not the first kedit saw.
	if strings.Contains(out, "opened: the first version") {
		t.Errorf("the oldest kept version is called the first:\n%s", out)
	}
	m = drive(t, m, keys("G")...)
	if out := plain(m); !strings.Contains(out, "> 1002 ") {
		t.Errorf("G does not reach the oldest kept version, rv 1002:\n%s", out)
	}
}

// secretRef is a Secret, whose values kedit shows only when asked.
var secretRef = model.ObjectRef{
	Context:  "kind-dev",
	Resource: schema.GroupVersionResource{Version: "v1", Resource: "secrets"},
	Kind:     "Secret", Namespace: "default", Name: "creds",
}

// secret builds Secret creds at rv with data (values base64, as the server
// keeps them).
func secret(rv string, data map[string]any) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "v1", "kind": "Secret", "type": "Opaque",
		"metadata": map[string]any{"name": "creds", "namespace": "default", "resourceVersion": rv, "uid": "s-1",
			"managedFields": []any{map[string]any{
				"manager": "kubectl-create", "operation": "Update", "apiVersion": "v1",
				"time": t0.Format(time.RFC3339), "fieldsType": "FieldsV1",
				"fieldsV1": map[string]any{"f:data": map[string]any{"f:password": map[string]any{}}},
			}}},
		"data": data,
	}}
}

func TestSecretValuesNeverInTheTimelineOrPreview(t *testing.T) {
	const old, rotated, typed = "b2xkLXNlY3JldA==", "cm90YXRlZC1zZWNyZXQ=", "dHlwZWQtc2VjcmV0"
	sess := model.NewSession(secretRef)
	if _, _, err := sess.Handle(model.Opened{Object: secret("10", map[string]any{"password": old}), At: t0}); err != nil {
		t.Fatal(err)
	}
	r := &fakeRunner{server: secret("11", map[string]any{"password": rotated, "token": old})}
	m := drive(t, New(Config{Object: &Object{Session: sess, Runner: r}}), tea.WindowSizeMsg{Width: 100, Height: 30},
		shownWatchEvent(kube.WatchEvent{Type: kube.ObjectModified, Object: r.object()}))
	m = drive(t, m, keys("t", "enter")...)
	out := plain(m)
	if !strings.Contains(out, "changed: .data.password, .data.token") || !strings.Contains(out, "+   token: ••••") ||
		!strings.Contains(out, "values are shown as ••••") {
		t.Errorf("the timeline's diff of a Secret:\n%s", out)
	}
	// The values encoded, as the server holds them, and decoded, as the
	// draft shows them.
	for _, v := range []string{old, rotated, "old-secret", "rotated-secret"} {
		if strings.Contains(out, v) {
			t.Errorf("the timeline's diff shows a Secret's value %q:\n%s", v, out)
		}
	}
	m = drive(t, m, keys("esc", "esc")...)
	m = edit(t, m, "rotated-secret", "typed-secret")
	r.stored = func(o *unstructured.Unstructured) {
		// A mutating webhook's addition, with a value.
		_ = unstructured.SetNestedField(o.Object, old, "data", "injected")
	}
	m = drive(t, m, keys("p")...)
	out = plain(m)
	if !strings.Contains(out, "+   injected: ••••") || !strings.Contains(out, "values are shown as ••••") {
		t.Errorf("the preview of a Secret:\n%s", out)
	}
	for _, v := range []string{old, rotated, typed, "old-secret", "rotated-secret", "typed-secret"} {
		if strings.Contains(out, v) {
			t.Errorf("the preview shows a Secret's value %q:\n%s", v, out)
		}
	}
}

// deployRef is Deployment web, the blame fixture's object.
var deployRef = model.ObjectRef{
	Context:  "kind-dev",
	Resource: schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"},
	Kind:     "Deployment", Namespace: "default", Name: "web",
}

// twoManagers is a Deployment as the real API server stored it (kubectl get
// -o json --show-managed-fields): platform-team-deployer applied it with
// container app, then istio-sidecar-injector added container istio-proxy
// with a strategic merge patch. Each manager owns its own container.
func twoManagers(t *testing.T) *unstructured.Unstructured {
	t.Helper()
	b, err := os.ReadFile("testdata/deployment_two_managers.json")
	if err != nil {
		t.Fatal(err)
	}
	obj := &unstructured.Unstructured{}
	if err := obj.UnmarshalJSON(b); err != nil {
		t.Fatal(err)
	}
	return obj
}

// blameApp opens the two managers' Deployment and shows its blame.
func blameApp(t *testing.T, w, h int) App {
	t.Helper()
	sess := model.NewSession(deployRef)
	if _, _, err := sess.Handle(model.Opened{Object: twoManagers(t), At: t0}); err != nil {
		t.Fatal(err)
	}
	return drive(t, New(Config{Object: &Object{Session: sess}}), tea.WindowSizeMsg{Width: w, Height: h}, keyMsg("b"))
}

// cursorTo moves the blame cursor down to the first line containing s.
func cursorTo(t *testing.T, m App, s string) App {
	t.Helper()
	for range 200 {
		if l, ok := m.object.CursorLine(); ok && strings.Contains(l, s) {
			return m
		}
		m = drive(t, m, keyMsg("j"))
	}
	t.Fatalf("the cursor never reaches a line with %q", s)
	return m
}

func TestBlameGolden(t *testing.T) {
	for _, s := range sizes {
		t.Run("top_"+s.name, func(t *testing.T) {
			out := plain(blameApp(t, s.w, s.h))
			checkScreen(t, out, s.w, s.h)
			golden.RequireEqual(t, out)
		})
		t.Run("containers_"+s.name, func(t *testing.T) {
			m := cursorTo(t, blameApp(t, s.w, s.h), "image: nginx")
			out := plain(m)
			checkScreen(t, out, s.w, s.h)
			golden.RequireEqual(t, out)
		})
	}
}

func TestBlameTogglesAndNamesTheLineUnderTheCursor(t *testing.T) {
	m := blameApp(t, 80, 24)
	if !m.object.Blaming() || !strings.Contains(plain(m), "platform-t… Nov 22 19:45 │   replicas: 2") {
		t.Fatalf("b shows no gutter:\n%s", plain(m))
	}
	m = cursorTo(t, m, "image: istio/proxyv2")
	if got, want := m.status.Text(), `line 31: istio-sidecar-injector (Update) at 2026-11-22 19:45:46 owns .spec.template.spec.containers[name="istio-proxy"].image`; got != want {
		t.Errorf("status %q, want %q", got, want)
	}
	// A field the server defaulted in a's container is a's, through the
	// container.
	m = cursorTo(t, m, "imagePullPolicy: IfNotPresent")
	m = drive(t, m, keyMsg("j"))
	m = cursorTo(t, m, "imagePullPolicy: IfNotPresent")
	if got := m.status.Text(); !strings.HasPrefix(got, "line 41: platform-team-deployer (Apply)") ||
		!strings.HasSuffix(got, `owns the field around .spec.template.spec.containers[name="app"].imagePullPolicy`) {
		t.Errorf("the defaulted field's status: %q", got)
	}
	// home goes to the top; b hides the gutter and the status.
	m = drive(t, m, keyMsg("home"))
	if got := m.status.Text(); got != "line 1: no field manager owns .apiVersion (the server set it, or keeps it)" {
		t.Errorf("status at the top: %q", got)
	}
	m = drive(t, m, keyMsg("b"))
	if out := plain(m); m.object.Blaming() || strings.Contains(out, "│") || m.status.Text() != "" {
		t.Errorf("b again leaves the gutter or its status:\n%s", out)
	}
}

func TestBlameShowsTheLiveObjectBesideADraftAndEscapes(t *testing.T) {
	obj := configMap("812", map[string]any{"foo": "1"}, "evil\x1b]0;pwned\x07", 0, "foo")
	sess := model.NewSession(ref)
	if _, _, err := sess.Handle(model.Opened{Object: obj, At: t0}); err != nil {
		t.Fatal(err)
	}
	m := drive(t, New(Config{Object: &Object{Session: sess}}), tea.WindowSizeMsg{Width: 80, Height: 24})
	m = edit(t, m, `foo: "1"`, `foo: mine`)
	m = drive(t, m, keys("b", "j")...)
	out := m.View()
	if strings.Contains(out, "\x1b]0;") || strings.Contains(m.status.Text(), "\x1b") {
		t.Errorf("a manager's control characters reach the terminal: %q", out)
	}
	if !strings.Contains(ansi.Strip(out), `evil\x1b]0… Nov 22 12:00 │   foo: "1"`) {
		t.Errorf("blame does not show the live object, escaped:\n%s", ansi.Strip(out))
	}
	if m = drive(t, m, keyMsg("b")); !strings.Contains(plain(m), "foo: mine") {
		t.Errorf("b again does not show the draft:\n%s", plain(m))
	}
}

// defaults adds what a server's defaulting and a mutating webhook would.
func defaults(obj *unstructured.Unstructured) {
	_ = unstructured.SetNestedField(obj.Object, "IfNotPresent", "data", "pullPolicy")
	_ = unstructured.SetNestedField(obj.Object, "injected", "metadata", "labels", "admission")
}

func TestPreviewShowsWhatTheServerWouldStore(t *testing.T) {
	r := &fakeRunner{stored: defaults}
	m := newApp(t, 100, 30, r)
	m = drive(t, m, keys("p")...)
	if m.screen != screenObject || m.status.Text() != "there is no draft: e edits one" || r.dryRuns != 0 {
		t.Fatalf("p without a draft: screen %v, status %q, %d dry runs", m.screen, m.status.Text(), r.dryRuns)
	}
	m = edit(t, m, `foo: "1"`, `foo: mine`)
	m = drive(t, m, keys("p")...)
	out := plain(m)
	if m.screen != screenPreview || r.dryRuns != 1 {
		t.Fatalf("p with a draft: screen %v, %d dry runs:\n%s", m.screen, r.dryRuns, out)
	}
	for _, want := range []string{"preview (nothing saved)", "+   pullPolicy: IfNotPresent", "+     admission: injected",
		"- the draft, + what the server would store instead"} {
		if !strings.Contains(out, want) {
			t.Errorf("the preview lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "+   foo: mine") || strings.Contains(out, "-   foo: mine") {
		t.Errorf("the preview shows the draft's own change as the server's:\n%s", out)
	}
	if r.saves != 0 || r.object().GetResourceVersion() != "812" || dataOf(r.object(), "foo") != "1" {
		t.Errorf("the preview wrote: %d saves, rv %s", r.saves, r.object().GetResourceVersion())
	}
	// A new version meanwhile leaves the preview open.
	m = theirsWrite(t, m, r, "bar", "theirs")
	if m.screen != screenPreview || !strings.Contains(plain(m), "preview (nothing saved)") {
		t.Errorf("a watch event closed the preview:\n%s", plain(m))
	}
	m = drive(t, m, keys("esc")...)
	if out := plain(m); m.screen != screenObject || strings.Contains(out, "preview (nothing saved)") || !strings.Contains(out, "foo: mine") {
		t.Errorf("esc leaves the preview: screen %v\n%s", m.screen, out)
	}
	if d := m.Session().Draft(); d == nil || dataOf(d.Object, "foo") != "mine" || dataOf(d.Object, "pullPolicy") != "" {
		t.Errorf("the preview changed the draft: %+v", d)
	}
}

func TestPreviewOfAnUnchangedDraftAndOfRefusals(t *testing.T) {
	r := &fakeRunner{}
	m := edit(t, newApp(t, 100, 30, r), `foo: "1"`, `foo: mine`)
	if out := plain(drive(t, m, keyMsg("p"))); !strings.Contains(out, "the server would store the draft as it is") {
		t.Errorf("a preview with nothing added:\n%s", out)
	}

	r = &fakeRunner{fail: &apiError{Kind: model.ErrorInvalid, Message: "ConfigMap is invalid",
		Causes: []model.FieldCause{{Field: "metadata.labels", Message: `Invalid value: "bad key!": name part must consist of alphanumeric characters`}}}}
	m = edit(t, newApp(t, 100, 30, r), "  name: testmap\n", "  labels:\n    \"bad key!\": x\n  name: testmap\n")
	out := plain(drive(t, m, keyMsg("p")))
	if !strings.Contains(out, "the server would refuse the save: invalid (422): each cause is under its line") ||
		!regexp.MustCompile(`  labels: *\n  \^ metadata.labels: Invalid value: "bad key!"`).MatchString(out) {
		t.Errorf("a preview the server refuses:\n%s", out)
	}
	if r.saves != 0 {
		t.Errorf("%d saves", r.saves)
	}

	r = &fakeRunner{}
	m = edit(t, newApp(t, 100, 30, r), `foo: "1"`, `foo: mine`)
	m = theirsWrite(t, m, r, "foo", "theirs")
	if out := plain(drive(t, m, keyMsg("p"))); !strings.Contains(out, "the server would refuse the save: the object changed on the server since the draft's base") {
		t.Errorf("a preview of a draft whose base is old:\n%s", out)
	}
}

// ownedBy makes testmap say that tool reconciles it.
func ownedBy(tool string) func(*unstructured.Unstructured) {
	return func(obj *unstructured.Unstructured) {
		switch tool {
		case "Flux":
			obj.SetLabels(map[string]string{"kustomize.toolkit.fluxcd.io/name": "web", "kustomize.toolkit.fluxcd.io/namespace": "apps"})
		case "Argo CD":
			obj.SetAnnotations(map[string]string{"argocd.argoproj.io/tracking-id": "shop:/ConfigMap:default/testmap"})
		case "Helm":
			obj.SetLabels(map[string]string{"app.kubernetes.io/managed-by": "Helm"})
			obj.SetAnnotations(map[string]string{"meta.helm.sh/release-name": "shop", "meta.helm.sh/release-namespace": "default"})
		}
	}
}

// gitOpsApp opens testmap as tool reconciles it.
func gitOpsApp(t *testing.T, tool string, w, h int, extra ...func(*Config)) (App, *fakeRunner) {
	t.Helper()
	sess := model.NewSession(ref)
	obj := configMap("812", map[string]any{"foo": "1", "bar": "1"}, "kubectl-create", 0, "foo", "bar")
	ownedBy(tool)(obj)
	if _, _, err := sess.Handle(model.Opened{Object: obj, At: t0}); err != nil {
		t.Fatal(err)
	}
	r := &fakeRunner{server: obj.DeepCopy()}
	cfg := Config{Object: &Object{Session: sess, Runner: r}}
	for _, f := range extra {
		f(&cfg)
	}
	return drive(t, New(cfg), tea.WindowSizeMsg{Width: w, Height: h}), r
}

func TestGitOpsOwnerInTheHeaderAndTheFirstSaveAsks(t *testing.T) {
	for _, tc := range []struct{ tool, header string }{
		{"Flux", "managed by Flux (kustomization apps/web): a save may be reverted"},
		{"Argo CD", "managed by Argo CD (application shop): a save may be reverted"},
		{"Helm", "managed by Helm (release default/shop): the next helm upgrade may revert a save"},
	} {
		t.Run(tc.tool, func(t *testing.T) {
			m, r := gitOpsApp(t, tc.tool, 160, 30)
			if out := plain(m); !strings.Contains(out, tc.header) {
				t.Fatalf("the header does not say %q:\n%s", tc.header, out)
			}
			m = edit(t, m, `foo: "1"`, `foo: mine`)
			m = drive(t, m, keys("s")...)
			if q := plain(m); r.saves != 0 || !strings.Contains(q, tc.header+". save anyway? (y/n; g writes it to the source instead, b does both)") {
				t.Fatalf("s saved (%d) or does not ask:\n%s", r.saves, q)
			}
			m = drive(t, m, keys("n")...)
			if r.saves != 0 || m.Session().Draft() == nil || m.status.Text() != "not saved; the draft is kept" {
				t.Fatalf("n: %d saves, status %q", r.saves, m.status.Text())
			}
			m = drive(t, m, keys("s", "y")...)
			if r.saves != 1 || dataOf(r.object(), "foo") != "mine" {
				t.Fatalf("s, y: %d saves, foo %q", r.saves, dataOf(r.object(), "foo"))
			}
			// Only the first save asks.
			m = edit(t, m, `foo: mine`, `foo: again`)
			m = drive(t, m, keys("s")...)
			if r.saves != 2 || m.confirm.kind != confirmNone {
				t.Errorf("the second save: %d saves, question %q", r.saves, m.question())
			}
		})
	}
}

func TestGitOpsAsksBeforeAResubmitAndNotWithYesGitOps(t *testing.T) {
	// r then s: the first save is the rebase's resubmit.
	m, r := gitOpsApp(t, "Flux", 100, 30)
	m = edit(t, m, `foo: "1"`, `foo: mine`)
	m = theirsWrite(t, m, r, "bar", "theirs")
	m = drive(t, m, keys("r", "s")...)
	if r.saves != 0 || m.confirm.kind != confirmGitOps {
		t.Fatalf("the resubmit: %d saves, question %q", r.saves, m.question())
	}
	m = drive(t, m, keys("y")...)
	if r.saves != 1 || dataOf(r.object(), "foo") != "mine" || dataOf(r.object(), "bar") != "theirs" {
		t.Errorf("y: %d saves, server %v", r.saves, r.object().Object["data"])
	}

	m, r = gitOpsApp(t, "Helm", 100, 30, func(c *Config) { c.YesGitOps = true })
	m = edit(t, m, `foo: "1"`, `foo: mine`)
	m = drive(t, m, keys("s")...)
	if r.saves != 1 || m.confirm.kind != confirmNone {
		t.Errorf("--yes-gitops: %d saves, question %q", r.saves, m.question())
	}
	if !strings.Contains(plain(m), "managed by Helm") {
		t.Errorf("--yes-gitops hides the header:\n%s", plain(m))
	}
}

// fakeDemo is a demo writer that writes nothing: the test says what each
// write was.
type fakeDemo struct {
	now    chan struct{}
	writes chan demo.Write
	// edits counts the kubectl edits asked for (W).
	edits atomic.Int32
}

func (f *fakeDemo) WriteNow()                 { f.now <- struct{}{} }
func (f *fakeDemo) KubectlEdit()              { f.edits.Add(1) }
func (f *fakeDemo) Race()                     {}
func (f *fakeDemo) Writes() <-chan demo.Write { return f.writes }

// demoDriver drives an app on testmap with a fake demo writer, as the
// program does: Init's command first, which reads the writer's reports.
func demoDriver(t *testing.T) (*fakeDemo, *driver) {
	fake := &fakeDemo{now: make(chan struct{}, 1), writes: make(chan demo.Write)}
	d := newDriver(t, newApp(t, 100, 30, &fakeRunner{}, func(c *Config) { c.Object.Demo = fake }))
	d.running++
	initCmd := d.m.Init()
	go func() { d.exec(initCmd); d.done <- struct{}{} }()
	return fake, d
}

func TestDemoWriterKeyAndStatusLine(t *testing.T) {
	m := newApp(t, 100, 30, &fakeRunner{})
	if m = drive(t, m, keyMsg("w")); m.status.Text() != "w makes the demo writer write at once: only in kedit demo" {
		t.Errorf("w outside the demo: %q", m.status.Text())
	}

	fake, d := demoDriver(t)
	d.send(keyMsg("w"))
	select {
	case <-fake.now:
	default:
		t.Fatal("w does not ask the demo writer to write")
	}
	// The report is said once the watch has brought the version it made,
	// beside the banner it brings to a draft.
	fake.writes <- demo.Write{Path: ".data.foo", Value: "7", ResourceVersion: "1043"}
	m = d.until(func(m App) bool { return m.oncall.demoWrite != nil })
	if got := m.status.Text(); got != "demo-writer is writing ..." {
		t.Errorf("before the watch brought rv 1043, the status says %q", got)
	}
	watched := func(rv, foo string) {
		obj := configMap(rv, map[string]any{"foo": foo, "bar": "1"}, demo.WriterManager, 9, "foo")
		d.send(shownWatchEvent(kube.WatchEvent{Type: kube.ObjectModified, Object: obj, ResourceVersion: rv}))
	}
	watched("1043", "7")
	m = d.until(func(m App) bool { return m.status.Text() != "demo-writer is writing ..." })
	if got := m.status.Text(); got != `demo-writer set .data.foo = "7" (rv 1043)` {
		t.Errorf("status %q", got)
	}
	// The command is issued again: the next report shows too, escaped.
	fake.writes <- demo.Write{Path: ".data.foo", Value: "\x1b[2J", ResourceVersion: "1044"}
	m = d.until(func(m App) bool { return m.oncall.demoWrite != nil })
	watched("1044", "\x1b[2J")
	m = d.until(func(m App) bool { return strings.Contains(m.status.Text(), "1044") })
	if got := m.status.Text(); got != `demo-writer set .data.foo = "\x1b[2J" (rv 1044)` {
		t.Errorf("status %q", got)
	}
	close(fake.writes)
	d.settle()
}

// historyApp opens testmap on a session that saw, at fixed times,
// kubectl-patch change foo, demo-writer add bar and kedit save foo.
func historyApp(t *testing.T, w, h int) App {
	t.Helper()
	sess := model.NewSession(ref)
	step := func(ev model.Event) {
		t.Helper()
		if _, _, err := sess.Handle(ev); err != nil {
			t.Fatal(err)
		}
	}
	step(model.Opened{Object: configMap("812", map[string]any{"foo": "1"}, "kubectl-create", 0, "foo"), At: t0})
	step(model.LiveChanged{Type: model.LiveModified, Object: configMap("815", map[string]any{"foo": "2"}, "kubectl-patch", 60, "foo"), At: t0.Add(time.Minute)})
	step(model.LiveChanged{Type: model.LiveModified, Object: configMap("820", map[string]any{"foo": "2", "bar": "7"}, demo.WriterManager, 125, "bar"), At: t0.Add(125 * time.Second)})
	text, err := sess.DraftText()
	if err != nil {
		t.Fatal(err)
	}
	step(model.DraftEdited{Text: strings.Replace(text, `foo: "2"`, `foo: "3"`, 1)})
	step(model.SaveRequested{})
	step(model.Saved{Object: configMap("823", map[string]any{"foo": "3", "bar": "7"}, model.FieldManager, 190, "foo"), At: t0.Add(190 * time.Second)})
	return drive(t, New(Config{Object: &Object{Session: sess}}), tea.WindowSizeMsg{Width: w, Height: h})
}

func TestOncallGolden(t *testing.T) {
	cases := []struct {
		name  string
		build func(t *testing.T, w, h int) App
	}{
		{"timeline", func(t *testing.T, w, h int) App { return drive(t, historyApp(t, w, h), keyMsg("t")) }},
		{"timeline_diff", func(t *testing.T, w, h int) App {
			return drive(t, historyApp(t, w, h), keys("t", "j", "enter")...)
		}},
		{"timeline_take", func(t *testing.T, w, h int) App {
			return drive(t, historyApp(t, w, h), keys("t", "j", "j", "y")...)
		}},
		{"preview", func(t *testing.T, w, h int) App {
			m := edit(t, newApp(t, w, h, &fakeRunner{stored: defaults}), `foo: "1"`, `foo: mine`)
			return drive(t, m, keyMsg("p"))
		}},
		{"gitops_question", func(t *testing.T, w, h int) App {
			m, _ := gitOpsApp(t, "Flux", w, h)
			m = edit(t, m, `foo: "1"`, `foo: mine`)
			return drive(t, m, keyMsg("s"))
		}},
	}
	for _, c := range cases {
		for _, s := range sizes {
			t.Run(c.name+"_"+s.name, func(t *testing.T) {
				out := plain(c.build(t, s.w, s.h))
				checkScreen(t, out, s.w, s.h)
				golden.RequireEqual(t, out)
			})
		}
	}
}

func TestOncallViewsEscapeServerText(t *testing.T) {
	const evil = "\x1b]0;owned\x07\x1b[2J"
	sess := model.NewSession(ref)
	obj := configMap("812", map[string]any{"foo": "1"}, "kubectl-create", 0, "foo")
	obj.SetLabels(map[string]string{"kustomize.toolkit.fluxcd.io/name": "web" + evil})
	if _, _, err := sess.Handle(model.Opened{Object: obj, At: t0}); err != nil {
		t.Fatal(err)
	}
	changed := configMap("815", map[string]any{"foo": "1", "k" + evil: "v" + evil}, "m"+evil, 60, "k"+evil)
	changed.SetLabels(obj.GetLabels())
	if _, _, err := sess.Handle(model.LiveChanged{Type: model.LiveModified, Object: changed, At: t0}); err != nil {
		t.Fatal(err)
	}
	r := &fakeRunner{server: changed.DeepCopy(), stored: func(o *unstructured.Unstructured) {
		_ = unstructured.SetNestedField(o.Object, "d"+evil, "data", "defaulted")
	}}
	m := drive(t, New(Config{Object: &Object{Session: sess, Runner: r}}), tea.WindowSizeMsg{Width: 100, Height: 30})
	screens := map[string]string{"object": m.View()}
	m = drive(t, m, keys("t")...)
	screens["timeline"] = m.View()
	m = drive(t, m, keys("enter")...)
	screens["timeline diff"] = m.View()
	m = drive(t, m, keys("esc", "j", "y")...)
	screens["timeline question"] = m.View()
	m = drive(t, m, keys("y")...)
	m = drive(t, m, keys("p")...)
	screens["preview"] = m.View()
	m = drive(t, m, keys("esc", "s")...)
	screens["gitops question"] = m.View()
	for name, s := range screens {
		// The styles draw no escapes in the tests' ASCII profile: any ESC
		// or BEL came from the server.
		if strings.ContainsAny(s, "\x1b\x07") {
			t.Errorf("the %s screen holds raw control characters: %q", name, s)
		}
	}
	for name, want := range map[string]string{"timeline": `m\x1b]0;owned`, "timeline diff": `+   "k\x1b]0;owned\x07\x1b[2J": "v\x1b]0;owned`,
		"preview": `+   defaulted: "d\x1b]0;owned`, "gitops question": `web\x1b]0;owned`} {
		if !strings.Contains(ansi.Strip(screens[name]), want) {
			t.Errorf("the %s screen does not show %q escaped:\n%s", name, want, ansi.Strip(screens[name]))
		}
	}
}

// g at the GitOps question writes the draft to the source instead: with no
// manifest of the object under --source, it says so, saves nothing and
// keeps the draft.
func TestGitOpsQuestionsGSaysWhenTheSourceIsNotFound(t *testing.T) {
	dir := t.TempDir()
	m, r := gitOpsApp(t, "Flux", 100, 30, func(c *Config) { c.SourceDir = dir })
	m = edit(t, m, `foo: "1"`, `foo: mine`)
	m = drive(t, m, keys("s", "g")...)
	if r.saves != 0 || m.Session().Draft() == nil || !strings.Contains(string(m.status.Text()), "not written to the source: no source of ConfigMap/testmap") {
		t.Fatalf("g: %d saves, status %q", r.saves, m.status.Text())
	}
	if m.screen != screenObject {
		t.Errorf("g without a source left the object view: %d", m.screen)
	}
}

// b at the GitOps question saves the draft and writes it to the source
// both: the save goes, and the source's absence is said.
func TestGitOpsQuestionsBSavesAndWritesTheSource(t *testing.T) {
	dir := t.TempDir()
	m, r := gitOpsApp(t, "Flux", 100, 30, func(c *Config) { c.SourceDir = dir })
	m = edit(t, m, `foo: "1"`, `foo: mine`)
	m = drive(t, m, keys("s", "b")...)
	if r.saves != 1 || dataOf(r.object(), "foo") != "mine" {
		t.Fatalf("b: %d saves, foo %q", r.saves, dataOf(r.object(), "foo"))
	}
	if !strings.Contains(string(m.status.Text()), "not written to the source: no source of ConfigMap/testmap") {
		t.Errorf("b: status %q", m.status.Text())
	}
}
