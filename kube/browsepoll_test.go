package kube

import (
	"errors"
	"testing"
	"time"

	"github.com/kedit/kedit/kube/kubetest"
)

// TestBrowsePollsWhenNotAllowedToWatch: a user who may list configmaps but
// not watch them, by a real Role on the real API server, gets the list,
// said as polling with the refused verb (never refused: the rows are
// there), and the rows follow a creation, a change and a deletion within
// a few polls, not at the reflector's back-off of up to half a minute.
func TestBrowsePollsWhenNotAllowedToWatch(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "a", "--from-literal=foo=1")
	viewer := grantViewer(t, ns, "list")
	cl := connectForTest(t, viewer.kubeconfig, ns)
	col, err := cl.Collection("cm", false)
	if err != nil {
		t.Fatal(err)
	}
	r := startBrowse(t, cl.Metadata, col)
	has := func(name string) func(BrowseSnapshot) bool {
		return func(s BrowseSnapshot) bool {
			for _, row := range s.Rows {
				if row.Name == name {
					return true
				}
			}
			return false
		}
	}
	snap := r.waitFor("polling with a's row", liveDeadline, func(s BrowseSnapshot) bool { return s.Connection.State == Polling && has("a")(s) })
	var forbidden *ForbiddenListError
	if !errors.As(snap.Connection.Err, &forbidden) || forbidden.Short() != "not allowed to watch configmaps in "+ns {
		t.Fatalf("polling because of %T %v, want the refused watch", snap.Connection.Err, snap.Connection.Err)
	}
	// Each change within three polls.
	within := 3*PollInterval + 5*time.Second
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "b", "--from-literal=foo=1")
	r.waitFor("b created", within, has("b"))
	rv := ""
	for _, row := range r.last.Rows {
		if row.Name == "a" {
			rv = row.ResourceVersion
		}
	}
	kubetest.MustKubectl(t, "-n", ns, "patch", "configmap", "a", "--type=merge", "-p", `{"data":{"foo":"2"}}`)
	r.waitFor("a changed", within, func(s BrowseSnapshot) bool {
		for _, row := range s.Rows {
			if row.Name == "a" && row.ResourceVersion != rv {
				return true
			}
		}
		return false
	})
	kubetest.MustKubectl(t, "-n", ns, "delete", "configmap", "b")
	r.waitFor("b deleted", within, func(s BrowseSnapshot) bool { return !has("b")(s) })
	if r.last.Connection.State != Polling {
		t.Errorf("after the changes the list says %s (%v), want polling", r.last.Connection.State, r.last.Connection.Err)
	}
}
