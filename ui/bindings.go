package ui

import (
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/viewport"
)

// The bindings several views share, each view with a copy of its own.

// binding is a key (or several) helped as the first.
func binding(help string, ks ...string) key.Binding { return bind(help, ks[0], ks...) }

// bind is a binding of ks, helped as shown.
func bind(help, shown string, ks ...string) key.Binding {
	return key.NewBinding(key.WithKeys(ks...), key.WithHelp(shown, help))
}

func upKey() key.Binding           { return bind("up", "↑/k", "up", "k") }
func downKey() key.Binding         { return bind("down", "↓/j", "down", "j") }
func leftKey() key.Binding         { return bind("left", "←/h", "left", "h") }
func rightKey() key.Binding        { return bind("right", "→/l", "right", "l") }
func pageUpKey() key.Binding       { return bind("page up", "pgup", "pgup") }
func pageDownKey() key.Binding     { return bind("page down", "pgdn/space", "pgdown", " ") }
func halfPageUpKey() key.Binding   { return binding("half page up", "ctrl+u") }
func halfPageDownKey() key.Binding { return binding("half page down", "ctrl+d") }
func homeKey() key.Binding         { return bind("top", "home/g", "home", "g") }
func endKey() key.Binding          { return bind("bottom", "end/G", "end", "G") }
func saveKey() key.Binding         { return bind("save", "s", "s", "ctrl+s") }
func backKey() key.Binding         { return binding("back", "esc") }
func revealKey() key.Binding       { return binding("reveal", "R") }
func undoKey() key.Binding         { return binding("undo the overwrite", "u") }
func helpKey() key.Binding         { return binding("help", "?") }
func quitKey() key.Binding         { return binding("quit", "q") }
func forceQuitKey() key.Binding    { return binding("quit now", "ctrl+c") }

// viewportKeys gives a viewport the scrolling keys of a view's key map:
// its defaults take letters that are the views' own keys. Sideways
// scrolling is the object view's own (sideways).
func viewportKeys(up, down, pageUp, pageDown, halfUp, halfDown key.Binding) viewport.KeyMap {
	return viewport.KeyMap{Up: up, Down: down, PageUp: pageUp, PageDown: pageDown, HalfPageUp: halfUp, HalfPageDown: halfDown}
}
