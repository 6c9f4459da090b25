package requests

import (
	"github.com/charmbracelet/bubbles/key"

	"github.com/kedit/kedit/ui/common"
	"github.com/kedit/kedit/ui/list"
	"github.com/kedit/kedit/ui/pager"
)

// KeyMap is the request pane's keys.
type KeyMap struct {
	// Open opens the pane over any view, OpenInEditor over the in-app
	// editor (where L is typed): the app matches them, as the pane is
	// over every view.
	Open, OpenInEditor key.Binding

	// Moving through the rows, or scrolling a request's bodies.
	Up, Down, PageUp, PageDown, HalfPageUp, HalfPageDown, Home, End key.Binding
	// Left and Right scroll the rows sideways.
	Left, Right key.Binding

	// Show shows the selected request's body and its answer's (Back or
	// Show goes back to the rows); Close closes the pane.
	Show, Back, Close key.Binding

	Help, Quit, ForceQuit key.Binding
}

// DefaultKeyMap returns the request pane's keys.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Open:         common.Binding("request pane", "L"),
		OpenInEditor: common.Binding("request pane (in the in-app editor)", "alt+l"),

		Up: common.UpKey(), Down: common.DownKey(), PageUp: common.PageUpKey(), PageDown: common.PageDownKey(),
		HalfPageUp: common.HalfPageUpKey(), HalfPageDown: common.HalfPageDownKey(), Home: common.HomeKey(), End: common.EndKey(),
		Left: common.LeftKey(), Right: common.RightKey(),

		Show:  common.Binding("the bodies", "enter"),
		Back:  common.BackKey(),
		Close: common.Bind("close", "L/esc", "L", "esc", "alt+l"),

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
