package helppage

import (
	"github.com/charmbracelet/bubbles/key"

	"github.com/kedit/kedit/ui/common"
)

// KeyMap is the help page's keys. Close is the key of the view that
// opened the page (? or f1); the app sets it, and in the in-app editor,
// whose letters are typed, the scrolling keys to the editor's arrows and
// page keys. Any other key closes the page and then does what it does.
type KeyMap struct {
	Close, Back key.Binding

	Up, Down, PageUp, PageDown, Top, Bottom key.Binding

	ForceQuit key.Binding
}

// DefaultKeyMap returns the help page's keys.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Close: common.HelpKey(), Back: common.BackKey(),
		Up: common.UpKey(), Down: common.DownKey(), PageUp: common.PageUpKey(), PageDown: common.PageDownKey(), Top: common.HomeKey(), Bottom: common.EndKey(),
		ForceQuit: common.ForceQuitKey(),
	}
}
