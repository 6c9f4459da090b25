package localproc

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/kedit/kedit/internal/testwait"
)

// script writes an executable shell script standing in for localcluster.
func script(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "fake-localcluster")
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func alive(pid int) bool { return syscall.Kill(pid, 0) == nil }

func TestStartFailureSaysWhy(t *testing.T) {
	bin := script(t, "echo 'etcd: address already in use' >&2\nexit 1")
	_, err := Start(context.Background(), bin, t.TempDir(), 0)
	if err == nil {
		t.Fatal("a server that exits at once was reported as started")
	}
	for _, want := range []string{"exited before it was ready", "etcd: address already in use"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not contain %q", err, want)
		}
	}
}

func TestStartWaitsForReadyAndStopEnds(t *testing.T) {
	// --dir's value is $2; exec keeps one process to signal.
	bin := script(t, `echo "starting" >&2; echo "ready $2/kubeconfig"; exec sleep 300`)
	dir := t.TempDir()
	p, err := Start(context.Background(), bin, dir, 0)
	if err != nil {
		t.Fatal(err)
	}
	if p.Kubeconfig != dir+"/kubeconfig" {
		t.Errorf("kubeconfig %q", p.Kubeconfig)
	}
	// stderr is copied by a goroutine of its own: it may come after the
	// ready line.
	if !testwait.Until(10*time.Second, func() bool { return strings.Contains(p.stderr.String(), "starting") }) {
		t.Fatalf("stderr %q", p.stderr.String())
	}
	// Its own process group: a terminal's Ctrl-C reaches only the parent.
	if pgid, err := syscall.Getpgid(p.Pid()); err != nil || pgid != p.Pid() {
		t.Errorf("pgid %d (%v), want the process's own %d", pgid, err, p.Pid())
	}
	p.Stop()
	p.Stop() // twice is fine
	if alive(p.Pid()) {
		t.Errorf("process %d still runs after Stop", p.Pid())
	}
}

func TestStartGivesUp(t *testing.T) {
	bin := script(t, "exec sleep 300")
	start := time.Now()
	if _, err := Start(context.Background(), bin, t.TempDir(), 300*time.Millisecond); err == nil || !strings.Contains(err.Error(), "not ready after") {
		t.Errorf("Start = %v, want a timeout", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(200*time.Millisecond, cancel)
	if _, err := Start(ctx, bin, t.TempDir(), 0); err == nil || !strings.Contains(err.Error(), "context canceled") {
		t.Errorf("Start = %v, want the context's end", err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("giving up took %s", d)
	}
}
