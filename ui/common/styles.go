package common

import (
	"os"

	"github.com/charmbracelet/lipgloss"

	"github.com/kedit/kedit/internal/escape"
)

// Styles is every style kedit draws with, built once by NewStyles so that
// no View builds styles of its own.
type Styles struct {
	// Header is the object view's first line (context, namespace, object).
	Header lipgloss.Style
	// Muted is for secondary text: labels, hints, the connection state.
	Muted lipgloss.Style
	// Draft marks the unsaved draft.
	Draft lipgloss.Style
	// Banner says that the object changed on the server.
	Banner lipgloss.Style
	// Error is for failures and refused input.
	Error lipgloss.Style
	// OK is for a save the server took.
	OK lipgloss.Style
	// Added and Removed colour a diff's lines.
	Added, Removed lipgloss.Style
	// Title is the conflict view's title line.
	Title lipgloss.Style
	// Selected is the selected row of a list.
	Selected lipgloss.Style
	// Column is a column of the conflict view, ColumnTitle its heading.
	Column, ColumnTitle lipgloss.Style
	// Changed highlights a line that differs from base.
	Changed lipgloss.Style
	// HelpKey is a key's name in the footer and the help page.
	HelpKey lipgloss.Style
	// Escape draws an escape that stands for a character of the object
	// (\x1b, \u202e, or a YAML string's escape), so that it is told at a
	// glance from the same letters typed. Reverse, which NO_COLOR keeps.
	Escape lipgloss.Style
}

// Escaped draws server text by kedit's escape rule (escape.Styled),
// each escape in the Escape style.
func (s *Styles) Escaped(text string) string { return escape.Styled(text, s.escape) }

// EscapedYAML draws YAML text (a draft, an object rendered as YAML) by the
// escape rule, each escape in the Escape style (escape.Source).
func (s *Styles) EscapedYAML(text string) string { return escape.Source(text, s.escape) }

func (s *Styles) escape(e string) string { return s.Escape.Render(e) }

// NewStyles returns kedit's styles. With NO_COLOR set (https://no-color.org)
// it uses no colour at all, only bold, underline and reverse, so that the
// screen still shows what is selected and what is a heading.
func NewStyles() *Styles {
	noColor := os.Getenv("NO_COLOR") != ""
	s := &Styles{
		Header:      lipgloss.NewStyle().Bold(true),
		Muted:       lipgloss.NewStyle(),
		Draft:       lipgloss.NewStyle().Bold(true),
		Banner:      lipgloss.NewStyle().Bold(true),
		Error:       lipgloss.NewStyle().Bold(true),
		OK:          lipgloss.NewStyle(),
		Added:       lipgloss.NewStyle(),
		Removed:     lipgloss.NewStyle(),
		Title:       lipgloss.NewStyle().Bold(true),
		Selected:    lipgloss.NewStyle().Reverse(true),
		Column:      lipgloss.NewStyle().PaddingRight(1),
		ColumnTitle: lipgloss.NewStyle().Bold(true).Underline(true),
		Changed:     lipgloss.NewStyle().Bold(true),
		HelpKey:     lipgloss.NewStyle().Bold(true),
		Escape:      lipgloss.NewStyle().Reverse(true),
	}
	if noColor {
		return s
	}
	s.Header = s.Header.Foreground(lipgloss.AdaptiveColor{Light: "#5A56E0", Dark: "#7571F9"})
	s.Muted = s.Muted.Foreground(lipgloss.AdaptiveColor{Light: "#8A8A8A", Dark: "#777777"})
	s.Draft = s.Draft.Foreground(lipgloss.AdaptiveColor{Light: "#B8860B", Dark: "#F1C40F"})
	s.Banner = s.Banner.Foreground(lipgloss.Color("#000000")).Background(lipgloss.AdaptiveColor{Light: "#F5B041", Dark: "#F39C12"})
	s.Error = s.Error.Foreground(lipgloss.AdaptiveColor{Light: "#C0392B", Dark: "#FF5F56"})
	s.OK = s.OK.Foreground(lipgloss.AdaptiveColor{Light: "#1E8449", Dark: "#2ECC71"})
	s.Added = s.Added.Foreground(lipgloss.AdaptiveColor{Light: "#1E8449", Dark: "#2ECC71"})
	s.Removed = s.Removed.Foreground(lipgloss.AdaptiveColor{Light: "#C0392B", Dark: "#FF5F56"})
	s.Title = s.Title.Foreground(lipgloss.AdaptiveColor{Light: "#C0392B", Dark: "#FF8C69"})
	s.Changed = s.Changed.Foreground(lipgloss.AdaptiveColor{Light: "#B8860B", Dark: "#F1C40F"})
	return s
}

// WideWidth is the narrowest terminal a view draws wide on: the conflict
// view's versions side by side, blame's manager names in 22 columns, not
// 11.
const WideWidth = 120
