package e2e

import (
	"bytes"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"k8s.io/client-go/tools/clientcmd"

	"github.com/kedit/kedit/internal/testwait"
	"github.com/kedit/kedit/kube/kubetest"
)

// End to end, the promise about drafts (never lost, never said to be
// safe when they are not): the real binary in tmux,
// killed, hung up on, run twice at once, and against two "clusters".

// leaveDraft runs kedit on configmap/name in ns, makes a draft with the
// environment's $EDITOR, and kills kedit with SIGKILL once the draft's
// file holds want: the draft a crashed kedit leaves. It returns the file's
// path.
func (e keditEnv) leaveDraft(t *testing.T, ns, name, want string) string {
	t.Helper()
	term := e.start(t, ns, "configmap/"+name)
	term.editAndWait()
	path := e.draft(ns, "configmaps", name, 1)
	waitFile(t, path, holds(want))
	term.signal("KILL")
	term.waitFor(screenWait, "EXIT=137")
	return path
}

// editorFiles lists what is left in kedit's $EDITOR directory.
func editorFiles(t *testing.T, runtime string) []string {
	entries, err := os.ReadDir(filepath.Join(runtime, "kedit"))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// TestE2ESignalsEndWithTheDraftStored: SIGTERM and SIGHUP store the latest
// draft (also what the in-app editor holds), leave no $EDITOR file,
// restore the terminal and exit 143 / 129.
func TestE2ESignalsEndWithTheDraftStored(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ sig, exit string }{{"TERM", "EXIT=143"}, {"HUP", "EXIT=129"}} {
		t.Run(tc.sig, func(t *testing.T) {
			t.Parallel()
			ns := kubetest.Namespace(t)
			kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=1")
			env := newKeditEnv(t, editorScript(t, `sed -i 's/foo: "1"/foo: mine/' "$1"`))
			term := env.start(t, ns, "configmap/testmap")
			term.editAndWait()
			// Typed in the in-app editor, not yet left: the latest draft.
			term.send("i")
			term.waitFor(screenWait, "leave, keep the draft")
			term.send("Down", "End", "Enter", "  baz: typed")
			term.waitFor(screenWait, "baz: typed")
			term.signal(tc.sig)
			term.waitFor(screenWait, tc.exit)
			if !term.restored() {
				t.Error("the terminal is left in the alternate screen or with mouse reporting on")
			}
			b := waitFile(t, env.draft(ns, "configmaps", "testmap", 1), holds("baz: typed"))
			if !bytes.Contains(b, []byte("foo: mine")) {
				t.Errorf("the stored draft lost the $EDITOR edit:\n%s", b)
			}
			if left := editorFiles(t, env.runtime); len(left) != 0 {
				t.Errorf("$EDITOR files left: %v", left)
			}
		})
	}
}

// TestE2ESigtermWhileEditorOpen: SIGTERM while $EDITOR runs ends kedit once
// the editor returns, keeping what it wrote as the draft.
func TestE2ESigtermWhileEditorOpen(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=1")
	sync := t.TempDir()
	env := newKeditEnv(t, editorScript(t, fmt.Sprintf(`sed -i 's/foo: "1"/foo: while-terminated/' "$1"
touch %[1]s/started
while [ ! -e %[1]s/go ]; do sleep 0.05; done`, sync)))
	term := env.start(t, ns, "configmap/testmap")
	term.send("e")
	waitFile(t, filepath.Join(sync, "started"), func(b []byte) bool { return b != nil })
	term.signal("TERM")
	if err := os.WriteFile(filepath.Join(sync, "go"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	term.waitFor(screenWait, "EXIT=143")
	waitFile(t, env.draft(ns, "configmaps", "testmap", 1), holds("foo: while-terminated"))
	if left := editorFiles(t, env.runtime); len(left) != 0 {
		t.Errorf("$EDITOR files left: %v", left)
	}
}

// TestE2EMemoryOnlyDraftsSayTheyWillBeLost: a Secret's draft without
// --allow-secret-drafts, and any draft when the draft directory cannot be
// written, exist only in memory; q and the first ctrl+c say it will be
// lost, the second ctrl+c quits, and nothing of the Secret reaches the
// disk.
func TestE2EMemoryOnlyDraftsSayTheyWillBeLost(t *testing.T) {
	t.Parallel()
	const lost = "the draft exists only in memory and will be lost"
	t.Run("secret", func(t *testing.T) {
		t.Parallel()
		ns := kubetest.Namespace(t)
		kubetest.MustKubectl(t, "-n", ns, "create", "secret", "generic", "db", "--from-literal=password=s3cr3t-value")
		env := newKeditEnv(t, editorScript(t, `sed -i 's/^  name: db$/  name: db\n  labels:\n    edited: "yes"/' "$1"`))
		term := env.start(t, ns, "secret/db")
		term.editAndWait("kept in memory only")
		term.send("q")
		term.waitFor(screenWait, lost, "--allow-secret-drafts")
		term.send("n")
		term.send("C-c")
		term.waitFor(screenWait, lost, "ctrl+c again quits")
		term.send("C-c")
		term.waitFor(screenWait, "EXIT=0")
		for _, dir := range []string{env.state, env.runtime} {
			_ = filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
				if err == nil && !d.IsDir() {
					b, _ := os.ReadFile(path)
					t.Errorf("a file is left for a Secret's draft: %s %q", path, b)
				}
				return nil
			})
		}
	})
	t.Run("unwritable draft directory", func(t *testing.T) {
		t.Parallel()
		ns := kubetest.Namespace(t)
		kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=1")
		env := newKeditEnv(t, editorScript(t, `sed -i 's/foo: "1"/foo: mine/' "$1"`))
		// A file where the directory should be: as unwritable as a
		// read-only disk, even for root.
		if err := os.WriteFile(filepath.Join(env.state, "kedit"), nil, 0o600); err != nil {
			t.Fatal(err)
		}
		term := env.start(t, ns, "configmap/testmap")
		term.waitForText(screenWait, "drafts exist only in memory", "not a directory")
		term.editAndWait()
		term.send("q")
		term.waitFor(screenWait, lost)
		term.send("n")
		term.send("C-c")
		term.waitFor(screenWait, lost, "ctrl+c again quits")
		term.send("C-c")
		term.waitFor(screenWait, "EXIT=0")
	})
}

// TestE2EUnrecoverableDraftIsKeptAside: a stored draft that cannot be
// recovered is moved to <file>.<UTC time>.kept, the user is told where,
// the next edit does not touch it, and kedit drafts lists it as kept.
func TestE2EUnrecoverableDraftIsKeptAside(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=1", "--from-literal=bar=1")
	env := newKeditEnv(t, editorScript(t, `sed -i 's/foo: "1"/foo: mine/' "$1"`))
	path := env.leaveDraft(t, ns, "testmap", "foo: mine")
	// Without its base, as an older kedit could leave it, and the object
	// moves on.
	toOlderLayout(t, path, false)
	kubetest.MustKubectl(t, "-n", ns, "patch", "configmap", "testmap", "--type=merge", "-p", `{"data":{"bar":"theirs"}}`)
	stored, _ := os.ReadFile(path)

	env.editor = editorScript(t, `sed -i 's/foo: "1"/foo: again/' "$1"`)
	term := env.start(t, ns, "configmap/testmap")
	term.waitFor(screenWait, "a draft of this object from rv", "recover it?")
	term.send("y")
	term.waitForText(screenWait, "cannot rebase it", "it is kept in")
	kept, _ := filepath.Glob(path + ".*.kept")
	if len(kept) != 1 {
		t.Fatalf("kept files %v", kept)
	}
	term.waitForText(screenWait, "it is kept in "+kept[0])
	term.editAndWait("foo: again")
	waitFile(t, path, holds("foo: again"))
	if b, _ := os.ReadFile(kept[0]); !bytes.Equal(b, stored) {
		t.Errorf("the kept file changed:\n%s", b)
	}
	cmd := exec.Command(keditBinary(t), "drafts")
	cmd.Env = append(os.Environ(), "XDG_STATE_HOME="+env.state)
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "kept") || !strings.Contains(string(out), kept[0]) || !strings.Contains(string(out), "editing (pid") {
		t.Errorf("kedit drafts: %v\n%s", err, out)
	}
}

// toOlderLayout rewrites the draft file at path as the kedit before this
// one stored drafts: the header without its base line, and the base as
// JSON beside it in <path>.base.json when withBase is set.
func toOlderLayout(t *testing.T, path string, withBase bool) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var header, base []string
	rest := string(b)
	for {
		line, after, ok := strings.Cut(rest, "\n")
		if !ok {
			t.Fatalf("%s: no header", path)
		}
		rest = after
		if v, isBase := strings.CutPrefix(line, "# base: "); isBase {
			base = append(base, v)
			continue
		}
		header = append(header, line)
		if strings.HasPrefix(line, "# The draft text follows") {
			break
		}
	}
	if len(base) != 1 || !strings.HasPrefix(base[0], "{") {
		t.Fatalf("%s holds no base line:\n%s", path, b)
	}
	if err := os.WriteFile(path, []byte(strings.Join(header, "\n")+"\n"+rest), 0o600); err != nil {
		t.Fatal(err)
	}
	if withBase {
		if err := os.WriteFile(path+".base.json", []byte(base[0]), 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

// TestE2EOlderKeditsDraftIsRecovered: a draft the kedit before this one
// stored, with its base beside it in <name>.yaml.base.json, is offered
// and recovered with that base after the object moved on: the save
// rebases it and keeps both changes; the draft and its base are gone
// after the save.
func TestE2EOlderKeditsDraftIsRecovered(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=1", "--from-literal=bar=1")
	env := newKeditEnv(t, editorScript(t, `sed -i 's/foo: "1"/foo: mine/' "$1"`))
	path := env.leaveDraft(t, ns, "testmap", "foo: mine")
	toOlderLayout(t, path, true)
	kubetest.MustKubectl(t, "-n", ns, "patch", "configmap", "testmap", "--type=merge", "-p", `{"data":{"bar":"theirs"}}`)

	term := env.start(t, ns, "configmap/testmap")
	term.waitFor(screenWait, "a draft of this object from rv", "recover it?")
	term.send("y")
	term.waitFor(screenWait, "draft recovered", "foo: mine")
	term.send("s")
	// A clean rebase onto the version that moved on, shown before it is
	// resubmitted.
	term.waitFor(screenWait, "clean rebase: ", ".data.bar")
	term.send("s")
	term.waitFor(screenWait, "saved rv")
	if data, _ := configMapData(t, ns, "testmap"); data["foo"] != "mine" || data["bar"] != "theirs" {
		t.Errorf("data = %v, want foo=mine (the recovered draft) and bar=theirs", data)
	}
	for _, p := range []string{path, path + ".base.json"} {
		waitFile(t, p, gone)
	}
}

// TestE2ETwoKeditsOnOneObject: a second kedit on an object is told which
// one edits it and keeps its draft in a file of its own; the first's save
// removes only its own; a killed kedit's draft is offered by the next.
func TestE2ETwoKeditsOnOneObject(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=1")
	env := newKeditEnv(t, editorScript(t, `sed -i 's/foo: "1"/foo: from-a/' "$1"`))
	a := env.start(t, ns, "configmap/testmap")
	envB := env
	envB.editor = editorScript(t, `sed -i 's/foo: "1"/foo: from-b/' "$1"`)
	b := envB.start(t, ns, "configmap/testmap")
	b.waitForText(screenWait, fmt.Sprintf("another kedit (pid %d) is editing this object; this one stores its draft in %s", a.keditPID(), env.draft(ns, "configmaps", "testmap", 2)))

	a.editAndWait()
	b.editAndWait()
	waitFile(t, env.draft(ns, "configmaps", "testmap", 1), holds("foo: from-a"))
	waitFile(t, env.draft(ns, "configmaps", "testmap", 2), holds("foo: from-b"))
	a.send("s")
	a.waitFor(screenWait, "saved rv")
	waitFile(t, env.draft(ns, "configmaps", "testmap", 1), gone)
	if data, _ := configMapData(t, ns, "testmap"); data["foo"] != "from-a" {
		t.Errorf("foo = %q after a's save", data["foo"])
	}
	b.signal("KILL")
	b.waitFor(screenWait, "EXIT=137")
	waitFile(t, env.draft(ns, "configmaps", "testmap", 2), holds("foo: from-b"))

	c := env.start(t, ns, "configmap/testmap")
	c.waitForText(screenWait, "a draft of this object from rv", "in "+env.draft(ns, "configmaps", "testmap", 2)+", is stored: recover it?")
	c.send("y")
	c.waitFor(screenWait, "draft recovered", "foo: from-b")
	c.send("q")
	c.waitForText(screenWait, "It stays on disk in "+env.draft(ns, "configmaps", "testmap", 2))
}

// TestE2EDraftsBelongToTheirCluster: a draft made through one server URL
// is not offered, nor written over, by a kedit whose context has the same
// name but reaches another server; a draft of an object deleted and
// created again is offered with a warning, and saves over the new object
// without a rebase.
func TestE2EDraftsBelongToTheirCluster(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=1")
	env := newKeditEnv(t, editorScript(t, `sed -i 's/foo: "1"/foo: cluster-a/' "$1"`))
	draftA := env.leaveDraft(t, ns, "testmap", "foo: cluster-a")
	stored, _ := os.ReadFile(draftA)

	// The same context name, another server URL (the certificate is valid
	// for localhost too): another cluster, as far as kedit can tell.
	other := env
	other.kubeconfig = kubeconfigWithServer(t, func(host, port string) string { return "https://localhost:" + port })
	other.editor = editorScript(t, `sed -i 's/foo: "1"/foo: cluster-b/' "$1"`)
	b := other.start(t, ns, "configmap/testmap")
	if screen := b.screen(); strings.Contains(screen, "recover") {
		t.Fatalf("another cluster's draft is offered:\n%s", screen)
	}
	b.editAndWait()
	waitFile(t, env.draft(ns, "configmaps", "testmap", 2), holds("foo: cluster-b"))
	if now, _ := os.ReadFile(draftA); !bytes.Equal(now, stored) {
		t.Errorf("the other cluster's draft was written over:\n%s", now)
	}
	b.send("C-c")
	b.waitFor(screenWait, "EXIT=0")

	// Deleted and created again: offered with a warning, and saved over the
	// new object as it stands.
	kubetest.MustKubectl(t, "-n", ns, "delete", "configmap", "testmap")
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=new")
	c := env.start(t, ns, "configmap/testmap")
	c.waitForText(screenWait, draftA+" -- WARNING: made on an earlier object of this name that was deleted since")
	c.send("1")
	c.waitFor(screenWait, "draft recovered", "foo: cluster-a")
	c.send("s")
	c.waitFor(screenWait, "saved rv")
	if data, _ := configMapData(t, ns, "testmap"); data["foo"] != "cluster-a" {
		t.Errorf("foo = %q, want the recovered draft's", data["foo"])
	}
}

// kubeconfigWithServer writes a copy of the test kubeconfig whose server
// URL is server(host, port) of the original.
func kubeconfigWithServer(t *testing.T, server func(host, port string) string) string {
	t.Helper()
	cfg, err := clientcmd.LoadFromFile(kubetest.Kubeconfig(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cfg.Clusters {
		u := strings.TrimPrefix(c.Server, "https://")
		host, port, err := net.SplitHostPort(u)
		if err != nil {
			t.Fatal(err)
		}
		c.Server = server(host, port)
	}
	path := filepath.Join(t.TempDir(), "kubeconfig")
	if err := clientcmd.WriteToFile(*cfg, path); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestE2EEditorFilesArePrivate: $EDITOR's file is 0600 in
// $XDG_RUNTIME_DIR/kedit (0700), removed once read back; a file a killed
// kedit left there is removed at the next start, a running kedit's is not.
func TestE2EEditorFilesArePrivate(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=1")
	record := filepath.Join(t.TempDir(), "record")
	env := newKeditEnv(t, editorScript(t, fmt.Sprintf(`stat -c '%%a %%n' "$1" "$(dirname "$1")" > %s
sed -i 's/foo: "1"/foo: mine/' "$1"`, record)))
	dir := filepath.Join(env.runtime, "kedit")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	dead := filepath.Join(dir, "edit-"+strconv.Itoa(deadPID(t))+"-1.yaml")
	alive := filepath.Join(dir, "edit-"+strconv.Itoa(os.Getpid())+"-1.yaml")
	for _, p := range []string{dead, alive} {
		if err := os.WriteFile(p, []byte("data: {}\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	term := env.start(t, ns, "configmap/testmap")
	waitFile(t, dead, gone)
	if _, err := os.Stat(alive); err != nil {
		t.Errorf("a running kedit's file was removed: %v", err)
	}
	term.editAndWait()
	lines := strings.Split(strings.TrimSpace(string(waitFile(t, record, func(b []byte) bool { return b != nil }))), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "600 "+dir+"/edit-") || lines[1] != "700 "+dir {
		t.Errorf("the editor's file and directory: %q", lines)
	}
	if left := editorFiles(t, env.runtime); len(left) != 1 || left[0] != filepath.Base(alive) {
		t.Errorf("$EDITOR files left after reading back: %v", left)
	}
}

// deadPID returns the pid of a process that has ended.
func deadPID(t *testing.T) int {
	t.Helper()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	return cmd.Process.Pid
}

// TestE2ESpinnerSpinsDuringASlowSave: while a save takes seconds (the
// connection to the server slowed down), the spinner moves.
func TestE2ESpinnerSpinsDuringASlowSave(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=1")
	term, proxy := startThroughSlowProxy(t, ns, "configmap/testmap", editorScript(t, `sed -i 's/foo: "1"/foo: mine/' "$1"`))
	term.editAndWait()
	proxy.slow.Store(true)
	term.send("s")
	term.waitFor(screenWait, " saving")
	frames := map[string]bool{}
	testwait.Until(5*time.Second, func() bool {
		for _, line := range strings.Split(term.screen(), "\n") {
			if i := strings.Index(line, " saving"); i > 0 {
				r := []rune(strings.TrimSpace(line[:i]))
				frames[string(r[len(r)-1:])] = true
			}
		}
		return len(frames) >= 3
	})
	proxy.slow.Store(false)
	term.waitFor(screenWait, "saved rv")
	if len(frames) < 3 {
		t.Errorf("the spinner showed %d frames during a slow save, want it moving: %v", len(frames), frames)
	}
}

// slowProxy forwards TCP connections to the API server, holding back what
// the client sends by a second per read while slow is set. With loseNext
// set, the next request the client sends (a read of more than loseOver
// bytes: a TLS record carrying a request, not an HTTP/2 window update)
// reaches the server, but the connection is cut as its answer (the next
// read as large from the server) comes back: a lost answer.
type slowProxy struct {
	address  string
	target   string
	slow     atomic.Bool
	loseNext atomic.Bool

	mu sync.Mutex
	// ln is nil while the proxy is cut; conns are the connections open
	// through it.
	ln    net.Listener
	conns []net.Conn
}

// loseOver is the size of a client's read that loseNext takes for a
// request.
const loseOver = 400

func startSlowProxy(t *testing.T, target string) *slowProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &slowProxy{address: ln.Addr().String(), target: target, ln: ln}
	t.Cleanup(func() {
		p.mu.Lock()
		defer p.mu.Unlock()
		if p.ln != nil {
			p.ln.Close()
		}
	})
	go p.serve(ln)
	return p
}

// cut breaks every connection through the proxy and refuses new ones
// until restore, as a network outage that refuses connections does.
func (p *slowProxy) cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ln != nil {
		p.ln.Close()
		p.ln = nil
	}
	for _, c := range p.conns {
		c.Close()
	}
	p.conns = nil
}

// restore ends the outage cut began: the proxy listens again on its
// address.
func (p *slowProxy) restore(t *testing.T) {
	t.Helper()
	ln, err := net.Listen("tcp", p.address)
	if err != nil {
		t.Fatalf("listening again on %s: %v", p.address, err)
	}
	p.mu.Lock()
	p.ln = ln
	p.mu.Unlock()
	go p.serve(ln)
}

// track keeps c for cut, unless the proxy was cut meanwhile: then c is
// closed and track reports false.
func (p *slowProxy) track(ln net.Listener, c ...net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ln != ln {
		for _, x := range c {
			x.Close()
		}
		return false
	}
	p.conns = append(p.conns, c...)
	return true
}

// serve forwards the connections ln accepts until it is closed.
func (p *slowProxy) serve(ln net.Listener) {
	for {
		client, err := ln.Accept()
		if err != nil {
			return
		}
		server, err := net.Dial("tcp", p.target)
		if err != nil {
			client.Close()
			continue
		}
		if !p.track(ln, client, server) {
			continue
		}
		var cut atomic.Bool
		go func() {
			defer server.Close()
			buf := make([]byte, 64<<10)
			for {
				n, err := client.Read(buf)
				if n > 0 {
					if p.slow.Load() {
						time.Sleep(time.Second) // the slow network under test
					}
					if n > loseOver && p.loseNext.CompareAndSwap(true, false) {
						// Cut before the request goes on: set after it, a
						// fast answer could be on its way back already.
						cut.Store(true)
					}
					if _, werr := server.Write(buf[:n]); werr != nil {
						return
					}
				}
				if err != nil {
					return
				}
			}
		}()
		go func() {
			defer client.Close()
			buf := make([]byte, 64<<10)
			for {
				n, err := server.Read(buf)
				if cut.Load() && n > loseOver {
					// The request went through, and the server wrote its
					// answer (the first read as large as a request's: not
					// a flow-control frame, which the server sends as it
					// reads the body, before its handler is done); the
					// answer is lost with the connection.
					server.Close()
					return
				}
				if n > 0 {
					if _, werr := client.Write(buf[:n]); werr != nil {
						return
					}
				}
				if err != nil {
					return
				}
			}
		}()
	}
}

func (p *slowProxy) addr() string { return p.address }

// startThroughSlowProxy runs kedit on object in ns (and args), with editor
// as $EDITOR, talking to the API server through a slowProxy of its own.
func startThroughSlowProxy(t *testing.T, ns, object, editor string, args ...string) (*terminal, *slowProxy) {
	t.Helper()
	var target string
	kubeconfigWithServer(t, func(host, port string) string { target = net.JoinHostPort(host, port); return "" })
	proxy := startSlowProxy(t, target)
	env := newKeditEnv(t, editor)
	env.kubeconfig = kubeconfigWithServer(t, func(string, string) string { return "https://" + proxy.addr() })
	return env.start(t, ns, object, args...), proxy
}

// TestE2EMissingObjectNamesItsStoredDraft: a draft a crashed kedit left
// of an object deleted since is not lost from sight: kedit on the object
// says it is not found and where the draft is stored, and exits 1.
func TestE2EMissingObjectNamesItsStoredDraft(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=1")
	env := newKeditEnv(t, editorScript(t, `sed -i 's/foo: "1"/foo: mine/' "$1"`))
	path := env.leaveDraft(t, ns, "testmap", "foo: mine")
	kubetest.MustKubectl(t, "-n", ns, "delete", "configmap", "testmap")

	argv := env.argv(t, []string{"-n", ns, "cm/testmap"})
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(os.Environ(), env.vars(t)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	want := `kedit: configmaps/testmap not found in namespace "` + ns + `"`
	if !errors.As(err, &exit) || exit.ExitCode() != 1 || !strings.HasPrefix(stderr.String(), want) ||
		!strings.Contains(stderr.String(), "a draft of it that an earlier kedit left is stored in "+path+" (kedit drafts lists it)") {
		t.Errorf("exit %v, stderr %q; want exit 1, %q and the draft's path %s", err, stderr.String(), want, path)
	}
	if b, err := os.ReadFile(path); err != nil || !strings.Contains(string(b), "foo: mine") {
		t.Errorf("the draft (%v):\n%s", err, b)
	}
}
