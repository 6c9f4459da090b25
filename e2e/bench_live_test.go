package e2e

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/kedit/kedit/internal/testwait"
	"github.com/kedit/kedit/kube/kubetest"
)

// The live change's latency: from kubectl patch returning to kedit drawing
// the banner that names the new resourceVersion, beside kubectl get -w
// printing it, on the same ConfigMap in the same run. The real binaries:
// kedit built from this tree in a pseudo-terminal (script(1)), with a
// draft so that the banner shows; the peer is the real kubectl (see
// peerKubectl). Run by make bench:
//
//	go test -run '^$' -bench LiveChange -benchtime 100x ./e2e

// peerKubectl is the real kubectl binary: on these machines kubectl on
// PATH is a dispatcher that execs kubectl.1.33 beside its target, which
// would add a process start to every peer row.
func peerKubectl(tb testing.TB) string {
	tb.Helper()
	p, err := exec.LookPath("kubectl")
	if err != nil {
		tb.Fatalf("kubectl: %v", err)
	}
	if real, err := filepath.EvalSymlinks(p); err == nil {
		if _, err := os.Stat(real + ".1.33"); err == nil {
			return real + ".1.33"
		}
	}
	return p
}

// stream is a process's output read as it comes, with the time each
// awaited text first appeared.
type stream struct {
	mu   sync.Mutex
	buf  []byte // the text so far, escape sequences removed
	cond *sync.Cond
	done bool
}

func newStream(r io.Reader, strip bool) *stream {
	s := &stream{}
	s.cond = sync.NewCond(&s.mu)
	go func() {
		b := make([]byte, 64<<10)
		for {
			n, err := r.Read(b)
			if n > 0 {
				chunk := b[:n]
				if strip {
					chunk = []byte(ansi.Strip(string(chunk)))
				}
				s.mu.Lock()
				s.buf = append(s.buf, chunk...)
				s.cond.Broadcast()
				s.mu.Unlock()
			}
			if err != nil {
				s.mu.Lock()
				s.done = true
				s.cond.Broadcast()
				s.mu.Unlock()
				return
			}
		}
	}()
	return s
}

// await returns when re matches the output after offset from, and the
// time it was read; the offset to search from next.
func (s *stream) await(tb testing.TB, from int, re *regexp.Regexp, timeout time.Duration) (time.Time, int) {
	tb.Helper()
	timer := time.AfterFunc(timeout, func() { s.mu.Lock(); s.done = true; s.cond.Broadcast(); s.mu.Unlock() })
	defer timer.Stop()
	s.mu.Lock()
	defer s.mu.Unlock()
	for {
		if loc := re.FindIndex(s.buf[from:]); loc != nil {
			return time.Now(), from + loc[1]
		}
		if s.done {
			tail := s.buf[max(0, len(s.buf)-2000):]
			tb.Fatalf("no %q in the output after offset %d within %v; it ends:\n%q", re, from, timeout, tail)
		}
		s.cond.Wait()
	}
}

// patches numbers the patches, so that each changes the object: the
// benchmark runs its function more than once, and a patch that changes
// nothing makes no event.
var patches atomic.Int64

// patchRV patches the ConfigMap with the real kubectl and returns the new
// resourceVersion and when kubectl returned.
func patchRV(tb testing.TB, kubectl, kubeconfig, ns, name string) (string, time.Time) {
	tb.Helper()
	i := patches.Add(1)
	out, err := exec.Command(kubectl, "--kubeconfig", kubeconfig, "-n", ns, "patch", "configmap", name,
		"--type=merge", "-p", fmt.Sprintf(`{"data":{"n":"%d"}}`, i), "-o", "jsonpath={.metadata.resourceVersion}").Output()
	done := time.Now()
	if err != nil {
		tb.Fatalf("kubectl patch: %v", err)
	}
	return strings.TrimSpace(string(out)), done
}

// reportLatencies reports p50 and p99 in milliseconds.
func reportLatencies(b *testing.B, lat []time.Duration) {
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	q := func(p float64) float64 {
		return float64(lat[min(len(lat)-1, int(p*float64(len(lat))))]) / 1e6
	}
	b.ReportMetric(q(0.50), "p50-ms")
	b.ReportMetric(q(0.99), "p99-ms")
	b.ReportMetric(0, "ns/op")
}

func BenchmarkLiveChange(b *testing.B) {
	kubectl := peerKubectl(b)
	kc := kubetest.Kubeconfig(b)
	ns := kubetest.Namespace(b)
	kubetest.MustKubectl(b, "-n", ns, "create", "configmap", "live", "--from-literal=foo=1", "--from-literal=n=0")

	b.Run("kedit", func(b *testing.B) {
		editor := filepath.Join(b.TempDir(), "editor.sh")
		if err := os.WriteFile(editor, []byte("#!/bin/sh\nsed -i 's/foo: \"1\"/foo: mine/' \"$1\"\n"), 0o755); err != nil {
			b.Fatal(err)
		}
		cmdline := fmt.Sprintf("stty cols 160 rows 50; exec %s --kubeconfig %s -n %s configmap/live",
			keditBinary(b), kc, ns)
		cmd := exec.Command("script", "-qfec", cmdline, "/dev/null")
		// kedit's own directories: removed once it is gone (script(1)
		// starts it in a session of its own, so it outlives script by the
		// moment it takes to store its draft on the hang-up).
		home, err := os.MkdirTemp("", "kedit-bench-live")
		if err != nil {
			b.Fatal(err)
		}
		if err := os.Mkdir(home+"/run", 0o700); err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { testwait.Until(10*time.Second, func() bool { return os.RemoveAll(home) == nil }) })
		cmd.Env = append(os.Environ(), "TERM=xterm-256color", "KUBE_EDITOR="+editor, "EDITOR="+editor,
			"XDG_STATE_HOME="+home+"/state", "XDG_RUNTIME_DIR="+home+"/run", "KUBECACHEDIR="+home+"/cache")
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		stdin, err := cmd.StdinPipe()
		if err != nil {
			b.Fatal(err)
		}
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			b.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); _ = cmd.Wait() })
		out := newStream(stdout, true)
		_, at := out.await(b, 0, regexp.MustCompile(`apiVersion: `), 30*time.Second)
		if _, err := stdin.Write([]byte("e")); err != nil {
			b.Fatal(err)
		}
		_, at = out.await(b, at, regexp.MustCompile(`unsaved draft`), 30*time.Second)
		lat := make([]time.Duration, 0, b.N)
		b.ResetTimer()
		for range b.N {
			rv, returned := patchRV(b, kubectl, kc, ns, "live")
			var drawn time.Time
			drawn, at = out.await(b, at, regexp.MustCompile(`-> `+rv+` by `), 30*time.Second)
			lat = append(lat, max(0, drawn.Sub(returned)))
		}
		b.StopTimer()
		reportLatencies(b, lat)
	})

	b.Run("kubectl-get-w", func(b *testing.B) {
		cmd := exec.Command(kubectl, "--kubeconfig", kc, "-n", ns, "get", "configmap", "live", "-w",
			"-o", `jsonpath={.metadata.resourceVersion}{"\n"}`)
		cmd.Env = append(os.Environ(), "KUBECACHEDIR="+b.TempDir())
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			b.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
		out := newStream(stdout, false)
		_, at := out.await(b, 0, regexp.MustCompile(`\d+\n`), 30*time.Second)
		lat := make([]time.Duration, 0, b.N)
		b.ResetTimer()
		for range b.N {
			rv, returned := patchRV(b, kubectl, kc, ns, "live")
			var printed time.Time
			printed, at = out.await(b, at, regexp.MustCompile(`(?m)^`+rv+`$`), 30*time.Second)
			lat = append(lat, max(0, printed.Sub(returned)))
		}
		b.StopTimer()
		reportLatencies(b, lat)
	})
}
