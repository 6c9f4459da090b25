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

	"github.com/kedit/kedit/kube"
	"github.com/kedit/kedit/model"
	"github.com/kedit/kedit/ui/internal/effect"
)

var cmTarget = &kube.Target{Mapping: fakeMapping("configmaps"), Namespace: "rb", Name: "testmap"}

// connEvent is the watch's event of a connection state.
func connEvent(state kube.ConnectionState, err error) shownWatchEvent {
	return shownWatchEvent(kube.WatchEvent{Type: kube.ConnectionChanged, Connection: kube.Connection{State: state, Since: t0, Err: err}})
}

// TestHeaderSaysHowTheConnectionStands: the header says what is true of
// the link to the server, as the watch reports it, and each state's words
// go when the state does.
func TestHeaderSaysHowTheConnectionStands(t *testing.T) {
	refusedWatch := &kube.ForbiddenError{Target: cmTarget, Verb: "watch", Err: errors.New("forbidden")}
	m := newApp(t, 160, 30, nil)
	for _, tc := range []struct {
		ev      shownWatchEvent
		want    string
		notWant []string
	}{
		{connEvent(kube.Connected, nil), "connected", []string{"reconnecting", "polling"}},
		{connEvent(kube.Reconnecting, errors.New("connection refused")), "reconnecting since " + t0.Local().Format("15:04:05"), []string{" connected", "polling"}},
		{connEvent(kube.Polling, refusedWatch), "not allowed to watch configmaps in rb: polling every 2 s", []string{"reconnecting", " connected"}},
		{connEvent(kube.Refused, &kube.ForbiddenError{Target: cmTarget, Verb: "get", Err: errors.New("x")}), "not allowed to get configmaps in rb", []string{"polling", "reconnecting"}},
		{connEvent(kube.Connected, nil), "connected", []string{"not allowed", "reconnecting"}},
	} {
		m = drive(t, m, tc.ev)
		header := strings.SplitN(plain(m), "\n", 2)[0]
		if !strings.Contains(header, tc.want) {
			t.Errorf("after %s: header %q, want %q", tc.ev.Connection.State, header, tc.want)
		}
		for _, nw := range tc.notWant {
			if strings.Contains(header, nw) {
				t.Errorf("after %s: header %q still says %q", tc.ev.Connection.State, header, nw)
			}
		}
	}
}

// TestHeaderKeepsTheObjectsName: on a narrow terminal a long connection
// state (polling) shares the header with the object's name, which stays;
// the namespace and context give way.
func TestHeaderKeepsTheObjectsName(t *testing.T) {
	refusedWatch := &kube.ForbiddenError{Target: cmTarget, Verb: "watch", Err: errors.New("forbidden")}
	for _, w := range []int{60, 80} {
		m := drive(t, newApp(t, w, 15, nil), connEvent(kube.Polling, refusedWatch))
		header := strings.SplitN(plain(m), "\n", 2)[0]
		if !strings.HasPrefix(header, "ConfigMap/testmap") || !strings.Contains(header, "not allowed to watch") || ansi.StringWidth(header) > w {
			t.Errorf("%d columns: header %q", w, header)
		}
	}
}

// busyErr is the server's 429 with its Retry-After: no answer, and
// nothing written.
type busyErr struct {
	apiError
	after time.Duration
}

func (e *busyErr) RetryAfter() time.Duration { return e.after }
func (e *busyErr) MayHaveLanded() bool       { return false }

// TestWaitingSaveIsTriedWhenTheServerIsBack: a save waiting out a long
// back-off (here a 429's Retry-After of a minute) is tried as soon
// as the watch connects again, not when the back-off ends; the back-off's
// own timer, firing later, sends nothing more.
func TestWaitingSaveIsTriedWhenTheServerIsBack(t *testing.T) {
	for _, back := range []shownWatchEvent{connEvent(kube.Connected, nil), connEvent(kube.Polling, &kube.ForbiddenError{Target: cmTarget, Verb: "watch", Err: errors.New("x")})} {
		r := &fakeRunner{failOnce: []error{&busyErr{apiError{Kind: model.ErrorUnavailable, Message: "too many requests"}, time.Minute}}}
		m := edit(t, newApp(t, 160, 30, r), `foo: "1"`, "foo: mine")
		m = drive(t, m, connEvent(kube.Reconnecting, errors.New("connection refused")))
		d := newDriver(t, m)
		d.send(keyMsg("s"))
		m = d.until(func(m App) bool { return strings.Contains(m.status.Text(), "next try in 1m0s") })
		if r.saves != 1 {
			t.Fatalf("%d saves before the server is back", r.saves)
		}
		d.send(back)
		start := time.Now()
		m = d.until(func(m App) bool { return m.Session().State() == model.StateSaved })
		if took := time.Since(start); took > time.Second {
			t.Errorf("the waiting save was tried %s after the server was back, want within 1 s", took)
		}
		if !strings.Contains(m.status.Text(), "saved rv") {
			t.Errorf("status %q after the save", m.status.Text())
		}
		// The back-off's timer, when it fires, finds nothing waiting.
		d.send(effect.RetryDue{Of: d.m.id, Attempt: 1})
		d.send(back)
		m = d.settleExcept(1)
		if r.saves != 2 || m.Session().State() != model.StateSaved {
			t.Errorf("%d saves, state %s: the save was sent again", r.saves, m.Session().State())
		}
	}
}

// settleExcept settles all but n commands, which run for longer than the
// test (a back-off's timer).
func (d *driver) settleExcept(n int) App {
	d.t.Helper()
	for d.running > n {
		d.step()
	}
	return d.m
}

// TestRefusalIsFinalAndNamesTheField: an answer of the server's (here the
// apply's 500 naming a field) is said as a refusal naming the field, with
// the draft kept; no retry is scheduled, and the server being back does
// not send it again.
func TestRefusalIsFinalAndNamesTheField(t *testing.T) {
	refusal := &apiError{Kind: model.ErrorRefused, Message: "failed to create typed patch object",
		Causes: []model.FieldCause{{Field: ".spec.bogus", Message: "field not declared in schema"}}}
	r := &fakeRunner{fail: refusal}
	m := edit(t, newApp(t, 160, 30, r), `foo: "1"`, "foo: mine")
	m = drive(t, m, keyMsg("s"))
	got := m.status.Text()
	for _, want := range []string{"the server refused the save", ".spec.bogus: field not declared in schema", "the draft is kept"} {
		if !strings.Contains(got, want) {
			t.Errorf("status %q, want %q", got, want)
		}
	}
	for _, never := range []string{"did not get an answer", "retrying", "next try"} {
		if strings.Contains(got, never) {
			t.Errorf("status %q says %q of an answer", got, never)
		}
	}
	m = drive(t, m, connEvent(kube.Reconnecting, errors.New("x")), connEvent(kube.Connected, nil), effect.RetryDue{Of: m.id, Attempt: 0})
	if r.saves != 1 || m.Session().Draft() == nil {
		t.Errorf("%d saves, draft %v: a refusal was sent again", r.saves, m.Session().Draft() != nil)
	}
}

// TestEditSaysWhenTheUserMayNotSave: the first e or i asks the server once
// whether the user may save the object, and a no is said then, and again
// at every later e or i without asking again; the draft is still made.
func TestEditSaysWhenTheUserMayNotSave(t *testing.T) {
	var asked atomic.Int32
	r := &fakeRunner{}
	sess := model.NewSession(cmTarget.Ref())
	base := configMap("812", map[string]any{"foo": "1"}, "kubectl-create", 0, "foo")
	base.SetNamespace("rb")
	if _, _, err := sess.Handle(model.Opened{Object: base, At: t0}); err != nil {
		t.Fatal(err)
	}
	r.server = base.DeepCopy()
	obj := &Object{Target: cmTarget, Session: sess, Runner: r, MaySave: func(context.Context) error {
		asked.Add(1)
		return &kube.ForbiddenError{Target: cmTarget, Verb: "update", Err: errors.New("no rule allows it")}
	}}
	m := drive(t, New(Config{Object: obj}), tea.WindowSizeMsg{Width: 160, Height: 30})
	if asked.Load() != 0 {
		t.Fatal("asked at start-up")
	}
	const want = "you may not update configmaps in rb: a draft can be made but not saved"
	m = drive(t, m, keyMsg("i"))
	if !strings.Contains(m.status.Text(), want) || asked.Load() != 1 {
		t.Fatalf("after i: status %q, asked %d times", m.status.Text(), asked.Load())
	}
	m = drive(t, m, keyMsg("esc"))
	m.status.Info("")
	m = drive(t, m, keyMsg("i"))
	if !strings.Contains(m.status.Text(), want) || asked.Load() != 1 {
		t.Errorf("after i again: status %q, asked %d times", m.status.Text(), asked.Load())
	}
	if m.screen != screenEditor {
		t.Error("the editor did not open: a draft can be made")
	}
	// The no is about the object, not about one draft: a draft made and
	// changed (here by $EDITOR) does not make it untrue.
	m = drive(t, m, keyMsg("esc"))
	text, _ := m.Session().DraftText()
	m = drive(t, m, effect.EditorFinished{Original: text, Text: strings.Replace(text, `foo: "1"`, "foo: mine", 1)})
	if d := m.Session().Draft(); d == nil || !strings.Contains(d.Text, "foo: mine") {
		t.Fatalf("the draft is not made: %+v", d)
	}
	if !strings.Contains(m.status.Text(), want) {
		t.Errorf("after the draft changed: status %q, want %q still", m.status.Text(), want)
	}
	// Another message takes its place.
	m = drive(t, m, keyMsg("r"))
	if strings.Contains(m.status.Text(), want) {
		t.Errorf("after r: status %q", m.status.Text())
	}
}

// TestEditSaysNothingWhenTheUserMaySave: an allowed user is told nothing.
func TestEditSaysNothingWhenTheUserMaySave(t *testing.T) {
	var asked atomic.Int32
	sess := model.NewSession(cmTarget.Ref())
	base := configMap("812", map[string]any{"foo": "1"}, "kubectl-create", 0, "foo")
	if _, _, err := sess.Handle(model.Opened{Object: base, At: t0}); err != nil {
		t.Fatal(err)
	}
	obj := &Object{Target: cmTarget, Session: sess, Runner: &fakeRunner{server: base}, MaySave: func(context.Context) error {
		asked.Add(1)
		return nil
	}}
	m := drive(t, New(Config{Object: obj}), tea.WindowSizeMsg{Width: 160, Height: 30}, keyMsg("i"), keyMsg("esc"), keyMsg("i"))
	if asked.Load() != 1 || strings.Contains(m.status.Text(), "may not") {
		t.Errorf("asked %d times, status %q", asked.Load(), m.status.Text())
	}
}
