package e2e

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kedit/kedit/internal/testwait"
	"github.com/kedit/kedit/kube/kubetest"
)

// screenWait is how long a test waits for what kedit should show: long,
// so that a loaded machine is slow, not failing.
const screenWait = 20 * time.Second

var (
	keditBinOnce sync.Once
	keditBin     string
	keditBinErr  error
)

// keditBinary builds kedit, the module's root, once per test binary.
func keditBinary(t testing.TB) string {
	t.Helper()
	keditBinOnce.Do(func() {
		dir, err := os.MkdirTemp("", "kedit-e2e-bin")
		if err != nil {
			keditBinErr = err
			return
		}
		keditBin = filepath.Join(dir, "kedit")
		// The module's root, the main package, from e2e/, with the
		// Makefile's tags (buildtags).
		tags, err := os.ReadFile("../buildtags")
		if err != nil {
			keditBinErr = err
			return
		}
		cmd := exec.Command("go", "build", "-tags", strings.TrimSpace(string(tags)), "-o", keditBin, ".")
		cmd.Dir = ".."
		out, err := cmd.CombinedOutput()
		if err != nil {
			keditBinErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if keditBinErr != nil {
		t.Fatal(keditBinErr)
	}
	return keditBin
}

// keditEnv is one kedit's environment: its draft store, its $EDITOR
// directory, its editor, the kubeconfig it is given.
type keditEnv struct {
	state, runtime, editor, kubeconfig string
	// extra is more of kedit's environment; it comes last, so it wins.
	extra []string
	// binary is the kedit that runs, keditBinary's unless set.
	binary string
}

// newKeditEnv is an environment of the test's own, on the test cluster,
// with editor as $EDITOR.
func newKeditEnv(t testing.TB, editor string) keditEnv {
	return keditEnv{state: t.TempDir(), runtime: t.TempDir(), editor: editor, kubeconfig: kubetest.Kubeconfig(t)}
}

// vars is kedit's environment in the terminal. CI is set, as it is in CI, where termenv once took the terminal for none
// and kedit drew no style at all (useTerminalProfile): the tests see what
// CI sees, on any machine.
func (e keditEnv) vars(t testing.TB) []string {
	v := []string{"KUBE_EDITOR=" + e.editor, "XDG_STATE_HOME=" + e.state, "XDG_RUNTIME_DIR=" + e.runtime,
		"KUBECACHEDIR=" + t.TempDir(), "TERM=xterm-256color", "CI=true"}
	return append(v, e.extra...)
}

// argv is the command line of kedit with args: --kubeconfig first, when
// the environment has one.
func (e keditEnv) argv(t testing.TB, args []string) []string {
	bin := e.binary
	if bin == "" {
		bin = keditBinary(t)
	}
	if e.kubeconfig != "" {
		return append([]string{bin, "--kubeconfig", e.kubeconfig}, args...)
	}
	return append([]string{bin}, args...)
}

// run starts kedit with args in a terminal of width by height: the one way
// the tests start kedit in tmux.
func (e keditEnv) run(t testing.TB, width, height int, args ...string) *terminal {
	t.Helper()
	return startTerminal(t, width, height, e.vars(t), e.argv(t, args)...)
}

// runRaw is run under script(1), which copies every byte kedit writes to
// the terminal into the file it returns: what a terminal would have been
// asked to do, before tmux interprets it.
func (e keditEnv) runRaw(t *testing.T, width, height int, args ...string) (*terminal, string) {
	t.Helper()
	raw := filepath.Join(t.TempDir(), "raw.out")
	return startTerminal(t, width, height, e.vars(t), "script", "-qfec", shellJoin(e.argv(t, args)), raw), raw
}

// start runs kedit on object in ns (and args) and waits for the object
// view. The terminal is wide, so that a status naming a draft's file is
// not cut.
func (e keditEnv) start(t *testing.T, ns, object string, args ...string) *terminal {
	t.Helper()
	term := e.run(t, 300, 40, append([]string{"-n", ns, object}, args...)...)
	term.waitFor(screenWait, "apiVersion: v1")
	return term
}

// draft is the path of the n-th draft file of resource name in ns.
func (e keditEnv) draft(ns, resource, name string, n int) string {
	file := name + ".yaml"
	if n > 1 {
		file = name + "_" + strconv.Itoa(n) + ".yaml"
	}
	return filepath.Join(e.state, "kedit", "drafts", "localcluster", ns, resource, file)
}

// openKedit starts kedit on configmap/NAME in ns, in a terminal of the
// given size, and waits for the object view.
func openKedit(t *testing.T, ns, name, editor string, width, height int) *terminal {
	t.Helper()
	return openKeditOn(t, ns, "configmap/"+name, "ConfigMap/"+name, editor, width, height)
}

// openKeditOn starts kedit on object (TYPE/NAME) in ns and waits for the
// object view's header, which names it as header.
func openKeditOn(t *testing.T, ns, object, header, editor string, width, height int, flags ...string) *terminal {
	t.Helper()
	term := newKeditEnv(t, editor).run(t, width, height, append(append([]string{"-n", ns}, flags...), object)...)
	term.waitFor(screenWait, header, "apiVersion: ")
	return term
}

// editorScript writes an editor that runs body with the file as $1. On
// its way out, whatever body did, it adds a line to its runs file
// (editorRuns), which editAndWait counts.
func editorScript(t testing.TB, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "editor.sh")
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+editorRunsTrap+"\nset -e\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// configMapData reads ConfigMap name in ns: its data and resourceVersion.
func configMapData(t *testing.T, ns, name string) (map[string]string, string) {
	t.Helper()
	cm, err := kubetest.Clientset(t).CoreV1().ConfigMaps(ns).Get(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return cm.Data, cm.ResourceVersion
}

// waitFile polls path until ok holds of its contents (nil when missing).
func waitFile(t *testing.T, path string, ok func(b []byte) bool) []byte {
	t.Helper()
	var b []byte
	if !testwait.Until(screenWait, func() bool {
		var err error
		if b, err = os.ReadFile(path); err != nil {
			b = nil
		}
		return ok(b)
	}) {
		t.Fatalf("%s holds %q", path, b)
	}
	return b
}

func holds(s string) func([]byte) bool {
	return func(b []byte) bool { return bytes.Contains(b, []byte(s)) }
}

func gone(b []byte) bool { return b == nil }

// runBinary runs the real kedit with args and stdin, and returns its
// stdout, stderr and exit status.
func runBinary(t *testing.T, stdin string, args ...string) (string, string, int) {
	t.Helper()
	return runBinaryIn(t, "", stdin, args...)
}

// runBinaryIn is runBinary in dir (the test's working directory when "").
func runBinaryIn(t *testing.T, dir, stdin string, args ...string) (string, string, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, keditBinary(t), args...)
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(stdin)
	cmd.Env = append(os.Environ(), "KUBECACHEDIR="+filepath.Join(os.TempDir(), "kedit-test-kubecache"))
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return out.String(), errOut.String(), 0
	case errors.As(err, &ee):
		return out.String(), errOut.String(), ee.ExitCode()
	}
	t.Fatalf("running kedit: %v", err)
	return "", "", 0
}
