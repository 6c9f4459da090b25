// Package editor is the in-app editor's view: kedit's own editor
// (ui/textedit) on the draft or the rebase's merged result, with a title
// line, the keys that leave it and save, and the background check of what
// is typed. The app opens it, takes its text as it is checked, and acts on
// its LeaveMsg.
package editor

import (
	"fmt"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kedit/kedit/model"
	"github.com/kedit/kedit/ui/common"
	"github.com/kedit/kedit/ui/textedit"
)

// How soon what is typed in the in-app editor is checked and kept: once
// typing has paused for KeepQuiet, and while it goes on without a pause,
// KeepMax after the first keystroke not yet kept. The draft store then has
// it within a second of the last keystroke (the parse runs in the
// background; a mebibyte takes tens of milliseconds).
const (
	KeepQuiet = 300 * time.Millisecond
	KeepMax   = time.Second
)

// CheckedMsg is the editor's text at Version, parsed in the background
// once typing paused, with the server's field causes placed on its lines.
// The app hands it to the editor (CheckDone) and, for the draft, the text
// to the session.
type CheckedMsg struct {
	// Opening is the Open the text belongs to; Version the text's.
	Opening, Version uint64
	Text             string
	Parsed           *model.ParsedDraft
	Causes           []textedit.Note
}

// Messages of the in-app editor to itself.
type (
	// dueMsg says that the pause after typing may be over.
	dueMsg struct{ opening uint64 }
	// baseMsg is the text the gutter compares with, rendered in the
	// background.
	baseMsg struct {
		opening uint64
		text    string
	}
)

// Model edits the draft, or the rebase's merged result, in the app,
// with kedit's own editor (ui/textedit): a title line, then the text with
// a gutter of line numbers and marks against base, and notes under the
// lines a parse error or a refused save's field causes are on.
//
// What is typed is checked in the background once typing pauses (at most
// a second after the first keystroke not yet checked), and for the draft
// the app then hands it to the session, which writes it to the draft store.
type Model struct {
	keys   KeyMap
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
	// ticking: an dueMsg is on its way; checking: a check runs.
	ticking, checking bool
	// causes are the field causes of the refused save the editor was
	// opened after, drawn on their fields' lines until it is left.
	causes []model.FieldCause
	// changed is whether the text differs from what was opened, at the
	// version changedAt: Changed compares texts of equal length.
	changed   bool
	changedAt uint64

	// schema is the object's, for completion (SetSchema); completing is
	// the list ctrl+space opened, nil when none is.
	schema     Schema
	completing *completion
	// keptOnce: the last key was a ctrl+c that kept the text (KeepMsg),
	// so that the next quits.
	keptOnce bool

	// schemaFound are the schema's diagnostics of the text at
	// schemaVersion (SetDiagnostics); server is the server's own check
	// of the text (servercheck.go).
	schemaFound   []Diagnostic
	schemaVersion uint64
	server        serverChecks
}

// New returns an editor with nothing in it until Open.
func New(keys KeyMap, styles *common.Styles) Model {
	return Model{keys: keys, styles: styles, area: textedit.New()}
}

// Open puts text in the editor, cursor at the top, with the causes of a
// refused save drawn under their fields' lines. The gutter shows no marks
// until SetBase gives what to compare with.
func (m *Model) Open(text string, merged bool, causes []model.FieldCause) {
	m.area.Open(text)
	m.merged = merged
	m.opening++
	m.kept, m.checked, m.changedAt = m.area.Version(), m.area.Version(), m.area.Version()
	m.changed, m.ticking, m.checking = false, false, false
	m.dirtySince = time.Time{}
	m.causes = causes
	m.completing = nil
	m.schemaFound, m.server.found, m.server.wanted = nil, nil, 0
	// The pause of another opening is dropped when it ends: this one
	// starts its own. (A question out stays out until answered.)
	m.server.ticking = false
	if len(causes) > 0 {
		m.area.SetNotes(causeNotes(text, causes))
	}
}

// SetFormat says what the texts opened next are written in: they are
// checked, and base rendered for the gutter, in it.
func (m *Model) SetFormat(f model.Format) { m.format = f }

// Text returns the text as edited. It joins the lines: it costs the
// text's size.
func (m Model) Text() string { return m.area.Text() }

// Changed reports whether the text differs from what Open put in.
func (m Model) Changed() bool { return m.area.Changed() }

// Version counts the changes of the text (textedit.Model.Version).
func (m Model) Version() uint64 { return m.area.Version() }

// Prompting reports whether the find or go-to-line prompt is open, where
// esc closes the prompt instead of leaving the editor.
func (m Model) Prompting() bool { return m.area.Prompting() }

// HelpMode changes when the editor's help does (textedit.Model.HelpMode):
// the parent draws the footer again then, and only then.
func (m Model) HelpMode() int { return m.area.HelpMode() }

// Selected reports whether text is selected, where esc clears the
// selection instead of leaving the editor and ctrl+c copies it.
func (m Model) Selected() bool { return m.area.Selected() }

// Unkept reports whether the text changed since the session last had it.
func (m Model) Unkept() bool { return m.area.Version() != m.kept }

// Kept is the version of the text the session has.
func (m Model) Kept() uint64 { return m.kept }

// SetKept records that the session has the text at version.
func (m *Model) SetKept(version uint64) { m.kept = version }

// Opening numbers the texts opened: a CheckedMsg of another is dropped.
func (m Model) Opening() uint64 { return m.opening }

// Cursor is where the cursor is in the text.
func (m Model) Cursor() textedit.Pos { return m.area.Cursor() }

// SetCursor moves the cursor to p.
func (m *Model) SetCursor(p textedit.Pos) { m.area.SetCursor(p) }

// Lines is the number of lines of the text.
func (m Model) Lines() int { return m.area.Lines() }

// Len is the text's length in bytes.
func (m Model) Len() int { return m.area.Len() }

// TextKeys are the keys of the text itself (textedit.KeyMap).
func (m Model) TextKeys() textedit.KeyMap { return m.area.KeyMap }

// SetSize gives the editor the body's size, less its title line.
func (m *Model) SetSize(width, height int) {
	m.width = width
	m.area.SetSize(width, max(1, height-1))
}

// RenderBase renders obj as the session renders a draft, for the gutter of
// the text open to compare with, off the UI's goroutine (a mebibyte's YAML
// takes tens of milliseconds). The session never changes a version's
// object in place, so reading it there is safe.
func (m Model) RenderBase(f model.Format, obj *unstructured.Unstructured) tea.Cmd {
	if obj == nil {
		return nil
	}
	opening := m.opening
	return func() tea.Msg {
		text, err := f.Render(obj)
		if err != nil {
			return nil
		}
		return baseMsg{opening: opening, text: text}
	}
}

// leaveSave are esc and ctrl+s said for what they do to the text open:
// the title and the help are drawn from them, so that both say the same.
// On the merged result, an edit becomes the draft, rebased onto theirs,
// and ctrl+s resubmits it.
func (m Model) leaveSave() (leave, save key.Binding) {
	if m.merged {
		return common.StateHelp(m.keys.Leave, "leave, edits become the rebased draft"), common.StateHelp(m.keys.Save, "resubmit")
	}
	return m.keys.Leave, m.keys.Save
}

// View draws a title line and the text.
func (m Model) View() string {
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
	return m.styles.Draft.Render(ansi.Truncate(title, m.width, "…")) + "\n" + m.completionView(m.area.View())
}

// refreshChanged brings the title's "(changed)" up to the text, once per
// version: comparing with what was opened may read the whole text.
func (m *Model) refreshChanged() {
	if v := m.area.Version(); v != m.changedAt {
		m.changed, m.changedAt = m.area.Changed(), v
	}
}

// ShortHelp is the editor's keys for the help line: leaving and saving,
// then the editor's own; inside a prompt, the prompt's.
func (m Model) ShortHelp() []key.Binding {
	leave, save := m.leaveSave()
	if m.area.Prompting() {
		return append(m.area.ShortHelp(), save)
	}
	if m.area.Selected() {
		// esc clears the selection, ctrl+c copies it.
		return append(m.area.ShortHelp(), save, m.keys.Help)
	}
	return append([]key.Binding{leave, save, m.keys.Help}, append(m.area.ShortHelp(), m.keys.ForceQuit)...)
}

// FullHelp is every key of the editor: textedit's groups, the last with
// leaving, saving, help and quitting under it (a column more would not fit
// 120 columns).
func (m Model) FullHelp() [][]key.Binding {
	groups := m.area.FullHelp()
	last := len(groups) - 1
	leave, save := m.leaveSave()
	groups[last] = append(groups[last], leave, save, m.keys.Complete, m.keys.Docs, m.keys.Help, m.keys.ForceQuit)
	return groups
}
