package ui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/kedit/kedit/kube"
	"github.com/kedit/kedit/model"
	"github.com/kedit/kedit/ui/common"
	"github.com/kedit/kedit/ui/internal/effect"
	"github.com/kedit/kedit/ui/object"
)

// objectModes builds the app on the object view in each of its modes:
// what the body shows (the live object, the draft, its diff, blame over
// each), and what adds keys to the footer (a banner, a Secret, a list to
// go back to, a line wider than the screen, a field apply cannot remove).
var objectModes = []struct {
	name  string
	build func(t *testing.T) App
}{
	{"live", func(t *testing.T) App { return newApp(t, 100, 30, &fakeRunner{}) }},
	{"draft", func(t *testing.T) App { return drafted(t, &fakeRunner{}) }},
	{"draft_diff", func(t *testing.T) App { return drive(t, drafted(t, &fakeRunner{}), keys("d")...) }},
	{"banner", func(t *testing.T) App {
		r := &fakeRunner{}
		return theirsWrite(t, drafted(t, r), r, "bar", "theirs")
	}},
	{"secret", func(t *testing.T) App { return newSecretApp(t, 100, 30, &fakeRunner{}) }},
	{"secret_revealed_draft", func(t *testing.T) App {
		return drive(t, edit(t, newSecretApp(t, 100, 30, &fakeRunner{}), testPassword, "mine-password"), keys("R")...)
	}},
	{"from_list", func(t *testing.T) App {
		c := newFakeCluster(t)
		c.add("configmaps", "default", "testmap")
		m := browserApp(t, c, c.collection("configmaps", "default", false), 100, 30)
		return drive(t, m, tea.KeyMsg{Type: tea.KeyEnter})
	}},
	{"wide", func(t *testing.T) App {
		return newAppWith(t, 100, 30, &fakeRunner{}, map[string]any{"long": strings.Repeat("wide-", 40), "short": "x"})
	}},
	{"deleted_draft", func(t *testing.T) App {
		r := &fakeRunner{}
		m := drafted(t, r)
		return drive(t, m, shownWatchEvent(kube.WatchEvent{Type: kube.ObjectDeleted, Object: r.object()}))
	}},
	{"deleted", func(t *testing.T) App {
		r := &fakeRunner{}
		m := newApp(t, 100, 30, r)
		return drive(t, m, shownWatchEvent(kube.WatchEvent{Type: kube.ObjectDeleted, Object: r.object()}))
	}},
	{"from_set", func(t *testing.T) App {
		return drive(t, setApp(t, newFakeCluster(t), 100, 30, "a", "b"), tea.KeyMsg{Type: tea.KeyEnter})
	}},
	{"cannot_remove", func(t *testing.T) App {
		r := &fakeRunner{fail: &apiError{Kind: model.ErrorApplyCannotRemove, Message: "not sent",
			Causes: []model.FieldCause{{Field: ".data.bar", Message: "owned by kubectl-patch"}}}}
		m := edit(t, newApp(t, 100, 30, r), "  bar: \"1\"\n", "")
		return drive(t, m, keys("s")...)
	}},
}

// drafted is testmap with a draft that changes foo.
func drafted(t *testing.T, r *fakeRunner) App {
	return edit(t, newApp(t, 100, 30, r), `foo: "1"`, `foo: mine`)
}

// TestEveryFooterKeyActsInEveryObjectMode: in every mode of the object
// view, with blame over it and without, each key the footer names does
// something the user can see: the screen, the body or the status line
// changes, a question is asked, $EDITOR opens, or kedit quits. Blame
// shows the live object; a key that acts on the draft leaves it and acts.
func TestEveryFooterKeyActsInEveryObjectMode(t *testing.T) {
	for _, mode := range objectModes {
		for _, blame := range []bool{false, true} {
			name := mode.name
			build := mode.build
			if blame {
				name += "_blame"
				build = func(t *testing.T) App { return drive(t, mode.build(t), keys("b")...) }
			}
			t.Run(name, func(t *testing.T) {
				m := build(t)
				if m.screen != screenObject || m.object.Blaming() != blame {
					t.Fatalf("screen %v, blame %v", m.screen, m.object.Blaming())
				}
				footer := m.helpSource().short
				if strings.HasPrefix(mode.name, "deleted") && strings.Contains(ansi.Strip(m.frame.helpLine), "r rebase") {
					t.Errorf("a deleted object's footer offers a rebase: %q", ansi.Strip(m.frame.helpLine))
				}
				for _, b := range common.HelpEntries(footer) {
					k := b.Keys()[0]
					m := build(t)
					if k == "left" {
						// Scrolled to the right first: at the left edge
						// there is nothing to the left.
						m = drive(t, m, keyMsg("right"))
					}
					before := plain(m)
					next, cmd := m.Update(keyMsg(k))
					after := next.(App)
					acted := after.screen != m.screen || plain(after) != before || after.life.editorOpen && !m.life.editorOpen ||
						isQuit(cmd)
					if !acted {
						t.Errorf("%s (%s) does nothing:\n%s", k, b.Help().Desc, before)
					}
					if blame && after.object.Blaming() && m.object.ActsOnDraft(keyMsg(k)) {
						t.Errorf("%s (%s) acts on the draft and blame still shows", k, b.Help().Desc)
					}
				}
			})
		}
	}
}

// TestBlameThenEditAndSave walks the README's tutorial from blame: e
// leaves blame and opens $EDITOR, the status line no longer names the
// blame cursor's line, and s then saves the draft.
func TestBlameThenEditAndSave(t *testing.T) {
	r := &fakeRunner{}
	m := drive(t, newApp(t, 100, 30, r), keys("b", "j")...)
	if !strings.HasPrefix(m.status.Text(), "line 2: ") {
		t.Fatalf("blame's status line: %q", m.status.Text())
	}
	next, _ := m.Update(keyMsg("e"))
	m = next.(App)
	if m.object.Blaming() || !m.life.editorOpen || m.status.Text() != "" {
		t.Fatalf("e from blame: blame %v, editor open %v, status %q", m.object.Blaming(), m.life.editorOpen, m.status.Text())
	}
	m = drive(t, m, keys("b")...)
	m = edit(t, m, `foo: "1"`, `foo: mine`)
	m = drive(t, m, keys("b", "s")...)
	if m.object.Blaming() || m.Session().State() != model.StateSaved || !strings.HasPrefix(m.status.Text(), "saved rv ") {
		t.Errorf("s from blame: blame %v, state %v, status %q", m.object.Blaming(), m.Session().State(), m.status.Text())
	}
	if got := r.writes(); len(got) != 1 {
		t.Errorf("writes %v, want the one save", got)
	}
	// d from blame shows the draft's diff.
	m = drive(t, edit(t, m, `foo: mine`, `foo: again`), keys("b", "d")...)
	if m.object.Blaming() || !m.object.ShowingDiff() {
		t.Errorf("d from blame: blame %v, diff %v", m.object.Blaming(), m.object.ShowingDiff())
	}
}

// TestMergedEditSaysTheRebasedDraftWaits: the merged result edited by
// hand, in $EDITOR (e) or in the app (i, whose title and footer say the
// same of esc and ctrl+s), becomes the draft rebased onto theirs; the
// object view then says that s resubmits it, and s does.
func TestMergedEditSaysTheRebasedDraftWaits(t *testing.T) {
	for _, inApp := range []bool{false, true} {
		m, r := conflicted(t, 120)
		fixed := strings.Replace(mustRender(t, m.Session().Rebase().Theirs.Object), "foo: theirs", "foo: fixed", 1)
		if inApp {
			m = drive(t, m, keys("i")...)
			screen := plain(m)
			title, footer := screen[:strings.Index(screen, "\n")], ansi.Strip(m.frame.helpLine)
			for _, said := range []string{"esc leave, edits become the rebased draft", "ctrl+s resubmit"} {
				if !strings.Contains(title, said) || !strings.Contains(footer, said) {
					t.Errorf("the merged editor's title %q and footer %q do not both say %q", title, footer, said)
				}
			}
			if strings.Contains(screen, "keep the draft") {
				t.Errorf("the merged editor says esc keeps the draft:\n%s", screen)
			}
			m = drive(t, replaceText(t, m, fixed), keys("esc")...)
		} else {
			merged, err := m.Session().MergedText()
			if err != nil {
				t.Fatal(err)
			}
			m = drive(t, m, effect.EditorFinished{Merged: true, Original: merged, Text: fixed})
		}
		if m.screen != screenObject || m.Session().Rebase() != nil || m.status.Text() != "rebased draft: s resubmits" {
			t.Fatalf("in app %v: screen %v, rebase %v, status %q", inApp, m.screen, m.Session().Rebase() != nil, m.status.Text())
		}
		m = drive(t, m, keys("s")...)
		if dataOf(r.server, "foo") != "fixed" || !strings.HasPrefix(m.status.Text(), "saved rv ") {
			t.Errorf("in app %v: s after the rebased draft: server foo %q, status %q", inApp, dataOf(r.server, "foo"), m.status.Text())
		}
	}
}

// TestHelpNamesTheDemoKeysOnlyInTheDemo: w and W drive kedit demo's
// writer; the object view's help names them there and nowhere else.
func TestHelpNamesTheDemoKeysOnlyInTheDemo(t *testing.T) {
	k := object.DefaultKeyMap()
	named := func(m App) (w, W bool) {
		for _, g := range m.helpSource().full {
			for _, b := range g {
				w = w || b.Help().Key == k.DemoWrite.Help().Key
				W = W || b.Help().Key == k.DemoKubectlEdit.Help().Key
			}
		}
		return w, W
	}
	if w, W := named(newApp(t, 120, 40, &fakeRunner{})); w || W {
		t.Errorf("outside the demo, the help names w %v, W %v", w, W)
	}
	fake, d := demoDriver(t)
	if w, W := named(d.m); !w || !W {
		t.Errorf("in the demo, the help names w %v, W %v", w, W)
	}
	close(fake.writes)
	d.settle()
	m := drive(t, newApp(t, 120, 40, &fakeRunner{}), keys("?")...)
	if s := plain(m); strings.Contains(s, "demo writer writes") || strings.Contains(s, "demo kubectl edit") {
		t.Errorf("the help page outside the demo:\n%s", s)
	}
}
