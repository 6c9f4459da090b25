package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/kedit/kedit/internal/badinput"
	"github.com/kedit/kedit/internal/drafts"
	"github.com/kedit/kedit/kube"
	"github.com/kedit/kedit/kube/kubetest"
	"github.com/kedit/kedit/model"
)

// The corpus of bad input, testdata/bad/*.case, is described in
// internal/badinput, which reads it.

// badKubeconfig writes the case's kubeconfig: one whose server is not
// there, or one whose token the server does not know.
func badKubeconfig(t *testing.T, which string) string {
	t.Helper()
	switch which {
	case "":
		return kubetest.Kubeconfig(t)
	case "viewer":
		return kubetest.ViewerKubeconfig(t)
	}
	cfg, err := clientcmd.LoadFromFile(kubetest.Kubeconfig(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range cfg.AuthInfos {
		a.Token = "expired-" + strings.Repeat("0", 32)
	}
	if which == "nowhere" {
		for _, c := range cfg.Clusters {
			c.Server = "https://127.0.0.1:1"
		}
	}
	p := filepath.Join(t.TempDir(), which+".kubeconfig")
	if err := clientcmd.WriteToFile(*cfg, p); err != nil {
		t.Fatal(err)
	}
	return p
}

// badEngine is the engine the UI runs, without a terminal: a session fed
// by the watch, its effects performed by the runner, drafts stored on disk.
type badEngine struct {
	t      *testing.T
	sess   *model.Session
	runner *kube.Runner
	drafts *drafts.Object
}

func newBadEngine(t *testing.T, target *kube.Target, clientKubeconfig string) *badEngine {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	w, err := kube.NewWatchForConfig(kubetest.RESTConfig(t), target)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Stop)
	cfg, err := clientcmd.BuildConfigFromFlags("", clientKubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	client, err := dynamic.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	store := &drafts.Store{Dir: filepath.Join(t.TempDir(), "drafts")}
	od := store.Open(kube.DraftKey(target), "")
	t.Cleanup(od.Close)
	e := &badEngine{t: t, sess: model.NewSession(target.Ref()), drafts: od,
		runner: &kube.Runner{Client: client, Target: target, Strategy: kube.StrategyUpdate, Cached: w.Latest, Drafts: od}}
	deadline := time.After(time.Minute)
	for e.sess.Base().Object == nil {
		select {
		case ev := <-w.Events():
			if ev.Type.IsObject() {
				e.handle(model.LiveChanged{Type: model.LiveAdded, Object: ev.Object, At: time.Now()})
			}
		case <-deadline:
			t.Fatal("the watch delivered no object")
		}
	}
	return e
}

// handle gives the session ev and performs the effects in order, feeding
// their outcomes back; it returns the session's refusal, if any.
func (e *badEngine) handle(ev model.Event) error {
	queue := []model.Event{ev}
	var first error
	for len(queue) > 0 {
		ev, queue = queue[0], queue[1:]
		_, effects, err := e.sess.Handle(ev)
		if err != nil && first == nil {
			first = err
		}
		for _, eff := range effects {
			next, err := e.runner.Perform(context.Background(), eff)
			var secret *drafts.SecretError
			if err != nil && !errors.As(err, &secret) {
				e.t.Errorf("performing %T: %v", eff, err)
			}
			if next != nil {
				queue = append(queue, next)
			}
		}
	}
	return first
}

// storedDraft is the draft file's text, without its header.
func (e *badEngine) storedDraft() string {
	b, err := os.ReadFile(e.drafts.Path())
	if err != nil {
		return "(no draft file: " + err.Error() + ")"
	}
	return string(b)
}

// TestBadInputThroughTheEngine drives every case that gets as far as a
// session through the engine the UI runs.
func TestBadInputThroughTheEngine(t *testing.T) {
	for _, c := range badinput.Cases(t, filepath.Join("testdata", "bad")) {
		if c.Via == "open" {
			continue
		}
		t.Run(c.File, func(t *testing.T) {
			t.Parallel()
			ns := kubetest.Namespace(t)
			typ, name := c.Create(t, ns)
			target := badinput.Resolve(t, ns, typ, name)
			before := badinput.Read(t, target)
			client := kubetest.Kubeconfig(t)
			if c.Client == "viewer" {
				client = viewerWhoMayRead(t, ns)
			}
			e := newBadEngine(t, target, client)
			rendered, err := e.sess.DraftText()
			if err != nil {
				t.Fatalf("the object does not render: %v", err)
			}
			text := c.Edited(t, rendered, ns)

			err = e.handle(model.DraftEdited{Text: text})
			var said string
			switch c.Via {
			case "draft":
				if err == nil {
					t.Fatalf("the draft was taken; want it refused with %q", c.Expect)
				}
				said = err.Error()
				// A save of it is refused the same way, and sends nothing.
				if err := e.handle(model.SaveRequested{}); err == nil || err.Error() != said {
					t.Errorf("save of the refused draft: %v, want %q", err, said)
				}
			case "save":
				if err != nil {
					t.Fatalf("the draft was refused (%v); the case wants the server to refuse it", err)
				}
				if c.BeforeSave == "delete" {
					kubetest.MustKubectl(t, "-n", ns, "delete", typ, name)
				}
				e.handle(model.SaveRequested{})
				f := e.sess.Failure()
				if f == nil {
					t.Fatalf("state %s: the save was not refused", e.sess.State())
				}
				said = f.Err.Error()
			}
			if !strings.Contains(said, c.Expect) {
				t.Errorf("kedit says %q; want it to name the problem: %q", said, c.Expect)
			}
			if d := e.sess.Draft(); d == nil || d.Text != text {
				t.Error("the draft was not kept in the session")
			}
			// A Secret's draft exists in memory only (without
			// --allow-secret-drafts): that it is kept there is checked above.
			if stored := e.storedDraft(); !target.Ref().IsSecret() && !strings.HasSuffix(stored, text) {
				t.Errorf("the draft file does not hold the draft: %q", short(stored))
			}
			after := badinput.Read(t, target)
			switch {
			case c.BeforeSave == "delete":
				if after != nil {
					t.Error("the deleted object is back on the server")
				}
			case after == nil || after.GetResourceVersion() != before.GetResourceVersion():
				t.Errorf("the object changed on the server: rv %s -> %v", before.GetResourceVersion(), after)
			}
		})
	}
}

// viewerWhoMayRead is a kubeconfig of a user who may read ConfigMaps in
// ns but not write them.
func viewerWhoMayRead(t *testing.T, ns string) string {
	t.Helper()
	kubetest.MustKubectl(t, "-n", ns, "create", "role", "reader", "--verb=get,list,watch", "--resource=configmaps")
	kubetest.MustKubectl(t, "-n", ns, "create", "rolebinding", "reader", "--role=reader", "--user=kedit-viewer")
	return kubetest.ViewerKubeconfig(t)
}

func short(s string) string {
	if len(s) > 300 {
		return s[:300] + "…"
	}
	return s
}

// TestBadInputBeforeTheUI runs the cases that fail before there is a
// session through kedit's own command, in the test's process: it must
// exit 1 with a message that names the problem, leave the object's stored
// draft as it was, and change nothing on the server.
func TestBadInputBeforeTheUI(t *testing.T) {
	for _, c := range badinput.Cases(t, filepath.Join("testdata", "bad")) {
		if c.Via != "open" {
			continue
		}
		t.Run(c.File, func(t *testing.T) {
			ns := kubetest.Namespace(t)
			typ, name := c.Create(t, ns)
			t.Setenv("XDG_STATE_HOME", t.TempDir())
			t.Setenv("KUBECACHEDIR", t.TempDir())
			// A draft of the fixture from an earlier run, which the failed
			// start must leave as it is.
			fixtureType := typ
			if c.Fixture == "ambiguous" || c.Object != "" {
				fixtureType = "configmap"
			}
			target := badinput.Resolve(t, ns, fixtureType, badinput.Name)
			before := badinput.Read(t, target)
			store, err := drafts.NewStore(false)
			if err != nil {
				t.Fatal(err)
			}
			od := store.Open(kube.DraftKey(target), string(before.GetUID()))
			draftPath, err := od.Write(1, before.GetResourceVersion(), []byte("data:\n  foo: from an earlier run\n"), before.Object)
			od.Close()
			if err != nil {
				t.Fatal(err)
			}
			stored, _ := os.ReadFile(draftPath)

			_, stderr, code := runKedit(t, "--kubeconfig", badKubeconfig(t, c.Kubeconfig), "-n", ns, typ+"/"+name)
			if code != 1 {
				t.Errorf("exit %d, want 1", code)
			}
			if !strings.Contains(stderr, c.Expect) {
				t.Errorf("kedit says %q; want it to name the problem: %q", stderr, c.Expect)
			}
			if strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
				t.Errorf("kedit says more than one line:\n%s", stderr)
			}
			if now, err := os.ReadFile(draftPath); err != nil || !bytes.Equal(now, stored) {
				t.Errorf("the stored draft changed: %v", err)
			}
			if after := badinput.Read(t, target); after == nil || after.GetResourceVersion() != before.GetResourceVersion() {
				t.Error("the object changed on the server")
			}
		})
	}
}
