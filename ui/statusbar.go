package ui

import (
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/kedit/kedit/diff"
	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/model"
	"github.com/kedit/kedit/ui/common"
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
// or the answer to the last key. A message is an escape.Text: the server
// text in it (an error's message, a name, a resourceVersion) was escaped
// once where the message was made, and the bar draws it as it is.
//
// A message describes the state it was made for, and goes when that state
// changes (Settle): the app's state is summed up in a statusState after
// every message the app handles, a new message takes the state as it is
// then, and an older one is dropped as soon as the state differs.
type StatusBar struct {
	styles  *common.Styles
	spinner spinner.Model
	width   int
	busy    escape.Text
	text    escape.Text
	kind    statusKind
	// of is the state text was made for; fresh says that text was set
	// since the last Settle and has no state yet; scope is the part of
	// that state text describes.
	of    statusState
	fresh bool
	scope statusScope
}

// statusScope is the part of the app's state a message describes.
type statusScope int

const (
	// scopeState: the whole statusState; the message goes when any of it
	// changes.
	scopeState statusScope = iota
	// scopeObject: the object shown as a whole, such as what the user may
	// do with it; the message stays while the object is shown, whatever
	// happens to its draft, until another message takes its place.
	scopeObject
)

// statusState is what a status message is about: the object shown (or the
// browser and its list), the session's phase, the draft's revision, the
// rebase's conflicts and resolutions, and whether the server has moved past
// the draft's base. Every field is compared, so a message about any of
// them is never shown once that part has changed. The screen on the object
// is not part of it: the views of one object show the same session, and a
// failure said in the object view is still true in the editor.
type statusState struct {
	sess     *model.Session
	browsing bool
	phase    model.State
	draft    int
	// merge is the rebase's merge: the session makes a new one at every
	// resolution and every merge again.
	merge  *diff.ObjectMerge
	behind bool
	// list counts the browser's lists (browser.Model.List).
	list int
}

// statusState sums up the app's state for the status bar.
func (m App) statusState() statusState {
	st := statusState{sess: m.sess, browsing: m.screen == screenBrowser, list: m.browser.List()}
	if m.sess != nil {
		st.phase, st.draft = m.sess.State(), m.sess.DraftRevision()
		if r := m.sess.Rebase(); r != nil {
			st.merge = r.Merge
		}
		_, st.behind = m.sess.ServerChange()
	}
	return st
}

// Settle ties a message set since the last Settle to state, and drops the
// message shown when it was made for another state than state. The app
// calls it after every message it handles.
func (m *StatusBar) Settle(state statusState) {
	switch {
	case m.fresh:
		m.of, m.fresh = state, false
	case !m.of.same(state, m.scope):
		m.text, m.kind, m.of, m.scope = "", statusInfo, state, scopeState
	}
}

// same reports whether state is, in the part scope names, the state s.
func (s statusState) same(state statusState, scope statusScope) bool {
	if scope == scopeObject {
		return s.sess == state.sess && s.browsing == state.browsing && s.list == state.list
	}
	return s == state
}

// NewStatusBar returns an empty status bar.
func NewStatusBar(styles *common.Styles) StatusBar {
	return StatusBar{styles: styles, spinner: spinner.New(spinner.WithSpinner(spinner.Dot))}
}

// SetSize sets the bar's width; it is always one line high.
func (m *StatusBar) SetSize(width, _ int) { m.width = width }

// SetBusy shows the spinner with text, e.g. "saving"; an empty text stops
// it. The returned command starts the spinner's ticks.
func (m *StatusBar) SetBusy(text escape.Text) tea.Cmd {
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
func (m *StatusBar) Info(text escape.Text) { m.set(text, statusInfo, scopeState) }

// OK sets a message of success, such as `saved rv 815`.
func (m *StatusBar) OK(text escape.Text) { m.set(text, statusOK, scopeState) }

// Error sets a message of failure.
func (m *StatusBar) Error(text escape.Text) { m.set(text, statusError, scopeState) }

// ObjectError sets a message of failure about the object shown as a whole
// (the user may not save it): it stays while the object is shown, whatever
// happens to its draft, until another message takes its place.
func (m *StatusBar) ObjectError(text escape.Text) { m.set(text, statusError, scopeObject) }

func (m *StatusBar) set(text escape.Text, kind statusKind, scope statusScope) {
	m.text, m.kind, m.scope, m.fresh = text, kind, scope, true
}

// Text returns the message shown, for tests and the app.
func (m StatusBar) Text() string { return string(m.text) }

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
		s = m.spinner.View() + " " + string(m.busy) + "  "
	}
	switch m.kind {
	case statusOK:
		s += m.styles.OK.Render(string(m.text))
	case statusError:
		s += m.styles.Error.Render(string(m.text))
	default:
		s += m.styles.Muted.Render(string(m.text))
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
