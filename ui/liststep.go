package ui

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// listKeys are the keys that move a list's selection: the browser's and
// the set view's.
type listKeys struct{ up, down, pageUp, pageDown, home, end key.Binding }

// step is how far msg moves the selection of a list of n rows, page rows
// to a screen; ok is false for a key that does not move it.
func (k listKeys) step(msg tea.KeyMsg, page, n int) (int, bool) {
	switch {
	case key.Matches(msg, k.up):
		return -1, true
	case key.Matches(msg, k.down):
		return 1, true
	case key.Matches(msg, k.pageUp):
		return -page, true
	case key.Matches(msg, k.pageDown):
		return page, true
	case key.Matches(msg, k.home):
		return -n, true
	case key.Matches(msg, k.end):
		return n, true
	}
	return 0, false
}
