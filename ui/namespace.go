package ui

import (
	"context"
	"errors"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/kube"
	"github.com/kedit/kedit/ui/common"
)

// :ns NAME of a namespace typed rather than picked: the server is asked
// whether it exists before the list switches to it.

// namespaceCheckedMsg is what the server said of the namespace that :ns
// NAME typed.
type namespaceCheckedMsg struct {
	name string
	err  error
}

func checkNamespaceCmd(ctx context.Context, c Cluster, name string) tea.Cmd {
	return func() tea.Msg {
		return namespaceCheckedMsg{name: name, err: c.CheckNamespace(ctx, name)}
	}
}

// namespaceChecked switches to the namespace :ns NAME typed once the
// server has said it exists. One that does not is said, and the list
// stays; when kedit cannot tell (a user who may not read namespaces), the
// list switches and the status line says that kedit could not tell, so
// that an empty list is not taken for an empty namespace.
func (m *App) namespaceChecked(msg namespaceCheckedMsg) tea.Cmd {
	cur := m.browsing.listed
	if msg.name != m.browsing.checkingNamespace || cur == nil {
		return nil // another :ns since
	}
	m.browsing.checkingNamespace = ""
	var nf *kube.NamespaceNotFoundError
	if errors.As(msg.err, &nf) {
		m.status.Error(common.ErrorText(msg.err) + "; the list stays as it was (:ns picks from those that do)")
		return nil
	}
	cmd := m.listOn(cur.InNamespace(msg.name))
	var forbidden *kube.ForbiddenListError
	switch {
	case errors.As(msg.err, &forbidden):
		m.status.Info(escape.Textf("cannot tell whether namespace %q exists: not allowed to %s namespaces; listing in it", msg.name, forbidden.Verb))
	case msg.err != nil:
		m.status.Info(escape.Textf("cannot tell whether namespace %q exists: %s; listing in it", msg.name, common.ErrorText(msg.err)))
	default:
		m.status.Info("")
	}
	return cmd
}
