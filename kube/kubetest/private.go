package kubetest

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/kedit/kedit/internal/localproc"
)

// Cluster is a localcluster of one test's own. A test that stops, kills or
// restarts the API server takes one, so that the tests sharing the
// binary's cluster run on in parallel, undisturbed. It costs a start of
// the server (about 10 seconds here) and its memory, so only such tests
// should take one.
type Cluster struct {
	dir string
	// args are localcluster's flags besides --dir.
	args []string
	// auditLog is the audit log's path; empty without one.
	auditLog string
	// auditPolicy is the audit policy's text; empty for localcluster's.
	auditPolicy string

	mu   sync.Mutex
	proc *localproc.Process
	// kubeconfig stays valid across restarts: localcluster keeps its port
	// and credentials in dir.
	kubeconfig string
}

// ClusterOption changes how NewCluster starts its cluster.
type ClusterOption func(*Cluster)

// WithAuditLog makes the API server write its audit log (localcluster's
// default policy: writes at RequestResponse, reads at Metadata) to
// DIR/audit.log; AuditLog returns its path.
func WithAuditLog() ClusterOption {
	return func(c *Cluster) {
		c.auditLog = filepath.Join(c.dir, "audit.log")
		c.args = append(c.args, "--audit-log", c.auditLog)
	}
}

// WithAuditPolicy makes the API server log with policy (an
// audit.k8s.io/v1 Policy in YAML) instead of localcluster's default; it
// goes with WithAuditLog.
func WithAuditPolicy(policy string) ClusterOption {
	return func(c *Cluster) { c.auditPolicy = policy }
}

// NewCluster starts a cluster of t's own in a directory of its own, and
// stops it when t ends. It fails t when the server cannot be built or
// started; an external cluster (KEDIT_TEST_KUBECONFIG) cannot be given to
// one test alone, so it fails t as well.
func NewCluster(t testing.TB, opts ...ClusterOption) *Cluster {
	t.Helper()
	require(t)
	if env.dir == "" {
		t.Fatalf("a test of its own cluster cannot run against an external cluster (%s)", KubeconfigEnv)
	}
	dir, err := os.MkdirTemp("", "kedit-private-cluster-")
	if err != nil {
		t.Fatal(err)
	}
	c := &Cluster{dir: dir}
	for _, o := range opts {
		o(c)
	}
	if c.auditPolicy != "" {
		p := filepath.Join(dir, "test-audit-policy.yaml")
		if err := os.WriteFile(p, []byte(c.auditPolicy), 0o600); err != nil {
			t.Fatal(err)
		}
		c.args = append(c.args, "--audit-policy", p)
	}
	t.Cleanup(func() {
		c.mu.Lock()
		if c.proc != nil {
			c.proc.Stop()
			c.proc = nil
		}
		c.mu.Unlock()
		os.RemoveAll(dir)
	})
	c.Start(t)
	return c
}

// AuditLog is the path of the API server's audit log (WithAuditLog);
// empty without one.
func (c *Cluster) AuditLog() string { return c.auditLog }

// Dir is the cluster's --dir: etcd's data, certificates, tokens and logs.
func (c *Cluster) Dir() string { return c.dir }

// Kubeconfig is the admin kubeconfig; it stays valid across restarts.
func (c *Cluster) Kubeconfig() string { return c.kubeconfig }

// ViewerKubeconfig is the kubeconfig of a user with no RBAC rights.
func (c *Cluster) ViewerKubeconfig() string { return filepath.Join(c.dir, "kubeconfig-viewer") }

// Start starts the server on the cluster's directory, keeping its objects,
// port and credentials; it does nothing while the server runs.
func (c *Cluster) Start(t testing.TB) {
	t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.proc != nil {
		return
	}
	bin, err := Binary()
	if err != nil {
		t.Fatal(err)
	}
	p, err := localproc.Start(context.Background(), bin, c.dir, readyTimeout, c.args...)
	if err != nil {
		t.Fatalf("starting a cluster of the test's own: %v", err)
	}
	c.proc, c.kubeconfig = p, p.Kubeconfig
}

// Stop stops the server gracefully (SIGTERM) and waits for it to exit.
func (c *Cluster) Stop(t testing.TB) {
	t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.proc != nil {
		c.proc.Stop()
		c.proc = nil
	}
}

// Kill kills the server with SIGKILL, as a crash would (etcd is in the
// same process), and waits for it to exit.
func (c *Cluster) Kill(t testing.TB) {
	t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.proc != nil {
		c.proc.Kill()
		c.proc = nil
	}
}

// RESTConfig is a client configuration for the admin kubeconfig.
func (c *Cluster) RESTConfig(t testing.TB) *rest.Config {
	t.Helper()
	cfg, err := clientcmd.BuildConfigFromFlags("", c.kubeconfig)
	if err != nil {
		t.Fatalf("loading %s: %v", c.kubeconfig, err)
	}
	return cfg
}

// Dynamic is a dynamic client for the cluster.
func (c *Cluster) Dynamic(t testing.TB) dynamic.Interface {
	t.Helper()
	dc, err := dynamic.NewForConfig(c.RESTConfig(t))
	if err != nil {
		t.Fatal(err)
	}
	return dc
}

// Clientset is a typed client for the cluster.
func (c *Cluster) Clientset(t testing.TB) kubernetes.Interface {
	t.Helper()
	cs, err := kubernetes.NewForConfig(c.RESTConfig(t))
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

// Kubectl runs kubectl against the cluster and returns its combined output.
func (c *Cluster) Kubectl(t testing.TB, args ...string) (string, error) {
	t.Helper()
	return KubectlAs(t, c.kubeconfig, args...)
}

// MustKubectl is Kubectl that fails the test when kubectl fails.
func (c *Cluster) MustKubectl(t testing.TB, args ...string) string {
	t.Helper()
	out, err := c.Kubectl(t, args...)
	if err != nil {
		t.Fatalf("kubectl %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}
