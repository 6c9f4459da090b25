package ui

import (
	"context"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/muesli/termenv"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kedit/kedit/internal/drafts"
	"github.com/kedit/kedit/internal/fixture"
	"github.com/kedit/kedit/kube"
	"github.com/kedit/kedit/model"
	"github.com/kedit/kedit/ui/browser"
	"github.com/kedit/kedit/ui/internal/effect"
	"github.com/kedit/kedit/ui/internal/uitest"
)

// The object the tests start from (uitest).
var (
	ref       = uitest.Ref
	t0        = uitest.T0
	configMap = uitest.ConfigMap
)

func init() {
	// Golden files hold plain text: no colour, whatever the terminal.
	lipgloss.SetColorProfile(termenv.Ascii)
}

// fakeRunner answers a session's effects as the API server would, with
// theirs as the object on the server: a save based on an older
// resourceVersion is a conflict. Its effects may run at once, as the
// program runs them: it is safe for concurrent use.
type fakeRunner struct {
	mu     sync.Mutex
	server *unstructured.Unstructured
	fail   error
	// failOnce fail the next saves, one each.
	failOnce []error
	// stored changes what the server stores, as defaults or other
	// managers would.
	stored func(*unstructured.Unstructured)
	saves  int
	last   model.Save
	// written are the texts of the draft writes, in the order performed.
	written []string
	// dryRuns counts the dry runs, which store nothing.
	dryRuns int
	// drafts, when set, stores the draft there, each write delayed by
	// slow (a slow disk).
	drafts *drafts.Object
	slow   time.Duration
	// saving, when set, holds every save until it is closed.
	saving chan struct{}
	// checks are the dry runs as the user types (servercheck_test.go).
	checks dryRunLog
}

func (f *fakeRunner) Perform(_ context.Context, eff model.Effect) (model.Event, error) {
	switch e := eff.(type) {
	case model.Save:
		if f.saving != nil {
			<-f.saving
		}
		f.mu.Lock()
		defer f.mu.Unlock()
		if e.DryRun {
			return f.dryRun(e), nil
		}
		f.saves++
		f.last = e
		if f.fail != nil {
			return model.SaveFailed{Err: f.fail}, nil
		}
		if len(f.failOnce) > 0 {
			err := f.failOnce[0]
			f.failOnce = f.failOnce[1:]
			return model.SaveFailed{Err: err}, nil
		}
		if e.ResourceVersion != f.server.GetResourceVersion() {
			return model.SaveFailed{Err: &apiError{Kind: model.ErrorConflict, Message: "the object has been modified"}}, nil
		}
		obj := e.Object.DeepCopy()
		rv, _ := strconv.Atoi(f.server.GetResourceVersion())
		obj.SetResourceVersion(strconv.Itoa(rv + 1))
		if f.stored != nil {
			f.stored(obj)
		}
		f.server = obj
		return model.Saved{Object: obj, At: t0}, nil
	case model.FetchTheirs:
		f.mu.Lock()
		defer f.mu.Unlock()
		return model.Conflicted{Theirs: f.server.DeepCopy(), At: t0}, nil
	case model.WriteDraft:
		f.mu.Lock()
		f.written = append(f.written, e.Text)
		f.mu.Unlock()
		if f.drafts == nil {
			return nil, nil
		}
		time.Sleep(f.slow) // the disk under test is slow, not the test
		return nil, kube.WriteDraft(f.drafts, e)
	case model.DeleteDraft:
		if f.drafts == nil {
			return nil, nil
		}
		time.Sleep(f.slow)
		return nil, f.drafts.Delete(e.Seq)
	}
	return nil, nil
}

// writes returns the texts of the draft writes so far.
func (f *fakeRunner) writes() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.written...)
}

// dryRun answers a dry run as the server would, storing nothing: the
// object with what stored adds (defaults), or the same refusal a save
// would get. The caller holds mu.
func (f *fakeRunner) dryRun(e model.Save) model.Previewed {
	f.dryRuns++
	if f.fail != nil {
		return model.Previewed{Err: f.fail}
	}
	if e.ResourceVersion != f.server.GetResourceVersion() {
		return model.Previewed{Err: &apiError{Kind: model.ErrorConflict, Message: "the object has been modified"}}
	}
	obj := e.Object.DeepCopy()
	if f.stored != nil {
		f.stored(obj)
	}
	return model.Previewed{Object: obj}
}

// server returns the object on the fake server.
func (f *fakeRunner) object() *unstructured.Unstructured {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.server.DeepCopy()
}

// driver runs the app as tea.Program runs it: messages go through Update
// one at a time; each command Update returns runs in a goroutine of its
// own, a Batch's commands each in their own at once, a Sequence's one
// after another (a Batch inside it waited for as a whole); every message a
// command returns goes back through Update. Spinner ticks (unless ticks is
// set), the browser's age ticks and the editor's cursor blinks are
// dropped: they go on for ever.
type driver struct {
	t testing.TB
	m App
	// msgs carries the commands' messages to the loop; done says that a
	// command run from the loop has finished, nested commands and all.
	msgs    chan tea.Msg
	done    chan struct{}
	running int
	ticks   bool
	quit    bool
}

func newDriver(t testing.TB, m App) *driver {
	return &driver{t: t, m: m, msgs: make(chan tea.Msg), done: make(chan struct{})}
}

// drive sends each of msgs to the app and lets it settle before the next,
// as a user who waits for the screen would.
func drive(t testing.TB, m App, msgs ...tea.Msg) App {
	t.Helper()
	d := newDriver(t, m)
	for _, msg := range msgs {
		d.send(msg)
		d.settle()
	}
	return d.m
}

// shownWatchEvent is an event of the watch of the object shown when it is
// sent: the driver hands it to Update as that watch's command reads it
// (shownWatched).
type shownWatchEvent kube.WatchEvent

// shownWatched is ev as the watch of the object m shows brings it.
func shownWatched(m App, ev kube.WatchEvent) effect.Watched {
	return effect.Watched{Of: m.id, Ch: m.events, Event: ev}
}

// send hands msg to Update and starts the command it returns.
func (d *driver) send(msg tea.Msg) {
	d.t.Helper()
	if ev, ok := msg.(shownWatchEvent); ok {
		msg = shownWatched(d.m, kube.WatchEvent(ev))
	}
	switch msg.(type) {
	case nil:
		return
	case tea.QuitMsg:
		d.quit = true
		return
	case spinner.TickMsg:
		if !d.ticks {
			return
		}
	case browser.TickMsg:
		return // the browser's ages are redrawn every second, for ever
	}
	if t := reflect.TypeOf(msg); strings.HasSuffix(t.PkgPath(), "bubbles/cursor") {
		return // the editor's cursor blinks for ever
	} else if strings.HasSuffix(t.PkgPath(), "charmbracelet/bubbletea") && t.Name() == "execMsg" {
		d.t.Fatal("the driver cannot run an external program: send effect.EditorFinished instead")
	}
	if d.quit {
		return // the program has ended
	}
	next, cmd := d.m.Update(msg)
	d.m = next.(App)
	if cmd != nil {
		d.running++
		go func() {
			d.exec(cmd)
			d.done <- struct{}{}
		}()
	}
}

// exec runs cmd and what it batches or sequences, as the program does, and
// returns once all of it has finished.
func (d *driver) exec(cmd tea.Cmd) {
	msg := cmd()
	if batch, ok := msg.(tea.BatchMsg); ok {
		var wg sync.WaitGroup
		for _, c := range batch {
			if c != nil {
				wg.Go(func() { d.exec(c) })
			}
		}
		wg.Wait()
		return
	}
	if v := reflect.ValueOf(msg); v.Kind() == reflect.Slice && v.Type().Elem() == reflect.TypeFor[tea.Cmd]() {
		for i := range v.Len() { // a Sequence, in order
			if c := v.Index(i).Interface().(tea.Cmd); c != nil {
				d.exec(c)
			}
		}
		return
	}
	if msg != nil {
		d.msgs <- msg
	}
}

// step waits for the next message or finished command and handles it; it
// fails the test after a while without either.
func (d *driver) step() {
	d.t.Helper()
	select {
	case msg := <-d.msgs:
		d.send(msg)
	case <-d.done:
		d.running--
	case <-time.After(10 * time.Second):
		d.t.Fatalf("the app does not settle: %d commands still running", d.running)
	}
}

// settle runs until every command has finished and its message was
// handled.
func (d *driver) settle() App {
	d.t.Helper()
	for d.running > 0 {
		d.step()
	}
	return d.m
}

// until runs until ok holds of the app.
func (d *driver) until(ok func(App) bool) App {
	d.t.Helper()
	for !ok(d.m) {
		d.step()
	}
	return d.m
}

func keyMsg(k string) tea.KeyMsg {
	switch k {
	case "esc":
		return tea.KeyMsg{Type: tea.KeyEsc}
	case "ctrl+s":
		return tea.KeyMsg{Type: tea.KeyCtrlS}
	case "end":
		return tea.KeyMsg{Type: tea.KeyEnd}
	case "home":
		return tea.KeyMsg{Type: tea.KeyHome}
	case "down":
		return tea.KeyMsg{Type: tea.KeyDown}
	}
	if kt, ok := keyNames[k]; ok {
		return tea.KeyMsg{Type: kt}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)}
}

// keyNames are Bubble Tea's names of its keys (enter, tab, pgdown,
// ctrl+c ...), so that keyMsg("enter") is the enter key, not five runes.
var keyNames = func() map[string]tea.KeyType {
	names := map[string]tea.KeyType{}
	for kt := tea.KeyType(-200); kt <= 200; kt++ {
		if n := kt.String(); n != "" && n != "runes" && len([]rune(n)) > 1 {
			if _, dup := names[n]; !dup {
				names[n] = kt
			}
		}
	}
	return names
}()

// replaceText replaces the in-app editor's whole text with text, as a
// user would: ctrl+k on every line, then a paste.
func replaceText(t *testing.T, m App, text string) App {
	t.Helper()
	msgs := []tea.Msg{tea.KeyMsg{Type: tea.KeyCtrlHome}}
	for range m.editor.Lines() {
		msgs = append(msgs, tea.KeyMsg{Type: tea.KeyCtrlK})
	}
	msgs = append(msgs, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(text), Paste: true})
	return typeIn(t, m, msgs...)
}

// typeIn sends msgs as fast typing does, without waiting for the screen
// between them, then lets the app settle.
func typeIn(t *testing.T, m App, msgs ...tea.Msg) App {
	t.Helper()
	d := newDriver(t, m)
	for _, msg := range msgs {
		d.send(msg)
	}
	return d.settle()
}

func keys(ks ...string) []tea.Msg {
	var out []tea.Msg
	for _, k := range ks {
		out = append(out, keyMsg(k))
	}
	return out
}

// newApp opens testmap at rv 812 in an app of the given size.
func newApp(t testing.TB, w, h int, runner *fakeRunner, extra ...func(*Config)) App {
	t.Helper()
	return newAppWith(t, w, h, runner, map[string]any{"foo": "1", "bar": "1"}, extra...)
}

// newAppWith opens testmap at rv 812 holding data.
func newAppWith(t testing.TB, w, h int, runner *fakeRunner, data map[string]any, extra ...func(*Config)) App {
	t.Helper()
	sess := model.NewSession(ref)
	var keys []string
	for k := range data {
		keys = append(keys, k)
	}
	base := configMap("812", data, "kubectl-create", 0, keys...)
	if _, _, err := sess.Handle(model.Opened{Object: base, At: t0}); err != nil {
		t.Fatal(err)
	}
	if runner != nil && runner.server == nil {
		runner.server = base.DeepCopy()
	}
	cfg := Config{Object: &Object{Session: sess}}
	if runner != nil {
		cfg.Object.Runner = runner
	}
	for _, f := range extra {
		f(&cfg)
	}
	return drive(t, New(cfg), tea.WindowSizeMsg{Width: w, Height: h})
}

// edit replaces old with new in the draft as $EDITOR would.
func edit(t testing.TB, m App, old, new string) App {
	t.Helper()
	text, err := m.Session().DraftText()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text, old) {
		t.Fatalf("no %q in the draft:\n%s", old, text)
	}
	return drive(t, m, effect.EditorFinished{Original: text, Text: strings.Replace(text, old, new, 1)})
}

// theirsWrite changes testmap on the server as kubectl patch would, and
// lets the watch report it.
func theirsWrite(t testing.TB, m App, r *fakeRunner, key, value string) App {
	t.Helper()
	obj := r.server.DeepCopy()
	unstructured.SetNestedField(obj.Object, value, "data", key)
	rv, _ := strconv.Atoi(obj.GetResourceVersion())
	obj.SetResourceVersion(strconv.Itoa(rv + 3))
	obj.SetManagedFields(nil)
	unstructured.SetNestedSlice(obj.Object, []any{map[string]any{
		"manager": "kubectl-patch", "operation": "Update", "apiVersion": "v1",
		"time": t0.Add(time.Minute).Format(time.RFC3339), "fieldsType": "FieldsV1",
		"fieldsV1": map[string]any{"f:data": map[string]any{"f:" + key: map[string]any{}}},
	}}, "metadata", "managedFields")
	r.server = obj
	return drive(t, m, shownWatchEvent(kube.WatchEvent{Type: kube.ObjectModified, Object: obj.DeepCopy(), ResourceVersion: obj.GetResourceVersion()}))
}

func plain(m App) string { return ansi.Strip(m.View()) }

var sizes = []struct {
	name string
	w, h int
}{{"120x40", 120, 40}, {"80x24", 80, 24}}

// TestGolden draws each screen at both sizes from constructed objects.
func TestGolden(t *testing.T) {
	cases := []struct {
		name  string
		build func(t *testing.T, w, h int) App
	}{
		{"object", func(t *testing.T, w, h int) App { return newApp(t, w, h, &fakeRunner{}) }},
		{"object_draft", func(t *testing.T, w, h int) App {
			return edit(t, newApp(t, w, h, &fakeRunner{}), `foo: "1"`, `foo: mine`)
		}},
		{"object_draft_diff", func(t *testing.T, w, h int) App {
			m := edit(t, newApp(t, w, h, &fakeRunner{}), `foo: "1"`, `foo: mine`)
			return drive(t, m, keys("d")...)
		}},
		{"banner", func(t *testing.T, w, h int) App {
			r := &fakeRunner{}
			m := edit(t, newApp(t, w, h, r), `foo: "1"`, `foo: mine`)
			return theirsWrite(t, m, r, "bar", "theirs")
		}},
		{"conflict", func(t *testing.T, w, h int) App {
			r := &fakeRunner{}
			m := edit(t, newApp(t, w, h, r), `foo: "1"`, `foo: mine`)
			m = theirsWrite(t, m, r, "foo", "theirs")
			return drive(t, m, keys("s")...)
		}},
		{"conflict_flipped", func(t *testing.T, w, h int) App {
			r := &fakeRunner{}
			m := edit(t, newApp(t, w, h, r), `foo: "1"`, `foo: mine`)
			m = theirsWrite(t, m, r, "foo", "theirs")
			// v after the save's outcome, as a user would press it.
			return drive(t, drive(t, m, keys("s")...), keys("v")...)
		}},
		{"clean_rebase", func(t *testing.T, w, h int) App {
			r := &fakeRunner{}
			m := edit(t, newApp(t, w, h, r), `foo: "1"`, `foo: mine`)
			m = theirsWrite(t, m, r, "bar", "theirs")
			return drive(t, m, keys("s")...)
		}},
		{"conflict_hunks", func(t *testing.T, w, h int) App {
			// The rebase scenario's config file: mine changes lines 5 and 10, theirs
			// 10 and 30; only line 10 collides.
			r := &fakeRunner{}
			m := newAppWith(t, w, h, r, map[string]any{"app.conf": fixture.AppConfBase})
			m = edit(t, m, "option5 = 5\n", "option5 = mine\n")
			m = edit(t, m, "option10 = 10\n", "option10 = mine\n")
			m = theirsWrite(t, m, r, "app.conf", fixture.AppConfTheirs)
			return drive(t, m, keys("s")...)
		}},
		{"conflict_hunks_merged_selected", func(t *testing.T, w, h int) App {
			r := &fakeRunner{}
			m := newAppWith(t, w, h, r, map[string]any{"app.conf": fixture.AppConfBase})
			m = edit(t, m, "option5 = 5\n", "option5 = mine\n")
			m = edit(t, m, "option10 = 10\n", "option10 = mine\n")
			m = theirsWrite(t, m, r, "app.conf", fixture.AppConfTheirs)
			// The conflict to mine, then down to theirs' line 30.
			m = drive(t, m, keys("s")...)
			return drive(t, m, keys("m", "n", "n")...)
		}},
		{"conflict_merged_scrolled", func(t *testing.T, w, h int) App {
			// Many changes merged: the list scrolls with the selection.
			r := &fakeRunner{}
			data := map[string]any{"foo": "1"}
			for i := range 16 {
				data[fmt.Sprintf("key%02d", i)] = "1"
			}
			m := newAppWith(t, w, h, r, data)
			m = edit(t, m, `foo: "1"`, `foo: mine`)
			m = edit(t, m, `key03: "1"`, `key03: mine`)
			m = theirsWrite(t, m, r, "foo", "theirs")
			for i := range 16 {
				if i != 3 {
					m = theirsWrite(t, m, r, fmt.Sprintf("key%02d", i), fmt.Sprintf("theirs %d", i))
				}
			}
			m = drive(t, m, keys("s")...)
			return drive(t, m, keys(strings.Split(strings.Repeat("j", 9), "")...)...)
		}},
		{"apply_conflict", func(t *testing.T, w, h int) App {
			r := &fakeRunner{fail: &apiError{Kind: model.ErrorFieldManagerConflict, Message: "Apply failed with 1 conflict",
				Owners: []model.OwnedField{{Field: ".data.foo", Manager: "kubectl-patch"}}}}
			m := edit(t, newApp(t, w, h, r), `foo: "1"`, `foo: mine`)
			m = edit(t, m, `bar: "1"`, `bar: mine`)
			return drive(t, m, keys("s")...)
		}},
		{"apply_conflict_resolved", func(t *testing.T, w, h int) App {
			r := &fakeRunner{fail: &apiError{Kind: model.ErrorFieldManagerConflict, Message: "Apply failed with 1 conflict",
				Owners: []model.OwnedField{{Field: ".data.foo", Manager: "kubectl-patch"}}}}
			m := edit(t, newApp(t, w, h, r), `foo: "1"`, `foo: mine`)
			m = edit(t, m, `bar: "1"`, `bar: mine`)
			return drive(t, drive(t, m, keys("s")...), keys("m")...)
		}},
		{"apply_cannot_remove", func(t *testing.T, w, h int) App {
			r := &fakeRunner{fail: &apiError{Kind: model.ErrorApplyCannotRemove, Message: "not sent",
				Causes: []model.FieldCause{{Field: ".data.bar", Message: "owned by kubectl-patch"}}}}
			m := edit(t, newApp(t, w, h, r), "  bar: \"1\"\n", "")
			return drive(t, m, keys("s")...)
		}},
		{"editor", func(t *testing.T, w, h int) App {
			m := edit(t, newApp(t, w, h, &fakeRunner{}), `foo: "1"`, `foo: mine`)
			return drive(t, m, keys("i")...)
		}},
		{"editor_long_line", func(t *testing.T, w, h int) App {
			// A long line scrolled to its end: the gutter stays, the
			// line's start is off screen to the left.
			var long strings.Builder
			for i := range 30 {
				fmt.Fprintf(&long, "segment%02d-", i)
			}
			m := newAppWith(t, w, h, &fakeRunner{}, map[string]any{"long": long.String(), "short": "x"})
			m = drive(t, m, keys("i")...)
			return typeIn(t, m, tea.KeyMsg{Type: tea.KeyCtrlF}, runes("long"), tea.KeyMsg{Type: tea.KeyEnd})
		}},
		{"editor_gutter", func(t *testing.T, w, h int) App {
			// Against base: bar deleted, foo changed, two lines of
			// labels added.
			m := edit(t, newApp(t, w, h, &fakeRunner{}), "  bar: \"1\"\n  foo: \"1\"\n", "  foo: mine\n")
			m = edit(t, m, "  name: testmap\n", "  labels:\n    team: a\n  name: testmap\n")
			return drive(t, m, keys("i")...)
		}},
		{"editor_422", func(t *testing.T, w, h int) App {
			r := &fakeRunner{fail: invalidCause}
			m := edit(t, newApp(t, w, h, r), "  name: testmap\n", "  labels:\n    \"bad key!\": x\n  name: testmap\n")
			m = drive(t, m, keys("s")...)
			return drive(t, m, keys("i")...)
		}},
		{"invalid", func(t *testing.T, w, h int) App {
			r := &fakeRunner{fail: &apiError{Kind: model.ErrorInvalid, Message: "ConfigMap is invalid",
				Causes: []model.FieldCause{{Field: "metadata.labels", Message: `Invalid value: "bad key!": name part must consist of alphanumeric characters`}}}}
			m := edit(t, newApp(t, w, h, r), "  name: testmap\n", "  labels:\n    \"bad key!\": x\n  name: testmap\n")
			return drive(t, m, keys("s")...)
		}},
	}
	for _, c := range cases {
		for _, s := range sizes {
			t.Run(c.name+"_"+s.name, func(t *testing.T) {
				m := c.build(t, s.w, s.h)
				out := plain(m)
				if n := strings.Count(out, "\n") + 1; n != s.h {
					t.Errorf("the screen has %d lines, want %d", n, s.h)
				}
				for i, l := range strings.Split(out, "\n") {
					if w := ansi.StringWidth(l); w > s.w {
						t.Errorf("line %d is %d wide, more than %d: %q", i+1, w, s.w, l)
					}
				}
				golden.RequireEqual(t, out)
			})
		}
	}
}
