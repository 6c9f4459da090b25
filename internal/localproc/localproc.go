// Package localproc starts and stops a localcluster process (the project's
// real kube-apiserver over etcd) and waits for its `ready <kubeconfig>`
// line. The integration tests' harness (kube/kubetest) and `kedit demo`
// both run their cluster through it.
package localproc

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"time"
)

// ReadyTimeout bounds a start by default: the server is ready in about 10
// seconds here, but a loaded CI machine may be much slower.
const ReadyTimeout = 3 * time.Minute

// stopGrace is how long Stop waits after SIGTERM before it kills;
// localcluster promises to exit within 10 seconds of the signal.
const stopGrace = 15 * time.Second

// Process is a running localcluster.
type Process struct {
	// Kubeconfig is the admin kubeconfig the cluster wrote.
	Kubeconfig string

	cmd    *exec.Cmd
	stderr *LockedBuffer
	exited chan struct{}
	once   sync.Once
}

// Start runs bin --dir dir, with args after it (--audit-log FILE ...), and
// returns once the cluster says it is ready, or fails with its stderr when
// it exits first or is not ready within timeout (0 means ReadyTimeout).
// ctx ending also stops the start.
//
// The cluster gets a process group of its own, so that a Ctrl-C typed at
// the terminal reaches only the parent, which then stops it cleanly; and it
// is sent SIGTERM by the kernel if the parent dies without stopping it (a
// crash, a SIGKILL), so it never outlives its parent.
func Start(ctx context.Context, bin, dir string, timeout time.Duration, args ...string) (*Process, error) {
	if timeout == 0 {
		timeout = ReadyTimeout
	}
	cmd := exec.Command(bin, append([]string{"--dir", dir}, args...)...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGTERM}
	p := &Process{cmd: cmd, stderr: &LockedBuffer{}, exited: make(chan struct{})}
	cmd.Stderr = p.stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	// Pdeathsig fires when the thread that started the child exits; keep
	// this goroutine on its thread until the child is running.
	runtime.LockOSThread()
	err = cmd.Start()
	runtime.UnlockOSThread()
	if err != nil {
		return nil, fmt.Errorf("starting %s: %w", bin, err)
	}
	ready := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if path, ok := strings.CutPrefix(sc.Text(), "ready "); ok {
				select {
				case ready <- path:
				default:
				}
			}
		}
		_ = cmd.Wait()
		close(p.exited)
	}()
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case p.Kubeconfig = <-ready:
		return p, nil
	case <-p.exited:
		return nil, fmt.Errorf("localcluster exited before it was ready: %s\n%s", cmd.ProcessState, p.stderr)
	case <-timer.C:
		p.Stop()
		return nil, fmt.Errorf("localcluster not ready after %s; stderr:\n%s", timeout, p.stderr)
	case <-ctx.Done():
		p.Stop()
		return nil, fmt.Errorf("starting localcluster: %w", ctx.Err())
	}
}

// Pid returns the cluster's process id.
func (p *Process) Pid() int { return p.cmd.Process.Pid }

// Stop sends SIGTERM, kills the process if it has not exited after the
// grace period, and returns once it has exited. It is safe to call more
// than once.
func (p *Process) Stop() {
	p.once.Do(func() {
		_ = p.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-p.exited:
		case <-time.After(stopGrace):
			_ = p.cmd.Process.Kill()
			<-p.exited
		}
	})
	<-p.exited
}

// Kill ends the process at once with SIGKILL, as a crash or the OOM killer
// would, and returns once it has exited: nothing is flushed or closed
// cleanly. It is safe to call more than once, and after Stop.
func (p *Process) Kill() {
	p.once.Do(func() {
		_ = p.cmd.Process.Kill()
	})
	<-p.exited
}

// LockedBuffer is a process's output as it writes it, read while it
// runs: a bytes.Buffer behind a lock.
type LockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *LockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *LockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
