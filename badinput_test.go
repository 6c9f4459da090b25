package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/kedit/kedit/internal/drafts"
	"github.com/kedit/kedit/kube"
	"github.com/kedit/kedit/kube/kubetest"
	"github.com/kedit/kedit/model"
)

// Issue 12's corpus of bad input, testdata/bad/*.case: one file per case,
// with what the user does and a fragment of what kedit must say. Each case
// runs through the session engine (TestBadInputThroughTheEngine, or, for
// what fails before there is a session, the code path kedit runs:
// TestBadInputBeforeTheUI), and the first ten also through the real binary
// in tmux (TestE2EBadInputFirstTen). Each asserts three things: a message
// that names the problem, the draft kept, and the object on the server
// unchanged.
//
// A case file holds "key: value" lines after its comment:
//
//	via:         draft (the edited text is refused), save (the server
//	             refuses it) or open (kedit fails before the UI starts)
//	fixture:     the object the case starts from: configmap, deployment,
//	             secret, immutable-configmap, ambiguous (two custom
//	             resources claiming one short name)
//	replace:     "old" => "new", Go-quoted, on the draft as kedit renders
//	             it ({ns}, {name} stand for the namespace and the name);
//	             repeatable
//	text:        the whole draft, Go-quoted
//	append:      text added at the end, Go-quoted
//	drop:        a top-level field whose block is removed
//	grow:        KEY N: data.KEY set to N bytes
//	crlf:        true: the file saved with CRLF line ends
//	client:      viewer: the save is sent with the viewer's credentials
//	before-save: delete: someone deletes the object before the save
//	object:      open: TYPE/NAME as given ({short} for the ambiguous
//	             fixture's short name)
//	kubeconfig:  open: viewer, nowhere (a server that is not there) or
//	             expired (a token the server does not know)
//	expect:      what kedit says, in part
//	screen:      what the UI says, in part, when it words it otherwise

// badCase is one case of the corpus.
type badCase struct {
	file, title                              string
	via, fixture, object, kubeconfig, client string
	beforeSave, drop                         string
	replaces                                 [][2]string
	text                                     *string
	appendText                               string
	growKey                                  string
	growSize                                 int
	crlf                                     bool
	expect, screen                           string
}

// badCases reads testdata/bad, in the order of the files' names.
func badCases(t *testing.T) []badCase {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "bad", "*.case"))
	if err != nil || len(files) < 30 {
		t.Fatalf("the bad-input corpus has %d cases (%v), want at least 30", len(files), err)
	}
	sort.Strings(files)
	var out []badCase
	for _, f := range files {
		out = append(out, parseBadCase(t, f))
	}
	return out
}

func parseBadCase(t *testing.T, path string) badCase {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	c := badCase{file: strings.TrimSuffix(filepath.Base(path), ".case")}
	unquote := func(s string) string {
		u, err := strconv.Unquote(strings.TrimSpace(s))
		if err != nil {
			t.Fatalf("%s: %q is not a Go-quoted string: %v", path, s, err)
		}
		return u
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if title, ok := strings.CutPrefix(line, "# "); ok && c.title == "" {
			c.title = title
			continue
		}
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		key, value, ok := strings.Cut(line, ": ")
		if !ok {
			t.Fatalf("%s: %q is not key: value", path, line)
		}
		switch key {
		case "via":
			c.via = value
		case "fixture":
			c.fixture = value
		case "object":
			c.object = value
		case "kubeconfig":
			c.kubeconfig = value
		case "client":
			c.client = value
		case "before-save":
			c.beforeSave = value
		case "drop":
			c.drop = value
		case "replace":
			old, new, ok := strings.Cut(value, `" => "`)
			if !ok {
				t.Fatalf("%s: replace wants \"old\" => \"new\": %q", path, value)
			}
			c.replaces = append(c.replaces, [2]string{unquote(old + `"`), unquote(`"` + new)})
		case "text":
			s := unquote(value)
			c.text = &s
		case "append":
			c.appendText = unquote(value)
		case "grow":
			k, n, _ := strings.Cut(value, " ")
			c.growKey = k
			c.growSize, _ = strconv.Atoi(n)
		case "crlf":
			c.crlf = value == "true"
		case "expect":
			c.expect = value
		case "screen":
			c.screen = value
		default:
			t.Fatalf("%s: unknown key %q", path, key)
		}
	}
	if c.via == "" || c.expect == "" || c.fixture == "" {
		t.Fatalf("%s: via, fixture and expect are required", path)
	}
	if c.screen == "" {
		c.screen = c.expect
	}
	return c
}

// badName is the fixture object's name in every case.
const badName = "badcase"

// edited turns the draft as kedit renders it into the case's draft.
func (c badCase) edited(t *testing.T, rendered, ns string) string {
	t.Helper()
	expand := strings.NewReplacer("{ns}", ns, "{name}", badName).Replace
	text := rendered
	if c.text != nil {
		text = *c.text
	}
	for _, r := range c.replaces {
		old := expand(r[0])
		if !strings.Contains(text, old) {
			t.Fatalf("%s: the draft has no %q:\n%s", c.file, old, text)
		}
		text = strings.Replace(text, old, expand(r[1]), 1)
	}
	if c.drop != "" {
		var kept []string
		in := false
		for _, l := range strings.SplitAfter(text, "\n") {
			if l != "" && l[0] != ' ' {
				in = strings.HasPrefix(l, c.drop+":")
			}
			if !in {
				kept = append(kept, l)
			}
		}
		text = strings.Join(kept, "")
	}
	if c.growKey != "" {
		prefix := "  " + c.growKey + ": "
		i := strings.Index(text, prefix)
		if i < 0 {
			t.Fatalf("%s: no %q to grow", c.file, prefix)
		}
		end := i + strings.IndexByte(text[i:], '\n')
		text = text[:i] + prefix + strings.Repeat("x", c.growSize) + text[end:]
	}
	text += c.appendText
	if c.crlf {
		text = strings.ReplaceAll(text, "\n", "\r\n")
	}
	return text
}

// badFixture creates the case's object in ns and returns the TYPE and
// NAME kedit is given.
func badFixture(t *testing.T, c badCase, ns string) (typ, name string) {
	t.Helper()
	switch c.fixture {
	case "configmap":
		kubetest.MustKubectl(t, "-n", ns, "create", "configmap", badName, "--from-literal=foo=1", "--from-literal=bar=1")
		typ = "configmap"
	case "immutable-configmap":
		manifest := fmt.Sprintf(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":%q},"immutable":true,"data":{"foo":"1","bar":"1"}}`, badName)
		kubectlStdin(t, manifest, "-n", ns, "create", "-f", "-")
		typ = "configmap"
	case "deployment":
		kubetest.MustKubectl(t, "-n", ns, "create", "deployment", badName, "--image=nginx")
		typ = "deployment"
	case "secret":
		kubetest.MustKubectl(t, "-n", ns, "create", "secret", "generic", badName, "--from-literal=k=v")
		typ = "secret"
	case "ambiguous":
		typ = ambiguousShortName(t)
		kubetest.MustKubectl(t, "-n", ns, "create", "configmap", badName, "--from-literal=foo=1")
	default:
		t.Fatalf("%s: unknown fixture %q", c.file, c.fixture)
	}
	name = badName
	if c.object != "" {
		typ, name, _ = strings.Cut(strings.ReplaceAll(c.object, "{short}", typ), "/")
	}
	return typ, name
}

// ambiguousShortName creates two custom resources in groups of the test's
// own that both claim one short name, and returns the name.
func ambiguousShortName(t *testing.T) string {
	t.Helper()
	b := make([]byte, 3)
	_, _ = rand.Read(b)
	sfx := hex.EncodeToString(b)
	short := "gd" + sfx
	for _, g := range []string{"a" + sfx + ".kedit.test", "b" + sfx + ".kedit.test"} {
		crd := fmt.Sprintf(`{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
"metadata":{"name":"gadgets.%[1]s"},
"spec":{"group":"%[1]s","scope":"Namespaced","names":{"plural":"gadgets","singular":"gadget","kind":"Gadget","shortNames":[%[2]q]},
"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}}]}}`, g, short)
		kubectlStdin(t, crd, "create", "-f", "-")
		t.Cleanup(func() { _, _ = kubetest.Kubectl(t, "delete", "crd", "gadgets."+g, "--wait=false") })
		kubetest.MustKubectl(t, "wait", "--for=condition=Established", "--timeout=60s", "crd/gadgets."+g)
	}
	return short
}

// kubectlStdin runs kubectl with stdin, failing the test when it fails.
func kubectlStdin(t *testing.T, stdin string, args ...string) {
	t.Helper()
	cmd := exec.Command("kubectl", append([]string{"--kubeconfig", kubetest.Kubeconfig(t)}, args...)...)
	cmd.Env = append(os.Environ(), "KUBECACHEDIR="+filepath.Join(os.TempDir(), "kedit-test-kubecache"))
	cmd.Stdin = strings.NewReader(stdin)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("kubectl %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

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

// readObject reads TYPE/NAME in ns as admin; nil when it does not exist.
func readObject(t *testing.T, target *kube.Target) *unstructured.Unstructured {
	t.Helper()
	dc, err := dynamic.NewForConfig(kubetest.RESTConfig(t))
	if err != nil {
		t.Fatal(err)
	}
	obj, err := target.Resource(dc).Get(context.Background(), target.Name, metav1.GetOptions{})
	if err != nil {
		return nil
	}
	return obj
}

// resolveIn resolves TYPE/NAME in ns as admin.
func resolveIn(t *testing.T, ns, typ, name string) *kube.Target {
	t.Helper()
	kc, cache := kubetest.Kubeconfig(t), t.TempDir()
	flags := &kube.ConnFlags{KubeConfig: kc, Namespace: ns, CacheDir: cache}
	target, err := kube.Resolve(flags, typ, name)
	if err != nil {
		t.Fatalf("resolving %s/%s: %v", typ, name, err)
	}
	return target
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
	for _, c := range badCases(t) {
		if c.via == "open" {
			continue
		}
		t.Run(c.file, func(t *testing.T) {
			t.Parallel()
			ns := kubetest.Namespace(t)
			typ, name := badFixture(t, c, ns)
			target := resolveIn(t, ns, typ, name)
			before := readObject(t, target)
			client := kubetest.Kubeconfig(t)
			if c.client == "viewer" {
				client = viewerWhoMayRead(t, ns)
			}
			e := newBadEngine(t, target, client)
			rendered, err := e.sess.DraftText()
			if err != nil {
				t.Fatalf("the object does not render: %v", err)
			}
			text := c.edited(t, rendered, ns)

			err = e.handle(model.DraftEdited{Text: text})
			var said string
			switch c.via {
			case "draft":
				if err == nil {
					t.Fatalf("the draft was taken; want it refused with %q", c.expect)
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
				if c.beforeSave == "delete" {
					kubetest.MustKubectl(t, "-n", ns, "delete", typ, name)
				}
				e.handle(model.SaveRequested{})
				f := e.sess.Failure()
				if f == nil {
					t.Fatalf("state %s: the save was not refused", e.sess.State())
				}
				said = f.Err.Error()
			}
			if !strings.Contains(said, c.expect) {
				t.Errorf("kedit says %q; want it to name the problem: %q", said, c.expect)
			}
			if d := e.sess.Draft(); d == nil || d.Text != text {
				t.Error("the draft was not kept in the session")
			}
			// A Secret's draft exists in memory only (without
			// --allow-secret-drafts): that it is kept there is checked above.
			if stored := e.storedDraft(); !target.Ref().IsSecret() && !strings.HasSuffix(stored, text) {
				t.Errorf("the draft file does not hold the draft: %q", short(stored))
			}
			after := readObject(t, target)
			switch {
			case c.beforeSave == "delete":
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
	for _, c := range badCases(t) {
		if c.via != "open" {
			continue
		}
		t.Run(c.file, func(t *testing.T) {
			ns := kubetest.Namespace(t)
			typ, name := badFixture(t, c, ns)
			t.Setenv("XDG_STATE_HOME", t.TempDir())
			t.Setenv("KUBECACHEDIR", t.TempDir())
			// A draft of the fixture from an earlier run, which the failed
			// start must leave as it is.
			fixtureType := typ
			if c.fixture == "ambiguous" || c.object != "" {
				fixtureType = "configmap"
			}
			target := resolveIn(t, ns, fixtureType, badName)
			before := readObject(t, target)
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

			_, stderr, code := runKedit(t, "--kubeconfig", badKubeconfig(t, c.kubeconfig), "-n", ns, typ+"/"+name)
			if code != 1 {
				t.Errorf("exit %d, want 1", code)
			}
			if !strings.Contains(stderr, c.expect) {
				t.Errorf("kedit says %q; want it to name the problem: %q", stderr, c.expect)
			}
			if strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
				t.Errorf("kedit says more than one line:\n%s", stderr)
			}
			if now, err := os.ReadFile(draftPath); err != nil || !bytes.Equal(now, stored) {
				t.Errorf("the stored draft changed: %v", err)
			}
			if after := readObject(t, target); after == nil || after.GetResourceVersion() != before.GetResourceVersion() {
				t.Error("the object changed on the server")
			}
		})
	}
}

// TestE2EBadInputFirstTen drives the corpus's first ten cases through the
// real binary in tmux: $EDITOR leaves the case's text, and the screen must
// name the problem, keep the draft (on screen and in its file) and the
// object on the server must not change.
func TestE2EBadInputFirstTen(t *testing.T) {
	cases := badCases(t)[:10]
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			t.Parallel()
			if c.via == "open" {
				t.Fatalf("%s fails before the UI: the first ten cases are for the UI", c.file)
			}
			ns := kubetest.Namespace(t)
			typ, name := badFixture(t, c, ns)
			target := resolveIn(t, ns, typ, name)
			before := readObject(t, target)
			rendered, err := model.RenderYAML(before)
			if err != nil {
				t.Fatal(err)
			}
			text := c.edited(t, rendered, ns)
			prepared := filepath.Join(t.TempDir(), "draft")
			if err := os.WriteFile(prepared, []byte(text), 0o600); err != nil {
				t.Fatal(err)
			}
			env := newKeditEnv(t, editorScript(t, `cat `+shellJoin([]string{prepared})+` > "$1"`))
			term := env.start(t, ns, typ+"/"+name)
			term.send("e")
			term.waitFor(screenWait, "unsaved draft")
			if c.via == "save" {
				term.send("s")
			}
			term.waitForText(screenWait, c.screen)
			term.waitFor(screenWait, "unsaved draft")
			path := env.draft(ns, target.Mapping.Resource.Resource, name, 1)
			deadline := time.Now().Add(screenWait)
			for {
				b, err := os.ReadFile(path)
				if err == nil && strings.HasSuffix(string(b), text) {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("the draft file %s does not hold the draft (%v): %q", path, err, short(string(b)))
				}
				time.Sleep(50 * time.Millisecond)
			}
			if after := readObject(t, target); after == nil || after.GetResourceVersion() != before.GetResourceVersion() {
				t.Errorf("the object changed on the server: rv %s -> %v", before.GetResourceVersion(), after)
			}
		})
	}
}
