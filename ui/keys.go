package ui

import (
	"github.com/charmbracelet/bubbles/key"

	"github.com/kedit/kedit/ui/browser"
	"github.com/kedit/kedit/ui/common"
	"github.com/kedit/kedit/ui/conflict"
	"github.com/kedit/kedit/ui/editor"
	"github.com/kedit/kedit/ui/fielddoc"
	"github.com/kedit/kedit/ui/helppage"
	"github.com/kedit/kedit/ui/object"
	"github.com/kedit/kedit/ui/objectset"
	"github.com/kedit/kedit/ui/preview"
	"github.com/kedit/kedit/ui/requests"
	"github.com/kedit/kedit/ui/sourcediff"
	"github.com/kedit/kedit/ui/timeline"
	"github.com/kedit/kedit/ui/tour"
)

// KeyMap is every key kedit answers to: each view's own key map. The keys
// are a contract (the README's key tables and the end-to-end tests use
// them), so change a default only together with both.
//
// A key means what the active view says it means: t is the timeline in the
// object view and take theirs in the conflict view. Each view answers its
// own keys, ctrl+c and ? included (f1 in the in-app editor, where ? is
// typed), and its help is drawn from the same bindings.
type KeyMap struct {
	Object   object.KeyMap
	Conflict conflict.KeyMap
	Editor   editor.KeyMap
	Timeline timeline.KeyMap
	Lost     conflict.LostKeyMap
	Preview  preview.KeyMap
	Docs     fielddoc.KeyMap
	Source   sourcediff.KeyMap
	Browser  browser.KeyMap
	Set      objectset.KeyMap
	HelpPage helppage.KeyMap
	Prompt   common.PromptKeyMap
	Requests requests.KeyMap
	// Tour is kedit demo --tour's line (none: its steps move on by the
	// session's state).
	Tour   tour.KeyMap // Screen is what every view answers the same way.
	Screen ScreenKeyMap
}

// ScreenKeyMap is the keys every view answers alike: ctrl+l draws the
// whole screen again, as a shell's does, over whatever wrote on it.
type ScreenKeyMap struct {
	Redraw key.Binding
}

// DefaultKeyMap returns kedit's keys.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Object:   object.DefaultKeyMap(),
		Conflict: conflict.DefaultKeyMap(),
		Editor:   editor.DefaultKeyMap(),
		Timeline: timeline.DefaultKeyMap(),
		Lost:     conflict.DefaultLostKeyMap(),
		Preview:  preview.DefaultKeyMap(),
		Docs:     fielddoc.DefaultKeyMap(),
		Source:   sourcediff.DefaultKeyMap(),
		Browser:  browser.DefaultKeyMap(),
		Set:      objectset.DefaultKeyMap(),
		HelpPage: helppage.DefaultKeyMap(),
		Prompt:   common.DefaultPromptKeyMap(),
		Requests: requests.DefaultKeyMap(),
		Tour:     tour.DefaultKeyMap(),
		Screen:   ScreenKeyMap{Redraw: key.NewBinding(key.WithKeys("ctrl+l"), key.WithHelp("ctrl+l", "redraw the screen"))},
	}
}

// EditorKeyMap is the in-app editor's keys besides its text's own
// (textedit.KeyMap): leaving it, saving, and its help. Every other key is
// typed into the text, q and ? included.
type EditorKeyMap struct {
	// Leave goes back, keeping what was typed as the draft; inside the
	// find or go-to-line prompt it closes the prompt instead. Save keeps
	// it and saves, from the prompt too.
	Leave, Save key.Binding

	// Help shows every key, as ? does elsewhere (? is typed).
	Help, ForceQuit key.Binding
}

// DefaultEditorKeyMap returns the in-app editor's keys.
func DefaultEditorKeyMap() EditorKeyMap {
	return EditorKeyMap{
		Leave:     common.Binding("leave, keep the draft", "esc"),
		Save:      common.Binding("save", "ctrl+s"),
		Help:      common.Binding("help", "f1"),
		ForceQuit: common.ForceQuitKey(),
	}
}
