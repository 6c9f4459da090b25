package kube

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/kedit/kedit/kube/kubetest"
	"github.com/kedit/kedit/model"
)

// grantViewer gives the viewer user (kubetest.ViewerKubeconfig) the verbs
// on configmaps in ns, with a real Role and RoleBinding, and returns the
// viewer's cluster.
func grantViewer(t *testing.T, ns, verbs string) testCluster {
	t.Helper()
	kubetest.MustKubectl(t, "-n", ns, "create", "role", "cm-"+strings.ReplaceAll(verbs, ",", "-"), "--verb="+verbs, "--resource=configmaps")
	kubetest.MustKubectl(t, "-n", ns, "create", "rolebinding", "viewer", "--role=cm-"+strings.ReplaceAll(verbs, ",", "-"), "--user=kedit-viewer")
	kc := kubetest.ViewerKubeconfig(t)
	return testCluster{kubeconfig: kc, cfg: clusterConfig(t, kc)}
}

// TestWatchPollsWhenNotAllowedToWatch: a user who may get, list and update
// configmaps but not watch them, by a real Role on the real API server.
// The watch says polling, naming the refused verb (never reconnecting: the
// server is there), and reads the object with a GET every 2 s: changes,
// a deletion and a creation are all seen. The same holds for a user who
// may not list either (get and update only).
func TestWatchPollsWhenNotAllowedToWatch(t *testing.T) {
	t.Parallel()
	for _, verbs := range []string{"get,list,update", "get,update"} {
		t.Run(verbs, func(t *testing.T) {
			t.Parallel()
			ns := kubetest.Namespace(t)
			kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=1")
			viewer := grantViewer(t, ns, verbs)
			w, err := NewWatchForConfig(viewer.cfg, configMapTarget("", ns, "testmap"))
			if err != nil {
				t.Fatal(err)
			}
			if err := w.Start(t.Context()); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { stopWithin(t, w, 10*time.Second) })
			r := &watchRecorder{t: t, w: w, name: "testmap"}
			r.await(0, "Added", isType(ObjectAdded))
			ev := r.await(0, "Polling", isConn(Polling))
			var forbidden *ForbiddenError
			if !errors.As(ev.Connection.Err, &forbidden) || forbidden.Short() != "not allowed to watch configmaps in "+ns {
				t.Fatalf("polling because of %T %v, want the refused watch", ev.Connection.Err, ev.Connection.Err)
			}

			kubetest.MustKubectl(t, "-n", ns, "patch", "configmap", "testmap", "--type=merge", "-p", `{"data":{"foo":"theirs"}}`)
			start := time.Now()
			r.next("Modified by polling", hasData(ObjectModified, "foo", "theirs"))
			t.Logf("a change seen %s after it was made", time.Since(start).Round(time.Millisecond))
			if latest, ok := w.Latest(); !ok || latest.GetResourceVersion() == "" {
				t.Error("Latest has no object while polling")
			}
			kubetest.MustKubectl(t, "-n", ns, "delete", "configmap", "testmap")
			r.next("Deleted by polling", isType(ObjectDeleted))
			kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=again")
			r.next("Added again by polling", hasData(ObjectAdded, "foo", "again"))
			for _, ev := range r.seen {
				if ev.Type == ConnectionChanged && ev.Connection.State != Polling {
					t.Errorf("the user was told %s (%v): the server was there all along", ev.Connection.State, ev.Connection.Err)
				}
			}
		})
	}
}

// TestEnginePollingSeesChangesAndConflicts: kedit run by a user who may not
// watch still shows another writer's change as it comes (the banner) and
// rebases a save that meets it, as with a watch.
func TestEnginePollingSeesChangesAndConflicts(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=1", "--from-literal=bar=1")
	viewer := grantViewer(t, ns, "get,list,update")
	e := newEngineAt(t, viewer, ns, "configmap", "testmap", engineOptions{})
	e.editDraft(`foo: "1"`, `foo: mine`)
	kubetest.MustKubectl(t, "-n", ns, "patch", "configmap", "testmap", "--type=merge", "-p", `{"data":{"bar":"theirs"}}`)
	e.awaitLive(liveData("bar", "theirs"))
	if ch, ok := e.session.ServerChange(); !ok || ch.Manager != "kubectl-patch" {
		t.Errorf("banner %+v (%v), want kubectl-patch's change", ch, ok)
	}
	e.handle(model.SaveRequested{})
	if st := e.session.State(); st != model.StateRebasing {
		t.Fatalf("state %s after the save met theirs, want a clean rebase", st)
	}
	if err := e.handle(model.Resubmit{}); err != nil || e.session.State() != model.StateSaved {
		t.Fatalf("resubmit: %v, state %s", err, e.session.State())
	}
	if got := dataOf(t, e.runner.Target); got["foo"] != "mine" || got["bar"] != "theirs" {
		t.Errorf("data %v on the server", got)
	}
}

// TestWatchRefusedWhenNotAllowedToRead: a user who may not even get the
// object is told so (refused, naming the verb), never reconnecting.
func TestWatchRefusedWhenNotAllowedToRead(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=1")
	w, err := NewWatchForConfig(clusterConfig(t, kubetest.ViewerKubeconfig(t)), configMapTarget("", ns, "testmap"))
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stopWithin(t, w, 10*time.Second) })
	r := &watchRecorder{t: t, w: w, name: "testmap"}
	ev := r.next("Refused", isConn(Refused))
	var forbidden *ForbiddenError
	if !errors.As(ev.Connection.Err, &forbidden) || !strings.HasPrefix(forbidden.Short(), "not allowed to list configmaps in "+ns) {
		t.Errorf("refused with %T %v", ev.Connection.Err, ev.Connection.Err)
	}
	for _, ev := range r.seen {
		if isConn(Reconnecting)(ev) || isConn(Polling)(ev) {
			t.Errorf("%s (%v) for a user who may not read", ev.Connection.State, ev.Connection.Err)
		}
	}
}
