package common

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// ListKeys are the keys that move a list's selection: the browser's and
// the set view's.
type ListKeys struct{ Up, Down, PageUp, PageDown, Home, End key.Binding }

// Step is how far msg moves the selection of a list of n rows, page rows
// to a screen; ok is false for a key that does not move it.
func (k ListKeys) Step(msg tea.KeyMsg, page, n int) (int, bool) {
	switch {
	case key.Matches(msg, k.Up):
		return -1, true
	case key.Matches(msg, k.Down):
		return 1, true
	case key.Matches(msg, k.PageUp):
		return -page, true
	case key.Matches(msg, k.PageDown):
		return page, true
	case key.Matches(msg, k.Home):
		return -n, true
	case key.Matches(msg, k.End):
		return n, true
	}
	return 0, false
}
