// Package list is a list's selection and the rows in view, the one shape
// of the browser, the set view, the request pane and the timeline: a key
// moves the selection (Keys.Step), and the rows in view follow it
// (Cursor).
package list

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// Keys are the keys that move a list's selection: bindings of the view
// that holds it. A half page moves a page, where the view binds one.
type Keys struct {
	Up, Down, PageUp, PageDown, HalfPageUp, HalfPageDown, Home, End key.Binding
}

// Step is how far msg moves the selection of a list of n rows, page rows
// to a screen; ok is false for a key that does not move it.
func (k Keys) Step(msg tea.KeyMsg, page, n int) (int, bool) {
	switch {
	case key.Matches(msg, k.Up):
		return -1, true
	case key.Matches(msg, k.Down):
		return 1, true
	case key.Matches(msg, k.PageUp), key.Matches(msg, k.HalfPageUp):
		return -page, true
	case key.Matches(msg, k.PageDown), key.Matches(msg, k.HalfPageDown):
		return page, true
	case key.Matches(msg, k.Home):
		return -n, true
	case key.Matches(msg, k.End):
		return n, true
	}
	return 0, false
}

// Cursor is a list's selected row and its first row in view.
type Cursor struct{ Selected, Offset int }

// Move moves the selection by d rows, within the n rows, and keeps it in
// view of page rows.
func (c *Cursor) Move(d, n, page int) {
	c.Selected += d
	c.Show(n, page)
}

// Show keeps the selection within the n rows and in view: the page rows
// in view hold it, and end no later than the last row.
func (c *Cursor) Show(n, page int) {
	c.Selected = max(0, min(c.Selected, n-1))
	if c.Selected < c.Offset {
		c.Offset = c.Selected
	}
	if c.Selected >= c.Offset+page {
		c.Offset = c.Selected - page + 1
	}
	c.Offset = max(0, min(c.Offset, n-page))
}
