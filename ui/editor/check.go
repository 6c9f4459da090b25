package editor

import (
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/model"
	"github.com/kedit/kedit/ui/common"
	"github.com/kedit/kedit/ui/textedit"
)

// Checking what is typed: a pause after the last key, then the whole text
// parsed in the background, its notes (and the server's field causes of a
// refused save) put on their lines.

// schedule asks for an dueMsg after d, unless one is on its way.
func (m *Model) schedule(d time.Duration) tea.Cmd {
	if m.ticking {
		return nil
	}
	m.ticking = true
	opening := m.opening
	return tea.Tick(d, func(time.Time) tea.Msg { return dueMsg{opening} })
}

// due starts the check of the text once typing has paused for KeepQuiet,
// or has gone on for KeepMax since the text was last checked; before
// that it waits again.
func (m *Model) due() tea.Cmd {
	if m.checking || m.area.Version() == m.checked {
		// A running check asks again when it is done.
		return nil
	}
	now := time.Now()
	at := m.typedAt.Add(KeepQuiet)
	if limit := m.dirtySince.Add(KeepMax); limit.Before(at) {
		at = limit
	}
	if wait := at.Sub(now); wait > 0 {
		return m.schedule(wait)
	}
	m.checking, m.dirtySince = true, time.Time{}
	return checkCmd(m.opening, m.format, m.area.Version(), m.area.Text(), m.causes)
}

// CheckOpened checks the text just opened in the background, as a pause
// after typing would (a CheckedMsg): a line that cannot be parsed is
// marked when the editor opens, without a keystroke. The app asks it when
// it does not know the text parses (a draft that does not, the merged
// result).
func (m *Model) CheckOpened() tea.Cmd {
	if m.checking {
		return nil
	}
	m.checking = true
	return checkCmd(m.opening, m.format, m.area.Version(), m.area.Text(), m.causes)
}

// checkCmd parses text and places the causes on its lines, off the UI's
// goroutine.
func checkCmd(opening uint64, f model.Format, version uint64, text string, causes []model.FieldCause) tea.Cmd {
	return func() tea.Msg { return Check(opening, f, version, text, causes) }
}

// Check parses text, version of the text of opening, in f and places the
// causes on its lines: what runs in the background once typing pauses.
func Check(opening uint64, f model.Format, version uint64, text string, causes []model.FieldCause) CheckedMsg {
	return CheckedMsg{Opening: opening, Version: version, Text: text,
		Parsed: f.ParseDraft(text), Causes: causeNotes(text, causes)}
}

// CheckDone takes a check's result: false for another opening's. A text
// that changed meanwhile is checked again after a pause.
func (m *Model) CheckDone(msg CheckedMsg) (bool, tea.Cmd) {
	if msg.Opening != m.opening {
		return false, nil
	}
	m.checking = false
	m.checked = max(m.checked, msg.Version)
	if m.area.Version() != msg.Version {
		if m.dirtySince.IsZero() {
			m.dirtySince = time.Now()
		}
		return true, m.schedule(KeepQuiet)
	}
	return true, nil
}

// SetNotes draws the causes and the parse error err (a *model.DraftError
// names its line) under their lines. A text that does not parse has no
// diagnostics; one that does keeps those it has until SetDiagnostics
// gives its own.
func (m *Model) SetNotes(causes []textedit.Note, err error) {
	notes := causes
	if n, ok := parseNote(err); ok {
		notes = append(append([]textedit.Note(nil), causes...), n)
		m.schemaFound, m.server.found = nil, nil
	} else {
		for _, n := range m.area.Notes() {
			if n.AtCursor {
				notes = append(notes, n)
			}
		}
	}
	m.area.SetNotes(notes)
}

// Diagnostic is why the server's schema, or the server's own dry run,
// refuses a line of the text: the line (counted from 1) and the words,
// escaped where they were made. Server: the server's dry run said it.
// Dropped: the field is one the server takes the object without
// (--validate warn or ignore), and Text says what it will do.
type Diagnostic struct {
	Line            int
	Text            escape.Text
	Server, Dropped bool
}

// Words are d as the note under its line says it: whose refusal it is,
// or what the server will do.
func (d Diagnostic) Words() escape.Text {
	switch {
	case d.Dropped:
		return d.Text
	case d.Server:
		return "the server refuses: " + d.Text
	}
	return "the schema refuses: " + d.Text
}

// SetDiagnostics marks the lines of ds, the schema's diagnostics of the
// text at version, in the gutter, and says each under its line while the
// cursor is on it. A text changed since keeps the marks it has: its own
// come after the next pause. With the server's checks on
// (SetServerChecks), a text the schema passes is then asked of the
// server: the command is its ServerCheckMsg, once typing has paused.
func (m *Model) SetDiagnostics(version uint64, ds []Diagnostic) tea.Cmd {
	if version != m.area.Version() {
		return nil
	}
	m.schemaFound, m.schemaVersion = ds, version
	cmd := m.askServer()
	m.drawDiagnostics()
	return cmd
}

// drawDiagnostics puts the schema's diagnostics and the server's under
// their lines, beside the notes that are not the cursor's.
func (m *Model) drawDiagnostics() {
	var notes []textedit.Note
	for _, n := range m.area.Notes() {
		if !n.AtCursor {
			notes = append(notes, n)
		}
	}
	// The schema and the server may say the same of a line (a field
	// both say the server drops): said once.
	said := map[textedit.Note]bool{}
	for _, ds := range [][]Diagnostic{m.schemaFound, m.server.found} {
		for _, d := range ds {
			n := textedit.Note{Line: max(d.Line-1, 0), Text: d.Words(), AtCursor: true}
			if !said[n] {
				said[n] = true
				notes = append(notes, n)
			}
		}
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
