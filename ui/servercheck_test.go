package ui

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/rest"

	"github.com/kedit/kedit/internal/testwait"
	"github.com/kedit/kedit/kube"
	"github.com/kedit/kedit/kube/schemacheck"
	"github.com/kedit/kedit/ui/internal/editfile"
	"github.com/kedit/kedit/ui/internal/effect"
	"github.com/kedit/kedit/ui/internal/wire"
	"github.com/kedit/kedit/ui/textedit"
)

// dryRunLog is what fakeRunner's dry runs as the user types saw.
type dryRunLog struct {
	mu sync.Mutex
	// texts are the texts asked, in order; bases their bases'
	// resourceVersions.
	texts, bases []string
	// out counts the checks under way, most the most at once.
	out, most int
	// fail is the answer instead of the server's judgement; hold, when
	// set, holds every check until it is closed.
	fail error
	hold chan struct{}
}

// ServerCheck answers a dry run of draft as the server would, writing
// nothing: a base older than the server's object is a conflict; a data
// value of "-1" is refused, as the API server's validation code refuses
// what no schema says (a replicas below 0), each on its line of text.
func (f *fakeRunner) ServerCheck(_ context.Context, base, draft *unstructured.Unstructured, text string) ([]schemacheck.Diagnostic, error) {
	c := &f.checks
	c.mu.Lock()
	c.texts, c.bases = append(c.texts, text), append(c.bases, base.GetResourceVersion())
	c.out++
	c.most = max(c.most, c.out)
	hold, fail := c.hold, c.fail
	c.mu.Unlock()
	defer func() { c.mu.Lock(); c.out--; c.mu.Unlock() }()
	if hold != nil {
		<-hold
	}
	if fail != nil {
		return nil, fail
	}
	if base.GetResourceVersion() != f.object().GetResourceVersion() {
		return nil, &kube.ConflictError{Target: cmTarget}
	}
	data, _, _ := unstructured.NestedStringMap(draft.Object, "data")
	var found []schemacheck.Diagnostic
	for k, v := range data {
		if v == "-1" {
			found = append(found, schemacheck.Diagnostic{Line: schemacheck.FieldLine(text, "data."+k), Path: "data." + k,
				Message: k + `: Invalid value: "-1": must be greater than or equal to 0`, Server: true})
		}
	}
	return found, nil
}

// asked returns the texts the fake server was asked so far.
func (c *dryRunLog) asked() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.texts...)
}

// passAll is a schema check that passes every text.
func passAll(context.Context, string, *unstructured.Unstructured, *unstructured.Unstructured) ([]schemacheck.Diagnostic, error) {
	return nil, nil
}

// serverApp is testmap in an app whose object's drafts the schema passes
// and r's fake server checks.
func serverApp(t *testing.T, r *fakeRunner) App {
	t.Helper()
	m := newApp(t, 120, 30, r)
	m.opened = &Object{Check: passAll, ServerCheck: r.ServerCheck}
	return m
}

// typeBad types a line the server refuses under data: in the in-app
// editor, and waits for typing to pause and every answer to come.
func typeBad(t *testing.T, m App) App {
	t.Helper()
	return typeIn(t, m, keyMsg("down"), keyMsg("end"), tea.KeyMsg{Type: tea.KeyEnter}, runes(`  baz: "-1"`))
}

// TestServerRefusesAsYouType: a value only the server's code refuses,
// typed in the in-app editor, is said on its line as the server's once
// typing pauses, from a dry run on base's resourceVersion that writes
// nothing; back in the object view, s says why and sends nothing, s
// again sends it.
func TestServerRefusesAsYouType(t *testing.T) {
	r := &fakeRunner{}
	m := drive(t, serverApp(t, r), keys("i")...)
	m = typeBad(t, m)
	if v := plain(m); !strings.Contains(v, `the server refuses: baz: Invalid value: "-1": must be greater than or equal to 0`) {
		t.Fatalf("the server's word is not said at the cursor:\n%s", v)
	}
	asked := r.checks.asked()
	if len(asked) == 0 || !strings.Contains(asked[len(asked)-1], `baz: "-1"`) {
		t.Fatalf("the server was asked %q", asked)
	}
	for _, rv := range r.checks.bases {
		if rv != "812" {
			t.Fatalf("a dry run on rv %s, not base's 812", rv)
		}
	}
	if r.saves != 0 {
		t.Fatalf("%d saves while typing", r.saves)
	}
	m = drive(t, m, keyMsg("esc"), keyMsg("s"))
	if v := plain(m); !strings.Contains(v, "the server refuses 1 field: line 3: baz: Invalid value") || !strings.Contains(v, "s again sends it") {
		t.Fatalf("s does not say why it waits:\n%s", v)
	}
	if r.saves != 0 {
		t.Fatalf("the first s sent the draft (%d saves)", r.saves)
	}
	m = drive(t, m, keyMsg("s"))
	if r.saves != 1 {
		t.Fatalf("s again did not send the draft (%d saves)\n%s", r.saves, plain(m))
	}
}

// untilHeld runs d until the one command left running is the nth dry
// run, which the fake server holds.
func untilHeld(d *driver, r *fakeRunner, n int) {
	d.t.Helper()
	for d.running != 1 || !testwait.Until(100*time.Millisecond, func() bool { return len(r.checks.asked()) == n }) {
		d.step()
	}
}

// TestServerChecksOneAtATimeOffTheUI: while a dry run is out, typing goes
// on (Update returns: the check runs off the UI's goroutine) and nothing
// more is sent; once its answer is back, the text typed meanwhile is
// asked, and the answer of the older text is not drawn on it.
func TestServerChecksOneAtATimeOffTheUI(t *testing.T) {
	r := &fakeRunner{}
	r.checks.hold = make(chan struct{})
	d := newDriver(t, drive(t, serverApp(t, r), keys("i")...))
	for _, k := range []tea.Msg{keyMsg("down"), keyMsg("end"), tea.KeyMsg{Type: tea.KeyEnter}, runes(`  baz: "-1"`)} {
		d.send(k)
	}
	untilHeld(d, r, 1)
	for _, k := range []tea.Msg{keyMsg("backspace"), keyMsg("backspace"), keyMsg("backspace"), runes(`0"`)} {
		d.send(k)
	}
	m := d.settleExcept(1)
	if dr := m.sess.Draft(); dr == nil || !strings.Contains(dr.Text, `baz: "0"`) {
		t.Fatalf("typing is not kept while a dry run is out: %+v", dr)
	}
	if n := len(r.checks.asked()); n != 1 {
		t.Fatalf("%d dry runs sent while one was out", n)
	}
	close(r.checks.hold)
	m = d.settle()
	asked := r.checks.asked()
	if len(asked) != 2 || !strings.Contains(asked[1], `baz: "0"`) || r.checks.most != 1 {
		t.Fatalf("asked %q, at most %d at once; want the text typed meanwhile asked after", asked, r.checks.most)
	}
	if v := plain(m); strings.Contains(v, "the server refuses") {
		t.Fatalf("the answer of the older text is drawn:\n%s", v)
	}
}

// TestServerChecksOffWithoutTheRight: a user who may not update the
// object gets no dry run as they type, and one line says why, as the
// editor opens; it is not said again at every pause.
func TestServerChecksOffWithoutTheRight(t *testing.T) {
	r := &fakeRunner{}
	m := serverApp(t, r)
	var may int
	m.opened.MaySave = func(context.Context) error {
		may++
		return &kube.ForbiddenError{Target: cmTarget, Verb: "update", Err: errors.New("forbidden")}
	}
	m = drive(t, m, keys("i")...)
	want := "you may not update configmaps in rb: a draft can be made but not saved, and the server's checks of it are off (its dry run needs that right)"
	// The line wraps at words: spaces and line ends do not count.
	squeeze := func(s string) string { return strings.Join(strings.Fields(s), "") }
	if v := plain(m); !strings.Contains(squeeze(v), squeeze(want)) {
		t.Fatalf("no line says why:\n%s", v)
	}
	m.status.Info("")
	m = typeBad(t, m)
	if n := len(r.checks.asked()); n != 0 || may != 1 {
		t.Fatalf("%d dry runs and %d access checks for a user who may not update", n, may)
	}
	if v := plain(m); strings.Contains(squeeze(v), squeeze(want)) {
		t.Fatalf("the line is said again as the user types:\n%s", v)
	}
	// The editor opened again says it again, without asking again.
	m = drive(t, m, keyMsg("esc"), keyMsg("i"))
	if v := plain(m); !strings.Contains(squeeze(v), squeeze(want)) || may != 1 {
		t.Fatalf("the editor opened again does not say it (%d access checks):\n%s", may, v)
	}
}

// TestServerChecksWaitForTheRight: the access check's yes turns the
// checks on, and the text the schema passed meanwhile is asked.
func TestServerChecksWaitForTheRight(t *testing.T) {
	r := &fakeRunner{}
	m := serverApp(t, r)
	answer := make(chan struct{})
	m.opened.MaySave = func(context.Context) error { <-answer; return nil }
	d := newDriver(t, drive(t, m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("x")}))
	d.m.status.Info("")
	d.send(keyMsg("i"))
	for _, k := range []tea.Msg{keyMsg("down"), keyMsg("end"), tea.KeyMsg{Type: tea.KeyEnter}, runes(`  baz: "-1"`)} {
		d.send(k)
	}
	d.settleExcept(1)
	if n := len(r.checks.asked()); n != 0 {
		t.Fatalf("%d dry runs before the access check's answer", n)
	}
	close(answer)
	m = d.settle()
	if n := len(r.checks.asked()); n != 1 || !strings.Contains(plain(m), "the server refuses: baz") {
		t.Fatalf("%d dry runs after the yes:\n%s", n, plain(m))
	}
}

// TestServerChecksOffline: with the watch reconnecting, no dry run is
// sent and one line says the server was not asked; once it answers
// again, the text is asked. A dry run that finds no server turns the
// checks off the same way, said once.
func TestServerChecksOffline(t *testing.T) {
	r := &fakeRunner{}
	m := drive(t, serverApp(t, r), connEvent(kube.Reconnecting, errors.New("connection refused")))
	m = typeBad(t, drive(t, m, keys("i")...))
	want := "the server was not asked (no connection): the schema's word alone"
	if v := plain(m); !strings.Contains(v, want) || len(r.checks.asked()) != 0 {
		t.Fatalf("%d dry runs offline, or no line says so:\n%s", len(r.checks.asked()), v)
	}
	m = drive(t, m, connEvent(kube.Connected, nil))
	if v := plain(m); len(r.checks.asked()) != 1 || !strings.Contains(v, "the server refuses: baz") || strings.Contains(v, want) {
		t.Fatalf("the text is not asked once the server answers (%d dry runs), or the line stays:\n%s", len(r.checks.asked()), v)
	}

	r = &fakeRunner{}
	r.checks.fail = &kube.UnavailableError{NotSent: true, Err: errors.New("connection refused")}
	m = typeBad(t, drive(t, serverApp(t, r), keys("i")...))
	if v := plain(m); !strings.Contains(v, want) || len(r.checks.asked()) != 1 {
		t.Fatalf("after %d dry runs, no line says the server was not asked:\n%s", len(r.checks.asked()), v)
	}
	m = typeIn(t, m, tea.KeyMsg{Type: tea.KeyEnter}, runes(`qux: "2"`))
	if n := len(r.checks.asked()); n != 1 || strings.Count(plain(m), want) != 1 {
		t.Fatalf("%d dry runs sent after one found no server, or the line is not said once:\n%s", n, plain(m))
	}
}

// TestServerConflictIsNoDiagnostic: a dry run's 409 (the object changed
// since base) is no diagnostic and says nothing (the banner says it);
// the checks stay on.
func TestServerConflictIsNoDiagnostic(t *testing.T) {
	r := &fakeRunner{}
	m := drive(t, serverApp(t, r), keys("i")...)
	r.mu.Lock()
	r.server.SetResourceVersion("813")
	r.mu.Unlock()
	m = typeBad(t, m)
	if v := plain(m); strings.Contains(v, "the server refuses") || strings.Contains(v, "not asked") || strings.Contains(v, "could not check") {
		t.Fatalf("the 409 is said in the editor:\n%s", v)
	}
	m = typeIn(t, m, tea.KeyMsg{Type: tea.KeyEnter}, runes(`qux: "2"`))
	if n := len(r.checks.asked()); n != 2 {
		t.Fatalf("%d dry runs: the checks did not stay on after a 409: %q\n%s", n, r.checks.asked(), plain(m))
	}
}

// TestServerChecksTheDraftFromEditor: a draft back from $EDITOR that the
// schema passes is dry-run before the first s: the server's reason is
// said with its line in the file, s asks first, and the file opened
// again lists it at its head, with its line there.
func TestServerChecksTheDraftFromEditor(t *testing.T) {
	r := &fakeRunner{}
	m := serverApp(t, r)
	text, err := m.Session().DraftText()
	if err != nil {
		t.Fatal(err)
	}
	bad := strings.Replace(text, "data:\n", "data:\n  baz: \"-1\"\n", 1)
	m = drive(t, m, effect.EditorFinished{Original: text, Text: bad, HeadLines: 1})
	if v := plain(m); !strings.Contains(v, "the server refuses 1 field: line "+strconv.Itoa(lineOf(bad, "baz:")+1)+": baz: Invalid value") {
		t.Fatalf("the dry run's refusal is not said with its line in the file:\n%s", v)
	}
	m = drive(t, m, keys("s")...)
	if v := plain(m); r.saves != 0 || !strings.Contains(v, "s again sends it") {
		t.Fatalf("s sent the draft (%d saves) or did not say why:\n%s", r.saves, v)
	}
	head := m.refusedHead(bad, 0)
	file := editfile.WithHead(head, bad)
	want := "# line " + strconv.Itoa(lineOf(file, `  baz: "-1"`)) + `: baz: Invalid value: "-1"`
	if len(head) != 2 || !strings.HasPrefix(head[1], want) {
		t.Fatalf("head %q, want %q", head, want)
	}
}

// TestDryRunOnTheWire: the request pane marks a dry run, which writes
// nothing, and the tour's line of the demo object's writes leaves it out.
func TestDryRunOnTheWire(t *testing.T) {
	log := kube.NewRequestLog(nil)
	rt := kube.LogRequests(&rest.Config{}, log).WrapTransport(fakeAPI{})
	path := cmTarget.APIPath()
	send(t, rt, http.MethodPut, path+"?dryRun=All&fieldManager=kedit", `{"metadata":{"name":"testmap","resourceVersion":"202"}}`)
	send(t, rt, http.MethodPut, path+"?fieldManager=kedit", `{"metadata":{"name":"testmap","resourceVersion":"202"}}`)
	rows := wire.Rows(log)
	if len(rows) != 2 || !strings.HasSuffix(string(rows[0].Path), " (dry run)") || strings.Contains(string(rows[1].Path), "dry run") {
		t.Fatalf("rows %+v: want the first marked a dry run, the second not", rows)
	}
	if writes := wire.TourRequests(log, cmTarget); len(writes) != 1 || writes[0].Seq != rows[1].Seq {
		t.Fatalf("the tour's writes %+v: want the save alone", writes)
	}
}

// TestServerWordOnASecretNamesTheFieldOnly: the server's refusal of a
// Secret's draft may quote a value; the editor names the field only.
func TestServerWordOnASecretNamesTheFieldOnly(t *testing.T) {
	r := &fakeRunner{}
	m := newSecretApp(t, 120, 30, r)
	m.opened = &Object{Check: passAll, ServerCheck: func(_ context.Context, _, _ *unstructured.Unstructured, text string) ([]schemacheck.Diagnostic, error) {
		r.checks.mu.Lock()
		r.checks.texts = append(r.checks.texts, text)
		r.checks.mu.Unlock()
		return []schemacheck.Diagnostic{{Line: schemacheck.FieldLine(text, "data.password"), Path: "data.password",
			Message: `password: Invalid value: "` + testPassword + `": too weak`, Server: true}}, nil
	}}
	m = drive(t, m, keys("i")...)
	m = typeIn(t, m, keyMsg("down"), keyMsg("end"), tea.KeyMsg{Type: tea.KeyEnter}, runes(`x: "1"`))
	if len(r.checks.asked()) == 0 {
		t.Fatal("the Secret's draft was not asked")
	}
	m.editor.SetCursor(textedit.Pos{Line: schemacheck.FieldLine(m.editor.Text(), "data.password") - 1})
	v := plain(m)
	if !strings.Contains(v, "the server refuses: data.password") || strings.Contains(v, "too weak") {
		t.Fatalf("the note does not name the field alone:\n%s", v)
	}
}

// TestServerChecksTheDraftBackBeforeTheRight: a draft back from $EDITOR
// before the access check answered is not asked (whether the user may
// was not known); the access check's yes asks it, before the first s.
func TestServerChecksTheDraftBackBeforeTheRight(t *testing.T) {
	r := &fakeRunner{}
	m := serverApp(t, r)
	m.opened.MaySave = func(context.Context) error { return nil }
	text, err := m.Session().DraftText()
	if err != nil {
		t.Fatal(err)
	}
	bad := strings.Replace(text, "data:\n", "data:\n  baz: \"-1\"\n", 1)
	m = drive(t, m, effect.EditorFinished{Original: text, Text: bad, HeadLines: 1})
	if n := len(r.checks.asked()); n != 0 {
		t.Fatalf("%d dry runs before the access check answered", n)
	}
	m = drive(t, m, effect.AccessChecked{Of: m.id})
	if n := len(r.checks.asked()); n != 1 {
		t.Fatalf("%d dry runs once the access check said yes, want 1", n)
	}
	if v := plain(m); !strings.Contains(v, "the server refuses 1 field: line "+strconv.Itoa(lineOf(bad, "baz:")+1)+": baz: Invalid value") {
		t.Fatalf("the dry run's refusal is not said:\n%s", v)
	}
	m = drive(t, m, keys("s")...)
	if v := plain(m); r.saves != 0 || !strings.Contains(v, "s again sends it") {
		t.Fatalf("s sent the draft (%d saves) or did not say why:\n%s", r.saves, v)
	}
}
