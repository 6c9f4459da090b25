// Command localcluster runs a real Kubernetes API server over an embedded
// etcd, both in this one process and both on loopback, for kedit's
// integration tests and its demo.
//
//	localcluster --dir DIR [--port N] [--kubeconfig-out FILE] [--audit-log FILE [--audit-policy FILE]]
//
// DIR keeps etcd's data, the certificates, keys and tokens, and the ports in
// use, so that a cluster started again on the same DIR keeps every object and
// its address. Once /readyz answers ok, localcluster writes an admin
// kubeconfig (default DIR/kubeconfig) and a kubeconfig for a user with no
// RBAC rights (DIR/kubeconfig-viewer), then prints exactly one line,
// `ready <absolute kubeconfig path>`, on stdout. It serves until SIGTERM or
// SIGINT. The API server's and etcd's logs go to files in DIR.
//
// --audit-log FILE writes the API server's audit log to FILE, one
// audit.k8s.io/v1 Event JSON line each, with a policy that records writes
// (create, update, patch, delete) at RequestResponse and reads (get, list,
// watch) at Metadata, and leaves out Events, Leases and the server's own
// health checks; --audit-policy FILE takes another policy.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"
)

// shutdownGrace bounds a clean shutdown; the contract is an exit within 10
// seconds of the signal.
const shutdownGrace = 8 * time.Second

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("localcluster", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dir := fs.String("dir", "", "directory for etcd data, certificates, tokens and logs (required)")
	port := fs.Int("port", 0, "API server port on 127.0.0.1; 0 reuses DIR's previous port, else picks a free one")
	kubeconfigOut := fs.String("kubeconfig-out", "", "where to write the admin kubeconfig (default DIR/kubeconfig)")
	auditLog := fs.String("audit-log", "", "write the API server's audit log to `FILE` (JSON lines): writes at RequestResponse, reads at Metadata")
	auditPolicy := fs.String("audit-policy", "", "the audit policy `FILE` for --audit-log, instead of the default")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: localcluster --dir DIR [--port N] [--kubeconfig-out FILE] [--audit-log FILE [--audit-policy FILE]]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if *dir == "" || fs.NArg() > 0 {
		fs.Usage()
		return 2
	}
	if *port < 0 || *port > 65535 {
		fmt.Fprintf(stderr, "localcluster: --port %d is not a TCP port\n", *port)
		return 2
	}

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()

	if *auditPolicy != "" && *auditLog == "" {
		fmt.Fprintln(stderr, "localcluster: --audit-policy needs --audit-log")
		return 2
	}
	c, err := newCluster(*dir, *port, *kubeconfigOut)
	if err != nil {
		fmt.Fprintf(stderr, "localcluster: %v\n", err)
		return 1
	}
	if err := c.setAudit(*auditLog, *auditPolicy); err != nil {
		fmt.Fprintf(stderr, "localcluster: %v\n", err)
		return 1
	}
	started := time.Now()
	if err := c.start(ctx); err != nil {
		fmt.Fprintf(stderr, "localcluster: %v\n", err)
		c.stop()
		return 1
	}
	fmt.Fprintf(stderr, "localcluster: API server ready on %s in %.1fs\n", c.serverURL(), time.Since(started).Seconds())
	fmt.Fprintf(stdout, "ready %s\n", c.kubeconfigPath)

	select {
	case <-ctx.Done():
	case err := <-c.apiserverDone:
		// The API server stopped by itself: that is a failure to report.
		fmt.Fprintf(stderr, "localcluster: API server stopped: %v (see %s)\n", err, filepath.Join(c.dir, apiserverLog))
		c.stop()
		return 1
	}
	stop() // a second signal now kills the process the default way

	done := make(chan struct{})
	go func() {
		c.stop()
		close(done)
	}()
	select {
	case <-done:
		return 0
	case <-time.After(shutdownGrace):
		fmt.Fprintf(stderr, "localcluster: shutdown took longer than %s; exiting anyway\n", shutdownGrace)
		return 0
	}
}
