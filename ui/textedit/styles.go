package textedit

import (
	"os"

	"github.com/charmbracelet/lipgloss"
)

// Styles is every style the editor draws with, built once by
// DefaultStyles (View builds none).
type Styles struct {
	// LineNumber is the gutter's numbers; CursorLineNumber the cursor's
	// line; NoteLineNumber a line that has a note (a parse error, a field
	// the server refused).
	LineNumber, CursorLineNumber, NoteLineNumber lipgloss.Style
	// Added, Changed and Deleted are the gutter's marks against base.
	Added, Changed, Deleted lipgloss.Style
	// Cursor is the cell under the cursor; Selection the selected text.
	Cursor, Selection lipgloss.Style
	// Escape is a control character, bidi control or invalid byte drawn
	// escaped, so it can be told from the same letters typed.
	Escape lipgloss.Style
	// Key, String and Comment are YAML's; Marker is a diff3 marker line.
	Key, String, Comment, Marker lipgloss.Style
	// Match is a find match; CurrentMatch the one under the cursor.
	Match, CurrentMatch lipgloss.Style
	// Note is a note under its line.
	Note lipgloss.Style
	// Prompt is the find and go-to-line prompt; NoMatch says nothing matches.
	Prompt, NoMatch lipgloss.Style
}

// DefaultStyles returns the editor's styles, in the colours of kedit's
// other views. With NO_COLOR set (https://no-color.org) it uses bold,
// underline and reverse only, so that escapes, marks and the cursor still
// show.
func DefaultStyles() Styles {
	s := Styles{
		LineNumber:       lipgloss.NewStyle(),
		CursorLineNumber: lipgloss.NewStyle().Bold(true),
		NoteLineNumber:   lipgloss.NewStyle().Bold(true).Underline(true),
		Added:            lipgloss.NewStyle().Bold(true),
		Changed:          lipgloss.NewStyle().Bold(true),
		Deleted:          lipgloss.NewStyle().Bold(true),
		Cursor:           lipgloss.NewStyle().Reverse(true),
		Selection:        lipgloss.NewStyle().Reverse(true),
		Escape:           lipgloss.NewStyle().Underline(true),
		Key:              lipgloss.NewStyle(),
		String:           lipgloss.NewStyle(),
		Comment:          lipgloss.NewStyle(),
		Marker:           lipgloss.NewStyle().Bold(true),
		Match:            lipgloss.NewStyle().Underline(true),
		CurrentMatch:     lipgloss.NewStyle().Reverse(true),
		Note:             lipgloss.NewStyle().Bold(true),
		Prompt:           lipgloss.NewStyle().Bold(true),
		NoMatch:          lipgloss.NewStyle().Bold(true),
	}
	if os.Getenv("NO_COLOR") != "" {
		return s
	}
	muted := lipgloss.AdaptiveColor{Light: "#8A8A8A", Dark: "#777777"}
	green := lipgloss.AdaptiveColor{Light: "#1E8449", Dark: "#2ECC71"}
	yellow := lipgloss.AdaptiveColor{Light: "#B8860B", Dark: "#F1C40F"}
	red := lipgloss.AdaptiveColor{Light: "#C0392B", Dark: "#FF5F56"}
	s.LineNumber = s.LineNumber.Foreground(muted)
	s.NoteLineNumber = s.NoteLineNumber.Foreground(red)
	s.Added = s.Added.Foreground(green)
	s.Changed = s.Changed.Foreground(yellow)
	s.Deleted = s.Deleted.Foreground(red)
	s.Escape = s.Escape.Foreground(lipgloss.AdaptiveColor{Light: "#A020A0", Dark: "#FF79C6"})
	s.Key = s.Key.Foreground(lipgloss.AdaptiveColor{Light: "#1F5FAF", Dark: "#8BE9FD"})
	s.String = s.String.Foreground(green)
	s.Comment = s.Comment.Foreground(muted).Italic(true)
	s.Marker = s.Marker.Foreground(lipgloss.Color("#000000")).Background(lipgloss.AdaptiveColor{Light: "#F5B041", Dark: "#F39C12"})
	// The selection in a background of its own, so that the cursor, reversed, shows
	// at its edge.
	s.Selection = lipgloss.NewStyle().Background(lipgloss.AdaptiveColor{Light: "#ADD6FF", Dark: "#264F78"})
	s.Match = s.Match.Background(lipgloss.AdaptiveColor{Light: "#FCF3CF", Dark: "#5C4B00"})
	s.Note = s.Note.Foreground(red)
	s.NoMatch = s.NoMatch.Foreground(red)
	return s
}
