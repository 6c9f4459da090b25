package timeline

import (
	"github.com/charmbracelet/bubbles/key"

	"github.com/kedit/kedit/ui/common"
	"github.com/kedit/kedit/ui/list"
	"github.com/kedit/kedit/ui/pager"
)

// KeyMap is the timeline's keys.
type KeyMap struct {
	// Moving through the list, or scrolling the selected version's diff;
	// Left and Right scroll either sideways, as in the object view.
	Up, Down, Left, Right, PageUp, PageDown, HalfPageUp, HalfPageDown, Home, End key.Binding

	// Diff shows the selected version's diff against the one before it
	// (Back or Diff goes back to the list), or a LOST row's lost updates;
	// Take makes that version the draft (after a confirmation); Undo, on a
	// LOST row, makes the draft that puts the lost values back; Close goes
	// back to the object view.
	Diff, Take, Undo, Close, Back key.Binding
	// Path starts typing a field's path (/): enter follows it, its value
	// shown in each version, and esc (Back) stops.
	Path key.Binding

	Help, Quit, ForceQuit key.Binding
}

// DefaultKeyMap returns the timeline's keys.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Up: common.UpKey(), Down: common.DownKey(), Left: common.LeftKey(), Right: common.RightKey(), PageUp: common.PageUpKey(), PageDown: common.PageDownKey(),
		HalfPageUp: common.HalfPageUpKey(), HalfPageDown: common.HalfPageDownKey(), Home: common.HomeKey(), End: common.EndKey(),

		Diff:  common.Binding("diff", "enter"),
		Take:  common.Binding("make it the draft", "y"),
		Undo:  common.UndoKey(),
		Close: common.Bind("close", "t/esc", "t", "esc"),
		Back:  common.BackKey(),
		Path:  common.Binding("follow a field's value", "/"),

		Help: common.HelpKey(), Quit: common.QuitKey(), ForceQuit: common.ForceQuitKey(),
	}
}

// list is the keys that move the selection.
func (k KeyMap) list() list.Keys {
	return list.Keys{Up: k.Up, Down: k.Down, PageUp: k.PageUp, PageDown: k.PageDown,
		HalfPageUp: k.HalfPageUp, HalfPageDown: k.HalfPageDown, Home: k.Home, End: k.End}
}

// pager is the body's scrolling keys.
func (k KeyMap) pager() pager.KeyMap {
	return pager.KeyMap{Up: k.Up, Down: k.Down, PageUp: k.PageUp, PageDown: k.PageDown,
		HalfPageUp: k.HalfPageUp, HalfPageDown: k.HalfPageDown, Home: k.Home, End: k.End}
}
