package kube

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"k8s.io/client-go/rest"

	"github.com/kedit/kedit/internal/testwait"
	"github.com/kedit/kedit/kube/kubetest"
)

// countingTransport counts the requests that reach the server, by path.
type countingTransport struct {
	rt http.RoundTripper
	mu sync.Mutex
	n  map[string]int
}

func (c *countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	c.mu.Lock()
	c.n[r.URL.Path]++
	c.mu.Unlock()
	return c.rt.RoundTrip(r)
}

func (c *countingTransport) count(prefix string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for p, k := range c.n {
		if strings.HasPrefix(p, prefix) {
			n += k
		}
	}
	return n
}

// TestLoadSchemasCachedOnDisk: the server's schema of a group-version is
// read once, then served from the cache directory kubectl uses, until the
// schema changes.
func TestLoadSchemasCachedOnDisk(t *testing.T) {
	t.Parallel()
	kubeconfig := kubetest.Kubeconfig(t)
	cacheDir := t.TempDir()
	counter := &countingTransport{n: map[string]int{}}
	newFlags := func() *ConnFlags {
		return &ConnFlags{KubeConfig: kubeconfig, CacheDir: cacheDir, WrapConfigFn: func(c *rest.Config) *rest.Config {
			c.Wrap(func(rt http.RoundTripper) http.RoundTripper { counter.rt = rt; return counter })
			return c
		}}
	}
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=1")
	for run := 1; run <= 2; run++ {
		flags := newFlags()
		target, err := Resolve(flags, "configmap", "testmap")
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		tc, err := LoadSchemas(flags, target)
		if err != nil {
			t.Fatalf("run %d: %v", run, err)
		}
		t.Logf("run %d: schemas of %s in %s", run, target.Mapping.GroupVersionKind.GroupVersion(), time.Since(start))
		if tc == nil {
			t.Fatal("no schemas")
		}
		if n := counter.count("/openapi/v3/api/v1"); n != 1 {
			t.Errorf("after run %d the core/v1 document was read from the server %d times, want once", run, n)
		}
	}
	if _, err := os.Stat(filepath.Join(cacheDir, "http")); err != nil {
		t.Errorf("nothing cached in %s: %v", cacheDir, err)
	}

	// A custom resource's schema is read again once its CRD changes.
	crd := func(extra string) string {
		return kubetest.CRD("cache.kedit.example.com", "sprockets", "sprocket", "Sprocket", "properties:\n  size: {type: integer}"+extra)
	}
	dir := t.TempDir()
	apply := func(body string) {
		p := filepath.Join(dir, "crd.yaml")
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		kubetest.MustKubectl(t, "apply", "-f", p)
		kubetest.MustKubectl(t, "wait", "--for=condition=Established", "crd/sprockets.cache.kedit.example.com", "--timeout=60s")
	}
	apply(crd(""))
	t.Cleanup(func() {
		_, _ = kubetest.Kubectl(t, "delete", "crd", "sprockets.cache.kedit.example.com", "--wait=false")
	})
	sprocket := func(field string) *unstructured.Unstructured {
		return &unstructured.Unstructured{Object: map[string]any{
			"apiVersion": "cache.kedit.example.com/v1", "kind": "Sprocket",
			"metadata": map[string]any{"name": "s", "namespace": ns},
			"spec":     map[string]any{field: int64(1)},
		}}
	}
	target := &Target{Name: "s", Namespace: ns, Mapping: &meta.RESTMapping{
		GroupVersionKind: schema.GroupVersionKind{Group: "cache.kedit.example.com", Version: "v1", Kind: "Sprocket"},
	}}
	// load reads the schema until it types obj: the server publishes a
	// changed CRD's schema a moment after the change.
	load := func(obj *unstructured.Unstructured) {
		t.Helper()
		var err error
		if !testwait.Until(60*time.Second, func() bool {
			var tc managedfields.TypeConverter
			if tc, err = LoadSchemas(newFlags(), target); err == nil {
				_, err = tc.ObjectToTyped(obj)
			}
			return err == nil
		}) {
			t.Fatalf("the schema never took %v: %v", obj.Object, err)
		}
	}
	const doc = "/openapi/v3/apis/cache.kedit.example.com/v1"
	load(sprocket("size"))
	before := counter.count(doc)
	load(sprocket("size"))
	if n := counter.count(doc); n != before {
		t.Errorf("an unchanged CRD's schema was read from the server again (%d, then %d)", before, n)
	}
	apply(crd("\n  teeth: {type: integer}"))
	load(sprocket("teeth"))
	if n := counter.count(doc); n == before {
		t.Error("the changed CRD's schema was not read again")
	}
}

func TestBuiltinKind(t *testing.T) {
	for gvk, want := range map[schema.GroupVersionKind]bool{
		{Version: "v1", Kind: "ConfigMap"}:                          true,
		{Group: "apps", Version: "v1", Kind: "Deployment"}:          true,
		{Group: "example.com", Version: "v1", Kind: "Widget"}:       false,
		{Group: "apps", Version: "v1beta9", Kind: "Deployment"}:     false,
		{Group: "metrics.k8s.io", Version: "v1beta1", Kind: "Node"}: false,
	} {
		tg := &Target{Mapping: &meta.RESTMapping{GroupVersionKind: gvk}}
		if got := BuiltinKind(tg); got != want {
			t.Errorf("BuiltinKind(%s) = %v, want %v", gvk, got, want)
		}
	}
}
