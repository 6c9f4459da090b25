package cluster

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-logr/logr"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kedit/kedit/internal/drafts"
	"github.com/kedit/kedit/kube"
	"github.com/kedit/kedit/kube/kubetest"
	"github.com/kedit/kedit/model"
)

// newTestOpener is an Opener on the test cluster, in ns, with a draft
// store of the test's own; the test's end closes it.
func newTestOpener(t *testing.T, ns string) (*Opener, *kube.ConnFlags, *drafts.Store) {
	t.Helper()
	flags := &kube.ConnFlags{KubeConfig: kubetest.Kubeconfig(t), Namespace: ns, CacheDir: t.TempDir()}
	c, err := kube.Connect(flags)
	if err != nil {
		t.Fatal(err)
	}
	store := &drafts.Store{Dir: t.TempDir()}
	o, err := New(c, Options{Flags: flags, Store: store, Strategy: kube.StrategyUpdate, Logger: logr.Discard()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { o.CloseAll(io.Discard) })
	return o, flags, store
}

// TestOpenKeepsTheObjectUntilTheEnd: Open reads the object into its
// session, and CloseAll stores the draft the app left in the session
// without performing its write.
func TestOpenKeepsTheObjectUntilTheEnd(t *testing.T) {
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=1")
	o, flags, store := newTestOpener(t, ns)
	target, err := kube.Resolve(flags, "configmap", "testmap")
	if err != nil {
		t.Fatal(err)
	}
	opened, err := o.Open(context.Background(), target)
	if err != nil {
		t.Fatal(err)
	}
	if base := opened.Session.Base().Object; base == nil || base.GetName() != "testmap" || base.GetResourceVersion() == "" {
		t.Fatalf("base %v: want the object as read", base)
	}
	text, err := opened.Session.DraftText()
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(text, `foo: "1"`, `foo: "from the draft"`, 1)
	if edited == text {
		t.Fatalf("the text has no foo: \"1\":\n%s", text)
	}
	if _, _, err := opened.Session.Handle(model.DraftEdited{Text: edited}); err != nil {
		t.Fatal(err)
	}

	var stderr strings.Builder
	o.CloseAll(&stderr)
	if stderr.Len() > 0 {
		t.Errorf("CloseAll said %q", stderr.String())
	}
	entries, err := store.DraftsOf(kube.DraftKey(target))
	if err != nil || len(entries) != 1 {
		t.Fatalf("%d drafts stored (%v), want 1", len(entries), err)
	}
	if b, err := os.ReadFile(entries[0].Path); err != nil || !strings.Contains(string(b), "from the draft") {
		t.Errorf("the stored draft lacks the edit (%v):\n%s", err, b)
	}
}

// TestOpenNamesTheDraftsOfAMissingObject: an object that is not there
// cannot be opened, and the error says where the draft an earlier kedit
// left of it is.
func TestOpenNamesTheDraftsOfAMissingObject(t *testing.T) {
	ns := kubetest.Namespace(t)
	o, flags, store := newTestOpener(t, ns)
	target, err := kube.Resolve(flags, "configmap", "gone")
	if err != nil {
		t.Fatal(err)
	}
	od := store.Open(kube.DraftKey(target), "uid")
	path, err := od.Write(1, "5", []byte("data:\n  foo: left behind\n"), nil)
	od.Close()
	if err != nil {
		t.Fatal(err)
	}
	_, err = o.Open(context.Background(), target)
	var nf *kube.NotFoundError
	if !errors.As(err, &nf) {
		t.Fatalf("Open of a missing object: %v, want a *kube.NotFoundError", err)
	}
	if want := "a draft of it that an earlier kedit left is stored in " + path + " (kedit drafts lists it)"; !strings.Contains(err.Error(), want) {
		t.Errorf("error %q does not say %q", err, want)
	}
}

// TestOpenSetOpensEachObject: a set's objects are each opened as one
// object is, in order, without a watch of their own: the set's one watch
// serves them all.
func TestOpenSetOpensEachObject(t *testing.T) {
	ns := kubetest.Namespace(t)
	for _, n := range []string{"a", "b"} {
		kubetest.MustKubectl(t, "-n", ns, "create", "configmap", n, "--from-literal=foo=1")
	}
	o, _, _ := newTestOpener(t, ns)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	src := kube.SetSource{Args: []string{"cm", "a", "b"}, NamespaceFlag: ns}
	objs, err := o.ReadSet(ctx, src)
	if err != nil {
		t.Fatal(err)
	}
	set, err := o.OpenSet(ctx, objs, SetTitle(src, objs))
	if err != nil {
		t.Fatal(err)
	}
	if set.Title != "cm a b" || len(set.Objects) != 2 {
		t.Fatalf("set %q of %d objects, want cm a b of 2", set.Title, len(set.Objects))
	}
	for i, want := range []string{"a", "b"} {
		ob := set.Objects[i]
		if base := ob.Session.Base().Object; base == nil || base.GetName() != want {
			t.Errorf("object %d: base %v, want %s as read", i, base, want)
		}
		if ob.Watch != nil {
			t.Errorf("object %d has a watch of its own", i)
		}
	}
	if _, err := set.Watch(ctx); err != nil {
		t.Errorf("the set's watch: %v", err)
	}
}

// TestSetTitle: the set's title says how it was named.
func TestSetTitle(t *testing.T) {
	in := func(ns string) []kube.SetObject {
		return []kube.SetObject{{Target: &kube.Target{Namespace: ns, Name: "a",
			Mapping: &meta.RESTMapping{Resource: schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}, Scope: meta.RESTScopeNamespace}}}}
	}
	for _, tc := range []struct {
		src  kube.SetSource
		want string
	}{
		{kube.SetSource{Args: []string{"cm", "a", "b"}}, "cm a b"},
		{kube.SetSource{Args: []string{"cm/a", "deploy/web"}}, "cm/a deploy/web"},
		{kube.SetSource{Files: []string{"x.yaml", "dir"}}, "-f x.yaml -f dir"},
		{kube.SetSource{Files: []string{"dir"}, Recursive: true}, "-f dir -R"},
		{kube.SetSource{Args: []string{"cm"}, Selector: "app=web"}, "cm -l app=web in namespace web"},
		{kube.SetSource{Args: []string{"cm"}, Selector: "app=web", AllNamespaces: true}, "cm -l app=web in all namespaces"},
		{kube.SetSource{Args: []string{"deploy", "a", "b"}, Subresource: kube.SubresourceScale}, "deploy a b --subresource scale"},
	} {
		if got := SetTitle(tc.src, in("web")); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.src, got, tc.want)
		}
	}
}

// TestHistoryReaderReadsALogAgainOnceItChanged: the timeline's history
// is read from the logs once, and again only when a log changed since.
func TestHistoryReaderReadsALogAgainOnceItChanged(t *testing.T) {
	fixture, err := os.ReadFile(filepath.Join("..", "..", "kube", "auditlog", "testdata", "gke-race.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(t.TempDir(), "audit.log")
	if err := os.WriteFile(log, fixture, 0o600); err != nil {
		t.Fatal(err)
	}
	target := &kube.Target{Namespace: "shop", Name: "app-config",
		Mapping: &meta.RESTMapping{Resource: schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}, Scope: meta.RESTScopeNamespace}}
	r := newHistoryReader([]string{log}, AuditOptions{}, target, nil)
	first, err := r.read(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(first.Versions) == 0 || len(first.LostUpdates) != 1 {
		t.Fatalf("%d versions, %d lost updates; want the fixture's lost update", len(first.Versions), len(first.LostUpdates))
	}
	if again, err := r.read(context.Background()); err != nil || again != first {
		t.Errorf("an unchanged log was read again (%v)", err)
	}
	// Another object's event: the log changed, the object's history not.
	other := strings.ReplaceAll(strings.SplitAfter(string(fixture), "\n")[0], "app-config", "other")
	f, err := os.OpenFile(log, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(other); err != nil {
		t.Fatal(err)
	}
	f.Close()
	changed, err := r.read(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if changed == first || len(changed.Versions) != len(first.Versions) {
		t.Errorf("after the log grew: read again %v, %d versions (was %d)", changed != first, len(changed.Versions), len(first.Versions))
	}
}
