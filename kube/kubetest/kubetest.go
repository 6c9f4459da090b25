// Package kubetest runs kedit's integration tests against a real Kubernetes
// API server: the project's localcluster (kube-apiserver over etcd, on
// loopback), built once per machine and started once per test binary.
//
// A test package calls Main from TestMain; each test then takes its own
// namespace with Namespace and talks to the server through Kubeconfig,
// RESTConfig, Clientset or Kubectl. When KEDIT_TEST_KUBECONFIG names a
// kubeconfig, that cluster is used instead of starting one. Only
// `go test -short` leaves integration tests out; a server that cannot be
// built or started fails every integration test with the reason.
package kubetest

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/kedit/kedit/internal/localproc"
)

// KubeconfigEnv names a kubeconfig of an existing cluster to test against
// instead of starting localcluster.
const KubeconfigEnv = "KEDIT_TEST_KUBECONFIG"

// readyTimeout bounds a localcluster start; it is ready in about 10 seconds
// here, but a loaded CI machine may be much slower.
const readyTimeout = 3 * time.Minute

// env is the cluster shared by the tests of one binary.
var env struct {
	mu         sync.Mutex
	err        error // why there is no cluster
	kubeconfig string
	viewer     string // kubeconfig of the user with no RBAC rights; "" for an external cluster
	dir        string // localcluster's --dir; "" for an external cluster
	proc       *localproc.Process
}

// Main starts the cluster, runs the tests and stops the cluster, also when
// tests fail. Call it from TestMain:
//
//	func TestMain(m *testing.M) { kubetest.Main(m) }
func Main(m *testing.M) {
	flag.Parse()
	os.Exit(run(m))
}

func run(m *testing.M) int {
	if testing.Short() {
		return m.Run()
	}
	if kc := os.Getenv(KubeconfigEnv); kc != "" {
		env.kubeconfig = kc
		return m.Run()
	}
	dir, err := os.MkdirTemp("", "kedit-localcluster-")
	if err != nil {
		env.err = err
		return m.Run()
	}
	defer os.RemoveAll(dir)
	env.dir = dir
	env.err = startCluster()
	defer stopCluster()
	return m.Run()
}

func startCluster() error {
	bin, err := Binary()
	if err != nil {
		return err
	}
	p, err := localproc.Start(context.Background(), bin, env.dir, readyTimeout)
	if err != nil {
		return err
	}
	env.proc = p
	env.kubeconfig = p.Kubeconfig
	env.viewer = filepath.Join(env.dir, "kubeconfig-viewer")
	return nil
}

func stopCluster() {
	if env.proc != nil {
		env.proc.Stop()
		env.proc = nil
	}
}

// require skips in -short mode and fails the test when there is no cluster.
func require(t testing.TB) {
	t.Helper()
	if testing.Short() {
		t.Skip("integration test: needs a real API server; not run with -short")
	}
	env.mu.Lock()
	defer env.mu.Unlock()
	if env.err != nil {
		t.Fatalf("no API server for integration tests: %v", env.err)
	}
	if env.kubeconfig == "" {
		t.Fatal("kubetest: the test binary has no TestMain calling kubetest.Main")
	}
}

// Kubeconfig returns the path of an admin kubeconfig for the test cluster.
func Kubeconfig(t testing.TB) string {
	t.Helper()
	require(t)
	return env.kubeconfig
}

// ViewerKubeconfig returns a kubeconfig for a user with no RBAC rights, to
// see what forbidden requests look like. Tests against an external cluster
// (KEDIT_TEST_KUBECONFIG) have none and fail.
func ViewerKubeconfig(t testing.TB) string {
	t.Helper()
	require(t)
	if env.viewer == "" {
		t.Fatalf("no viewer kubeconfig: %s names an external cluster", KubeconfigEnv)
	}
	return env.viewer
}

// RESTConfig returns a client configuration for the admin kubeconfig.
func RESTConfig(t testing.TB) *rest.Config {
	t.Helper()
	cfg, err := clientcmd.BuildConfigFromFlags("", Kubeconfig(t))
	if err != nil {
		t.Fatalf("loading %s: %v", env.kubeconfig, err)
	}
	return cfg
}

// Clientset returns a typed client for the test cluster.
func Clientset(t testing.TB) kubernetes.Interface {
	t.Helper()
	cs, err := kubernetes.NewForConfig(RESTConfig(t))
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

// Dynamic returns a dynamic client for the test cluster.
func Dynamic(t testing.TB) dynamic.Interface {
	t.Helper()
	dc, err := dynamic.NewForConfig(RESTConfig(t))
	if err != nil {
		t.Fatal(err)
	}
	return dc
}

var nonDNS = regexp.MustCompile(`[^a-z0-9]+`)

// Namespace creates a namespace of the test's own, named after it, and
// deletes it when the test ends.
func Namespace(t testing.TB) string {
	t.Helper()
	cs := Clientset(t)
	base := strings.Trim(nonDNS.ReplaceAllString(strings.ToLower(t.Name()), "-"), "-")
	if len(base) > 40 {
		base = strings.Trim(base[:40], "-")
	}
	suffix := make([]byte, 3)
	_, _ = rand.Read(suffix)
	name := base + "-" + hex.EncodeToString(suffix)

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}
	if _, err := cs.CoreV1().Namespaces().Create(ctx, ns, metav1.CreateOptions{}); err != nil {
		t.Fatalf("creating namespace %s: %v", name, err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		// No namespace controller runs in localcluster, so the namespace
		// stays Terminating; what matters is that no later test reuses it.
		_ = cs.CoreV1().Namespaces().Delete(ctx, name, metav1.DeleteOptions{})
	})
	return name
}

// Kubectl runs kubectl against the test cluster, as a user would, and
// returns its combined output. It does not fail the test; see MustKubectl.
func Kubectl(t testing.TB, args ...string) (string, error) {
	t.Helper()
	return KubectlAs(t, Kubeconfig(t), args...)
}

// KubectlAs runs kubectl with the given kubeconfig.
func KubectlAs(t testing.TB, kubeconfig string, args ...string) (string, error) {
	t.Helper()
	return kubectl(kubeconfig, "", args...)
}

// kubectl runs kubectl with the given kubeconfig and stdin.
func kubectl(kubeconfig, stdin string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "kubectl", append([]string{"--kubeconfig", kubeconfig}, args...)...)
	// Keep kubectl's discovery cache out of the user's home.
	cmd.Env = append(os.Environ(), "KUBECACHEDIR="+filepath.Join(os.TempDir(), "kedit-test-kubecache"))
	cmd.Stdin = strings.NewReader(stdin)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.String(), err
}

// MustKubectl is Kubectl that fails the test when kubectl fails.
func MustKubectl(t testing.TB, args ...string) string {
	t.Helper()
	out, err := Kubectl(t, args...)
	if err != nil {
		t.Fatalf("kubectl %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

// KubectlStdin is Kubectl with stdin: it does not fail the test, for a
// command whose refusal is what the test reads.
func KubectlStdin(t testing.TB, stdin string, args ...string) (string, error) {
	t.Helper()
	return kubectl(Kubeconfig(t), stdin, args...)
}

// MustKubectlStdin is MustKubectl with stdin: a manifest for
// "create -f -", say.
func MustKubectlStdin(t testing.TB, stdin string, args ...string) string {
	t.Helper()
	out, err := KubectlStdin(t, stdin, args...)
	if err != nil {
		t.Fatalf("kubectl %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

// Restart stops the API server and starts it again on the same directory,
// port and credentials, so clients keep their kubeconfig. Tests that call it
// must not run in parallel with others in the same binary.
func Restart(t testing.TB) {
	t.Helper()
	require(t)
	if env.dir == "" {
		t.Fatalf("cannot restart an external cluster (%s)", KubeconfigEnv)
	}
	env.mu.Lock()
	defer env.mu.Unlock()
	stopCluster()
	if err := startCluster(); err != nil {
		env.err = err
		t.Fatalf("restarting the API server: %v", err)
	}
}

// StopServer stops the API server without starting it again; StartServer
// brings it back. Between the two, requests fail as against a server that
// went away.
func StopServer(t testing.TB) {
	t.Helper()
	require(t)
	if env.dir == "" {
		t.Fatalf("cannot stop an external cluster (%s)", KubeconfigEnv)
	}
	env.mu.Lock()
	defer env.mu.Unlock()
	stopCluster()
}

// StartServer starts the API server again after StopServer.
func StartServer(t testing.TB) {
	t.Helper()
	env.mu.Lock()
	defer env.mu.Unlock()
	if env.proc != nil {
		return
	}
	if err := startCluster(); err != nil {
		env.err = err
		t.Fatalf("starting the API server again: %v", err)
	}
}
