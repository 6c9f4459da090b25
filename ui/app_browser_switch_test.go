package ui

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/kedit/kedit/ui/internal/effect"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/kedit/kedit/kube"
	"github.com/kedit/kedit/ui/browser"
)

// The app's browser: switching type and namespace, :drafts, failures, the\n// first frame and the golden screens.

// TestAppSwitchesTypeAndNamespace: :TYPE keeps the namespace, :ns NAME
// keeps the type; an unknown type and one that cannot be edited are said
// in words, and the list stays.
func TestAppSwitchesTypeAndNamespace(t *testing.T) {
	c := newFakeCluster(t)
	c.add("configmaps", "default", "testmap")
	c.add("deployments", "team-a", "web")
	m := browserApp(t, c, c.collection("configmaps", "default", false), 120, 40)
	first := c.lastList()
	command := func(m App, line string) App {
		m = drive(t, m, keyMsg(":"))
		m = drive(t, m, keyMsg(line))
		return drive(t, m, tea.KeyMsg{Type: tea.KeyEnter})
	}
	m = command(m, "ns team-a")
	if coll := m.browsing.listed; coll.Namespace != "team-a" || coll.Resource() != "configmaps" {
		t.Errorf(":ns team-a lists %s %s", coll.Resource(), coll.Where())
	}
	if !first.stopped() {
		t.Error("the list replaced is still running")
	}
	m = command(m, "deploy")
	m = listed(t, c, m)
	if coll := m.browsing.listed; coll.Namespace != "team-a" || coll.Resource() != "deployments.apps" {
		t.Errorf(":deploy lists %s %s", coll.Resource(), coll.Where())
	}
	if got := m.browser.Rows(); len(got) != 1 || got[0] != "team-a/web" {
		t.Errorf("rows %v", got)
	}
	lists := len(c.lists)
	m = command(m, "nope")
	if !strings.Contains(m.status.Text(), `the server doesn't have a resource type "nope"; did you mean configmaps?`) || len(c.lists) != lists {
		t.Errorf(":nope: status %q, %d lists started", m.status.Text(), len(c.lists)-lists)
	}
	m = command(m, "cs")
	if !strings.Contains(m.status.Text(), "componentstatuses cannot be edited: the server allows only get, list on it") {
		t.Errorf(":cs: status %q", m.status.Text())
	}
	if m.browsing.listed.Resource() != "deployments.apps" {
		t.Error("a refused :TYPE changed the list")
	}
	// The namespace picker, with every namespace.
	m = command(m, "ns")
	m = drive(t, m, tea.KeyMsg{Type: tea.KeyEnter}) // the first item: all namespaces
	if coll := m.browsing.listed; !coll.AllNamespaces || coll.Resource() != "deployments.apps" {
		t.Errorf("all namespaces: %s %s", coll.Resource(), coll.Where())
	}
	// -A stays with :TYPE.
	m = command(m, "cm")
	if coll := m.browsing.listed; !coll.AllNamespaces || coll.Resource() != "configmaps" {
		t.Errorf(":cm after all namespaces: %s %s", coll.Resource(), coll.Where())
	}
}

// TestAppDraftsList: :drafts lists the drafts in memory and those the
// store holds on this cluster; enter opens one's object, which offers a
// stored draft from an earlier run for recovery.
func TestAppDraftsList(t *testing.T) {
	c := newFakeCluster(t)
	c.add("secrets", "default", "db")
	web := c.add("configmaps", "team-a", "web")
	// An earlier run's draft of web.
	tgt := c.collection("configmaps", "team-a", false).Target("team-a", "web")
	earlier := c.store.Open(kube.DraftKey(tgt), "uid-web")
	if _, err := earlier.Write(1, "10", []byte("data:\n  foo: earlier\n"), nil); err != nil {
		t.Fatal(err)
	}
	earlier.Close()
	// Another cluster's draft of the same context name is not listed.
	elsewhere := c.collection("configmaps", "team-a", false).Target("team-a", "elsewhere")
	elsewhere.Server = "https://other.example"
	o := c.store.Open(kube.DraftKey(elsewhere), "u")
	if _, err := o.Write(1, "3", []byte("x: y\n"), nil); err != nil {
		t.Fatal(err)
	}
	o.Close()

	m := browserApp(t, c, c.collection("secrets", "default", false), 120, 40)
	m = drive(t, m, tea.KeyMsg{Type: tea.KeyEnter})
	m = editDraft(t, m, "mine")
	m = drive(t, m, keyMsg("esc"), keyMsg(":"), keyMsg("drafts"), tea.KeyMsg{Type: tea.KeyEnter})
	v := plain(m)
	if !strings.Contains(v, "secrets  default/db  memory") || !strings.Contains(v, "configmaps  team-a/web  stored") || strings.Contains(v, "elsewhere") {
		t.Fatalf(":drafts shows:\n%s", v)
	}
	m = drive(t, m, keyMsg("web"), tea.KeyMsg{Type: tea.KeyEnter})
	if m.screen != screenObject || m.Session().Ref().Name != "web" || m.confirm.kind != confirmRecover {
		t.Fatalf("opening web's draft: screen %d, question %q", m.screen, m.question())
	}
	m = drive(t, m, keyMsg("y"))
	if d := m.Session().Draft(); d == nil || !strings.Contains(d.Text, "earlier") {
		t.Errorf("the earlier draft was not recovered: %+v", d)
	}
	// Back, web is kept; the memory-only db comes back from :drafts too.
	m = drive(t, m, keyMsg("esc"))
	if _, ok := m.left()[web]; !ok {
		t.Error("web's recovered draft was not kept")
	}
	m = drive(t, m, keyMsg(":"), keyMsg("drafts"), tea.KeyMsg{Type: tea.KeyEnter}, tea.KeyMsg{Type: tea.KeyEnter})
	if m.screen != screenObject || m.Session().Ref().Name != "db" || m.confirm.kind != confirmNone || m.Session().Draft() == nil {
		t.Errorf("db from :drafts: screen %d, question %q", m.screen, m.question())
	}
}

// TestAppDraftsListNamesSubresources: :drafts lists a subresource's draft
// too, naming the subresource; the browser marks only the drafts of what
// this kedit edits; enter on a draft of another part of its object says
// the command that opens it, and opens nothing; a kedit that edits that
// subresource opens it.
func TestAppDraftsListNamesSubresources(t *testing.T) {
	c := newFakeCluster(t)
	web := c.add("deployments", "default", "web")
	scale := c.collection("deployments", "default", false).Target("default", "web")
	scale.Subresource = kube.SubresourceScale
	o := c.store.Open(kube.DraftKey(scale), "uid-web")
	if _, err := o.Write(1, "10", []byte("spec:\n  replicas: 5\n"), nil); err != nil {
		t.Fatal(err)
	}
	o.Close()

	m := browserApp(t, c, c.collection("deployments", "default", false), 140, 30)
	if p := m.browser.DraftMark(web.Namespace, web.Name); p != 0 {
		t.Errorf("web's row is marked %s: its only draft is its Scale's", p)
	}
	m = drive(t, m, keyMsg(":"), keyMsg("drafts"), tea.KeyMsg{Type: tea.KeyEnter})
	if v := plain(m); !strings.Contains(v, "deployments.apps  default/web --subresource scale  stored") {
		t.Fatalf(":drafts shows:\n%s", v)
	}
	m = drive(t, m, tea.KeyMsg{Type: tea.KeyEnter})
	want := "a draft of deployments.apps/web's scale subresource: open it with kedit deployments.apps/web -n default --subresource scale"
	if m.screen != screenBrowser || !strings.Contains(plain(m), want) || c.opened != 0 {
		t.Fatalf("enter on the Scale's draft: screen %d, %d opened:\n%s", m.screen, c.opened, plain(m))
	}

	// A kedit --subresource scale marks it, and opens it.
	m = browserApp(t, c, c.collection("deployments", "default", false), 120, 30)
	m.cfg.Subresource = kube.SubresourceScale
	m = drive(t, m, keyMsg(":"), keyMsg("drafts"), tea.KeyMsg{Type: tea.KeyEnter})
	if p := m.browser.DraftMark(web.Namespace, web.Name); p != DraftStored {
		t.Errorf("web's row in a kedit --subresource scale: %q, want stored", p)
	}
	m = drive(t, m, tea.KeyMsg{Type: tea.KeyEnter})
	if m.screen != screenObject || c.opened != 1 {
		t.Errorf("enter on the Scale's draft in a kedit --subresource scale: screen %d, %d opened", m.screen, c.opened)
	}
}

// TestAppOpenFails: an object that cannot be opened is said in the
// status bar, and the list stays.
func TestAppOpenFails(t *testing.T) {
	c := newFakeCluster(t)
	k := c.add("configmaps", "default", "gone")
	m := browserApp(t, c, c.collection("configmaps", "default", false), 120, 40)
	c.remove(k)
	m = drive(t, m, tea.KeyMsg{Type: tea.KeyEnter})
	if m.screen != screenBrowser || !strings.Contains(m.status.Text(), "cannot open configmaps/gone: configmaps/gone not found") {
		t.Errorf("screen %d, status %q", m.screen, m.status.Text())
	}
}

// TestAppForbiddenList: a refused list names the verb, the resource and
// the namespace.
func TestAppForbiddenList(t *testing.T) {
	c := newFakeCluster(t)
	coll := c.collection("configmaps", "team-a", false)
	m := browserApp(t, c, coll, 120, 40)
	err := fmt.Errorf("not allowed to list configmaps in namespace %q (context %q): %w", "team-a", "kind-dev",
		errors.New(`configmaps is forbidden: User "kedit-viewer" cannot list resource "configmaps"`))
	m = drive(t, m, browser.SnapshotMsg{List: m.browser.List(), Snapshot: browserSnapshot(kube.BrowseSnapshot{Generation: 1,
		Connection: kube.Connection{State: kube.Refused, Err: err}})})
	if v := plain(m); !strings.Contains(v, `not allowed to list configmaps in namespace "team-a"`) || !strings.Contains(v, "refused") {
		t.Errorf("a refused list:\n%s", v)
	}
}

// TestAppExitAfterFirstFrame: the benchmarks' flag quits once the list
// (or the object) is on the screen.
func TestAppExitAfterFirstFrame(t *testing.T) {
	c := newFakeCluster(t)
	c.add("configmaps", "default", "testmap")
	coll := c.collection("configmaps", "default", false)
	l, _ := c.Browse(context.Background(), coll)
	m := New(Config{Cluster: c, List: l, ExitAfterFirstFrame: true})
	d := newDriver(t, m)
	d.send(tea.WindowSizeMsg{Width: 80, Height: 24})
	d.settle()
	if d.quit {
		t.Fatal("quit before the list arrived")
	}
	d.send(browser.SnapshotMsg{List: d.m.browser.List(), Snapshot: browserSnapshot(c.listSnapshot(coll))})
	d.settle()
	if !d.quit || !strings.Contains(plain(d.m), "testmap") {
		t.Errorf("quit %v with:\n%s", d.quit, plain(d.m))
	}

	obj, _ := c.Open(context.Background(), coll.Target("default", "testmap"))
	d = newDriver(t, New(Config{Cluster: c, Object: obj, ExitAfterFirstFrame: true}))
	d.send(tea.WindowSizeMsg{Width: 80, Height: 24})
	d.settle()
	if !d.quit || !strings.Contains(plain(d.m), "apiVersion: v1") {
		t.Errorf("object: quit %v with:\n%s", d.quit, plain(d.m))
	}
}

// TestAppBrowserGolden draws the app in the browser at both sizes, with
// and without -A, and an object opened from it.
func TestAppBrowserGolden(t *testing.T) {
	build := func(t *testing.T, w, h int, all bool) (App, *fakeCluster) {
		c := newFakeCluster(t)
		for _, n := range []string{"payments-config", "payments-flags", "web-frontend"} {
			c.add("configmaps", "default", n)
		}
		c.add("configmaps", "kube-system", "coredns")
		c.add("secrets", "default", "db")
		m := browserApp(t, c, c.collection("configmaps", "default", all), w, h)
		return m, c
	}
	cases := []struct {
		name  string
		build func(t *testing.T, w, h int) App
	}{
		{"browser", func(t *testing.T, w, h int) App {
			m, c := build(t, w, h, false)
			// An earlier run's draft of payments-flags, in the store.
			o := c.store.Open(kube.DraftKey(c.collection("configmaps", "default", false).Target("default", "payments-flags")), "uid-payments-flags")
			if _, err := o.Write(1, "10", []byte("data: {}\n"), nil); err != nil {
				t.Fatal(err)
			}
			o.Close()
			entries, err := c.Drafts()
			return drive(t, m, effect.DraftsListed{Entries: entries, Err: err}, keyMsg("j"))
		}},
		{"browser_all_namespaces", func(t *testing.T, w, h int) App {
			m, _ := build(t, w, h, true)
			return m
		}},
		{"browser_quit_memory", func(t *testing.T, w, h int) App {
			m, c := build(t, w, h, false)
			m = drive(t, m, keyMsg(":"), keyMsg("secrets"), tea.KeyMsg{Type: tea.KeyEnter})
			m = listed(t, c, m)
			m = drive(t, m, tea.KeyMsg{Type: tea.KeyEnter})
			return drive(t, editDraft(t, m, "mine"), keyMsg("esc"), keyMsg("q"))
		}},
		{"object_from_browser", func(t *testing.T, w, h int) App {
			m, _ := build(t, w, h, false)
			return drive(t, m, tea.KeyMsg{Type: tea.KeyEnter})
		}},
	}
	for _, c := range cases {
		for _, s := range sizes {
			t.Run(c.name+"_"+s.name, func(t *testing.T) {
				out := plain(c.build(t, s.w, s.h))
				if n := strings.Count(out, "\n") + 1; n != s.h {
					t.Errorf("the screen has %d lines, want %d", n, s.h)
				}
				for i, l := range strings.Split(out, "\n") {
					if w := ansi.StringWidth(l); w > s.w {
						t.Errorf("line %d is %d wide, more than %d: %q", i+1, w, s.w, l)
					}
				}
				golden.RequireEqual(t, out)
			})
		}
	}
}
