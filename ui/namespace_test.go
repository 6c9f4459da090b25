package ui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// command types :line and enter in the browser.
func command(t *testing.T, m App, line string) App {
	t.Helper()
	m = drive(t, m, keyMsg(":"))
	m = drive(t, m, keyMsg(line))
	return drive(t, m, tea.KeyMsg{Type: tea.KeyEnter})
}

// TestNamespaceThatDoesNotExist: :ns NAME of a namespace the server does
// not have says so and leaves the list as it was; one it has switches.
func TestNamespaceThatDoesNotExist(t *testing.T) {
	c := newFakeCluster(t)
	c.add("configmaps", "default", "testmap")
	m := browserApp(t, c, c.collection("configmaps", "default", false), 120, 30)
	lists := len(c.lists)
	m = command(t, m, "ns nosuchns")
	if got := m.status.Text(); !strings.Contains(got, `namespace "nosuchns" does not exist`) {
		t.Errorf(":ns nosuchns says %q", got)
	}
	if coll := m.browsing.listed; coll.Namespace != "default" || len(c.lists) != lists {
		t.Errorf(":ns nosuchns lists %s, %d lists started", coll.Where(), len(c.lists)-lists)
	}
	if out := plain(m); strings.Contains(out, "nosuchns\"\n") || strings.Contains(out, `in namespace "nosuchns"`) {
		t.Errorf("the screen lists the namespace that does not exist:\n%s", out)
	}
	m = command(t, m, "ns team-a")
	if coll := m.browsing.listed; coll.Namespace != "team-a" {
		t.Errorf(":ns team-a lists %s", coll.Where())
	}
	if got := m.status.Text(); strings.Contains(got, "nosuchns") {
		t.Errorf("after switching, the status still says %q", got)
	}
}

// TestNamespaceOfAUserWhoMayNotReadNamespaces: kedit cannot tell whether
// the namespace exists, switches, and says that it cannot tell; tab says
// why it cannot complete.
func TestNamespaceOfAUserWhoMayNotReadNamespaces(t *testing.T) {
	c := newFakeCluster(t)
	c.forbidNamespaces = true
	m := browserApp(t, c, c.collection("configmaps", "default", false), 120, 30)
	m = command(t, m, "ns team-b")
	if coll := m.browsing.listed; coll.Namespace != "team-b" {
		t.Errorf(":ns team-b lists %s", coll.Where())
	}
	if got := m.status.Text(); got != `cannot tell whether namespace "team-b" exists: not allowed to get namespaces; listing in it` {
		t.Errorf(":ns team-b says %q", got)
	}
	m = drive(t, m, keyMsg(":"), keyMsg("ns te"), tea.KeyMsg{Type: tea.KeyTab})
	if out := plain(m); !strings.Contains(out, "cannot complete namespaces: not allowed to list namespaces") {
		t.Errorf("tab without the right to list namespaces:\n%s", out)
	}
}

// TestNamespaceTabWithNoMatch: tab reads the namespaces when it first
// needs them, completes one, and says when none starts with what is typed.
func TestNamespaceTabWithNoMatch(t *testing.T) {
	c := newFakeCluster(t)
	m := browserApp(t, c, c.collection("configmaps", "default", false), 120, 30)
	m = drive(t, m, keyMsg(":"), keyMsg("ns te"), tea.KeyMsg{Type: tea.KeyTab})
	if out := plain(m); !strings.Contains(out, ":ns team-a") {
		t.Errorf("tab on :ns te:\n%s", out)
	}
	m = drive(t, m, tea.KeyMsg{Type: tea.KeyCtrlU}, keyMsg("ns xyz"))
	m = drive(t, m, tea.KeyMsg{Type: tea.KeyTab})
	if out := plain(m); !strings.Contains(out, `no namespace starts with "xyz"`) {
		t.Errorf("tab on :ns xyz:\n%s", out)
	}
}
