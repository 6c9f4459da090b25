package common

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/kedit/kedit/internal/escape"
)

// Emit returns the command that reports msg, an intent, to the app.
func Emit(msg tea.Msg) tea.Cmd { return func() tea.Msg { return msg } }

// EmitIf is Emit(msg) when ok, else no command.
func EmitIf(ok bool, msg tea.Msg) tea.Cmd {
	if !ok {
		return nil
	}
	return Emit(msg)
}

// Background wraps cmd, work of a view's own that takes time (a timer),
// for the view's answer to a key: the app calls that answer at once, and
// this command returns at once, handing cmd to Bubble Tea.
func Background(cmd tea.Cmd) tea.Cmd {
	if cmd == nil {
		return nil
	}
	return func() tea.Msg { return tea.BatchMsg{cmd} }
}

// The intents several views share.
type (
	// HelpMsg asks for the help page of the view: ? (f1 in the in-app
	// editor).
	HelpMsg struct{}
	// QuitRequestedMsg asks to quit (q); the app asks first when a draft
	// would be lost or left behind.
	QuitRequestedMsg struct{}
	// ForceQuitMsg asks to quit now (ctrl+c), from any view, a question or
	// the help page included: the app asks once when a draft exists only
	// in memory.
	ForceQuitMsg struct{}
	// SayMsg asks the app to say Text in the status bar: the answer to a
	// key that has nothing to act on ("nothing to resolve"), or what the
	// view now shows (the owners of the blame cursor's line). An empty
	// Text clears it.
	SayMsg struct{ Text escape.Text }
	// EditMsg asks to edit the draft (e), or with InApp in the in-app
	// editor (i); with Merged, the rebase's merged result rather than the
	// draft.
	EditMsg struct{ InApp, Merged bool }
)

// KeyIntent is a binding and the intent its key asks for.
type KeyIntent struct {
	Keys   key.Binding
	Intent tea.Msg
}

// FirstIntent is the intent of the first of intents whose keys k is; nil
// for none.
func FirstIntent(k tea.KeyMsg, intents []KeyIntent) tea.Msg {
	for _, in := range intents {
		if key.Matches(k, in.Keys) {
			return in.Intent
		}
	}
	return nil
}
