package kube

import (
	"net/http"
	"strings"
	"testing"

	"k8s.io/client-go/rest"

	"github.com/kedit/kedit/kube/kubetest"
)

// TestLoadCheckSchemaCachedOnDisk: the schema of a kind for the check is
// read from the server once, then from the cache directory kubectl uses,
// by another kedit as well; and it checks a draft of the kind.
func TestLoadCheckSchemaCachedOnDisk(t *testing.T) {
	t.Parallel()
	kubeconfig := kubetest.Kubeconfig(t)
	cacheDir := t.TempDir()
	counter := &countingTransport{n: map[string]int{}}
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "deployment", "web", "--image=nginx")
	for run := 1; run <= 2; run++ {
		flags := &ConnFlags{KubeConfig: kubeconfig, CacheDir: cacheDir, WrapConfigFn: func(c *rest.Config) *rest.Config {
			c.Wrap(func(rt http.RoundTripper) http.RoundTripper { counter.rt = rt; return counter })
			return c
		}}
		target, err := Resolve(flags, "deployment", "web")
		if err != nil {
			t.Fatal(err)
		}
		s, err := LoadCheckSchema(flags, target)
		if err != nil {
			t.Fatalf("run %d: %v", run, err)
		}
		if n := counter.count("/openapi/v3/apis/apps/v1"); n != 1 {
			t.Errorf("after run %d the apps/v1 document was read from the server %d times, want once", run, n)
		}
		draft := kubetest.MustKubectl(t, "-n", ns, "get", "deployment", "web", "-o", "yaml")
		if ds := s.Check(draft); len(ds) > 0 {
			t.Fatalf("the live Deployment is flagged: %+v", ds)
		}
		typo := strings.Replace(draft, "imagePullPolicy:", "imagePullPolicyy:", 1)
		if ds := s.Check(typo); len(ds) != 1 || !strings.Contains(ds[0].Message, "did you mean imagePullPolicy?") {
			t.Fatalf("a mistyped field: %+v", ds)
		}
	}
}
