package ui

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"k8s.io/apimachinery/pkg/api/meta"

	"github.com/kedit/kedit/internal/drafts"
	"github.com/kedit/kedit/kube"
	"github.com/kedit/kedit/model"
	"github.com/kedit/kedit/ui/editor"
	"github.com/kedit/kedit/ui/textedit"
)

// The in-app editor in the app: typing kept through the
// session, notes on their lines, the gutter against base, the merged
// result, pastes, and the keys the app keeps for itself.

func runes(s string) tea.KeyMsg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)} }

func paste(s string) tea.KeyMsg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s), Paste: true} }

// storeFor returns a draft store for testmap in a temporary directory.
func storeFor(t *testing.T) *drafts.Object {
	t.Helper()
	store := &drafts.Store{Dir: filepath.Join(t.TempDir(), "kedit", "drafts")}
	target := &kube.Target{Context: ref.Context, Namespace: ref.Namespace, Name: ref.Name,
		Mapping: &meta.RESTMapping{Resource: ref.Resource, Scope: meta.RESTScopeNamespace}}
	drafts := store.Open(kube.DraftKey(target), "u-1")
	t.Cleanup(drafts.Close)
	return drafts
}

// TestEditorKeepsTyping: what is typed goes to the session, and from it to
// the draft store, once typing pauses, without leaving the editor or
// moving its cursor; esc then has nothing more to hand over, and leaving
// shows the draft.
func TestEditorKeepsTyping(t *testing.T) {
	drafts := storeFor(t)
	r := &fakeRunner{drafts: drafts}
	m := newApp(t, 80, 24, r, withDrafts(drafts))
	m = drive(t, m, keys("i")...)
	m = typeIn(t, m, keyMsg("down"), keyMsg("end"), tea.KeyMsg{Type: tea.KeyEnter}, runes("  baz: typed"))
	if m.screen != screenEditor || m.editor.Cursor() != (textedit.Pos{Line: 2, Col: 12}) {
		t.Fatalf("the kept draft moved the editor: screen %v, cursor %+v", m.screen, m.editor.Cursor())
	}
	if d := m.Session().Draft(); d == nil || !strings.Contains(d.Text, "  baz: typed\n") {
		t.Fatalf("the typing is not the session's draft: %+v", d)
	}
	if b, err := os.ReadFile(drafts.Path()); err != nil || !strings.Contains(string(b), "baz: typed") {
		t.Fatalf("the draft file holds %q (%v)", b, err)
	}
	if n := len(r.writes()); n != 1 {
		t.Errorf("%d draft writes for one burst of typing, want 1", n)
	}
	// More typing, then esc at once: esc hands over what the pause has
	// not yet kept.
	d := newDriver(t, m)
	d.send(runes("2"))
	d.send(keyMsg("esc"))
	m = d.settle()
	if dr := m.Session().Draft(); m.screen != screenObject || dr == nil || !strings.Contains(dr.Text, "baz: typed2") {
		t.Fatalf("esc: screen %v, draft %+v", m.screen, dr)
	}
	if !strings.Contains(plain(m), "baz: typed2") {
		t.Errorf("the object view does not show the draft:\n%s", plain(m))
	}
	if w := r.writes(); w[len(w)-1] != m.Session().Draft().Text {
		t.Errorf("the last write is not the draft")
	}
}

// TestEditorKeepsWhileTypingGoesOn: typing that never pauses for long
// enough is still kept, about a second after it began.
func TestEditorKeepsWhileTypingGoesOn(t *testing.T) {
	r := &fakeRunner{}
	m := drive(t, newApp(t, 80, 24, r), keys("i")...)
	d := newDriver(t, m)
	start := time.Now()
	for time.Since(start) < 3*editor.KeepMax && len(r.writes()) == 0 {
		d.send(runes("x"))
		// Keystrokes come faster than the pause that would keep them.
		d.runFor(editor.KeepQuiet / 3)
	}
	if len(r.writes()) == 0 {
		t.Fatalf("nothing kept after %s of typing", time.Since(start))
	}
	d.settle()
}

// runFor handles what arrives for a while, as the program does between
// keystrokes.
func (d *driver) runFor(dur time.Duration) {
	d.t.Helper()
	deadline := time.After(dur)
	for {
		select {
		case msg := <-d.msgs:
			d.send(msg)
		case <-d.done:
			d.running--
		case <-deadline:
			return
		}
	}
}

// TestEditorSignalsAndCtrlCTakeTheText: ctrl+c and a signal take what the
// editor holds at once, before any pause.
func TestEditorSignalsAndCtrlCTakeTheText(t *testing.T) {
	for _, end := range []tea.Msg{tea.KeyMsg{Type: tea.KeyCtrlC}, SignalMsg{Signal: syscall.SIGTERM}} {
		// On disk, so that ctrl+c quits at once.
		drafts := storeFor(t)
		m := drive(t, newApp(t, 80, 24, &fakeRunner{drafts: drafts}, withDrafts(drafts)), keys("i")...)
		d := newDriver(t, m)
		d.send(keyMsg("down"))
		d.send(keyMsg("end"))
		d.send(tea.KeyMsg{Type: tea.KeyEnter})
		d.send(runes("  baz: now"))
		d.send(end)
		if _, ctrlC := end.(tea.KeyMsg); ctrlC {
			// The first ctrl+c keeps the text and says so, the editor
			// open; the second quits.
			m = d.settle()
			if dr := m.Session().Draft(); d.quit || m.screen != screenEditor || dr == nil || !strings.Contains(dr.Text, "baz: now") ||
				!strings.Contains(plain(m), "draft kept: ctrl+c again quits, esc leaves") {
				t.Fatalf("the first ctrl+c: quit %v, draft %+v:\n%s", d.quit, dr, plain(m))
			}
			d.send(end)
		}
		m = d.settle()
		if dr := m.Session().Draft(); !d.quit || dr == nil || !strings.Contains(dr.Text, "baz: now") {
			t.Errorf("%T: quit %v, draft %+v", end, d.quit, dr)
		}
	}
}

// TestEditorCheckResults: a check of another opening is dropped; one of a
// text that changed since still reaches the session (it is newer than what
// the session has) but draws no notes, which would be on the wrong lines;
// the text as it is now is checked and kept next.
func TestEditorCheckResults(t *testing.T) {
	m := drive(t, newApp(t, 80, 24, &fakeRunner{}), keys("i")...)
	text := m.editor.Text()
	bad := text + "x: ["
	m = drive(t, m, editor.CheckedMsg{Opening: m.editor.Opening() - 1, Version: m.editor.Version() + 1, Text: bad, Parsed: model.FormatYAML.ParseDraft(bad)})
	if m.Session().Draft() != nil {
		t.Fatal("a check of another opening reached the session")
	}
	// The check of "x: [" comes back after "]" was typed.
	d := newDriver(t, m)
	d.send(tea.KeyMsg{Type: tea.KeyCtrlEnd})
	d.send(runes("x: ["))
	var held editor.CheckedMsg
	for held.Text == "" {
		select {
		case msg := <-d.msgs:
			if c, ok := msg.(editor.CheckedMsg); ok {
				held = c
				continue
			}
			d.send(msg)
		case <-d.done:
			d.running--
		case <-time.After(10 * time.Second):
			t.Fatal("no check")
		}
	}
	d.send(runes("]"))
	d.send(held)
	if dr := d.m.Session().Draft(); dr == nil || dr.Text != bad {
		t.Fatalf("the older check did not reach the session: %+v", dr)
	}
	if strings.Contains(plain(d.m), "↑ cannot be saved") {
		t.Errorf("notes of an older text are drawn:\n%s", plain(d.m))
	}
	m = d.settle()
	if dr := m.Session().Draft(); dr == nil || dr.Text != text+"x: []" || dr.Err != nil || m.status.Text() != "" {
		t.Fatalf("the latest text is not kept, or the complaint about the older stays (%q): %+v", m.status.Text(), dr)
	}
}

// TestEditorParseErrorNote: text that does not parse is kept as the draft,
// with the parse error under its line and in the status bar; fixed, both
// go.
func TestEditorParseErrorNote(t *testing.T) {
	m := drive(t, newApp(t, 80, 24, &fakeRunner{}), keys("i")...)
	m = typeIn(t, m, keyMsg("down"), keyMsg("end"), tea.KeyMsg{Type: tea.KeyEnter}, runes("  bad: [unclosed"))
	var de *model.DraftError
	if d := m.Session().Draft(); d == nil || !errors.As(d.Err, &de) || !strings.Contains(d.Text, "bad: [unclosed") {
		t.Fatalf("the draft that does not parse is not kept: %+v", d)
	}
	// Under the line the parser names (where it found the problem).
	screen := plain(m)
	lines := strings.Split(screen, "\n")
	at := -1
	for i, l := range lines {
		if f := strings.Fields(l); len(f) > 1 && strings.TrimLeft(l, " +~-") != l && f[len(f)-1] != "" && strings.HasPrefix(strings.TrimLeft(l, " +~-"), strconv.Itoa(de.Line)+" ") {
			at = i
		}
	}
	if at < 0 || at+1 >= len(lines) || !strings.Contains(lines[at+1], "cannot be saved: did not find expected") {
		t.Fatalf("no parse error under line %d:\n%s", de.Line, screen)
	}
	if !strings.Contains(m.status.Text(), "cannot be saved") {
		t.Errorf("status %q", m.status.Text())
	}
	m = typeIn(t, m, runes("]"))
	if strings.Contains(plain(m), "cannot be saved") || m.status.Text() != "" {
		t.Errorf("fixed, the note or the status stays:\n%s", plain(m))
	}
}

// invalidCause is a 422 on metadata.labels.
var invalidCause = &apiError{Kind: model.ErrorInvalid, Message: "ConfigMap is invalid",
	Causes: []model.FieldCause{{Field: "metadata.labels", Message: `Invalid value: "bad key!": name part must consist of alphanumeric characters`}}}

// TestEditorCauseNotes: the field causes of a refused save are drawn under
// their fields' lines while editing, and follow them as lines are added
// above.
func TestEditorCauseNotes(t *testing.T) {
	r := &fakeRunner{fail: invalidCause}
	m := edit(t, newApp(t, 120, 40, r), "  name: testmap\n", "  labels:\n    \"bad key!\": x\n  name: testmap\n")
	m = drive(t, m, keys("s")...)
	m = drive(t, m, keys("i")...)
	below := func(m App, line, note string) bool {
		ls := strings.Split(plain(m), "\n")
		for i, l := range ls {
			if strings.HasSuffix(strings.TrimRight(l, " "), line) && i+1 < len(ls) && strings.Contains(ls[i+1], note) {
				return true
			}
		}
		return false
	}
	const note = "refused by the server: metadata.labels: Invalid value"
	if !below(m, "labels:", note) {
		t.Fatalf("no cause under labels:\n%s", plain(m))
	}
	m = typeIn(t, m, tea.KeyMsg{Type: tea.KeyEnter}, runes("# above"))
	if !below(m, "labels:", note) {
		t.Fatalf("the cause did not follow its line:\n%s", plain(m))
	}
}

// TestEditorControlCharacters: a draft holding raw control characters (an
// object from the server never gives one: its YAML quotes them as escapes,
// so they come from $EDITOR or a paste) opens in the app (no longer sent
// to $EDITOR), drawn escaped, and is kept byte for byte, whether nothing
// is typed or something is typed elsewhere.
func TestEditorControlCharacters(t *testing.T) {
	evil := "a\x1b]52;c;aGk=\x07b\u202ec\r"
	m := newAppWith(t, 120, 40, &fakeRunner{}, map[string]any{"evil": evil})
	if text, _ := m.Session().DraftText(); !strings.Contains(text, `evil: "a\x1b]52;c;aGk=\x07b\u202ec\r"`) {
		t.Fatalf("the server's control characters are not quoted as escapes in the YAML:\n%s", text)
	}
	m = edit(t, m, "kind: ConfigMap\n", "kind: ConfigMap\n# "+evil+"\n")
	before, _ := m.Session().DraftText()
	m = drive(t, m, keys("i")...)
	if m.screen != screenEditor {
		t.Fatalf("i refused: %q", m.status.Text())
	}
	if v := m.View(); strings.Contains(v, "\x1b]52") || strings.Contains(v, "\u202e") || !strings.Contains(plain(m), `# a\x1b]52;c;aGk=\x07b\u202ec\r`) {
		t.Fatalf("the control characters are not escaped:\n%s", plain(m))
	}
	m = drive(t, m, keys("esc")...)
	if d := m.Session().Draft(); d == nil || d.Text != before {
		t.Fatalf("leaving without typing changed the draft: %+v", d)
	}
	m = drive(t, m, keys("i")...)
	m = typeIn(t, m, tea.KeyMsg{Type: tea.KeyCtrlEnd}, runes("immutable: true"))
	m = drive(t, m, keys("esc")...)
	if d := m.Session().Draft(); d == nil || d.Text != before+"immutable: true" {
		t.Fatalf("the draft is %+v, want %q", m.Session().Draft(), before+"immutable: true")
	}
}

// TestEditorPromptAndTheAppKeys: esc inside find closes the prompt and
// stays; ctrl+s inside it closes it and saves; f1 shows every key.
func TestEditorPromptAndTheAppKeys(t *testing.T) {
	r := &fakeRunner{}
	m := drive(t, newApp(t, 120, 40, r), keys("i")...)
	m = typeIn(t, m, tea.KeyMsg{Type: tea.KeyCtrlF}, runes("foo"))
	if !m.editor.Prompting() || !strings.Contains(plain(m), "find: foo") {
		t.Fatalf("no find prompt:\n%s", plain(m))
	}
	m = drive(t, m, keys("esc")...)
	if m.screen != screenEditor || m.editor.Prompting() {
		t.Fatalf("esc in the prompt: screen %v, prompting %v", m.screen, m.editor.Prompting())
	}
	// Into foo's value ("1" becomes "12"), then find again, and ctrl+s.
	m = typeIn(t, m, tea.KeyMsg{Type: tea.KeyCtrlF}, runes("foo"), tea.KeyMsg{Type: tea.KeyEnd}, tea.KeyMsg{Type: tea.KeyLeft}, runes("2"), tea.KeyMsg{Type: tea.KeyCtrlF})
	m = drive(t, m, keys("ctrl+s")...)
	if m.screen != screenObject || m.Session().State() != model.StateSaved || dataOf(r.server, "foo") != "12" {
		t.Fatalf("ctrl+s in the prompt: screen %v, state %v, server %v", m.screen, m.Session().State(), r.server.Object["data"])
	}
	m = drive(t, m, keys("i")...)
	m = drive(t, m, tea.KeyMsg{Type: tea.KeyF1})
	for _, k := range []string{"ctrl+z", "ctrl+k", "ctrl+home", "alt+←", "shift+tab", "esc", "ctrl+s", "ctrl+c"} {
		if !strings.Contains(plain(m), k) {
			t.Errorf("the full help does not show %s:\n%s", k, plain(m))
		}
	}
	if m.editor.Changed() {
		t.Error("f1 was typed")
	}
}

// TestEditorPasteIsOneStepAndOneWrite: a paste cut into many, as kedit's
// input filter hands a long one on, is one undo step and one draft write.
func TestEditorPasteIsOneStepAndOneWrite(t *testing.T) {
	r := &fakeRunner{}
	m := drive(t, newApp(t, 80, 24, r), keys("i")...)
	msgs := []tea.Msg{tea.KeyMsg{Type: tea.KeyCtrlEnd}}
	var whole strings.Builder
	for i := range 400 {
		chunk := "  k" + strings.Repeat("x", i%50) + ": v\r"
		whole.WriteString(chunk)
		msgs = append(msgs, paste(chunk))
	}
	opened := m.editor.Text()
	m = typeIn(t, m, msgs...)
	want := opened + strings.ReplaceAll(whole.String(), "\r", "\n")
	if m.editor.Text() != want || m.Session().Draft() == nil || m.Session().Draft().Text != want {
		t.Fatal("the paste did not go in whole, or was not kept")
	}
	if n := len(r.writes()); n != 1 {
		t.Errorf("%d draft writes for one paste, want 1", n)
	}
	m = typeIn(t, m, tea.KeyMsg{Type: tea.KeyCtrlZ})
	if m.editor.Text() != opened {
		t.Error("one undo did not take the whole paste back")
	}
}

// TestEditorMergedResult: i in the conflict view edits the merged result
// with its block; the gutter compares it with theirs, and a note on the
// block names the field; esc with the block left in is refused, naming the
// field, and the conflict view stays with its resolutions.
func TestEditorMergedResult(t *testing.T) {
	m, r := conflicted(t, 120)
	draft := m.Session().Draft().Text
	m = drive(t, m, keys("i")...)
	if m.screen != screenEditor || !strings.Contains(m.editor.Text(), "<<<<<<< mine") {
		t.Fatalf("i in the conflict view: screen %v", m.screen)
	}
	m = typeIn(t, m, tea.KeyMsg{Type: tea.KeyCtrlEnd}, runes("# looked"))
	screen := plain(m)
	if !strings.Contains(screen, "cannot be saved: .data.foo: unresolved conflict block") {
		t.Errorf("no note on the block:\n%s", screen)
	}
	for _, l := range strings.Split(screen, "\n") {
		if strings.Contains(l, "<<<<<<< mine") && !strings.HasPrefix(l, "+") {
			t.Errorf("the block's line is not marked as added against theirs: %q", l)
		}
		if strings.Contains(l, "foo: theirs") && strings.HasPrefix(l, "+") {
			t.Errorf("theirs' own line is marked: %q", l)
		}
	}
	if len(r.writes()) != 1 || m.Session().Draft().Text != draft {
		t.Error("typing the merged result wrote the draft")
	}
	m = drive(t, m, keys("esc")...)
	if m.screen != screenConflict || m.Session().Rebase() == nil || !strings.Contains(m.status.Text(), ".data.foo") {
		t.Fatalf("esc with the block: screen %v, status %q", m.screen, m.status.Text())
	}
}

// TestEditorMouse: a click moves the cursor to the cell under it, the
// title line counted.
func TestEditorMouse(t *testing.T) {
	m := drive(t, newApp(t, 80, 24, &fakeRunner{}), keys("i")...)
	m = drive(t, m, tea.MouseMsg{X: 8, Y: 3, Button: tea.MouseButtonLeft, Action: tea.MouseActionPress})
	if c := m.editor.Cursor(); c != (textedit.Pos{Line: 2, Col: 4}) {
		t.Fatalf("a click on row 3, column 8 put the cursor at %+v", c)
	}
}

// TestEditorDraftErrorsStillSaid: a save refused because the kept draft
// does not parse says so, and sends nothing.
func TestEditorDraftErrorsStillSaid(t *testing.T) {
	r := &fakeRunner{}
	m := drive(t, newApp(t, 80, 24, r), keys("i")...)
	m = typeIn(t, m, runes("x: [\n"))
	m = drive(t, m, keys("ctrl+s")...)
	var de *model.DraftError
	if r.saves != 0 || m.screen != screenObject || !errors.As(m.Session().Draft().Err, &de) {
		t.Fatalf("saves %d, screen %v", r.saves, m.screen)
	}
}
