// Package pager is the body that scrolls under a view's header, the one
// shape of the dry run's preview, the source diff, the field docs, the
// request pane's bodies and the timeline's diff: its lines in a viewport
// of the view's size less its header, scrolled by the view's own keys
// (home and end included) and the mouse wheel.
package pager

import (
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/viewport"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/kedit/kedit/ui/common"
)

// KeyMap is what scrolls a pager: bindings of the view that holds it.
type KeyMap struct {
	Up, Down, PageUp, PageDown, HalfPageUp, HalfPageDown, Home, End key.Binding
}

// Bindings are the keys in the order the views' help lists them.
func (k KeyMap) Bindings() []key.Binding {
	return []key.Binding{k.Up, k.Down, k.PageUp, k.PageDown, k.HalfPageUp, k.HalfPageDown, k.Home, k.End}
}

// Model is a body that scrolls.
type Model struct {
	keys KeyMap
	body viewport.Model
}

// New returns an empty pager that scrolls with keys.
func New(keys KeyMap) Model {
	vp := viewport.New(0, 0)
	vp.KeyMap = common.ViewportKeys(keys.Up, keys.Down, keys.PageUp, keys.PageDown, keys.HalfPageUp, keys.HalfPageDown)
	vp.MouseWheelEnabled = true
	return Model{keys: keys, body: vp}
}

// SetSize sets the body's size: the view's width, and its height less
// the header's lines, at least one.
func (m *Model) SetSize(width, height, header int) {
	m.body.Width, m.body.Height = width, max(1, height-header)
}

// SetContent shows text, a line each, where it was scrolled to (as far as
// text reaches).
func (m *Model) SetContent(text string) { m.body.SetContent(text) }

// GotoTop scrolls to the first line.
func (m *Model) GotoTop() { m.body.GotoTop() }

// Update scrolls the body with its keys and the mouse wheel.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	var cmd tea.Cmd
	m.body, cmd = common.ScrollBody(m.body, msg, m.keys.Home, m.keys.End)
	return m, cmd
}

// View draws the lines in view.
func (m Model) View() string { return m.body.View() }

// YOffset is the first line in view; Height how many lines show.
func (m Model) YOffset() int { return m.body.YOffset }

// Height is how many lines show.
func (m Model) Height() int { return m.body.Height }
