package ui

import (
	"errors"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/kube"
)

// A user who may read an object but not save it learns so when starting a
// draft, not only at the 403 of the save: the first e or i of an object
// asks the server once (one SelfSubjectAccessReview, not at start-up, which
// stays one GET), and a no is said at that e or i and every later one. The
// draft can still be made; the save is still sent when asked, as rights
// may have been given meanwhile.

// accessCheckedMsg is the server's answer to whether the user may save
// the object of session sess.
type accessCheckedMsg struct {
	of  objectID
	err error
}

// accessState is what the app learnt of the user's right to save one
// object.
type accessState struct {
	asked bool
	// denied is the server's no; nil while unknown or allowed.
	denied *kube.ForbiddenError
}

// askAccess says a known no, or asks the server, once per object.
func (m *App) askAccess() tea.Cmd {
	if m.access.denied != nil {
		m.sayDenied()
		return nil
	}
	if m.access.asked || m.opened == nil || m.opened.MaySave == nil {
		return nil
	}
	m.access.asked = true
	ctx, id, may := m.ctx, m.id, m.opened.MaySave
	return func() tea.Msg { return accessCheckedMsg{of: id, err: may(ctx)} }
}

// accessChecked takes the server's answer. A question that could not be
// asked says nothing: the save's own answer will.
func (m *App) accessChecked(msg accessCheckedMsg) {
	var denied *kube.ForbiddenError
	if !errors.As(msg.err, &denied) {
		return
	}
	st, shown := m.whose(msg.of)
	if st == nil {
		return // let go of meanwhile
	}
	// An object left for the browser meanwhile learns it too.
	st.access.denied = denied
	if shown {
		m.sayDenied()
	}
}

// sayDenied says that the draft can be made but not saved.
func (m *App) sayDenied() {
	d := m.access.denied
	m.status.ObjectError(escape.Textf("you may not %s %s: a draft can be made but not saved", d.Verb, d.Target.Objects()))
}
