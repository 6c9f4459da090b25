package ui

import (
	"reflect"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/kedit/kedit/diff"
	"github.com/kedit/kedit/ui/common"
	"github.com/kedit/kedit/ui/conflict"
	"github.com/kedit/kedit/ui/editor"
	"github.com/kedit/kedit/ui/helppage"
	"github.com/kedit/kedit/ui/object"
	"github.com/kedit/kedit/ui/objectset"
	"github.com/kedit/kedit/ui/preview"
	"github.com/kedit/kedit/ui/timeline"
)

// answerOf is what a view's answer to a key reports: its intent, or nil.
// It is called at once, as App.answer calls it.
func answerOf(cmd tea.Cmd) tea.Msg {
	if cmd == nil {
		return nil
	}
	return cmd()
}

// viewKey is a key pressed in a view, and the intent the view answers it
// with (nil: the view acts alone, or not at all).
type viewKey struct {
	key  tea.KeyMsg
	want tea.Msg
}

// checkAnswers presses each key in the view update makes (a fresh copy
// each time) and checks its answer.
func checkAnswers(t *testing.T, view string, update func(tea.KeyMsg) tea.Cmd, cases []viewKey) {
	t.Helper()
	for _, c := range cases {
		if got := answerOf(update(c.key)); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: %s answers %#v, want %#v", view, c.key, got, c.want)
		}
	}
}

// TestViewsAnswerKeysWithIntents: each view turns the keys that need the
// session, another view or I/O into the intent that names what the user
// asked for, and acts alone on the rest.
func TestViewsAnswerKeysWithIntents(t *testing.T) {
	everywhere := []viewKey{{keyMsg("ctrl+c"), common.ForceQuitMsg{}}, {keyMsg("?"), common.HelpMsg{}}, {keyMsg("q"), common.QuitRequestedMsg{}}}

	m := edit(t, newApp(t, 120, 40, &fakeRunner{}), `foo: "1"`, `foo: mine`)
	objectView := func(k tea.KeyMsg) tea.Cmd { _, cmd := m.object.Update(k); return cmd }
	checkAnswers(t, "object view", objectView, append(everywhere, []viewKey{
		{keyMsg("e"), common.EditMsg{}}, {keyMsg("i"), common.EditMsg{InApp: true}}, {keyMsg("s"), object.SaveMsg{}},
		{keyMsg("u"), object.SaveMsg{AsUpdate: true}}, {keyMsg("r"), object.RebaseMsg{}}, {keyMsg("x"), object.DiscardMsg{}},
		{keyMsg("c"), object.ShowConflictsMsg{}}, {keyMsg("t"), object.ShowTimelineMsg{}}, {keyMsg("p"), object.PreviewMsg{}},
		{keyMsg("w"), object.DemoWriteMsg{}}, {keyMsg("f"), nil}, {keyMsg("d"), nil}, {keyMsg("j"), nil},
		{keyMsg("esc"), nil}, // no list to go back to
	}...))
	m.object.SetBackToList(true)
	checkAnswers(t, "object view with a list", objectView, []viewKey{{keyMsg("esc"), object.BackToListMsg{}}})
	blaming, _ := m.object.Update(keyMsg("b"))
	checkAnswers(t, "object view with blame", func(k tea.KeyMsg) tea.Cmd { _, cmd := blaming.Update(k); return cmd },
		[]viewKey{{keyMsg("e"), common.EditMsg{}}, {keyMsg("s"), object.SaveMsg{}}, {keyMsg("x"), object.DiscardMsg{}}, {keyMsg("t"), object.ShowTimelineMsg{}}})

	r := &fakeRunner{}
	mine := edit(t, edit(t, newApp(t, 120, 40, r), `foo: "1"`, `foo: mine`), `bar: "1"`, `bar: mine`)
	c := drive(t, theirsWrite(t, mine, r, "foo", "theirs"), keys("s")...)
	conflictView := func(k tea.KeyMsg) tea.Cmd { _, cmd := c.conflict.Update(k); return cmd }
	checkAnswers(t, "conflict view", conflictView, append(everywhere, []viewKey{
		{keyMsg("m"), conflict.ResolveMsg{Index: 0, Choice: diff.TakeMine}}, {keyMsg("t"), conflict.ResolveMsg{Index: 0, Choice: diff.TakeTheirs}},
		{keyMsg("b"), conflict.ResolveMsg{Index: 0, Choice: diff.TakeBase}}, {keyMsg("M"), conflict.ResolveAllMsg{Choice: diff.TakeMine}},
		{keyMsg("T"), conflict.ResolveAllMsg{Choice: diff.TakeTheirs}}, {keyMsg("s"), conflict.ResubmitMsg{}},
		{keyMsg("e"), common.EditMsg{Merged: true}}, {keyMsg("i"), common.EditMsg{InApp: true, Merged: true}},
		{keyMsg("esc"), conflict.AbandonRebaseMsg{}}, {keyMsg("v"), nil}, {keyMsg("j"), nil},
	}...))
	merged, _ := c.conflict.Update(keyMsg("end")) // a change merged without conflict
	checkAnswers(t, "conflict view on a merged change", func(k tea.KeyMsg) tea.Cmd { _, cmd := merged.Update(k); return cmd },
		[]viewKey{{keyMsg("m"), common.SayMsg{Text: "a merged change has nothing to resolve: n/p moves to a conflict"}}})

	tl := drive(t, m, keys("t")...)
	id, rv, _ := tl.timeline.Selected()
	timelineAnswer := func(k tea.KeyMsg) tea.Cmd { _, cmd := tl.timeline.Update(k); return cmd }
	checkAnswers(t, "timeline", timelineAnswer, append(everywhere, []viewKey{
		{keyMsg("y"), timeline.TakeVersionMsg{ID: id, RV: rv}}, {keyMsg("enter"), timeline.ShowVersionMsg{ID: id}},
		{keyMsg("t"), timeline.CloseMsg{}}, {keyMsg("esc"), timeline.CloseMsg{}}, {keyMsg("j"), nil},
		{keyMsg("u"), common.SayMsg{Text: "u undoes the overwrite of a row marked LOST: this version lost nothing"}},
	}...))

	audit, _ := auditApp(t, 120, 40, &fakeRunner{})
	at := drive(t, audit, keys("t")...)
	// The LOST row is selected: enter asks for its lost updates, u for
	// their undoing, of the same write of the same history.
	_, enter := at.timeline.Update(keyMsg("enter"))
	shown, ok := enter().(timeline.ShowLostMsg)
	if !ok || shown.History == nil || shown.Write < 0 {
		t.Fatalf("enter on the LOST row asks for %#v", shown)
	}
	h, lost := shown.History, shown.Write
	checkAnswers(t, "timeline on a LOST row", func(k tea.KeyMsg) tea.Cmd { _, cmd := at.timeline.Update(k); return cmd }, []viewKey{
		{keyMsg("enter"), timeline.ShowLostMsg{History: h, Write: lost}},
		{keyMsg("u"), common.UndoOverwriteMsg{History: h, Write: lost}},
	})
	lv := drive(t, at, keys("enter")...)
	checkAnswers(t, "lost updates", func(k tea.KeyMsg) tea.Cmd { _, cmd := lv.lost.Update(k); return cmd }, append(everywhere, []viewKey{
		{keyMsg("u"), common.UndoOverwriteMsg{History: h, Write: lost}}, {keyMsg("esc"), conflict.CloseLostMsg{}},
		{keyMsg("j"), nil}, {keyMsg("v"), nil},
	}...))

	pv := drive(t, m, keys("p")...)
	previewView := func(k tea.KeyMsg) tea.Cmd { _, cmd := pv.preview.Update(k); return cmd }
	checkAnswers(t, "preview", previewView, append(everywhere, viewKey{keyMsg("esc"), preview.CloseMsg{}}, viewKey{keyMsg("j"), nil}))

	sv := drive(t, setApp(t, newFakeCluster(t), 120, 40, "a", "b", "c"), keys(" ", "j", " ")...) // a and c marked
	set := func(k tea.KeyMsg) tea.Cmd { _, cmd := sv.setView.Update(k); return cmd }
	checkAnswers(t, "set view", set, append(everywhere, []viewKey{
		{keyMsg("enter"), objectset.OpenMemberMsg{Member: 2}}, {keyMsg("e"), objectset.EditMsg{Members: []int{0, 2}}},
		{keyMsg("s"), objectset.SaveMsg{}}, {keyMsg("ctrl+s"), objectset.SaveMsg{}}, {keyMsg("n"), objectset.NextConflictMsg{}},
		{keyMsg("j"), nil}, {keyMsg("home"), nil}, {keyMsg(" "), nil},
	}...))

	ed := drive(t, m, keys("i")...)
	inApp := func(k tea.KeyMsg) tea.Cmd { _, cmd := ed.editor.Update(k); return cmd }
	checkAnswers(t, "in-app editor", inApp, []viewKey{
		{keyMsg("esc"), editor.LeaveMsg{}}, {keyMsg("ctrl+s"), editor.LeaveMsg{Save: true}},
		{tea.KeyMsg{Type: tea.KeyF1}, common.HelpMsg{}}, {keyMsg("ctrl+c"), editor.KeepMsg{}},
	})
	// A second ctrl+c right after the first quits; any key between starts
	// over.
	kept, _ := ed.editor.Update(keyMsg("ctrl+c"))
	if _, cmd := kept.Update(keyMsg("ctrl+c")); answerOf(cmd) != (common.ForceQuitMsg{}) {
		t.Errorf("the second ctrl+c answers %#v, want common.ForceQuitMsg{}", answerOf(cmd))
	}
	moved, _ := kept.Update(keyMsg("down"))
	if _, cmd := moved.Update(keyMsg("ctrl+c")); answerOf(cmd) != (editor.KeepMsg{}) {
		t.Errorf("ctrl+c after another key answers %#v, want editor.KeepMsg{}", answerOf(cmd))
	}
	// On a selection, ctrl+c copies and esc clears it: neither is the app's.
	selected, _ := ed.editor.Update(tea.KeyMsg{Type: tea.KeyShiftDown})
	if _, cmd := selected.Update(keyMsg("esc")); answerOf(cmd) != nil {
		t.Errorf("esc on a selection answers %#v, want nothing: it clears the selection", answerOf(cmd))
	}
	if _, cmd := selected.Update(keyMsg("ctrl+c")); answerOf(cmd) == (common.ForceQuitMsg{}) || answerOf(cmd) == (editor.KeepMsg{}) {
		t.Errorf("ctrl+c on a selection answers %#v, want the copy", answerOf(cmd))
	}
	finding, _ := ed.editor.Update(tea.KeyMsg{Type: tea.KeyCtrlF})
	if got := answerOf(func() tea.Cmd { _, cmd := finding.Update(keyMsg("esc")); return cmd }()); got != nil {
		t.Errorf("esc in the find prompt answers %#v, want nothing: it closes the prompt", got)
	}
}

// TestEditorAnswersTypingAtOnce: typing starts the pause before the text
// is checked, a timer the editor hands to Bubble Tea (common.Background): its
// answer to the key returns at once, as App.answer calls it in the
// keystroke's Update.
func TestEditorAnswersTypingAtOnce(t *testing.T) {
	m := drive(t, newApp(t, 120, 40, &fakeRunner{}), keys("i")...)
	_, cmd := m.editor.Update(runes("x"))
	if _, ok := answerOf(cmd).(tea.BatchMsg); !ok {
		t.Fatalf("typing answers %T, want the timer handed on in a tea.BatchMsg", answerOf(cmd))
	}
}

// TestHelpPageAndPromptAnswerKeys: the help page scrolls and closes
// itself and hands on a key that is not its own; a question answers y, n
// and the number of a stored draft offered, and waits through any other
// key.
func TestHelpPageAndPromptAnswerKeys(t *testing.T) {
	m := drive(t, newApp(t, 60, 15, &fakeRunner{}), keys("?")...)
	page := func(k tea.KeyMsg) tea.Cmd { _, cmd := m.help.Update(k); return cmd }
	checkAnswers(t, "help page", page, []viewKey{
		{keyMsg("j"), nil}, {keyMsg("esc"), nil}, {keyMsg("?"), nil},
		{keyMsg("f"), helppage.ClosedMsg{Key: keyMsg("f")}}, {keyMsg("ctrl+c"), common.ForceQuitMsg{}},
	})

	p := common.NewPrompt(common.DefaultPromptKeyMap(), common.NewStyles())
	p.Ask(3)
	prompt := func(k tea.KeyMsg) tea.Cmd { _, cmd := p.Update(k); return cmd }
	checkAnswers(t, "question offering 3 drafts", prompt, []viewKey{
		{keyMsg("y"), common.AnswerMsg{Yes: true}}, {keyMsg("n"), common.AnswerMsg{}}, {keyMsg("esc"), common.AnswerMsg{}},
		{keyMsg("2"), common.AnswerMsg{Yes: true, Pick: 1}}, {keyMsg("4"), nil}, {keyMsg("x"), nil},
		{keyMsg("ctrl+c"), common.ForceQuitMsg{}},
	})
	p.Ask(0)
	checkAnswers(t, "question of y or n", prompt, []viewKey{{keyMsg("1"), nil}, {keyMsg("y"), common.AnswerMsg{Yes: true}}})
}
