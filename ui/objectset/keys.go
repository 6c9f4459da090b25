package objectset

import (
	"github.com/charmbracelet/bubbles/key"

	"github.com/kedit/kedit/ui/common"
)

// KeyMap is the set view's keys: the list of a set's objects (kedit
// cm/a cm/b, -l, -f). Space marks, so it does not page here.
type KeyMap struct {
	Up, Down, PageUp, PageDown, Home, End key.Binding

	// Open shows the selected object in the object view (esc there comes
	// back to the set); Mark marks it for Edit, or unmarks it; Edit edits
	// the marked objects, or all of them, in one $EDITOR file; Save saves
	// every draft, each with its own resourceVersion, and resubmits every
	// merge with no conflict open; NextConflict opens
	// the next object whose save met a conflict.
	Open, Mark, Edit, Save, NextConflict key.Binding

	Help, Quit, ForceQuit key.Binding
}

// DefaultKeyMap returns the set view's keys.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Up: common.UpKey(), Down: common.DownKey(), PageUp: common.PageUpKey(), PageDown: common.Bind("page down", "pgdn", "pgdown"),
		Home: common.HomeKey(), End: common.EndKey(),

		Open:         common.Binding("open", "enter"),
		Mark:         common.Bind("mark", "space", " "),
		Edit:         common.Binding("edit (marked or all) in $EDITOR", "e"),
		Save:         common.Bind("save drafts, resubmit merges", "s", "s", "ctrl+s"),
		NextConflict: common.Binding("next conflict", "n"),

		Help: common.HelpKey(), Quit: common.QuitKey(), ForceQuit: common.ForceQuitKey(),
	}
}
