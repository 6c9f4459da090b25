package main

import (
	"testing"

	"github.com/kedit/kedit/kube/kubetest"
)

// The commands' tests run kedit's root command in the test's process,
// against a real API server where the command reads the cluster: its
// flags, its exit statuses and what it says on stderr. What the commands
// open for the app is internal/cluster's, tested there.

func TestMain(m *testing.M) { kubetest.Main(m) }

// setEnv points kedit at the test cluster's namespace, with its discovery
// cache out of the user's home.
func setEnv(t *testing.T) (ns string, args []string) {
	t.Helper()
	ns = kubetest.Namespace(t)
	t.Setenv("KUBECACHEDIR", t.TempDir())
	return ns, []string{"--kubeconfig", kubetest.Kubeconfig(t), "-n", ns}
}
