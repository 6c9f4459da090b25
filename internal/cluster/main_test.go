package cluster

import (
	"testing"

	"github.com/kedit/kedit/kube/kubetest"
)

func TestMain(m *testing.M) { kubetest.Main(m) }
