package ui

import (
	"fmt"
	"math/rand/v2"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kedit/kedit/internal/demo"
	"github.com/kedit/kedit/internal/testseed"
	"github.com/kedit/kedit/kube"
	"github.com/kedit/kedit/model"
	"github.com/kedit/kedit/ui/internal/effect"
)

// A status line describes the state it was made for and goes when that
// state changes (statusbar.Model.Settle). The three cases below were seen in
// use; the walk after them checks the rule on every message of random
// use.

// twoConflicts: mine and theirs both changed foo and bar.
func twoConflicts(t *testing.T) (App, *fakeRunner) {
	t.Helper()
	r := &fakeRunner{}
	m := edit(t, newApp(t, 120, 40, r), `bar: "1"`+"\n  foo: \"1\"", "bar: mine\n  foo: mine")
	obj := r.server.DeepCopy()
	_ = unstructured.SetNestedField(obj.Object, "theirs", "data", "foo")
	_ = unstructured.SetNestedField(obj.Object, "theirs", "data", "bar")
	obj.SetResourceVersion("815")
	r.server = obj
	m = drive(t, m, shownWatchEvent(kube.WatchEvent{Type: kube.ObjectModified, Object: obj.DeepCopy(), ResourceVersion: "815"}))
	m = drive(t, m, keys("s")...)
	if n := len(m.Session().Conflicts()); m.screen != screenConflict || n != 2 {
		t.Fatalf("screen %v with %d conflicts, want the conflict view with 2", m.screen, n)
	}
	return m, r
}

func TestStatusOfOpenConflictsGoesOnceResolved(t *testing.T) {
	m, _ := twoConflicts(t)
	m = drive(t, m, keys("m", "s")...)
	if got := m.status.Text(); !strings.Contains(got, "resubmit refused: 1 of 2 conflicts is still open") {
		t.Fatalf("resubmit with one of two open says %q", got)
	}
	m = drive(t, m, keys("n", "t")...)
	if m.Session().OpenConflicts() != 0 {
		t.Fatalf("%d conflicts still open", m.Session().OpenConflicts())
	}
	if got := m.status.Text(); strings.Contains(got, "still open") {
		t.Errorf("with every conflict resolved, the status still says %q", got)
	}
}

func TestStatusOfAnInvalidDraftGoesOnceFixed(t *testing.T) {
	m := newApp(t, 100, 30, &fakeRunner{})
	valid, err := m.Session().DraftText()
	if err != nil {
		t.Fatal(err)
	}
	m = drive(t, m, keys("i")...)
	m = replaceText(t, m, strings.Replace(valid, "foo: \"1\"", "foo: [", 1))
	m = drive(t, m, keys("esc")...)
	if got := m.status.Text(); !strings.Contains(got, "the draft is kept but cannot be saved") {
		t.Fatalf("an invalid draft left in the editor says %q", got)
	}
	m = drive(t, m, keys("i")...)
	m = replaceText(t, m, strings.Replace(valid, "foo: \"1\"", "foo: fixed", 1))
	m = drive(t, m, keys("esc")...)
	// The server goes away and comes back meanwhile.
	m = drive(t, m, shownWatchEvent(kube.WatchEvent{Type: kube.ConnectionChanged, Connection: kube.Connection{State: kube.Reconnecting, Since: t0}}),
		shownWatchEvent(kube.WatchEvent{Type: kube.ConnectionChanged, Connection: kube.Connection{State: kube.Connected}}))
	if d := m.Session().Draft(); d == nil || d.Err != nil {
		t.Fatalf("the fixed draft is %+v", d)
	}
	if got := m.status.Text(); strings.Contains(got, "cannot be saved") {
		t.Errorf("with the draft fixed, the status still says %q", got)
	}
}

func TestStatusNoChangeGoesAfterAHandResolvedMerge(t *testing.T) {
	m, _ := conflicted(t, 120)
	merged, err := m.Session().MergedText()
	if err != nil {
		t.Fatal(err)
	}
	m = drive(t, m, effect.EditorFinished{Merged: true, Original: merged, Text: merged})
	if got := m.status.Text(); got != "no change" {
		t.Fatalf("$EDITOR left without a change says %q", got)
	}
	resolved := strings.Replace(mustRender(t, m.Session().Rebase().Theirs.Object), "foo: theirs", "foo: both", 1)
	m = drive(t, m, effect.EditorFinished{Merged: true, Original: merged, Text: resolved})
	if m.Session().Rebase() != nil {
		t.Fatal("the merge resolved by hand was not taken")
	}
	if got := m.status.Text(); got == "no change" {
		t.Errorf("after the merge resolved by hand, the status still says %q", got)
	}
}

// claims are what a status line says of the state, each checked against
// the session whenever the line shows it.
var claims = []struct {
	re    *regexp.Regexp
	holds func(m App, match []string) bool
}{
	{regexp.MustCompile(`resubmit refused: (\d+) of (\d+) conflicts? (?:is|are) still open`), func(m App, g []string) bool {
		open, _ := strconv.Atoi(g[1])
		total, _ := strconv.Atoi(g[2])
		s := m.Session()
		return s.OpenConflicts() == open && len(s.Conflicts()) == total
	}},
	{regexp.MustCompile(`cannot be saved`), func(m App, _ []string) bool {
		d := m.Session().Draft()
		return d != nil && d.Err != nil
	}},
	{regexp.MustCompile(`^saved rv `), func(m App, _ []string) bool {
		// Base follows live once the draft is saved: the version saved
		// is history, the state is not.
		return m.Session().State() == model.StateSaved
	}},
	{regexp.MustCompile(`already based on the latest version`), func(m App, _ []string) bool {
		_, behind := m.Session().ServerChange()
		return !behind
	}},
	{regexp.MustCompile(`^(there is no draft|nothing to rebase: no draft|draft discarded)`), func(m App, _ []string) bool {
		return m.Session().Draft() == nil
	}},
	{regexp.MustCompile(`nothing to resolve: the rebase is clean`), func(m App, _ []string) bool {
		return len(m.Session().Conflicts()) == 0
	}},
	{regexp.MustCompile(`^rebased draft: s resubmits`), func(m App, _ []string) bool {
		return m.Session().Rebase() == nil && m.Session().Draft() != nil
	}},
	{regexp.MustCompile(`reading it$`), func(m App, _ []string) bool {
		return m.Session().State() == model.StateWaitingTheirs
	}},
	{regexp.MustCompile(`^the server refused`), func(m App, _ []string) bool {
		return m.Session().State() == model.StateFailed
	}},
}

// statusWalker drives the app at random, as a user and a second writer
// would, and checks the status line after every message.
type statusWalker struct {
	t      *testing.T
	r      *rand.Rand
	d      *driver
	runner *fakeRunner
	log    []string
	// said counts the lines shown, by their first words.
	said map[string]int
}

// check holds the status line to the state: it was made for the state
// as it is now, and what it claims of the session is true.
func (w *statusWalker) check() {
	w.t.Helper()
	m := w.d.m
	text := m.status.Text()
	if text == "" {
		return
	}
	fail := func(format string, args ...any) {
		w.t.Helper()
		w.t.Fatalf("after %s\nthe status says %q, but "+format, append([]any{strings.Join(w.log, " "), text}, args...)...)
	}
	if of, _ := m.status.MadeFor(); !m.status.Describes(m.statusState()) {
		fail("it was made for %+v and the state is %+v", of, m.statusState())
	}
	for _, c := range claims {
		if g := c.re.FindStringSubmatch(text); g != nil && !c.holds(m, g) {
			fail("that is not true of the session (state %v, %d of %d conflicts open, draft %v)",
				m.Session().State(), m.Session().OpenConflicts(), len(m.Session().Conflicts()), m.Session().Draft() != nil)
		}
	}
	first, _, _ := strings.Cut(text, ":")
	w.said[first]++
}

// send hands msg to the app and checks after it and after every message
// its commands bring, until the app settles.
func (w *statusWalker) send(name string, msg tea.Msg) {
	w.t.Helper()
	w.log = append(w.log, name)
	w.d.send(msg)
	w.check()
	for w.d.running > 0 {
		w.d.step()
		w.check()
	}
}

// theirs changes key on the server as another writer would, and the watch
// reports it.
func (w *statusWalker) theirs(key string) {
	r := w.runner
	r.mu.Lock()
	obj := r.server.DeepCopy()
	_ = unstructured.SetNestedField(obj.Object, fmt.Sprintf("theirs-%d", w.r.IntN(100)), "data", key)
	rv, _ := strconv.Atoi(obj.GetResourceVersion())
	obj.SetResourceVersion(strconv.Itoa(rv + 1))
	r.server = obj
	r.mu.Unlock()
	w.send("theirs:"+key, shownWatchEvent(kube.WatchEvent{Type: kube.ObjectModified, Object: obj.DeepCopy(), ResourceVersion: obj.GetResourceVersion()}))
}

// editorText is $EDITOR's answer on text: unchanged, a value changed, or
// text that does not parse.
func (w *statusWalker) editorText(text string) (string, string) {
	switch w.r.IntN(8) {
	case 0, 1:
		return "same", text
	case 2:
		return "invalid", text + "data: [\n"
	}
	key := pick(w.r, []string{"foo", "bar"})
	out := regexp.MustCompile(`(?m)^  `+key+`: .*$`).ReplaceAllString(text, fmt.Sprintf("  %s: mine-%d", key, w.r.IntN(100)))
	return "changed " + key, out
}

// step is one random action on the screen shown.
func (w *statusWalker) step() {
	m := w.d.m
	s := m.Session()
	if m.confirm.kind != confirmNone {
		k := pick(w.r, []string{"y", "n"})
		w.send(k, keyMsg(k))
		return
	}
	n := w.r.IntN(100)
	switch {
	case n < 15:
		w.theirs(pick(w.r, []string{"foo", "bar", "foo", "bar", "baz"}))
		return
	case n < 20:
		// The server refuses the next save as invalid, naming the field.
		w.runner.mu.Lock()
		w.runner.failOnce = append(w.runner.failOnce, &apiError{Kind: model.ErrorInvalid, Message: "invalid",
			Causes: []model.FieldCause{{Field: "data.foo", Message: "Invalid value"}}})
		w.runner.mu.Unlock()
		w.log = append(w.log, "(next save refused)")
		return
	case n < 24:
		w.send("reconnecting", shownWatchEvent(kube.WatchEvent{Type: kube.ConnectionChanged, Connection: kube.Connection{State: kube.Reconnecting, Since: t0}}))
		w.send("connected", shownWatchEvent(kube.WatchEvent{Type: kube.ConnectionChanged, Connection: kube.Connection{State: kube.Connected}}))
		return
	}
	switch m.screen {
	case screenConflict:
		switch k := pick(w.r, []string{"m", "t", "b", "M", "T", "n", "p", "s", "s", "s", "e", "e", "esc"}); k {
		case "e":
			merged, err := s.MergedText()
			if err != nil {
				w.t.Fatal(err)
			}
			what, text := w.editorText(merged)
			if what == "changed foo" || what == "changed bar" {
				// Resolved by hand: theirs with a value of mine's.
				text = strings.Replace(mustRender(w.t, s.Rebase().Theirs.Object), "foo: ", "foo: hand-", 1)
			}
			w.send("e(merged "+what+")", effect.EditorFinished{Merged: true, Original: merged, Text: text})
		default:
			w.send(k, keyMsg(k))
		}
	case screenObject:
		switch k := pick(w.r, []string{"e", "e", "e", "s", "s", "r", "D", "u", "c", "d", "t", "i"}); k {
		case "e":
			text, err := s.DraftText()
			if err != nil {
				w.t.Fatal(err)
			}
			what, edited := w.editorText(text)
			w.send("e("+what+")", effect.EditorFinished{Original: text, Text: edited})
		default:
			w.send(k, keyMsg(k))
		}
	case screenEditor:
		switch n := w.r.IntN(10); {
		case n < 4:
			text := m.editor.Text()
			what, edited := w.editorText(text)
			w.log = append(w.log, "type("+what+")")
			w.d.m = replaceText(w.t, w.d.m, edited)
			w.check()
		case n < 8:
			w.send("esc", keyMsg("esc"))
		default:
			w.send("ctrl+s", keyMsg("ctrl+s"))
		}
	default:
		// The timeline, the preview: look, and go back.
		w.send("esc", keyMsg("esc"))
	}
}

// TestStatusWalk: whatever the user and another writer do, the status line
// shown after every message was made for the state as it is, and what it
// says of the session is true.
func TestStatusWalk(t *testing.T) {
	walks, steps := 6, 100
	if testing.Short() {
		walks, steps = 3, 80
	}
	if os.Getenv("KEDIT_STRESS") != "" {
		walks *= 10
	}
	said := map[string]int{}
	base := testseed.Fixed(t, 0)
	for seed := range walks {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			runner := &fakeRunner{}
			w := &statusWalker{t: t, r: rand.New(rand.NewPCG(base+uint64(seed), 20)), d: newDriver(t, newApp(t, 100, 30, runner)),
				runner: runner, said: said}
			for range steps {
				w.step()
			}
		})
	}
	// The walk is worth something only if it reached these lines.
	for _, first := range []string{"resubmit refused", "the draft is kept but cannot be saved", "no change", "saved rv 81"} {
		found := false
		for k := range said {
			found = found || strings.HasPrefix(k, first) || strings.HasPrefix(first, k)
		}
		if !found {
			t.Errorf("no walk said %q; it said %v", first, said)
		}
	}
}

// TestDemoWriteSaidBesideTheBanner: the demo writer's report is said once
// the watch has brought its version, so that the banner it brings to a
// draft does not drop it.
func TestDemoWriteSaidBesideTheBanner(t *testing.T) {
	fake := &fakeDemo{now: make(chan struct{}, 1), writes: make(chan demo.Write)}
	m := edit(t, newApp(t, 120, 30, &fakeRunner{}, func(c *Config) { c.Object.Demo = fake }), `foo: "1"`, "foo: mine")
	d := newDriver(t, m)
	d.running++
	initCmd := d.m.Init()
	go func() { d.exec(initCmd); d.done <- struct{}{} }()
	d.send(keyMsg("w"))
	<-fake.now
	fake.writes <- demo.Write{Path: ".data.foo", Value: "2", ResourceVersion: "813"}
	d.until(func(m App) bool { return m.oncall.demoWrite != nil })
	obj := configMap("813", map[string]any{"foo": "2", "bar": "1"}, demo.WriterManager, 9, "foo")
	d.send(shownWatchEvent(kube.WatchEvent{Type: kube.ObjectModified, Object: obj, ResourceVersion: "813"}))
	out := plain(d.m)
	for _, want := range []string{"changed on server: rv 812 -> 813 by demo-writer: .data.foo", `demo-writer set .data.foo = "2" (rv 813)`} {
		if !strings.Contains(out, want) {
			t.Errorf("the screen lacks %q:\n%s", want, out)
		}
	}
	close(fake.writes)
	d.settle()
}
