package common

import (
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/viewport"
)

// The bindings several views share, each view with a copy of its own.

// Binding is a key (or several) helped as the first.
func Binding(help string, ks ...string) key.Binding { return Bind(help, ks[0], ks...) }

// Bind is a binding of ks, helped as shown.
func Bind(help, shown string, ks ...string) key.Binding {
	return key.NewBinding(key.WithKeys(ks...), key.WithHelp(shown, help))
}

func UpKey() key.Binding           { return Bind("up", "↑/k", "up", "k") }
func DownKey() key.Binding         { return Bind("down", "↓/j", "down", "j") }
func LeftKey() key.Binding         { return Bind("left", "←/h", "left", "h") }
func RightKey() key.Binding        { return Bind("right", "→/l", "right", "l") }
func PageUpKey() key.Binding       { return Bind("page up", "pgup", "pgup") }
func PageDownKey() key.Binding     { return Bind("page down", "pgdn/space", "pgdown", " ") }
func HalfPageUpKey() key.Binding   { return Binding("half page up", "ctrl+u") }
func HalfPageDownKey() key.Binding { return Binding("half page down", "ctrl+d") }
func HomeKey() key.Binding         { return Bind("top", "home/g", "home", "g") }
func EndKey() key.Binding          { return Bind("bottom", "end/G", "end", "G") }
func SaveKey() key.Binding         { return Bind("save", "s", "s", "ctrl+s") }
func BackKey() key.Binding         { return Binding("back", "esc") }
func RevealKey() key.Binding       { return Binding("reveal", "R") }
func UndoKey() key.Binding         { return Binding("undo the overwrite", "u") }
func HelpKey() key.Binding         { return Binding("help", "?") }
func QuitKey() key.Binding         { return Binding("quit", "q") }
func ForceQuitKey() key.Binding    { return Binding("quit now", "ctrl+c") }

// ViewportKeys gives a viewport the scrolling keys of a view's key map:
// its defaults take letters that are the views' own keys. Sideways
// scrolling is the object view's own (sideways).
func ViewportKeys(up, down, pageUp, pageDown, halfUp, halfDown key.Binding) viewport.KeyMap {
	return viewport.KeyMap{Up: up, Down: down, PageUp: pageUp, PageDown: pageDown, HalfPageUp: halfUp, HalfPageDown: halfDown}
}
