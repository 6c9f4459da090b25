package preview

import (
	"github.com/charmbracelet/bubbles/key"

	"github.com/kedit/kedit/ui/common"
	"github.com/kedit/kedit/ui/pager"
)

// KeyMap is the dry run's preview's keys.
type KeyMap struct {
	// Scrolling the body.
	Up, Down, PageUp, PageDown, HalfPageUp, HalfPageDown, Home, End key.Binding

	// Close goes back to the object view.
	Close key.Binding

	Help, Quit, ForceQuit key.Binding
}

// DefaultKeyMap returns the preview's keys.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Up: common.UpKey(), Down: common.DownKey(), PageUp: common.PageUpKey(), PageDown: common.PageDownKey(),
		HalfPageUp: common.HalfPageUpKey(), HalfPageDown: common.HalfPageDownKey(), Home: common.HomeKey(), End: common.EndKey(),

		Close: common.Binding("close", "esc"),

		Help: common.HelpKey(), Quit: common.QuitKey(), ForceQuit: common.ForceQuitKey(),
	}
}

// pager is the body's scrolling keys.
func (k KeyMap) pager() pager.KeyMap {
	return pager.KeyMap{Up: k.Up, Down: k.Down, PageUp: k.PageUp, PageDown: k.PageDown,
		HalfPageUp: k.HalfPageUp, HalfPageDown: k.HalfPageDown, Home: k.Home, End: k.End}
}
