package ui

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kedit/kedit/internal/drafts"
	"github.com/kedit/kedit/internal/testseed"
	"github.com/kedit/kedit/kube"
	"github.com/kedit/kedit/model"
)

// The in-app editor's "nothing is lost" rules, as a random walk through
// the app (driven as Bubble Tea drives it, commands concurrent): bursts
// of typing, pastes, undo and redo, deleted lines, selections cut, copied
// and pasted, readline's deletes, replaces, pauses of random length,
// leaving, reopening and saving, then ctrl+c. Once everything settles,
// after every burst:
//
//   - the session's draft is the latest text (the editor's, or what it
//     held when it was left), or there is none and that text is base's
//     content (a save went through, or the typing came back to base);
//   - the draft store on disk holds exactly the session's draft, or
//     nothing when there is none;
//   - so opening and leaving without typing changes nothing, byte for
//     byte.

// walkTyped, walkPastes: what the walk types and pastes; "\x00" and a
// bidi override among them, which the draft keeps as they are.
var (
	walkTyped  = []string{"a", "b", "x", " ", ":", "1", "é", "日"}
	walkPastes = []string{"x", "  k: v\n", "\n  y: z", "q\x00r", "\u202eevil", "line1\nline2\n", "  baz: \"2\"\n"}
)

// walkKeys are the editor's keys the walk presses besides typing.
var walkKeys = []tea.KeyMsg{
	{Type: tea.KeyEnter}, {Type: tea.KeyBackspace}, {Type: tea.KeyDelete}, {Type: tea.KeyCtrlZ}, {Type: tea.KeyCtrlY},
	{Type: tea.KeyCtrlK}, {Type: tea.KeyDown}, {Type: tea.KeyUp}, {Type: tea.KeyEnd}, {Type: tea.KeyHome},
	{Type: tea.KeyTab}, {Type: tea.KeyShiftTab}, {Type: tea.KeyCtrlEnd}, {Type: tea.KeyCtrlHome},
	// Selecting, the register, readline's keys.
	{Type: tea.KeyShiftDown}, {Type: tea.KeyShiftRight}, {Type: tea.KeyShiftEnd}, {Type: tea.KeyShiftUp},
	{Type: tea.KeyCtrlX}, {Type: tea.KeyCtrlV}, {Type: tea.KeyRunes, Runes: []rune("c"), Alt: true},
	{Type: tea.KeyCtrlW}, {Type: tea.KeyBackspace, Alt: true}, {Type: tea.KeyCtrlU}, {Type: tea.KeyCtrlA}, {Type: tea.KeyCtrlE},
}

// walkStore opens a draft store for testmap in a temporary directory and
// returns it with the object's drafts.
func walkStore(t *testing.T) (*drafts.Store, *drafts.Object) {
	t.Helper()
	store := &drafts.Store{Dir: filepath.Join(t.TempDir(), "kedit", "drafts")}
	target := &kube.Target{Context: ref.Context, Namespace: ref.Namespace, Name: ref.Name,
		Mapping: &meta.RESTMapping{Resource: ref.Resource, Scope: meta.RESTScopeNamespace}}
	drafts := store.Open(kube.DraftKey(target), "u-1")
	t.Cleanup(drafts.Close)
	return store, drafts
}

// editorWalker drives the app and remembers the latest text.
type editorWalker struct {
	t      *testing.T
	r      *rand.Rand
	d      *driver
	store  *drafts.Store
	drafts *drafts.Object
	runner *fakeRunner
	// careful: this opening of the editor only types inside values, so
	// that its drafts parse and its saves go through.
	careful bool
	// aimed: the cursor went into a value since the editor was opened.
	aimed bool
	// latest is the editor's text when it was last seen or left.
	latest string
	log    []string
}

func (w *editorWalker) send(name string, msg tea.Msg) {
	if name != "" {
		w.log = append(w.log, name)
	}
	w.d.send(msg)
	if w.d.m.screen == screenEditor {
		w.latest = w.d.m.editor.Text()
	}
}

// burst sends a few actions without waiting for the screen, now and then
// running the program for a while between two (the pauses that keep
// typing, cut anywhere).
func (w *editorWalker) burst() {
	for range 1 + w.r.IntN(8) {
		m := w.d.m
		switch {
		case m.screen == screenObject:
			if w.r.IntN(4) > 0 {
				w.careful, w.aimed = w.r.IntN(3) > 0, false
				w.send("i", keyMsg("i"))
			}
		case m.screen == screenConflict:
			// Nobody else writes: a conflict would be with kedit's own
			// save (an editor reopened while it was in flight used to
			// make one).
			w.t.Fatalf("a conflict with kedit's own write: %s", strings.Join(w.log, " "))
		case m.screen != screenEditor:
			w.t.Fatalf("the walk reached screen %v: %s", m.screen, strings.Join(w.log, " "))
		default:
			w.editorAction()
		}
		if w.r.IntN(4) == 0 {
			pause := time.Duration(w.r.IntN(600)) * time.Millisecond
			w.log = append(w.log, fmt.Sprintf("(%s)", pause))
			w.d.runFor(pause)
		}
	}
}

// editorAction is one action in the open editor.
func (w *editorWalker) editorAction() {
	n := w.r.IntN(100)
	if w.careful && !w.aimed {
		n = 10 // first into a value
	}
	if w.careful && n >= 16 && n < 92 {
		// Only what keeps the YAML valid inside a quoted value.
		switch n % 3 {
		case 0:
			w.send("backspace", tea.KeyMsg{Type: tea.KeyBackspace})
		default:
			s := pick(w.r, []string{"a", "b", "x", "1", " "})
			w.send(fmt.Sprintf("%q", s), runes(s))
		}
		return
	}
	switch {
	case n < 4:
		// Back to the text as opened, most of the time.
		w.log = append(w.log, "ctrl+z×20")
		for range 20 {
			w.send("", tea.KeyMsg{Type: tea.KeyCtrlZ})
		}
	case n < 16:
		// Into a value, where typing makes a draft that parses and saves.
		field := pick(w.r, []string{"foo: ", "bar: "})
		w.aimed = true
		w.send("find "+field, tea.KeyMsg{Type: tea.KeyCtrlF})
		w.send("", runes(field))
		w.send("", keyMsg("esc"))
		w.send("", keyMsg("end"))
		w.send("", tea.KeyMsg{Type: tea.KeyLeft})
	case n < 45:
		s := pick(w.r, walkTyped)
		w.send(fmt.Sprintf("%q", s), runes(s))
	case n < 55:
		s := pick(w.r, walkPastes)
		w.send(fmt.Sprintf("paste%q", s), paste(s))
	case n < 84:
		k := pick(w.r, walkKeys)
		w.send(k.String(), k)
	case n < 88:
		// Replace: one match or every one.
		q, with := pick(w.r, []string{"foo", "1", "a", ":"}), pick(w.r, []string{"", "b", "x: y", "日"})
		w.send(fmt.Sprintf("replace %q with %q", q, with), tea.KeyMsg{Type: tea.KeyCtrlR})
		w.send("", runes(q))
		w.send("", tea.KeyMsg{Type: tea.KeyEnter})
		if with != "" {
			w.send("", runes(with))
		}
		if w.r.IntN(2) == 0 {
			w.send("enter", tea.KeyMsg{Type: tea.KeyEnter})
		} else {
			w.send("ctrl+a", tea.KeyMsg{Type: tea.KeyCtrlA})
		}
		w.send("", keyMsg("esc"))
	case n < 92:
		w.send("esc", keyMsg("esc"))
	default:
		w.send("ctrl+s", keyMsg("ctrl+s"))
	}
}

func pick[T any](r *rand.Rand, s []T) T { return s[r.IntN(len(s))] }

// check settles the app and checks the rules.
func (w *editorWalker) check() {
	w.t.Helper()
	m := w.d.settle()
	fail := func(format string, args ...any) {
		w.t.Helper()
		w.t.Fatalf("after %s:\n"+format, append([]any{strings.Join(w.log, " ")}, args...)...)
	}
	if m.screen == screenEditor && m.editor.Text() != w.latest {
		fail("the editor's text changed by itself")
	}
	d := m.Session().Draft()
	switch {
	case d != nil && d.Text != w.latest:
		fail("the session's draft is\n%q\nnot the latest text\n%q", d.Text, w.latest)
	case d == nil && !noChange(w.t, m.Session().Base().Object, w.latest):
		fail("no draft, but the latest text is not base's content:\n%q", w.latest)
	}
	entries, err := w.store.List()
	if err != nil {
		fail("listing the store: %v", err)
	}
	var stored []byte
	for _, e := range entries {
		if e.Path == w.drafts.Path() {
			b, err := os.ReadFile(e.Path)
			if err != nil || e.Size > len(b) {
				fail("reading the draft file: %v", err)
			}
			stored = b[len(b)-e.Size:]
		}
	}
	switch {
	case d == nil && stored != nil:
		fail("no draft, but the store holds\n%q", stored)
	case d != nil && !bytes.Equal(stored, []byte(d.Text)):
		fail("the store holds\n%q\nnot the draft\n%q", stored, d.Text)
	}
}

// noChange reports whether the session would take text over base as no
// change: the rule is the session's, asked of a session opened on base.
func noChange(t *testing.T, base *unstructured.Unstructured, text string) bool {
	t.Helper()
	s := model.NewSession(ref)
	if _, _, err := s.Handle(model.Opened{Object: base.DeepCopy(), At: t0}); err != nil {
		t.Fatal(err)
	}
	_, _, err := s.Handle(model.DraftEdited{Text: text})
	return err == nil && s.Draft() == nil
}

// TestEditorWalkKeepsEverything runs the walk from a few seeds.
func TestEditorWalkKeepsEverything(t *testing.T) {
	walks, rounds := 3, 15
	if testing.Short() {
		walks, rounds = 1, 10
	}
	if os.Getenv("KEDIT_STRESS") != "" {
		walks *= 10
	}
	base := testseed.Fixed(t, 0)
	for seed := range walks {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			store, drafts := walkStore(t)
			runner := &fakeRunner{drafts: drafts}
			app := newApp(t, 80, 24, runner, withDrafts(drafts))
			text, err := app.Session().DraftText()
			if err != nil {
				t.Fatal(err)
			}
			w := &editorWalker{t: t, r: rand.New(rand.NewPCG(base+uint64(seed), 9)), d: newDriver(t, app),
				store: store, drafts: drafts, runner: runner, latest: text}
			for range rounds {
				w.burst()
				w.check()
			}
			// ctrl+c takes the text at once, in the editor or not: in the
			// editor the first one keeps it (copies, on a selection) and
			// a second quits; with the draft only in memory one more.
			for range 4 {
				w.send("ctrl+c", tea.KeyMsg{Type: tea.KeyCtrlC})
				w.check()
				if w.d.quit {
					break
				}
			}
			if !w.d.quit {
				t.Fatal("ctrl+c did not quit")
			}
			t.Logf("%d actions, %d saves", len(w.log), w.runner.saves)
		})
	}
}
