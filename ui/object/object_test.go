package object

import (
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"github.com/kedit/kedit/model"
	"github.com/kedit/kedit/ui/common"
	"github.com/kedit/kedit/ui/internal/uitest"
)

// The object the tests start from (uitest).
var (
	ref       = uitest.Ref
	t0        = uitest.T0
	configMap = uitest.ConfigMap
)

func init() {
	// Plain text: no colour, whatever the terminal.
	lipgloss.SetColorProfile(termenv.Ascii)
}

// contentOf is what the view draws of sess, as the app builds it.
func contentOf(sess *model.Session) Content {
	live, deleted := sess.Live()
	change, changed := sess.ServerChange()
	c := Content{Ref: sess.Ref(), TextForm: common.TextFormOf(sess), Live: live, Deleted: deleted,
		Base: sess.Base(), Draft: sess.Draft(), Change: change, Changed: changed, Rebasing: sess.Rebase() != nil,
		Fights: sess.Fights()}
	if f := sess.Failure(); f != nil {
		c.Causes, c.CanUpdate = f.Causes, f.Kind == model.ErrorApplyCannotRemove
	}
	return c
}

// keyMsg is the key named k.
func keyMsg(k string) tea.KeyMsg {
	switch k {
	case "end":
		return tea.KeyMsg{Type: tea.KeyEnd}
	case "home":
		return tea.KeyMsg{Type: tea.KeyHome}
	case "down":
		return tea.KeyMsg{Type: tea.KeyDown}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)}
}

func TestObjectViewToggles(t *testing.T) {
	sess := model.NewSession(ref)
	obj := configMap("812", map[string]any{"foo": "1"}, "kubectl-create", 0, "foo")
	obj.Object["status"] = map[string]any{"phase": "x"}
	if _, _, err := sess.Handle(model.Opened{Object: obj, At: t0}); err != nil {
		t.Fatal(err)
	}
	v := New(DefaultKeyMap(), common.NewStyles())
	v.SetSize(80, 40)
	v.SetContent(contentOf(sess))
	if out := v.View(); strings.Contains(out, "managedFields:") || strings.Contains(out, "phase") {
		t.Errorf("managedFields or status shown by default:\n%s", out)
	}
	v, _ = v.Update(keyMsg("f"))
	if out := v.View(); !v.ShowingAllFields() || !strings.Contains(out, "managedFields:") || !strings.Contains(out, "phase: x") {
		t.Errorf("f does not show managedFields and status:\n%s", out)
	}
	v, _ = v.Update(keyMsg("d"))
	if v.ShowingDiff() {
		t.Error("d shows a diff without a draft")
	}
	text, _ := sess.DraftText()
	if _, _, err := sess.Handle(model.DraftEdited{Text: strings.Replace(text, `foo: "1"`, "foo: mine", 1)}); err != nil {
		t.Fatal(err)
	}
	v.SetContent(contentOf(sess))
	if !strings.Contains(v.View(), "unsaved draft") {
		t.Error("no unsaved draft mark")
	}
	v, _ = v.Update(keyMsg("d"))
	if out := v.View(); !v.ShowingDiff() || !strings.Contains(out, "+   foo: mine") || !strings.Contains(out, `-   foo: "1"`) {
		t.Errorf("d does not show the diff against base:\n%s", out)
	}
	v, _ = v.Update(keyMsg("d"))
	if v.ShowingDiff() {
		t.Error("d again does not go back to the draft")
	}
}

func TestObjectViewScrolls(t *testing.T) {
	data := map[string]any{}
	for i := 0; i < 100; i++ {
		data["k"+strings.Repeat("0", 3-len(string(rune('0'+i%10))))+string(rune('a'+i%26))+string(rune('a'+i/26))] = "v"
	}
	sess := model.NewSession(ref)
	if _, _, err := sess.Handle(model.Opened{Object: configMap("1", data, "m", 0), At: t0}); err != nil {
		t.Fatal(err)
	}
	v := New(DefaultKeyMap(), common.NewStyles())
	v.SetSize(80, 10)
	v.SetContent(contentOf(sess))
	top := v.View()
	v, _ = v.Update(keyMsg("end"))
	if v.View() == top || !v.body.AtBottom() {
		t.Error("end does not scroll to the bottom")
	}
	v, _ = v.Update(keyMsg("home"))
	if v.View() != top {
		t.Error("home does not scroll back to the top")
	}
	v, _ = v.Update(keyMsg("down"))
	if v.body.YOffset != 1 {
		t.Errorf("down: offset %d, want 1", v.body.YOffset)
	}
	v, _ = v.Update(tea.MouseMsg{Button: tea.MouseButtonWheelDown, Action: tea.MouseActionPress})
	if v.body.YOffset <= 1 {
		t.Error("the mouse wheel does not scroll")
	}
}

func TestNarrowHeaderKeepsVersionAndConnection(t *testing.T) {
	v := New(DefaultKeyMap(), common.NewStyles())
	v.SetSize(80, 24)
	sess := model.NewSession(model.ObjectRef{Context: "arn:aws:eks:eu-west-1:123456789012:cluster/production",
		Resource: ref.Resource, Kind: "ConfigMap", Namespace: "a-rather-long-namespace-name-for-a-team", Name: "testmap"})
	if _, _, err := sess.Handle(model.Opened{Object: configMap("812", map[string]any{"foo": "1"}, "kubectl-create", 0, "foo"), At: t0}); err != nil {
		t.Fatal(err)
	}
	v.SetContent(contentOf(sess))
	v.SetConnection("reconnecting since 12:01:03")
	first := strings.Split(ansi.Strip(v.View()), "\n")[0]
	for _, want := range []string{"ConfigMap/testmap", "rv 812", "reconnecting since 12:01:03"} {
		if !strings.Contains(first, want) {
			t.Errorf("80-column header %q lost %q", first, want)
		}
	}
	if w := ansi.StringWidth(first); w > 80 {
		t.Errorf("header is %d columns wide", w)
	}
}

// TestDemoFirstScreenAndSuspend: in kedit demo the header says that it is
// the demo and names w, W, A, L and ? (until a draft opens), wrapped at
// words within 80 columns; the live version's writer is named (live
// object by kubectl-create); ctrl+z asks Bubble Tea to suspend.
func TestDemoFirstScreenAndSuspend(t *testing.T) {
	sess := model.NewSession(ref)
	if _, _, err := sess.Handle(model.Opened{Object: configMap("812", map[string]any{"foo": "1"}, "kubectl-create", 0, "foo"), At: t0}); err != nil {
		t.Fatal(err)
	}
	v := New(DefaultKeyMap(), common.NewStyles())
	v.SetSize(80, 24)
	v.SetDemo(true)
	v.SetContent(contentOf(sess))
	out := ansi.Strip(v.View())
	flat := strings.Join(strings.Fields(out), " ")
	for _, want := range []string{"live object by kubectl-create; e edits a draft",
		"kedit demo (a cluster of its own): w demo-writer writes, W alice's kubectl edit, A race of kedit set --if, L requests; ? how a second terminal joins"} {
		if !strings.Contains(flat, want) {
			t.Errorf("the first screen does not say %q:\n%s", want, out)
		}
	}
	for _, l := range strings.Split(out, "\n") {
		if ansi.StringWidth(l) > 80 {
			t.Errorf("a line wider than 80: %q", l)
		}
	}
	v.SetDemo(false)
	if out := ansi.Strip(v.View()); strings.Contains(out, "kedit demo") {
		t.Errorf("outside the demo the header names it:\n%s", out)
	}
	_, cmd := v.Update(tea.KeyMsg{Type: tea.KeyCtrlZ})
	if cmd == nil {
		t.Fatal("ctrl+z answers nothing")
	}
	if _, ok := cmd().(tea.SuspendMsg); !ok {
		t.Errorf("ctrl+z answers %#v, want tea.SuspendMsg", cmd())
	}
}

// TestTheToursFightIsSaidToBe: in kedit demo --tour a fight with the
// tour's writer is said to be the tour's doing; any other fight, and any
// fight without the tour, is said as it is.
func TestTheToursFightIsSaidToBe(t *testing.T) {
	f := model.Fight{Path: ".data.foo", Between: [2]string{"demo-writer", "kedit"}, Count: 3, Times: []time.Time{t0, t0.Add(time.Second), t0.Add(2 * time.Second)}}
	if got := string(fightText([]model.Fight{f}, "demo-writer")); !strings.HasPrefix(got, f.Banner()) || !strings.HasSuffix(got, " (the tour's: demo-writer writes as each step prepares)") {
		t.Errorf("in the tour: %q", got)
	}
	if got := string(fightText([]model.Fight{f}, "")); got != f.Banner() {
		t.Errorf("without the tour: %q", got)
	}
	other := f
	other.Between = [2]string{"bob", "kedit"}
	if got := string(fightText([]model.Fight{other}, "demo-writer")); got != other.Banner() {
		t.Errorf("another person's fight in the tour: %q", got)
	}
}
