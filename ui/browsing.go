package ui

import (
	"errors"

	"github.com/kedit/kedit/ui/internal/effect"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/kube"
	"github.com/kedit/kedit/ui/browser"
	"github.com/kedit/kedit/ui/common"
	"github.com/kedit/kedit/ui/internal/say"
)

// What the browser draws, made from what kube lists: the browser gets
// values and knows no kube.

// setList shows collection c in the browser, its snapshots read from
// snaps (a kube.Browse's Snapshots), in place of what it listed.
func (m *App) setList(c *kube.Collection, snaps <-chan kube.BrowseSnapshot) tea.Cmd {
	m.browsing.listed = c
	return m.browser.SetList(browserListing(c), readSnapshots(snaps))
}

// browserListing is what c lists, as the browser's header and messages
// name it.
func browserListing(c *kube.Collection) browser.Listing {
	return browser.Listing{Resource: c.Resource(), GroupResource: c.Mapping.Resource.GroupResource(), Context: c.Context,
		Namespace: c.Namespace, Namespaced: c.Namespaced(), AllNamespaces: c.AllNamespaces, Where: c.Where()}
}

// readSnapshots reads the snapshots of snaps for the browser, one a call;
// nil for no channel. A snapshot whose rows are those of the one before
// (only the connection changed) shares its rows.
func readSnapshots(snaps <-chan kube.BrowseSnapshot) func() (browser.Snapshot, bool) {
	if snaps == nil {
		return nil
	}
	var last browser.Snapshot
	seen := false
	return func() (browser.Snapshot, bool) {
		s, ok := <-snaps
		if !ok {
			return browser.Snapshot{}, false
		}
		if seen && s.Generation == last.Generation {
			last.Synced, last.Connection = s.Synced, browserConnection(s.Connection)
			return last, true
		}
		last, seen = browserSnapshot(s), true
		return last, true
	}
}

// browserSnapshot is s as the browser draws it.
func browserSnapshot(s kube.BrowseSnapshot) browser.Snapshot {
	rows := make([]browser.Row, len(s.Rows))
	for i, r := range s.Rows {
		rows[i] = browser.Row(r)
	}
	return browser.Snapshot{Rows: rows, Generation: s.Generation, Synced: s.Synced, Connection: browserConnection(s.Connection)}
}

// browserConnection is c in the words of the headers (say.Connection).
func browserConnection(c kube.Connection) browser.Connection {
	out := browser.Connection{Text: say.Connection(c)}
	switch c.State {
	case kube.Refused:
		out.Refused = c.Err
	case kube.Reconnecting:
		out.Lost = c.Err
	}
	return out
}

// browserTypesOf are the types the browser's : prompt completes.
func browserTypesOf(types []kube.ResourceType) []browser.Type {
	out := make([]browser.Type, len(types))
	for i, t := range types {
		out[i] = browser.Type{Resource: t.Resource, Name: t.Name(), Names: t.Names()}
	}
	return out
}

// :ns NAME of a namespace typed rather than picked: the server is asked
// whether it exists before the list switches to it.

// namespaceChecked switches to the namespace :ns NAME typed once the
// server has said it exists. One that does not is said, and the list
// stays; when kedit cannot tell (a user who may not read namespaces), the
// list switches and the status line says that kedit could not tell, so
// that an empty list is not taken for an empty namespace.
func (m *App) namespaceChecked(msg effect.NamespaceChecked) tea.Cmd {
	cur := m.browsing.listed
	if msg.Name != m.browsing.checkingNamespace || cur == nil {
		return nil // another :ns since
	}
	m.browsing.checkingNamespace = ""
	var nf *kube.NamespaceNotFoundError
	if errors.As(msg.Err, &nf) {
		m.status.Error(common.ErrorText(msg.Err) + "; the list stays as it was (:ns picks from those that do)")
		return nil
	}
	cmd := m.listOn(cur.InNamespace(msg.Name))
	var forbidden *kube.ForbiddenListError
	switch {
	case errors.As(msg.Err, &forbidden):
		m.status.Info(escape.Textf("cannot tell whether namespace %q exists: not allowed to %s namespaces; listing in it", msg.Name, forbidden.Verb))
	case msg.Err != nil:
		m.status.Info(escape.Textf("cannot tell whether namespace %q exists: %s; listing in it", msg.Name, common.ErrorText(msg.Err)))
	default:
		m.status.Info("")
	}
	return cmd
}
