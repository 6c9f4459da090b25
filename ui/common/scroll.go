package common

import (
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/viewport"
	tea "github.com/charmbracelet/bubbletea"
)

// ScrollBody scrolls body with msg: home and end (which the viewport
// does not know) to its top and bottom, the rest as the viewport does.
func ScrollBody(body viewport.Model, msg tea.Msg, home, end key.Binding) (viewport.Model, tea.Cmd) {
	if k, ok := msg.(tea.KeyMsg); ok {
		switch {
		case key.Matches(k, home):
			body.GotoTop()
			return body, nil
		case key.Matches(k, end):
			body.GotoBottom()
			return body, nil
		}
	}
	return body.Update(msg)
}
