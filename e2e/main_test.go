package e2e

import (
	"testing"

	"github.com/kedit/kedit/kube/kubetest"
)

// One API server for the whole package, shared by its parallel tests.
func TestMain(m *testing.M) { kubetest.Main(m) }
