// Package statusbar is the line under the body: a spinner while a save is
// in flight, then its outcome, or the answer to the last key. A message
// describes the state of the app it was made for (State, which the app
// sums up) and goes when that state changes.
package statusbar

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/kedit/kedit/diff"
	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/model"
	"github.com/kedit/kedit/ui/common"
)

// Kind says how a status message is drawn.
type Kind int

const (
	// KindInfo is a plain message (Info).
	KindInfo Kind = iota
	// KindOK is a message of success (OK).
	KindOK
	// KindError is a message of failure (Error, ObjectError).
	KindError
)

// Model is the line under the body: a spinner while a save is in
// flight, then its outcome (`saved rv N`, or why it failed, in plain words),
// or the answer to the last key. A message is an escape.Text: the server
// text in it (an error's message, a name, a resourceVersion) was escaped
// once where the message was made, and the bar draws it as it is.
//
// A message describes the state it was made for, and goes when that state
// changes (Settle): the app's state is summed up in a State after
// every message the app handles, a new message takes the state as it is
// then, and an older one is dropped as soon as the state differs.
type Model struct {
	styles  *common.Styles
	spinner spinner.Model
	width   int
	busy    escape.Text
	text    escape.Text
	kind    Kind
	// of is the state text was made for; fresh says that text was set
	// since the last Settle and has no state yet; scope is the part of
	// that state text describes.
	of    State
	fresh bool
	scope scope
}

// scope is the part of the app's state a message describes.
type scope int

const (
	// scopeState: the whole State; the message goes when any of it
	// changes.
	scopeState scope = iota
	// scopeObject: the object shown as a whole, such as what the user may
	// do with it; the message stays while the object is shown, whatever
	// happens to its draft, until another message takes its place.
	scopeObject
)

// State is what a status message is about: the object shown (or the
// browser and its list), the session's phase, the draft's revision, the
// rebase's conflicts and resolutions, and whether the server has moved past
// the draft's base. Every field is compared, so a message about any of
// them is never shown once that part has changed. The screen on the object
// is not part of it: the views of one object show the same session, and a
// failure said in the object view is still true in the editor.
type State struct {
	// Object is the object shown, by identity: the app's session, nil
	// for none. The bar compares it and never reads it.
	Object any
	// Browsing says the browser shows; Phase is the session's phase and
	// Draft the draft's revision (model.Session.DraftRevision).
	Browsing bool
	Phase    model.State
	Draft    int
	// Merge is the rebase's merge: the session makes a new one at every
	// resolution and every merge again.
	Merge *diff.ObjectMerge
	// Behind says the server has moved past the draft's base.
	Behind bool
	// List counts the browser's lists (Browser.SetList).
	List int
	// View is the screen shown (the app's own value, compared only): a
	// plain message or one of success (saved rv N) is about what was on
	// screen, and goes when another view shows; a failure stays true in
	// every view of its object, and stays.
	View any
}

// Settle ties a message set since the last Settle to state, and drops the
// message shown when it was made for another state than state. The app
// calls it after every message it handles.
func (m *Model) Settle(state State) {
	switch {
	case m.fresh:
		m.of, m.fresh = state, false
	case !m.of.same(state, m.scope, m.kind):
		m.text, m.kind, m.of, m.scope = "", KindInfo, state, scopeState
	}
}

// same reports whether state is, in the part sc names, the state s, for
// a message of kind.
func (s State) same(state State, sc scope, kind Kind) bool {
	if sc == scopeObject {
		return s.Object == state.Object && s.Browsing == state.Browsing && s.List == state.List
	}
	if kind == KindError {
		state.View = s.View
	}
	return s == state
}

// New returns an empty status bar. It has no keys: it only reports.
func New(styles *common.Styles) Model {
	return Model{styles: styles, spinner: spinner.New(spinner.WithSpinner(spinner.Dot))}
}

// SetSize sets the bar's width; it is always one line high.
func (m *Model) SetSize(width, _ int) { m.width = width }

// SetBusy shows the spinner with text, e.g. "saving"; an empty text stops
// it. The returned command starts the spinner's ticks.
func (m *Model) SetBusy(text escape.Text) tea.Cmd {
	was := m.busy
	m.busy = text
	if text != "" && was == "" {
		return m.spinner.Tick
	}
	return nil
}

// Busy reports whether the spinner runs.
func (m Model) Busy() bool { return m.busy != "" }

// Info sets a plain message, such as the answer to a key.
func (m *Model) Info(text escape.Text) { m.set(text, KindInfo, scopeState) }

// OK sets a message of success, such as `saved rv 815`.
func (m *Model) OK(text escape.Text) { m.set(text, KindOK, scopeState) }

// Error sets a message of failure.
func (m *Model) Error(text escape.Text) { m.set(text, KindError, scopeState) }

// ObjectError sets a message of failure about the object shown as a whole
// (the user may not save it): it stays while the object is shown, whatever
// happens to its draft, until another message takes its place.
func (m *Model) ObjectError(text escape.Text) { m.set(text, KindError, scopeObject) }

func (m *Model) set(text escape.Text, kind Kind, sc scope) {
	m.text, m.kind, m.scope, m.fresh = text, kind, sc, true
}

// Text returns the message shown, for tests and the app.
func (m Model) Text() string { return string(m.text) }

// Kind returns how the message shown is drawn, for tests.
func (m Model) Kind() Kind { return m.kind }

// MadeFor returns the state the message shown was made for; ok is false
// while a message set since the last Settle has no state yet.
func (m Model) MadeFor() (state State, ok bool) { return m.of, !m.fresh }

// Describes reports whether the message shown was made for state, in the
// part of it the message is about (a failure is about every view of its
// object), as Settle judges it; false while it has no state yet.
func (m Model) Describes(state State) bool { return !m.fresh && m.of.same(state, m.scope, m.kind) }

// Update advances the spinner while a save is in flight.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
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

// View draws the bar, wrapped at words to its width: a message is never
// cut, nor a word split over two lines (a path too long for a line gets
// lines of its own).
func (m Model) View() string {
	style := m.styles.Muted
	switch m.kind {
	case KindOK:
		style = m.styles.OK
	case KindError:
		style = m.styles.Error
	}
	text, width := string(m.text), m.width
	if m.busy != "" {
		text, width = string(m.busy)+"  "+text, m.width-2
	}
	lines := common.WrapWords(text, max(1, width))
	for i, l := range lines {
		lines[i] = style.Render(l)
	}
	if m.busy != "" {
		// The spinner before the first line, the lines after it under
		// its text.
		lines[0] = m.spinner.View() + " " + lines[0]
		for i := 1; i < len(lines); i++ {
			lines[i] = "  " + lines[i]
		}
	}
	return strings.Join(lines, "\n")
}

// ShortHelp has no keys: the bar only reports.
func (m Model) ShortHelp() []key.Binding { return nil }

// FullHelp has no keys: the bar only reports.
func (m Model) FullHelp() [][]key.Binding { return nil }
