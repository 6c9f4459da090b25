package ui

import (
	"errors"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/internal/testseed"
	"github.com/kedit/kedit/kube"
	"github.com/kedit/kedit/model"
	"github.com/kedit/kedit/ui/browser"
)

// Server text is escaped once: where it enters the views (escape.Text),
// and never again on its way to the terminal.

// drawnOnce checks that server text s is in drawn (a part of the screen,
// styles stripped) exactly as escape.String draws it: escaped, and not
// escaped a second time (a backslash drawn \\\\, an escape's backslash
// doubled); and that nothing in drawn is left for the terminal to take as
// a control. others are the other server texts drawn there, whose own
// escapes may hold what s escaped twice would look like.
func drawnOnce(t *testing.T, drawn, where, s string, others ...string) {
	t.Helper()
	drawn = ansi.Strip(drawn)
	want := escape.String(s)
	if !strings.Contains(drawn, want) {
		t.Errorf("%s: %q is not drawn as %q:\n%s", where, s, want, drawn)
	}
	twice := escape.String(want)
	explained := twice == want
	for _, o := range others {
		explained = explained || strings.Contains(escape.String(o), twice)
	}
	if !explained && strings.Contains(drawn, twice) {
		t.Errorf("%s: %q is drawn escaped twice, %q:\n%s", where, s, twice, drawn)
	}
	if escape.Needed(drawn) {
		t.Errorf("%s: it holds a character the terminal would take raw:\n%q", where, drawn)
	}
}

// serverTarget is testmap's target, for kube's typed errors.
func serverTarget() *kube.Target {
	coll := &kube.Collection{Context: "kind-dev", Server: fakeServer, Mapping: fakeMapping("configmaps"), Namespace: "default"}
	return coll.Target("default", "testmap")
}

// savedWith saves an edit of foo while the server answers err.
func savedWith(t *testing.T, err error) App {
	t.Helper()
	r := &fakeRunner{fail: err}
	m := edit(t, newApp(t, 220, 30, r), `foo: "1"`, `foo: "2"`)
	return drive(t, m, keys("s")...)
}

// statusSavedWith is the status bar after savedWith.
func statusSavedWith(t *testing.T, err error) string {
	t.Helper()
	m := savedWith(t, err)
	return m.status.View()
}

// TestServerMessageIsEscapedOnce: the server's words in kube's typed
// errors (a refusal's message, a 422's cause, an error kube does not know)
// reach the status bar with a backslash drawn \\ and an ESC \x1b, once.
func TestServerMessageIsEscapedOnce(t *testing.T) {
	const msg = "bad \\ value \x1b[2J and \\x1b letters"
	target := serverTarget()
	invalid := apierrors.NewInvalid(schema.GroupKind{Kind: "ConfigMap"}, "testmap",
		field.ErrorList{field.Invalid(field.NewPath("data", "foo"), "2", msg)})
	for _, tc := range []struct {
		name string
		err  error
	}{
		{"refused", kube.Classify(target, "update", apierrors.NewBadRequest(msg))},
		{"invalid", kube.Classify(target, "update", invalid)},
		{"unknown", kube.Classify(target, "update", errors.New(msg))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			messageDrawnOnce(t, "status bar", plain(savedWith(t, tc.err)))
			// The preview's dry run meets the same answer.
			r := &fakeRunner{fail: tc.err}
			m := edit(t, newApp(t, 220, 30, r), `foo: "1"`, `foo: "2"`)
			messageDrawnOnce(t, "preview", plain(drive(t, m, keys("p")...)))
			// And a save of the set's, on its row.
			c := newFakeCluster(t)
			m = setApp(t, c, 220, 30, "a", "b")
			m = setEdit(t, m, func(s string) string { return strings.ReplaceAll(s, `foo: "1"`, `foo: mine`) })
			runnerOf(c, "a").fail = tc.err
			m = drive(t, m, keys("s")...)
			if r := rowOf(t, m, "a"); r.Status.State != model.MemberRefused {
				t.Fatalf("a: %+v", r)
			}
			messageDrawnOnce(t, "set view", ansi.Strip(m.setView.View()))
		})
	}
}

// messageDrawnOnce checks that drawn holds TestServerMessageIsEscapedOnce's
// message escaped once.
func messageDrawnOnce(t *testing.T, where, drawn string) {
	t.Helper()
	if !strings.Contains(drawn, `bad \\ value \x1b[2J and \\x1b letters`) {
		t.Errorf("%s: the message is not drawn escaped once:\n%s", where, drawn)
	}
	if strings.Contains(drawn, `\\\\`) || strings.Contains(drawn, `\\x1b[2J`) {
		t.Errorf("%s: the message is escaped twice:\n%s", where, drawn)
	}
}

// nasty are the pieces random server text is made of: letters, a
// backslash and the letters of an escape, control characters and
// sequences, C1 and bidirectional controls, invalid UTF-8, characters
// that take no cell, joiners that join and that do not, combining marks
// with and without a letter before them, wide characters.
var nasty = []string{
	"a", "Z", "9", "-", "_", `\`, `\x1b`, `\u202e`,
	"\x1b", "\x1b[2J", "\x07", "\r", "\x00", "\x7f", "\x1b]0;t\x07",
	"\u009b", "\u0085", "\u202e", "\u2066", "\u200f",
	"\xff", "\xc3", "\xe2\x80",
	"\u200b", "\ufeff", "\u00ad",
	"\u200d", "\U0001F468\u200d\U0001F469", "a\u200d",
	"\u0301", "e\u0301", "日本", "😀",
}

// serverText is random server text of a few pieces, no wider escaped
// than width cells (a column or a header gives it that much room).
func serverText(r *rand.Rand, width int) string {
	for {
		var b strings.Builder
		for range 1 + r.IntN(4) {
			b.WriteString(nasty[r.IntN(len(nasty))])
		}
		if s := b.String(); len(escape.String(s)) <= width {
			return s
		}
	}
}

// TestServerTextIsDrawnEscapedOnce: random server text (control
// characters, bidi controls, backslashes, invalid UTF-8, joiners) is
// drawn exactly as escape.String draws it, escaped once, wherever it
// shows: the status bar (a refusal's message), the object view's header
// (name, namespace, context, resourceVersion) and banner (the manager
// that changed the object), the browser's rows (namespace, name, the
// manager of the last change), and the conflict view (theirs' manager and
// value).
func TestServerTextIsDrawnEscapedOnce(t *testing.T) {
	seed := testseed.Seed(t)
	r := rand.New(rand.NewPCG(seed, 22))
	for i := range 12 {
		t.Run(strconv.Itoa(i), func(t *testing.T) {
			s := serverText(r, 24)
			err := kube.Classify(serverTarget(), "update", apierrors.NewBadRequest(s))
			var refused *kube.RefusedError
			if !errors.As(err, &refused) {
				t.Fatalf("a 400 is classified as %T", err)
			}
			drawnOnce(t, statusSavedWith(t, err), "status bar", refused.Message())
			headerDrawnOnce(t, r)
			bannerDrawnOnce(t, serverText(r, 24))
			browserDrawnOnce(t, serverText(r, 20), serverText(r, 20), serverText(r, 20))
			conflictDrawnOnce(t, serverText(r, 24), serverText(r, 24))
		})
	}
}

// headerDrawnOnce opens an object whose name, namespace, context and
// resourceVersion are random server text.
func headerDrawnOnce(t *testing.T, r *rand.Rand) {
	t.Helper()
	name, ns, ctx, rv := serverText(r, 24), serverText(r, 24), serverText(r, 24), serverText(r, 24)
	oref := ref
	oref.Name, oref.Namespace, oref.Context = name, ns, ctx
	sess := model.NewSession(oref)
	obj := configMap(rv, map[string]any{"foo": "1"}, "kubectl-create", 0, "foo")
	obj.SetName(name)
	obj.SetNamespace(ns)
	if _, _, err := sess.Handle(model.Opened{Object: obj, At: t0}); err != nil {
		t.Fatal(err)
	}
	m := drive(t, New(Config{Object: &Object{Session: sess}}), tea.WindowSizeMsg{Width: 300, Height: 30})
	header := m.views.object.Header()
	all := []string{name, ns, ctx, rv}
	for i, what := range []string{"name", "namespace", "context", "resourceVersion"} {
		drawnOnce(t, header, "object view header, "+what, all[i], all...)
	}
}

// theirsWriteBy changes key on the server to value as manager would, and
// lets the watch report it.
func theirsWriteBy(t *testing.T, m App, r *fakeRunner, key, value, manager string) App {
	t.Helper()
	obj := r.server.DeepCopy()
	if err := unstructured.SetNestedField(obj.Object, value, "data", key); err != nil {
		t.Fatal(err)
	}
	obj.SetResourceVersion("815")
	if err := unstructured.SetNestedSlice(obj.Object, []any{map[string]any{
		"manager": manager, "operation": "Update", "apiVersion": "v1",
		"time": t0.Add(time.Minute).Format(time.RFC3339), "fieldsType": "FieldsV1",
		"fieldsV1": map[string]any{"f:data": map[string]any{"f:" + key: map[string]any{}}},
	}}, "metadata", "managedFields"); err != nil {
		t.Fatal(err)
	}
	r.server = obj
	return drive(t, m, shownWatchEvent(kube.WatchEvent{Type: kube.ObjectModified, Object: obj.DeepCopy(), ResourceVersion: "815"}))
}

// bannerDrawnOnce has manager change the object under a draft.
func bannerDrawnOnce(t *testing.T, manager string) {
	t.Helper()
	r := &fakeRunner{}
	m := edit(t, newApp(t, 220, 30, r), `foo: "1"`, `foo: "2"`)
	m = theirsWriteBy(t, m, r, "bar", "2", manager)
	drawnOnce(t, m.views.object.Header(), "object view banner", manager)
}

// browserDrawnOnce lists an object of namespace ns and name, last
// changed by manager, in all namespaces.
func browserDrawnOnce(t *testing.T, ns, name, manager string) {
	t.Helper()
	c := newFakeCluster(t)
	m := browserApp(t, c, c.collection("configmaps", "", true), 220, 20)
	row := kube.ObjectRow{Namespace: ns, Name: name, ChangedBy: manager, Created: browserNow.Add(-time.Hour), Changed: browserNow.Add(-time.Minute)}
	m = drive(t, m, browser.SnapshotMsg{List: m.browser.List(), Snapshot: browserSnapshot(kube.BrowseSnapshot{Rows: []kube.ObjectRow{row}, Generation: 7, Synced: true,
		Connection: kube.Connection{State: kube.Connected, Since: browserNow}})})
	rows := m.browser.View()
	all := []string{ns, name, manager}
	for i, what := range []string{"namespace", "name", "manager"} {
		drawnOnce(t, rows, "browser row, "+what, all[i], all...)
	}
}

// conflictDrawnOnce has manager set foo to value on the server under a
// draft that changes it too, and saves: the conflict view shows both.
func conflictDrawnOnce(t *testing.T, manager, value string) {
	t.Helper()
	r := &fakeRunner{}
	m := edit(t, newApp(t, 220, 40, r), `foo: "1"`, `foo: mine`)
	m = theirsWriteBy(t, m, r, "foo", value, manager)
	m = drive(t, m, keys("s")...)
	if m.screen != screenConflict {
		t.Fatalf("no conflict view after s:\n%s", plain(m))
	}
	view := m.views.conflict.View()
	drawnOnce(t, view, "conflict view, theirs' manager", manager, value)
	drawnOnce(t, view, "conflict view, theirs' value", value, manager)
}
