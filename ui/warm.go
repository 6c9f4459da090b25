package ui

import (
	tea "github.com/charmbracelet/bubbletea"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kedit/kedit/model"
)

// baseRenderedMsg is base's text, rendered in the background for the
// object of in its session's format.
type baseRenderedMsg struct {
	of     objectID
	obj    *unstructured.Unstructured
	format model.Format
	text   string
}

// warmDraftText renders the shown object's text in the background while
// there is no draft, so that e and i open at once instead of rendering
// it first (tens of milliseconds for a mebibyte). One render at a time.
func (m *App) warmDraftText() tea.Cmd {
	if m.sess == nil || m.life.warming {
		return nil
	}
	obj, ok := m.sess.BaseToRender()
	if !ok {
		return nil
	}
	m.life.warming = true
	id, format := m.id, m.sess.Format()
	return func() tea.Msg {
		text, err := format.Render(obj)
		if err != nil {
			return baseRenderedMsg{of: id} // DraftText says why, when asked
		}
		return baseRenderedMsg{of: id, obj: obj, format: format, text: text}
	}
}

// baseRendered hands a background render to its session.
func (m App) baseRendered(msg baseRenderedMsg) (App, tea.Cmd) {
	m.life.warming = false
	if _, shown := m.whose(msg.of); shown && m.sess != nil && msg.obj != nil {
		m.sess.SetBaseText(msg.obj, msg.format, msg.text)
	}
	return m, nil
}
