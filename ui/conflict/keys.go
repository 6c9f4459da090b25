package conflict

import (
	"github.com/charmbracelet/bubbles/key"

	"github.com/kedit/kedit/ui/common"
)

// KeyMap is the conflict view's keys.
type KeyMap struct {
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

// DefaultKeyMap returns the conflict view's keys.
func DefaultKeyMap() KeyMap {
	return KeyMap{
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
	c := DefaultKeyMap()
	return LostKeyMap{Next: c.Next, Prev: c.Prev, Home: c.Home, End: c.End, PageDown: c.PageDown, PageUp: c.PageUp,
		Layout: c.Layout, Reveal: c.Reveal, Undo: common.UndoKey(), Back: common.BackKey(),
		Help: common.HelpKey(), Quit: common.QuitKey(), ForceQuit: common.ForceQuitKey()}
}
