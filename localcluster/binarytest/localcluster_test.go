// Package binarytest tests the localcluster command as its users run it: the
// binary, started and stopped, its flags and its files. It is a package of
// its own so that its test binary does not link the API server the command
// is made of.
package binarytest

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// binary is the localcluster executable under test: $LOCALCLUSTER_BIN (the
// Makefile passes bin/localcluster), else one built here with the release
// ldflags.
var (
	binaryOnce sync.Once
	binaryPath string
	binaryErr  error
)

func binary(t *testing.T) string {
	t.Helper()
	binaryOnce.Do(func() {
		if p := os.Getenv("LOCALCLUSTER_BIN"); p != "" {
			binaryPath, binaryErr = filepath.Abs(p)
			return
		}
		ldflags, err := os.ReadFile(filepath.Join("..", "ldflags"))
		if err != nil {
			binaryErr = err
			return
		}
		dir, err := os.MkdirTemp("", "localcluster-bin")
		if err != nil {
			binaryErr = err
			return
		}
		binaryPath = filepath.Join(dir, "localcluster")
		out, err := exec.Command("go", "build", "-ldflags", strings.TrimSpace(string(ldflags)), "-o", binaryPath, "..").CombinedOutput()
		if err != nil {
			binaryErr = errors.New("go build: " + err.Error() + "\n" + string(out))
		}
	})
	if binaryErr != nil {
		t.Fatalf("cannot build localcluster: %v", binaryErr)
	}
	return binaryPath
}

// syncBuffer is a bytes.Buffer safe to read while the process writes it.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// server is one running localcluster process.
type server struct {
	cmd        *exec.Cmd
	kubeconfig string
	stderr     *syncBuffer
	exited     chan error
}

// startServer runs localcluster with args and waits for its ready line.
func startServer(t *testing.T, args ...string) *server {
	t.Helper()
	s := &server{cmd: exec.Command(binary(t), args...), stderr: &syncBuffer{}, exited: make(chan error, 1)}
	s.cmd.Stderr = s.stderr
	stdout, err := s.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := s.cmd.Start(); err != nil {
		t.Fatalf("starting localcluster: %v", err)
	}
	lines := make(chan string, 4)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
		s.exited <- s.cmd.Wait()
	}()
	t.Cleanup(func() {
		if s.cmd.ProcessState == nil {
			_ = s.cmd.Process.Kill()
		}
	})
	select {
	case line, ok := <-lines:
		if !ok {
			t.Fatalf("localcluster exited before it was ready; stderr:\n%s", s.stderr)
		}
		path, found := strings.CutPrefix(line, "ready ")
		if !found || !filepath.IsAbs(path) {
			t.Fatalf("first stdout line = %q, want \"ready <absolute path>\"", line)
		}
		s.kubeconfig = path
	case <-time.After(3 * time.Minute):
		t.Fatalf("localcluster not ready after 3 minutes; stderr:\n%s", s.stderr)
	}
	go func() {
		// Contract: exactly one line on stdout.
		for line := range lines {
			t.Errorf("unexpected extra stdout line: %q", line)
		}
	}()
	return s
}

// stop sends SIGTERM and requires a clean exit within 10 seconds.
func (s *server) stop(t *testing.T) {
	t.Helper()
	if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-s.exited:
		if err != nil {
			t.Fatalf("localcluster exited with %v after SIGTERM; stderr:\n%s", err, s.stderr)
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("localcluster still running 10s after SIGTERM")
	}
}

func kubectl(t *testing.T, kubeconfig string, args ...string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, "kubectl", append([]string{"--kubeconfig", kubeconfig}, args...)...).CombinedOutput()
	return string(out), err
}

func mustKubectl(t *testing.T, kubeconfig string, args ...string) string {
	t.Helper()
	out, err := kubectl(t, kubeconfig, args...)
	if err != nil {
		t.Fatalf("kubectl %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

func TestServeRestartKeepsObjects(t *testing.T) {
	dir := t.TempDir()
	s := startServer(t, "--dir", dir)
	if want := filepath.Join(dir, "kubeconfig"); s.kubeconfig != want {
		t.Errorf("kubeconfig = %s, want %s", s.kubeconfig, want)
	}
	if v := mustKubectl(t, s.kubeconfig, "get", "--raw", "/version"); !strings.Contains(v, `"gitVersion": "v1.36.3"`) {
		t.Errorf("/version = %s, want gitVersion v1.36.3", v)
	}
	mustKubectl(t, s.kubeconfig, "create", "configmap", "a", "--from-literal=k=v")

	viewer := filepath.Join(dir, "kubeconfig-viewer")
	out, err := kubectl(t, viewer, "get", "configmap", "a")
	if err == nil || !strings.Contains(out, "Forbidden") {
		t.Errorf("viewer read a ConfigMap (err %v): %s", err, out)
	}

	before, _ := os.ReadFile(s.kubeconfig)
	s.stop(t)
	if !strings.Contains(s.stderr.String(), "ready on https://127.0.0.1:") {
		t.Errorf("stderr does not say how long startup took:\n%s", s.stderr)
	}

	s = startServer(t, "--dir", dir)
	after, _ := os.ReadFile(s.kubeconfig)
	if !bytes.Equal(before, after) {
		t.Errorf("restart changed the kubeconfig:\nbefore:\n%s\nafter:\n%s", before, after)
	}
	if got := mustKubectl(t, s.kubeconfig, "get", "configmap", "a", "-o", "jsonpath={.data.k}"); got != "v" {
		t.Errorf("after restart .data.k = %q, want v", got)
	}
	s.stop(t)
}

func TestTwoClustersAndKubeconfigOut(t *testing.T) {
	first := startServer(t, "--dir", t.TempDir())
	out := filepath.Join(t.TempDir(), "nested", "admin.yaml")
	second := startServer(t, "--dir", t.TempDir(), "--kubeconfig-out", out)
	if second.kubeconfig != out {
		t.Errorf("kubeconfig = %s, want %s", second.kubeconfig, out)
	}
	info, err := os.Stat(out)
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != 0o600 {
		t.Errorf("kubeconfig mode = %v, want 0600: it holds a token", info.Mode().Perm())
	}
	mustKubectl(t, first.kubeconfig, "create", "configmap", "only-in-first")
	if _, err := kubectl(t, second.kubeconfig, "get", "configmap", "only-in-first"); err == nil {
		t.Error("the two clusters share storage")
	}
	first.stop(t)
	second.stop(t)
}

func TestBadArguments(t *testing.T) {
	for _, args := range [][]string{
		{},
		{"--dir", t.TempDir(), "extra"},
		{"--dir", t.TempDir(), "--port", "70000"},
		{"--no-such-flag"},
		{"--dir", t.TempDir(), "--audit-policy", "policy.yaml"},
	} {
		cmd := exec.Command(binary(t), args...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := cmd.Run()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 2 {
			t.Errorf("localcluster %v: %v, want exit status 2", args, err)
		}
		if stderr.Len() == 0 {
			t.Errorf("localcluster %v said nothing on stderr", args)
		}
	}
}
