package fielddoc

import (
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/viewport"

	"github.com/kedit/kedit/ui/common"
)

// KeyMap is the field docs' keys.
type KeyMap struct {
	// Scrolling the body.
	Up, Down, PageUp, PageDown, HalfPageUp, HalfPageDown, Home, End key.Binding
	// Close goes back to where the docs were opened from.
	Close           key.Binding
	Help, ForceQuit key.Binding
}

// DefaultKeyMap returns the field docs' keys.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Up: common.UpKey(), Down: common.DownKey(), PageUp: common.PageUpKey(), PageDown: common.PageDownKey(),
		HalfPageUp: common.HalfPageUpKey(), HalfPageDown: common.HalfPageDownKey(), Home: common.HomeKey(), End: common.EndKey(),
		Close: common.Binding("close", "esc", "q"),
		Help:  common.HelpKey(), ForceQuit: common.ForceQuitKey(),
	}
}

// viewport gives the body's viewport the view's scrolling keys.
func (k KeyMap) viewport() viewport.KeyMap {
	return common.ViewportKeys(k.Up, k.Down, k.PageUp, k.PageDown, k.HalfPageUp, k.HalfPageDown)
}
