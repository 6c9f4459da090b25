package e2e

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/kedit/kedit/kube/kubetest"
)

// End to end: the browser of the real kedit binary in tmux against
// localcluster.

// liveWithin is the browser's promise: a change on the server shows
// within 2 seconds, with no key pressed.
const liveWithin = 2 * time.Second

// rowOf returns the screen's line that shows name, "" for none.
func rowOf(screen, name string) string {
	for _, l := range strings.Split(screen, "\n") {
		if f := strings.Fields(strings.TrimPrefix(l, ">")); len(f) > 0 && f[0] == name {
			return l
		}
	}
	return ""
}

// TestE2EBrowser: kedit TYPE -n NS lists the objects live, filters, opens
// one, keeps its draft across esc, and switches type and namespace.
func TestE2EBrowser(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	other := kubetest.Namespace(t)
	for _, name := range []string{"alpha-1", "beta-2", "gamma-3"} {
		kubetest.MustKubectl(t, "-n", ns, "create", "configmap", name, "--from-literal=foo=1")
	}
	kubetest.MustKubectl(t, "-n", ns, "create", "deployment", "web", "--image=nginx")
	kubetest.MustKubectl(t, "-n", other, "create", "deployment", "api", "--image=nginx")
	env := newKeditEnv(t, editorScript(t, `sed -i 's/foo: "1"/foo: mine/' "$1"`))
	term := env.run(t, 120, 40, "-n", ns, "cm")
	term.waitFor(screenWait, "configmaps  namespace "+ns, "3 objects", "connected", "alpha-1", "beta-2", "gamma-3")

	// Live: a new object appears within 2 seconds of kubectl returning,
	// a deleted one vanishes.
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "delta-4")
	_, took := term.waitUntil(screenWait, "delta-4", func(s string) bool { return rowOf(s, "delta-4") != "" })
	t.Logf("a created ConfigMap showed %s after kubectl returned", took)
	if took > liveWithin {
		t.Errorf("a created ConfigMap took %s to show, more than %s", took, liveWithin)
	}
	kubetest.MustKubectl(t, "-n", ns, "delete", "configmap", "beta-2")
	_, took = term.waitUntil(screenWait, "beta-2 gone", func(s string) bool { return rowOf(s, "beta-2") == "" })
	t.Logf("a deleted ConfigMap vanished %s after kubectl returned", took)

	// / narrows the list.
	term.send("/")
	term.typeKeys("alp")
	screen := term.waitFor(screenWait, "1 of 3 objects", "/alp")
	if rowOf(screen, "gamma-3") != "" || rowOf(screen, "alpha-1") == "" {
		t.Errorf("the filter alp shows:\n%s", screen)
	}

	// enter opens it; an edit, then esc: back to the list with the mark.
	term.send("Enter")
	term.send("Enter")
	term.waitFor(screenWait, "ConfigMap/alpha-1", "apiVersion: ", "esc list")
	term.editAndWait("foo: mine")
	term.send("Escape")
	screen = term.waitFor(screenWait, "configmaps  namespace "+ns, "the draft of configmaps/alpha-1 stays on disk")
	if row := rowOf(screen, "alpha-1"); !strings.Contains(row, "stored") {
		t.Errorf("alpha-1's row has no draft mark: %q\n%s", row, screen)
	}
	// enter again: the draft, without the recovery question.
	term.send("Enter")
	screen = term.waitFor(screenWait, "ConfigMap/alpha-1", "unsaved draft", "foo: mine")
	if strings.Contains(screen, "recover it?") || strings.Contains(screen, "drafts of this object are stored") {
		t.Errorf("the draft came back with the recovery question:\n%s", screen)
	}
	term.send("Escape")
	term.waitFor(screenWait, "configmaps  namespace "+ns)

	// :deploy switches type, in the same namespace.
	term.send(":")
	term.typeKeys("deploy")
	term.send("Enter")
	screen = term.waitFor(screenWait, "deployments.apps  namespace "+ns, "1 object ")
	if rowOf(screen, "web") == "" {
		t.Errorf(":deploy shows:\n%s", screen)
	}
	// :ns picks a namespace from the list.
	term.send(":")
	term.typeKeys("ns")
	term.send("Enter")
	// Other tests' namespaces share the cluster: the list may be longer
	// than the screen, and typing narrows it.
	term.waitFor(screenWait, "namespaces: type to narrow", "all namespaces")
	term.typeKeys(other)
	term.waitFor(screenWait, "> "+other)
	term.send("Enter")
	screen = term.waitFor(screenWait, "deployments.apps  namespace "+other, "1 object ")
	if rowOf(screen, "api") == "" {
		t.Errorf(":ns %s shows:\n%s", other, screen)
	}

	// q quits at once: the draft is on disk, none is only in memory.
	term.send("q")
	term.waitFor(screenWait, "EXIT=0")
	drafts, err := filepath.Glob(filepath.Join(env.state, "kedit", "drafts", "*", ns, "configmaps", "alpha-1.yaml"))
	if err != nil || len(drafts) != 1 {
		t.Fatalf("alpha-1's draft is not stored: %v %v", drafts, err)
	}
	if b, _ := os.ReadFile(drafts[0]); !bytes.Contains(b, []byte("foo: mine")) {
		t.Errorf("the stored draft:\n%s", b)
	}
}

// TestE2EBrowserWithoutArguments: kedit alone lists the ConfigMaps of the
// kubeconfig's namespace.
func TestE2EBrowserWithoutArguments(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "settings")
	kc := filepath.Join(t.TempDir(), "kubeconfig")
	b, err := os.ReadFile(kubetest.Kubeconfig(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(kc, b, 0o600); err != nil {
		t.Fatal(err)
	}
	kubetest.MustKubectl(t, "--kubeconfig", kc, "config", "set-context", "--current", "--namespace", ns)
	env := newKeditEnv(t, "true")
	env.kubeconfig, env.extra = "", []string{"KUBECONFIG=" + kc}
	term := env.run(t, 120, 40)
	screen := term.waitFor(screenWait, "configmaps  namespace "+ns, "1 object ")
	if rowOf(screen, "settings") == "" {
		t.Errorf("kedit without arguments shows:\n%s", screen)
	}
	term.send("q")
	term.waitFor(screenWait, "EXIT=0")
}

// TestE2EBrowserAllNamespaces: -A lists every namespace, with a NAMESPACE
// column.
func TestE2EBrowserAllNamespaces(t *testing.T) {
	t.Parallel()
	a, b := kubetest.Namespace(t), kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", a, "create", "configmap", "allns-one")
	kubetest.MustKubectl(t, "-n", b, "create", "configmap", "allns-two")
	term := newKeditEnv(t, "true").run(t, 120, 40, "-A", "configmaps")
	term.waitFor(screenWait, "configmaps  all namespaces", "NAMESPACE")
	// Other tests' namespaces are listed too: narrow to this test's.
	term.send("/")
	term.typeKeys("allns-")
	screen := term.waitFor(screenWait, "/allns-", "allns-one", "allns-two")
	for ns, name := range map[string]string{a: "allns-one", b: "allns-two"} {
		// NAMESPACE is cut at 24 columns.
		if len(ns) > 23 {
			ns = ns[:23] + "…"
		}
		if !regexp.MustCompile(regexp.QuoteMeta(ns) + `\s+` + name).MatchString(screen) {
			t.Errorf("no row %s %s:\n%s", ns, name, screen)
		}
	}
	// esc and q sent together would read as alt+q.
	term.send("Escape")
	term.waitUntil(screenWait, "the filter cleared", func(s string) bool {
		// The filter being typed is the bottom line's "/allns-"; the
		// strip under the rows says a cut row's namespace/name.
		return !strings.Contains(s, "\n/allns-") && !strings.Contains(s, "filter: ")
	})
	term.send("q")
	term.waitFor(screenWait, "EXIT=0")
}

// TestE2EBrowserForbidden: the viewer's refused list names the verb, the
// resource and the namespace, at start (exit 1, nothing drawn) and when
// :TYPE switches to a type it may not list.
func TestE2EBrowserForbidden(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "visible")
	viewer := kubetest.ViewerKubeconfig(t)
	cmd := exec.Command(keditBinary(t), "--kubeconfig", viewer, "-n", ns, "secrets")
	cmd.Env = append(os.Environ(), "KUBECACHEDIR="+t.TempDir(), "XDG_STATE_HOME="+t.TempDir())
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	want := regexp.MustCompile(`^kedit: not allowed to (list|watch) secrets in namespace "` + regexp.QuoteMeta(ns) + `" \(context "localcluster"\): secrets is forbidden`)
	if code := cmd.ProcessState.ExitCode(); code != 1 || !want.MatchString(stderr.String()) || stdout.Len() != 0 {
		t.Errorf("exit %d (%v), stderr %q, stdout %q", code, err, stderr.String(), stdout.String())
	}

	// Given ConfigMaps in ns, the viewer browses them; :secrets is refused
	// in the browser, in words.
	kubetest.MustKubectl(t, "-n", ns, "create", "role", "cm-reader", "--verb=get,list,watch", "--resource=configmaps")
	kubetest.MustKubectl(t, "-n", ns, "create", "rolebinding", "cm-reader", "--role=cm-reader", "--user=kedit-viewer")
	env := newKeditEnv(t, "true")
	env.kubeconfig = viewer
	term := env.run(t, 120, 40, "-n", ns, "cm")
	term.waitFor(screenWait, "configmaps  namespace "+ns, "visible")
	term.send(":")
	term.typeKeys("secrets")
	term.send("Enter")
	screen := term.waitFor(screenWait, "secrets  namespace "+ns, "refused")
	if !regexp.MustCompile(`not allowed to (list|watch) secrets in namespace "` + regexp.QuoteMeta(ns) + `"`).MatchString(screen) {
		t.Errorf("the refused list:\n%s", screen)
	}
	term.send("q")
	term.waitFor(screenWait, "EXIT=0")
}

// TestE2EBrowserSecretDraftInMemory: a Secret's draft left for the list
// stays in memory, is marked so, and q asks before losing it.
func TestE2EBrowserSecretDraftInMemory(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "secret", "generic", "db", "--from-literal=password=hunter2")
	env := newKeditEnv(t, editorScript(t, `sed -i 's/password: .*/password: bWluZQ==/' "$1"`))
	term := env.run(t, 120, 40, "-n", ns, "secrets")
	screen := term.waitFor(screenWait, "secrets  namespace "+ns, "db")
	if strings.Contains(screen, "hunter2") || strings.Contains(screen, "aHVudGVyMg") {
		t.Errorf("the browser shows a value:\n%s", screen)
	}
	term.send("Enter")
	term.waitFor(screenWait, "Secret/db")
	term.editAndWait()
	term.send("Escape")
	screen = term.waitFor(screenWait, "the draft of secrets/db is kept in memory only")
	if row := rowOf(screen, "db"); !strings.Contains(row, "memory") {
		t.Errorf("db's row: %q\n%s", row, screen)
	}
	term.send("q")
	screen = term.waitFor(screenWait, "the draft of secrets/db exists only in memory and will be lost: quit anyway? (y/n)")
	// While the question waits the footer names its answers, not the
	// browser's keys, which wait too.
	if footer := screen[strings.LastIndex(strings.TrimRight(screen, "\n "), "\n")+1:]; !strings.Contains(footer, "y yes • n no") || strings.Contains(footer, "filter") {
		t.Errorf("the footer under the question: %q", footer)
	}
	term.send("y")
	term.waitFor(screenWait, "EXIT=0")
	if files, _ := filepath.Glob(filepath.Join(env.state, "kedit", "drafts", "*", ns, "secrets", "*")); len(files) != 0 {
		t.Errorf("a Secret's draft reached the disk: %v", files)
	}
}

// TestE2EExitAfterFirstFrame: the benchmarks' flag ends kedit with status
// 0 once the list, or the object, is drawn.
func TestE2EExitAfterFirstFrame(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "first-frame", "--from-literal=foo=1")
	for _, args := range [][]string{{"cm"}, {"configmap/first-frame"}} {
		cmd := exec.Command(keditBinary(t), append([]string{"--kubeconfig", kubetest.Kubeconfig(t), "-n", ns, "--exit-after-first-frame"}, args...)...)
		cmd.Env = append(os.Environ(), "KUBECACHEDIR="+t.TempDir(), "XDG_STATE_HOME="+t.TempDir(), "TERM=xterm-256color")
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		done := make(chan error, 1)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			if err != nil || !strings.Contains(stdout.String(), "first-frame") {
				t.Errorf("%v: %v, stderr %q, stdout %q", args, err, stderr.String(), stdout.String())
			}
		case <-time.After(screenWait):
			_ = cmd.Process.Kill()
			t.Errorf("%v: still running after %s", args, screenWait)
		}
	}
}

// TestE2EBrowserSignalStoresEveryDraft: SIGTERM with one object's draft
// left for the list and another's shown stores both, and exits 143.
func TestE2EBrowserSignalStoresEveryDraft(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	for _, name := range []string{"left", "shown"} {
		kubetest.MustKubectl(t, "-n", ns, "create", "configmap", name, "--from-literal=foo=1")
	}
	env := newKeditEnv(t, editorScript(t, `sed -i 's/foo: "1"/foo: mine/' "$1"`))
	term := env.run(t, 120, 40, "-n", ns, "cm")
	term.waitFor(screenWait, "2 objects", "left", "shown")
	term.send("Enter")
	term.waitFor(screenWait, "ConfigMap/left")
	term.editAndWait()
	term.send("Escape")
	term.waitFor(screenWait, "the draft of configmaps/left stays on disk")
	term.send("Down")
	term.send("Enter")
	term.waitFor(screenWait, "ConfigMap/shown")
	term.editAndWait()
	term.signal("TERM")
	term.waitFor(screenWait, "EXIT=143")
	for _, name := range []string{"left", "shown"} {
		waitFile(t, env.draft(ns, "configmaps", name, 1), holds("foo: mine"))
	}
}

// TestE2EStartupRequests: with discovery cached, as after any earlier run,
// kedit TYPE/NAME sends two requests before its first frame, the object's
// GET and its watch (the fewest possible): a built-in kind's schema
// is client-go's, not the server's. --debug's log says each request, and
// never a credential.
func TestE2EStartupRequests(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "counted", "--from-literal=foo=1")
	cache, state := t.TempDir(), t.TempDir()
	var requests []string
	for run := range 2 {
		log := filepath.Join(t.TempDir(), "debug.log")
		cmd := exec.Command(keditBinary(t), "--kubeconfig", kubetest.Kubeconfig(t), "-n", ns, "--debug="+log,
			"--exit-after-first-frame", "configmap/counted")
		cmd.Env = append(os.Environ(), "KUBECACHEDIR="+cache, "XDG_STATE_HOME="+state, "TERM=xterm-256color")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("run %d: %v\n%s", run, err, out)
		}
		b, err := os.ReadFile(log)
		if err != nil {
			t.Fatal(err)
		}
		if tok := kubeconfigToken(t, kubetest.Kubeconfig(t)); tok != "" && strings.Contains(string(b), tok) {
			t.Fatal("the debug log holds the kubeconfig's token")
		}
		requests = requests[:0]
		for _, l := range strings.Split(string(b), "\n") {
			if i := strings.Index(l, " request "); i >= 0 {
				requests = append(requests, l[i+1:])
			}
		}
	}
	want := []string{"request GET /api/v1/namespaces/" + ns + "/configmaps/counted 200", "request GET /api/v1/namespaces/" + ns + "/configmaps?"}
	ok := len(requests) == len(want)
	for i := 0; ok && i < len(want); i++ {
		ok = strings.HasPrefix(requests[i], want[i])
	}
	if !ok || !strings.Contains(requests[len(requests)-1], "watch=true") {
		t.Errorf("the second start sent:\n%s\nwant the GET and the watch", strings.Join(requests, "\n"))
	}
}
