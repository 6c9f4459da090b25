package ui

import (
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/viewport"

	"github.com/kedit/kedit/ui/browser"
	"github.com/kedit/kedit/ui/common"
	"github.com/kedit/kedit/ui/editor"
	"github.com/kedit/kedit/ui/helppage"
	"github.com/kedit/kedit/ui/object"
	"github.com/kedit/kedit/ui/objectset"
	"github.com/kedit/kedit/ui/timeline"
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
	Conflict ConflictKeyMap
	Editor   editor.KeyMap
	Timeline timeline.KeyMap
	Lost     LostKeyMap
	Preview  PreviewKeyMap
	Browser  browser.KeyMap
	Set      objectset.KeyMap
	HelpPage helppage.KeyMap
	Prompt   common.PromptKeyMap
}

// DefaultKeyMap returns kedit's keys.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Object:   object.DefaultKeyMap(),
		Conflict: DefaultConflictKeyMap(),
		Editor:   editor.DefaultKeyMap(),
		Timeline: timeline.DefaultKeyMap(),
		Lost:     DefaultLostKeyMap(),
		Preview:  DefaultPreviewKeyMap(),
		Browser:  browser.DefaultKeyMap(),
		Set:      objectset.DefaultKeyMap(),
		HelpPage: helppage.DefaultKeyMap(),
		Prompt:   common.DefaultPromptKeyMap(),
	}
}

// ConflictKeyMap is the conflict view's keys.
type ConflictKeyMap struct {
	// Moving through the list, scrolling the selected entry's versions,
	// and switching between side by side and stacked (Layout).
	Next, Prev, Home, End, PageUp, PageDown, Layout key.Binding

	// Resolving: the selected conflict, or every open one.
	TakeMine, TakeTheirs, TakeBase, AllMine, AllTheirs key.Binding

	// Editing the merged result, resubmitting it (Save), and going back
	// to the draft, unchanged (Back).
	Edit, EditInApp, Save, Back key.Binding

	// Reveal shows a Secret's values, which the view masks until then.
	Reveal key.Binding

	Help, Quit, ForceQuit key.Binding
}

// DefaultConflictKeyMap returns the conflict view's keys.
func DefaultConflictKeyMap() ConflictKeyMap {
	return ConflictKeyMap{
		Next:   common.Bind("next", "n/j/↓", "n", "j", "down"),
		Prev:   common.Bind("previous", "p/k/↑", "p", "k", "up"),
		Home:   common.HomeKey(),
		End:    common.EndKey(),
		Layout: common.Binding("layout", "v"),
		// They scroll the selected entry's versions, not the list.
		PageUp:   common.Bind("versions up", "pgup", "pgup"),
		PageDown: common.Bind("versions down", "pgdn/space", "pgdown", " "),

		TakeMine:   common.Binding("take mine", "m"),
		TakeTheirs: common.Binding("take theirs", "t"),
		TakeBase:   common.Binding("take base", "b"),
		AllMine:    common.Binding("all mine", "M"),
		AllTheirs:  common.Binding("all theirs", "T"),

		Edit:      common.Binding("edit", "e"),
		EditInApp: common.Binding("edit here", "i"),
		Save:      common.Bind("resubmit", "s", "s", "ctrl+s"),
		Back:      common.BackKey(),

		Reveal: common.RevealKey(),

		Help: common.HelpKey(), Quit: common.QuitKey(), ForceQuit: common.ForceQuitKey(),
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

// LostKeyMap is the lost updates' view's keys.
type LostKeyMap struct {
	// Moving through the lost fields, scrolling their versions, switching
	// between side by side and stacked, and a Secret's values, as in the
	// conflict view.
	Next, Prev, Home, End, PageDown, PageUp, Layout, Reveal key.Binding

	// Undo makes the draft that puts the lost values back; Back goes back
	// to the timeline.
	Undo, Back key.Binding

	Help, Quit, ForceQuit key.Binding
}

// DefaultLostKeyMap returns the lost updates' view's keys: the conflict
// view's that move, and the timeline's u.
func DefaultLostKeyMap() LostKeyMap {
	c := DefaultConflictKeyMap()
	return LostKeyMap{Next: c.Next, Prev: c.Prev, Home: c.Home, End: c.End, PageDown: c.PageDown, PageUp: c.PageUp,
		Layout: c.Layout, Reveal: c.Reveal, Undo: common.UndoKey(), Back: common.BackKey(),
		Help: common.HelpKey(), Quit: common.QuitKey(), ForceQuit: common.ForceQuitKey()}
}

// PreviewKeyMap is the dry run's preview's keys.
type PreviewKeyMap struct {
	// Scrolling the body.
	Up, Down, PageUp, PageDown, HalfPageUp, HalfPageDown, Home, End key.Binding

	// Close goes back to the object view.
	Close key.Binding

	Help, Quit, ForceQuit key.Binding
}

// DefaultPreviewKeyMap returns the preview's keys.
func DefaultPreviewKeyMap() PreviewKeyMap {
	return PreviewKeyMap{
		Up: common.UpKey(), Down: common.DownKey(), PageUp: common.PageUpKey(), PageDown: common.PageDownKey(),
		HalfPageUp: common.HalfPageUpKey(), HalfPageDown: common.HalfPageDownKey(), Home: common.HomeKey(), End: common.EndKey(),

		Close: common.Binding("close", "esc"),

		Help: common.HelpKey(), Quit: common.QuitKey(), ForceQuit: common.ForceQuitKey(),
	}
}

// viewport gives the body's viewport the view's scrolling keys.
func (k PreviewKeyMap) viewport() viewport.KeyMap {
	return common.ViewportKeys(k.Up, k.Down, k.PageUp, k.PageDown, k.HalfPageUp, k.HalfPageDown)
}
