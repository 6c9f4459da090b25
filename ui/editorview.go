package ui

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/model"
	"github.com/kedit/kedit/ui/common"
	"github.com/kedit/kedit/ui/helppage"
	"github.com/kedit/kedit/ui/textedit"
)

// How soon what is typed in the in-app editor is checked and kept: once
// typing has paused for keepQuiet, and while it goes on without a pause,
// keepMax after the first keystroke not yet kept. The draft store then has
// it within a second of the last keystroke (the parse runs in the
// background; a mebibyte takes tens of milliseconds).
const (
	keepQuiet = 300 * time.Millisecond
	keepMax   = time.Second
)

// Messages of the in-app editor.
type (
	// editorDueMsg says that the pause after typing may be over.
	editorDueMsg struct{ opening uint64 }
	// editorCheckedMsg is the editor's text at version, parsed in the
	// background, with the server's field causes placed on its lines.
	editorCheckedMsg struct {
		opening, version uint64
		text             string
		parsed           *model.ParsedDraft
		causes           []textedit.Note
	}
	// editorBaseMsg is the text the gutter compares with, rendered in the
	// background.
	editorBaseMsg struct {
		opening uint64
		text    string
	}
)

// EditorView edits the draft, or the rebase's merged result, in the app,
// with kedit's own editor (ui/textedit): a title line, then the text with
// a gutter of line numbers and marks against base, and notes under the
// lines a parse error or a refused save's field causes are on.
//
// What is typed is checked in the background once typing pauses (at most
// a second after the first keystroke not yet checked), and for the draft
// the app then hands it to the session, which writes it to the draft store.
type EditorView struct {
	keys   EditorKeyMap
	styles *common.Styles
	area   textedit.Model
	width  int
	// merged is set while the text is the rebase's merged result, not
	// the draft.
	merged bool
	// format is what the text is written in (SetFormat).
	format model.Format

	// opening numbers each Open: what commands started for an earlier
	// text report is dropped.
	opening uint64
	// kept is the version of the text the session has: opened, or last
	// handed to it.
	kept uint64
	// checked is the version last checked in the background.
	checked uint64
	// typedAt is when the text last changed; dirtySince when it first
	// changed after it was last checked.
	typedAt, dirtySince time.Time
	// ticking: an editorDueMsg is on its way; checking: a check runs.
	ticking, checking bool
	// causes are the field causes of the refused save the editor was
	// opened after, drawn on their fields' lines until it is left.
	causes []model.FieldCause
	// changed is whether the text differs from what was opened, at the
	// version changedAt: Changed compares texts of equal length.
	changed   bool
	changedAt uint64
}

// NewEditorView returns an editor with nothing in it until Open.
func NewEditorView(keys EditorKeyMap, styles *common.Styles) EditorView {
	return EditorView{keys: keys, styles: styles, area: textedit.New()}
}

// Open puts text in the editor, cursor at the top, with the causes of a
// refused save drawn under their fields' lines. The gutter shows no marks
// until SetBase gives what to compare with.
func (m *EditorView) Open(text string, merged bool, causes []model.FieldCause) {
	m.area.Open(text)
	m.merged = merged
	m.opening++
	m.kept, m.checked, m.changedAt = m.area.Version(), m.area.Version(), m.area.Version()
	m.changed, m.ticking, m.checking = false, false, false
	m.dirtySince = time.Time{}
	m.causes = causes
	if len(causes) > 0 {
		m.area.SetNotes(causeNotes(text, causes))
	}
}

// SetFormat says what the texts opened next are written in: they are
// checked, and base rendered for the gutter, in it.
func (m *EditorView) SetFormat(f model.Format) { m.format = f }

// Text returns the text as edited. It joins the lines: it costs the
// text's size.
func (m EditorView) Text() string { return m.area.Text() }

// Changed reports whether the text differs from what Open put in.
func (m EditorView) Changed() bool { return m.area.Changed() }

// Version counts the changes of the text (textedit.Model.Version).
func (m EditorView) Version() uint64 { return m.area.Version() }

// Prompting reports whether the find or go-to-line prompt is open, where
// esc closes the prompt instead of leaving the editor.
func (m EditorView) Prompting() bool { return m.area.Prompting() }

// unkept reports whether the text changed since the session last had it.
func (m EditorView) unkept() bool { return m.area.Version() != m.kept }

// setKept records that the session has the text as it is now.
func (m *EditorView) setKept() { m.kept = m.area.Version() }

// SetSize gives the editor the body's size, less its title line.
func (m *EditorView) SetSize(width, height int) {
	m.width = width
	m.area.SetSize(width, max(1, height-1))
}

// LeaveEditorMsg asks to leave the in-app editor (esc), keeping what was
// typed, and with Save to save it too (ctrl+s).
type LeaveEditorMsg struct{ Save bool }

// Update types into the text, scrolls and clicks (the mouse's row counted
// from the title line), takes the editor's background results, and checks
// the text once typing pauses. Leaving (esc, unless a prompt is open,
// which esc closes), saving (ctrl+s, from a prompt too), f1 and ctrl+c
// come back as intents; every other key is typed, q and ? included.
func (m EditorView) Update(msg tea.Msg) (EditorView, tea.Cmd) {
	if k, ok := msg.(tea.KeyMsg); ok {
		if in := m.intent(k); in != nil {
			return m, common.Emit(in)
		}
		next, cmd := m.edit(msg)
		return next, common.Background(cmd)
	}
	return m.edit(msg)
}

// intent is what k asks of the app; nil for a key that is typed.
func (m EditorView) intent(k tea.KeyMsg) tea.Msg {
	if k.Paste {
		// Text, never a key: matching bindings would render a long paste
		// as a string once per binding.
		return nil
	}
	switch {
	case key.Matches(k, m.keys.ForceQuit):
		return common.ForceQuitMsg{}
	case key.Matches(k, m.keys.Help):
		return common.HelpMsg{}
	case key.Matches(k, m.keys.Save):
		return LeaveEditorMsg{Save: true}
	case key.Matches(k, m.keys.Leave) && !m.area.Prompting():
		return LeaveEditorMsg{}
	}
	return nil
}

// edit hands msg to the text, and checks the text once typing pauses.
func (m EditorView) edit(msg tea.Msg) (EditorView, tea.Cmd) {
	switch msg := msg.(type) {
	case editorDueMsg:
		if msg.opening != m.opening {
			return m, nil
		}
		m.ticking = false
		cmd := m.due()
		return m, cmd
	case editorBaseMsg:
		if msg.opening != m.opening {
			return m, nil
		}
		cmd := m.area.SetBase(msg.text)
		return m, cmd
	case tea.MouseMsg:
		// The title line is above the text.
		msg.Y--
		var cmd tea.Cmd
		m.area, cmd = m.area.Update(msg)
		return m, cmd
	}
	v := m.area.Version()
	var cmd tea.Cmd
	m.area, cmd = m.area.Update(msg)
	if m.area.Version() == v {
		return m, cmd
	}
	m.refreshChanged()
	now := time.Now()
	m.typedAt = now
	if m.dirtySince.IsZero() {
		m.dirtySince = now
	}
	tick := m.schedule(keepQuiet)
	return m, tea.Batch(cmd, tick)
}

// schedule asks for an editorDueMsg after d, unless one is on its way.
func (m *EditorView) schedule(d time.Duration) tea.Cmd {
	if m.ticking {
		return nil
	}
	m.ticking = true
	opening := m.opening
	return tea.Tick(d, func(time.Time) tea.Msg { return editorDueMsg{opening} })
}

// due starts the check of the text once typing has paused for keepQuiet,
// or has gone on for keepMax since the text was last checked; before
// that it waits again.
func (m *EditorView) due() tea.Cmd {
	if m.checking || m.area.Version() == m.checked {
		// A running check asks again when it is done.
		return nil
	}
	now := time.Now()
	at := m.typedAt.Add(keepQuiet)
	if limit := m.dirtySince.Add(keepMax); limit.Before(at) {
		at = limit
	}
	if wait := at.Sub(now); wait > 0 {
		return m.schedule(wait)
	}
	m.checking, m.dirtySince = true, time.Time{}
	return checkCmd(m.opening, m.format, m.area.Version(), m.area.Text(), m.causes)
}

// checkCmd parses text and places the causes on its lines, off the UI's
// goroutine.
func checkCmd(opening uint64, f model.Format, version uint64, text string, causes []model.FieldCause) tea.Cmd {
	return func() tea.Msg {
		return editorCheckedMsg{opening: opening, version: version, text: text,
			parsed: f.ParseDraft(text), causes: causeNotes(text, causes)}
	}
}

// checkDone takes a check's result: false for another opening's. A text
// that changed meanwhile is checked again after a pause.
func (m *EditorView) checkDone(msg editorCheckedMsg) (bool, tea.Cmd) {
	if msg.opening != m.opening {
		return false, nil
	}
	m.checking = false
	m.checked = max(m.checked, msg.version)
	if m.area.Version() != msg.version {
		if m.dirtySince.IsZero() {
			m.dirtySince = time.Now()
		}
		return true, m.schedule(keepQuiet)
	}
	return true, nil
}

// setNotes draws the causes and the parse error err (a *model.DraftError
// names its line) under their lines.
func (m *EditorView) setNotes(causes []textedit.Note, err error) {
	notes := causes
	if n, ok := parseNote(err); ok {
		notes = append(append([]textedit.Note(nil), causes...), n)
	}
	m.area.SetNotes(notes)
}

// parseNote is the note that says why the text cannot be saved, on the
// line it names (the first when it names none).
func parseNote(err error) (textedit.Note, bool) {
	if err == nil {
		return textedit.Note{}, false
	}
	de, ok := err.(*model.DraftError)
	if !ok {
		return textedit.Note{Text: "cannot be saved: " + common.ErrorText(err)}, true
	}
	text := escape.Safe(de.Msg)
	if de.Field != "" {
		text = escape.Safe(de.Field) + ": " + text
	}
	if de.Column > 0 {
		text = escape.Textf("column %d: %s", de.Column, text)
	}
	return textedit.Note{Line: max(de.Line-1, 0), Text: "cannot be saved: " + text}, true
}

// causeNotes places each field cause of a refused save on its field's
// line in text (common.CauseLine, as the object view does), or on the first line
// when the field is not found.
func causeNotes(text string, causes []model.FieldCause) []textedit.Note {
	if len(causes) == 0 {
		return nil
	}
	lines := strings.Split(text, "\n")
	notes := make([]textedit.Note, 0, len(causes))
	for _, c := range causes {
		notes = append(notes, textedit.Note{Line: max(common.CauseLine(lines, c.Field), 0),
			Text: "refused by the server: " + common.CauseText(c)})
	}
	return notes
}

// renderBaseCmd renders obj as the session renders a draft, for the
// gutter to compare with, off the UI's goroutine (a mebibyte's YAML takes
// tens of milliseconds). The session never changes a version's object in
// place, so reading it here is safe.
func renderBaseCmd(opening uint64, f model.Format, obj *unstructured.Unstructured) tea.Cmd {
	if obj == nil {
		return nil
	}
	return func() tea.Msg {
		text, err := f.Render(obj)
		if err != nil {
			return nil
		}
		return editorBaseMsg{opening: opening, text: text}
	}
}

// leaveSave are esc and ctrl+s said for what they do to the text open:
// the title and the help are drawn from them, so that both say the same.
// On the merged result, an edit becomes the draft, rebased onto theirs,
// and ctrl+s resubmits it.
func (m EditorView) leaveSave() (leave, save key.Binding) {
	if m.merged {
		return common.StateHelp(m.keys.Leave, "leave, edits become the rebased draft"), common.StateHelp(m.keys.Save, "resubmit")
	}
	return m.keys.Leave, m.keys.Save
}

// View draws a title line and the text.
func (m EditorView) View() string {
	leave, save := m.leaveSave()
	title := "editing the draft: "
	if m.merged {
		title = "editing the merged result: "
	}
	title += leave.Help().Key + " " + leave.Help().Desc + " • " + save.Help().Key + " " + save.Help().Desc
	if m.changed {
		title += "  (changed)"
	}
	c := m.area.Cursor()
	title += fmt.Sprintf("  line %d/%d col %d", c.Line+1, m.area.Lines(), m.area.CursorColumn()+1)
	return m.styles.Draft.Render(ansi.Truncate(title, m.width, "…")) + "\n" + m.area.View()
}

// refreshChanged brings the title's "(changed)" up to the text, once per
// version: comparing with what was opened may read the whole text.
func (m *EditorView) refreshChanged() {
	if v := m.area.Version(); v != m.changedAt {
		m.changed, m.changedAt = m.area.Changed(), v
	}
}

// HelpPageKeys are the help page's keys k over the editor, whose letters
// are typed: it scrolls with the editor's arrows and page keys only.
func (m EditorView) HelpPageKeys(k helppage.KeyMap) helppage.KeyMap {
	t := m.area.KeyMap
	k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom = t.Up, t.Down, t.PageUp, t.PageDown, t.DocStart, t.DocEnd
	return k
}

// ShortHelp is the editor's keys for the help line: leaving and saving,
// then the editor's own; inside a prompt, the prompt's.
func (m EditorView) ShortHelp() []key.Binding {
	leave, save := m.leaveSave()
	if m.area.Prompting() {
		return append(m.area.ShortHelp(), save)
	}
	return append([]key.Binding{leave, save, m.keys.Help}, append(m.area.ShortHelp(), m.keys.ForceQuit)...)
}

// FullHelp is every key of the editor: textedit's groups, the last with
// leaving, saving, help and quitting under it (a column more would not fit
// 120 columns).
func (m EditorView) FullHelp() [][]key.Binding {
	groups := m.area.FullHelp()
	last := len(groups) - 1
	leave, save := m.leaveSave()
	groups[last] = append(groups[last], leave, save, m.keys.Help, m.keys.ForceQuit)
	return groups
}
