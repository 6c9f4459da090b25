package ui

import (
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
)

// statusKind says how a status message is drawn.
type statusKind int

const (
	statusInfo statusKind = iota
	statusOK
	statusError
)

// StatusBar is the line under the body: a spinner while a save is in
// flight, then its outcome (`saved rv N`, or why it failed, in plain words),
// or the answer to the last key.
type StatusBar struct {
	styles  *Styles
	spinner spinner.Model
	width   int
	busy    string
	text    string
	kind    statusKind
}

// NewStatusBar returns an empty status bar.
func NewStatusBar(styles *Styles) StatusBar {
	return StatusBar{styles: styles, spinner: spinner.New(spinner.WithSpinner(spinner.Dot))}
}

// SetSize sets the bar's width; it is always one line high.
func (m *StatusBar) SetSize(width, _ int) { m.width = width }

// SetBusy shows the spinner with text, e.g. "saving"; an empty text stops
// it. The returned command starts the spinner's ticks.
func (m *StatusBar) SetBusy(text string) tea.Cmd {
	was := m.busy
	m.busy = text
	if text != "" && was == "" {
		return m.spinner.Tick
	}
	return nil
}

// Busy reports whether the spinner runs.
func (m StatusBar) Busy() bool { return m.busy != "" }

// Info sets a plain message, such as the answer to a key.
func (m *StatusBar) Info(text string) { m.text, m.kind = text, statusInfo }

// OK sets a message of success, such as `saved rv 815`.
func (m *StatusBar) OK(text string) { m.text, m.kind = text, statusOK }

// Error sets a message of failure.
func (m *StatusBar) Error(text string) { m.text, m.kind = text, statusError }

// Text returns the message shown, for tests and the app.
func (m StatusBar) Text() string { return m.text }

// Update advances the spinner while a save is in flight.
func (m StatusBar) Update(msg tea.Msg) (StatusBar, tea.Cmd) {
	if _, ok := msg.(spinner.TickMsg); ok {
		if m.busy == "" {
			// The save is over: let the tick chain end.
			return m, nil
		}
		var cmd tea.Cmd
		m.spinner, cmd = m.spinner.Update(msg)
		return m, cmd
	}
	return m, nil
}

// View draws the bar, cut to its width.
func (m StatusBar) View() string {
	var s string
	if m.busy != "" {
		s = m.spinner.View() + " " + m.busy + "  "
	}
	switch m.kind {
	case statusOK:
		s += m.styles.OK.Render(m.text)
	case statusError:
		s += m.styles.Error.Render(m.text)
	default:
		s += m.styles.Muted.Render(m.text)
	}
	if m.kind == statusError {
		// A failure with its field causes may take more than a line: wrap
		// it rather than cut off the cause that matters.
		return m.styles.Error.Width(m.width).Render(ansi.Strip(s))
	}
	return ansi.Truncate(s, m.width, "…")
}

// ShortHelp has no keys: the bar only reports.
func (m StatusBar) ShortHelp() []key.Binding { return nil }

// FullHelp has no keys: the bar only reports.
func (m StatusBar) FullHelp() [][]key.Binding { return nil }
