package ui

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kedit/kedit/internal/demo"
	"github.com/kedit/kedit/model"
	"github.com/kedit/kedit/model/history"
	"github.com/kedit/kedit/ui/common"
)

var (
	admin = history.Client{User: "admin", UserAgent: "kubectl/v1.33.1"}
	alice = history.Client{User: "alice", UserAgent: "kubectl/v1.33.1"}
	bob   = history.Client{User: "bob", UserAgent: "kubectl/v1.33.1"}
)

// raceEvents is the audit log of a kubectl edit race on testmap, before
// kedit opened it: admin creates it (rv 810, foo "1"), alice's kubectl
// edit reads it, bob reads it and his kubectl patch (its own get first)
// patches foo (rv 811), alice's edit patches foo back with no
// resourceVersion (rv 812, the version kedit then opens): bob's value is
// lost.
func raceEvents() []history.Event {
	at := func(sec int) time.Time { return t0.Add(time.Duration(sec) * time.Second) }
	return []history.Event{
		{Verb: history.VerbCreate, Client: admin, Manager: "kubectl-create", Received: at(0), Time: at(0), Code: 201,
			Object: configMap("810", map[string]any{"foo": "1", "bar": "1"}, "kubectl-create", 0, "foo", "bar")},
		{Verb: history.VerbGet, Client: alice, Received: at(1), Time: at(1), Code: 200},
		{Verb: history.VerbGet, Client: bob, Received: at(1).Add(time.Second / 2), Time: at(1).Add(time.Second / 2), Code: 200},
		{Verb: history.VerbGet, Client: bob, Received: at(2).Add(-2 * time.Millisecond), Time: at(2).Add(-time.Millisecond), Code: 200},
		{Verb: history.VerbPatch, Client: bob, Manager: "kubectl-patch", Received: at(2), Time: at(2), Code: 200,
			Object: configMap("811", map[string]any{"foo": "bob", "bar": "1"}, "kubectl-patch", 2, "foo")},
		{Verb: history.VerbPatch, Client: alice, Manager: "kubectl-edit", Received: at(5), Time: at(5), Code: 200,
			Object: configMap("812", map[string]any{"foo": "1", "bar": "1"}, "kubectl-edit", 5, "foo")},
	}
}

// auditApp opens testmap at rv 812 with the race's audit log; reads
// counts the log's reads.
func auditApp(t *testing.T, w, h int, r *fakeRunner) (App, *atomic.Int32) {
	t.Helper()
	hist := history.Analyze(raceEvents())
	if len(hist.LostUpdates) != 1 {
		t.Fatalf("the race's log has lost updates %+v", hist.LostUpdates)
	}
	reads := &atomic.Int32{}
	read := func(context.Context) (*history.History, error) {
		reads.Add(1)
		return hist, nil
	}
	return newApp(t, w, h, r, func(c *Config) { c.Object.History = read }), reads
}

// TestTimelineMarksTheAuditLogsLostUpdate: t lists the log's versions
// from before kedit opened testmap, then what kedit saw, alice's edit
// (the version kedit opened on) marked LOST.
func TestTimelineMarksTheAuditLogsLostUpdate(t *testing.T) {
	m, reads := auditApp(t, 120, 30, &fakeRunner{})
	m = drive(t, m, keys("t")...)
	out := timeless(m)
	for _, want := range []string{
		"timeline of ConfigMap/testmap: 1 version since kedit opened it, 2 more from the audit log, newest first",
		"audit log: 1 lost update, 0 fights; LOST: enter shows it, u undoes it",
		"> 812  hh:mm:ss  kubectl-edit    Update     LOST  opened: the first version kedit saw",
		"  811  hh:mm:ss  kubectl-patch   patch            from the audit log: .data.foo",
		"  810  hh:mm:ss  kubectl-create  create           from the audit log: created",
		"enter lost updates • u undo the overwrite",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the timeline lacks %q:\n%s", want, out)
		}
	}
	// Each opening reads the log again: a write logged since is in it.
	m = drive(t, m, keys("t", "t")...)
	if n := reads.Load(); n != 2 {
		t.Errorf("the log was read %d times for two openings", n)
	}
	// enter on a version only the log holds: its diff from the log.
	m = drive(t, m, keys("j", "enter")...)
	if out := timeless(m); !strings.Contains(out, "rv 811 at hh:mm:ss by kubectl-patch (patch), against rv 810") ||
		!strings.Contains(out, "+   foo: bob") {
		t.Errorf("the log's version's diff:\n%s", out)
	}
	// u on a row that lost nothing says so.
	m = drive(t, m, keys("esc", "u")...)
	if got := m.status.Text(); got != "u undoes the overwrite of a row marked LOST: this version lost nothing" || m.Session().Draft() != nil {
		t.Errorf("u on bob's row: status %q, draft %v", got, m.Session().Draft() != nil)
	}
}

// TestTimelineSaysWhatTheLogCannotJudge: the race's log with its writes
// at Metadata level has no bodies to judge: the timeline's header says
// it cannot judge the 3 writes, never "0 lost updates", and a log that
// ends early says the history is partial.
func TestTimelineSaysWhatTheLogCannotJudge(t *testing.T) {
	var events []history.Event
	for _, ev := range raceEvents() {
		if ev.IsWrite() {
			ev.Object, ev.Level = nil, "Metadata"
		}
		events = append(events, ev)
	}
	hist := history.Analyze(events)
	read := func(context.Context) (*history.History, error) { return hist, nil }
	m := newApp(t, 120, 30, &fakeRunner{}, func(c *Config) { c.Object.History = read })
	m = drive(t, m, keys("t")...)
	out := timeless(m)
	if !strings.Contains(out, "audit log: cannot judge 3 writes (Metadata level)") || strings.Contains(out, "0 lost updates") {
		t.Errorf("the header of a Metadata-level log:\n%s", out)
	}
	partial := history.Analyze(raceEvents())
	partial.Coverage.Partial = []string{"audit.log:9: the last line is cut short (a log still being written?) and left out"}
	read = func(context.Context) (*history.History, error) { return partial, nil }
	m = newApp(t, 120, 30, &fakeRunner{}, func(c *Config) { c.Object.History = read })
	m = drive(t, m, keys("t")...)
	if out := timeless(m); !strings.Contains(out, "audit log: the log ends early: partial; 1 lost update, 0 fights; LOST: enter shows it") {
		t.Errorf("the header of a log cut short:\n%s", out)
	}
}

// TestLostViewAndUndo: enter on the LOST row shows base (what alice
// read), theirs (bob's version) and mine (alice's), .data.foo open; u
// makes the draft that puts bob's value back, and s saves it with the
// live resourceVersion.
func TestLostViewAndUndo(t *testing.T) {
	r := &fakeRunner{}
	m, _ := auditApp(t, 120, 30, r)
	m = drive(t, m, keys("t", "enter")...)
	if m.screen != screenLost {
		t.Fatalf("enter on LOST opens screen %v", m.screen)
	}
	out := timeless(m)
	for _, want := range []string{
		"LOST at rv 812: alice's kubectl edit replaced 1 change it had not read (1 open)",
		"alice's kubectl edit carried no resourceVersion; alice last read rv 810 at hh:mm:ss. u puts the lost values back, as a",
		"> open    .data.foo  set by bob (kubectl-patch) at hh:mm:ss, lost",
		"base (rv 810: alice's last read)", "theirs (rv 811 by bob (kubectl-patch))",
		"mine (rv 812 by alice (kubectl-edit))", "u undo the overwrite",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the lost updates lack %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "merged without conflict") {
		t.Errorf("the lost updates list merged changes:\n%s", out)
	}
	// esc goes back to the timeline; enter and u from there.
	if m = drive(t, m, keys("esc")...); m.screen != screenTimeline {
		t.Fatalf("esc leaves screen %v", m.screen)
	}
	m = drive(t, m, keys("enter", "u")...)
	d := m.Session().Draft()
	if m.screen != screenObject || d == nil || !strings.Contains(d.Text, "foo: bob") || !strings.Contains(d.Text, `bar: "1"`) {
		t.Fatalf("u: screen %v, draft %+v", m.screen, d)
	}
	if got := m.status.Text(); got != `the draft puts back .data.foo = "bob", lost by alice's kubectl edit; s saves it` {
		t.Errorf("status %q", got)
	}
	if base := m.Session().Base().ResourceVersion; base != "812" {
		t.Errorf("the undo's draft is based on rv %s, want the live 812", base)
	}
	m = drive(t, m, keys("s")...)
	if foo, _, _ := unstructured.NestedString(r.object().Object, "data", "foo"); foo != "bob" || r.last.ResourceVersion != "812" {
		t.Errorf("saved foo %q with rv %s", foo, r.last.ResourceVersion)
	}
}

// TestUndoKeepsAValueChangedSince: carol changed foo again after alice's
// overwrite; u puts nothing back over it, and says so.
func TestUndoKeepsAValueChangedSince(t *testing.T) {
	r := &fakeRunner{}
	m, _ := auditApp(t, 120, 30, r)
	m = theirsWrite(t, m, r, "foo", "carol")
	m = drive(t, m, keys("t")...)
	m = drive(t, m, keys("j", "u")...)
	if d := m.Session().Draft(); d != nil {
		t.Errorf("a draft over carol's newer value:\n%s", d.Text)
	}
	if got := m.status.Text(); got != "nothing to put back: .data.foo changed again since the overwrite, and keeps the newer value" {
		t.Errorf("status %q", got)
	}
}

// TestUndoAsksBeforeReplacingADraft: with a draft, u asks; n keeps it, y
// replaces it.
func TestUndoAsksBeforeReplacingADraft(t *testing.T) {
	m, _ := auditApp(t, 120, 30, &fakeRunner{})
	m = edit(t, m, `bar: "1"`, `bar: mine`)
	m = drive(t, m, keys("t", "u")...)
	if m.confirm.kind != confirmUndo || !strings.Contains(plain(m), "it replaces the draft you have (y/n)") {
		t.Fatalf("no question:\n%s", plain(m))
	}
	m = drive(t, m, keys("n")...)
	if d := m.Session().Draft(); d == nil || !strings.Contains(d.Text, "bar: mine") {
		t.Fatalf("n changed the draft: %+v", d)
	}
	m = drive(t, m, keys("u", "y")...)
	if d := m.Session().Draft(); d == nil || !strings.Contains(d.Text, "foo: bob") || strings.Contains(d.Text, "bar: mine") {
		t.Errorf("y: draft %+v", d)
	}
}

// TestTimelineSaysWhyTheLogCannotBeRead: the live versions stay, and the
// reason is said under the title.
func TestTimelineSaysWhyTheLogCannotBeRead(t *testing.T) {
	m := newApp(t, 100, 30, &fakeRunner{}, func(c *Config) {
		c.Object.History = func(context.Context) (*history.History, error) {
			return nil, errors.New("audit.log:3: not an audit log line: invalid character")
		}
	})
	m = drive(t, m, keys("t")...)
	out := plain(m)
	if !strings.Contains(out, "audit log: audit.log:3: not an audit log line") || !strings.Contains(out, "opened: the first version kedit saw") {
		t.Errorf("timeline:\n%s", out)
	}
}

// TestTimelineReadsALogThatIsBehindAgain: the server logs a write as its
// request ends, after the watch told of it; the timeline reads again
// until the log has the version kedit saw.
func TestTimelineReadsALogThatIsBehindAgain(t *testing.T) {
	full := history.Analyze(raceEvents())
	early := history.Analyze(raceEvents()[:4])
	var reads atomic.Int32
	m := newApp(t, 120, 30, &fakeRunner{}, func(c *Config) {
		c.Object.History = func(context.Context) (*history.History, error) {
			if reads.Add(1) == 1 {
				return early, nil
			}
			return full, nil
		}
	})
	d := newDriver(t, m)
	d.send(keyMsg("t"))
	d.until(func(m App) bool { return strings.Contains(plain(m), "LOST") })
	if n := reads.Load(); n != 2 {
		t.Errorf("%d reads, want 2", n)
	}
}

// secretLostApp shows, at w×h, the lost update of a Secret's password:
// alice's patch, carrying no resourceVersion, put back her value over
// bob's.
func secretLostApp(t *testing.T, w, h int) App {
	secretAt := func(rv, pw string) *unstructured.Unstructured {
		return secret(rv, map[string]any{"password": pw})
	}
	at := func(sec int) time.Time { return t0.Add(time.Duration(sec) * time.Second) }
	hist := history.Analyze([]history.Event{
		{Verb: history.VerbCreate, Client: admin, Received: at(0), Time: at(0), Code: 201, Object: secretAt("810", "Zmlyc3Q=")},
		{Verb: history.VerbGet, Client: alice, Received: at(1), Time: at(1), Code: 200},
		{Verb: history.VerbGet, Client: bob, Received: at(1).Add(time.Second / 2), Time: at(1).Add(time.Second / 2), Code: 200},
		{Verb: history.VerbPatch, Client: bob, Manager: "kubectl-edit", Received: at(2), Time: at(2), Code: 200, Object: secretAt("811", "Ym9icy12YWx1ZQ==")},
		{Verb: history.VerbPatch, Client: alice, Manager: "kubectl-edit", Received: at(5), Time: at(5), Code: 200, Object: secretAt("812", "czNjcmV0LWE=")},
	})
	sess := model.NewSession(secretRef)
	if _, _, err := sess.Handle(model.Opened{Object: secretAt("812", "czNjcmV0LWE="), At: t0}); err != nil {
		t.Fatal(err)
	}
	m := drive(t, New(Config{Object: &Object{Session: sess, Runner: &fakeRunner{server: secretAt("812", "czNjcmV0LWE=")},
		History: func(context.Context) (*history.History, error) { return hist, nil }}}), tea.WindowSizeMsg{Width: w, Height: h})
	return drive(t, m, keys("t", "enter")...)
}

// TestSecretsLostValuesStayMasked: a Secret's lost update shows masked
// values until R, and the undo's status line names no value.
func TestSecretsLostValuesStayMasked(t *testing.T) {
	m := secretLostApp(t, 120, 30)
	for _, v := range []string{"first", "bobs-value", "s3cret-a", "Zmlyc3Q=", "Ym9icy12YWx1ZQ==", "czNjcmV0LWE="} {
		if strings.Contains(plain(m), v) {
			t.Errorf("the lost updates show %q:\n%s", v, plain(m))
		}
	}
	if !strings.Contains(plain(m), common.SecretMask) {
		t.Errorf("no mask:\n%s", plain(m))
	}
	m = drive(t, m, keys("u")...)
	if got := m.status.Text(); got != "the draft puts back .data.password = "+common.SecretMask+", lost by alice's kubectl edit; s saves it" {
		t.Errorf("status %q", got)
	}
}

// TestFightInTheBanner: kedit sees hpa and argocd take .data.foo from
// each other three times; the object view's banner names the fight, with
// or without a draft, and the timeline marks its writes.
func TestFightInTheBanner(t *testing.T) {
	sess := model.NewSession(ref)
	step := func(ev model.Event) {
		t.Helper()
		if _, _, err := sess.Handle(ev); err != nil {
			t.Fatal(err)
		}
	}
	step(model.Opened{Object: configMap("812", map[string]any{"foo": "1"}, "argocd", 0, "foo"), At: t0})
	for i, w := range []string{"hpa", "argocd", "hpa", "argocd"} {
		sec := 60 * (i + 1)
		step(model.LiveChanged{Type: model.LiveModified, Object: configMap(strings.Repeat("9", i+3), map[string]any{"foo": w}, w, sec, "foo"),
			At: t0.Add(time.Duration(sec) * time.Second)})
	}
	m := drive(t, New(Config{Object: &Object{Session: sess, Runner: &fakeRunner{}}}), tea.WindowSizeMsg{Width: 100, Height: 30})
	if out := plain(m); !strings.Contains(out, "fight: .data.foo changed hands 3 times between hpa and argocd in 2 min") {
		t.Errorf("no fight in the banner:\n%s", out)
	}
	m = drive(t, m, keys("t")...)
	if n := strings.Count(plain(m), "FIGHT"); n != 3 {
		t.Errorf("%d rows marked FIGHT, want 3:\n%s", n, plain(m))
	}

	// With an audit log that holds only the creation, the header counts
	// the fight its rows mark, seen live.
	argo := history.Client{User: "argocd", UserAgent: "argocd-application-controller/v2.13"}
	hist := history.Analyze([]history.Event{{Verb: history.VerbCreate, Client: argo, Manager: "argocd", Received: t0, Time: t0, Code: 201,
		Object: configMap("812", map[string]any{"foo": "1"}, "argocd", 0, "foo")}})
	m = drive(t, New(Config{Object: &Object{Session: sess, Runner: &fakeRunner{}, History: func(context.Context) (*history.History, error) { return hist, nil }}}),
		tea.WindowSizeMsg{Width: 100, Height: 30})
	m = drive(t, m, keys("t")...)
	if out := plain(m); !strings.Contains(out, "audit log: 0 lost updates, 1 fight") || strings.Count(out, "FIGHT") != 3 {
		t.Errorf("the header does not count the fight its rows mark:\n%s", out)
	}
}

// TestDemoKubectlEditKey: W asks the demo's kubectl edit to start and
// says so, and its busy report (no version to wait for) is said at once;
// outside the demo W says what it is for.
func TestDemoKubectlEditKey(t *testing.T) {
	m := newApp(t, 100, 30, &fakeRunner{})
	if m = drive(t, m, keyMsg("W")); m.status.Text() != "W plays a colleague's kubectl edit that loses a value saved meanwhile: only in kedit demo" {
		t.Errorf("W outside the demo: %q", m.status.Text())
	}
	fake, d := demoDriver(t)
	d.send(keyMsg("W"))
	if n := fake.edits.Load(); n != 1 || d.m.status.Text() != "alice's kubectl edit is reading the object ..." {
		t.Errorf("W: %d edits asked, status %q", n, d.m.status.Text())
	}
	busy := demo.Write{Path: ".data.foo", Edit: demo.EditBusy}
	fake.writes <- busy
	m = d.until(func(m App) bool { return m.status.Text() == busy.String() })
	close(fake.writes)
	d.settle()
}

// TestAuditGolden draws the timeline with the audit log and the lost
// updates at the sizes the keys must be found at.
func TestAuditGolden(t *testing.T) {
	for _, c := range []struct {
		name string
		keys []string
	}{{"timeline_audit", []string{"t"}}, {"lost", []string{"t", "enter"}}} {
		for _, s := range []struct {
			name string
			w, h int
		}{{"120x40", 120, 40}, {"80x24", 80, 24}, {"60x15", 60, 15}} {
			t.Run(c.name+"_"+s.name, func(t *testing.T) {
				m, _ := auditApp(t, s.w, s.h, &fakeRunner{})
				out := timeless(drive(t, m, keys(c.keys...)...))
				checkScreen(t, out, s.w, s.h)
				golden.RequireEqual(t, out)
			})
		}
	}
}

// TestAuditLogTextIsEscaped: users, managers, verbs and values from the
// log reach the timeline, the lost updates and the status line escaped.
func TestAuditLogTextIsEscaped(t *testing.T) {
	const evil = "\x1b]0;owned\x07\x1b[2J"
	events := raceEvents()
	events[1].Client.User, events[5].Client.User = "alice"+evil, "alice"+evil
	events[2].Client.User, events[3].Client.User = "bob"+evil, "bob"+evil
	events[4].Client.User, events[4].Manager = "bob"+evil, "patch"+evil
	events[4].Object = configMap("811", map[string]any{"foo": "bob" + evil, "bar": "1"}, "m"+evil, 2, "foo")
	hist := history.Analyze(events)
	m := newApp(t, 120, 30, &fakeRunner{}, func(c *Config) {
		c.Object.History = func(context.Context) (*history.History, error) { return hist, nil }
	})
	screens := map[string]string{}
	m = drive(t, m, keys("t")...)
	screens["timeline"] = m.View()
	m = drive(t, m, keys("j", "enter")...)
	screens["log diff"] = m.View()
	m = drive(t, m, keys("esc", "k", "enter")...)
	screens["lost"] = m.View()
	m = drive(t, m, keys("u")...)
	screens["undone"] = m.View()
	for name, s := range screens {
		if strings.ContainsAny(s, "\x1b\x07") {
			t.Errorf("the %s screen holds raw control characters: %q", name, s)
		}
	}
	for name, want := range map[string]string{"timeline": `patch\x1b]0;owned`, "lost": `set by bob\x1b]0;owned`,
		"undone": `.data.foo = "bob\x1b]0;owned`} {
		if !strings.Contains(ansi.Strip(screens[name]), want) {
			t.Errorf("the %s screen does not show %q escaped:\n%s", name, want, screens[name])
		}
	}
}

// TestTimelineMarksRevertedAndCreatedAgain: the log holds testmap's
// earlier object (uid u-0), its deletion and re-creation (uid u-1), bob's
// patch of foo, and carol's update, made after she read bob's value, that
// set foo back to "1": the timeline names the new object's uid, marks
// carol's write REVERTED, counts it, and enter on it says what it set back
// and why it is not called lost.
func TestTimelineMarksRevertedAndCreatedAgain(t *testing.T) {
	carol := history.Client{User: "carol", UserAgent: "kubectl/v1.33.1"}
	at := func(sec int) time.Time { return t0.Add(time.Duration(sec) * time.Second) }
	earlier := configMap("805", map[string]any{"foo": "1", "bar": "1"}, "kubectl-create", 0, "foo", "bar")
	earlier.SetUID("u-0")
	events := []history.Event{
		{Verb: history.VerbCreate, Client: admin, Manager: "kubectl-create", Received: at(0), Time: at(0), Code: 201, Object: earlier},
		{Verb: history.VerbDelete, Client: admin, Received: at(1), Time: at(1), Code: 200, UID: "u-0"},
		{Verb: history.VerbCreate, Client: admin, Manager: "kubectl-create", Received: at(2), Time: at(2), Code: 201,
			Object: configMap("807", map[string]any{"foo": "1", "bar": "1"}, "kubectl-create", 2, "foo", "bar")},
		{Verb: history.VerbGet, Client: bob, Received: at(2).Add(time.Second / 2), Time: at(2).Add(time.Second / 2), Code: 200},
		{Verb: history.VerbGet, Client: bob, Received: at(3).Add(-2 * time.Millisecond), Time: at(3).Add(-time.Millisecond), Code: 200},
		{Verb: history.VerbPatch, Client: bob, Manager: "kubectl-patch", Received: at(3), Time: at(3), Code: 200,
			Object: configMap("808", map[string]any{"foo": "bob", "bar": "1"}, "kubectl-patch", 3, "foo")},
		{Verb: history.VerbGet, Client: carol, Received: at(4), Time: at(4), Code: 200},
		{Verb: history.VerbUpdate, Client: carol, Manager: "kubectl-replace", Received: at(5), Time: at(5), Code: 200,
			Object: configMap("809", map[string]any{"foo": "1", "bar": "1"}, "kubectl-replace", 5, "foo")},
	}
	hist := history.Analyze(events)
	if len(hist.Reverted) != 1 || len(hist.LostUpdates) != 0 {
		t.Fatalf("reverted %+v, lost %+v", hist.Reverted, hist.LostUpdates)
	}
	m := newApp(t, 160, 30, &fakeRunner{}, func(c *Config) {
		c.Object.History = func(context.Context) (*history.History, error) { return hist, nil }
	})
	m = drive(t, m, keys("t")...)
	out := timeless(m)
	for _, want := range []string{
		// carol read the object after bob's change, then her kubectl
		// replace set foo back: a reverted value.
		"audit log: 0 lost updates, 1 reverted value, 0 fights",
		"809  hh:mm:ss  kubectl-replace  update     REVERTED  from the audit log: .data.foo",
		"807  hh:mm:ss  kubectl-create   create               from the audit log: created again (uid u-1)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the timeline lacks %q:\n%s", want, out)
		}
	}
	// The opened version is selected; carol's write is 4 rows up.
	m = drive(t, m, keys("k", "k", "k", "k", "enter")...)
	if out := timeless(m); !strings.Contains(out, "REVERTED: carol's kubectl replace set .data.foo back to the value it held before bob changed it") ||
		!strings.Contains(out, "as carol may have read it") || !strings.Contains(out, "+   foo: \"1\"") {
		t.Errorf("enter on the REVERTED row:\n%s", out)
	}
	// At 80 columns its evidence wraps at words: no line cut.
	m = drive(t, m, tea.WindowSizeMsg{Width: 80, Height: 24})
	for _, l := range strings.Split(ansi.Strip(m.View()), "\n") {
		if ansi.StringWidth(l) > 80 || strings.Contains(l, "…") {
			t.Errorf("a line cut or wider than 80 columns: %q", l)
		}
	}
	if out := timeless(m); !strings.Contains(out, "REVERTED: carol's kubectl replace set .data.foo back to the value it held") {
		t.Errorf("at 80 columns:\n%s", out)
	}
}
