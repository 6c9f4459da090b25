package kube

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kedit/kedit/kube/kubetest"
	"github.com/kedit/kedit/model"
)

// Blame against managedFields the real API server wrote: two managers,
// each owning its own items of the same associative lists (the case the
// kubectl-blame plugin gets wrong, knight42/kubectl-blame#20).

// applyFile runs kubectl with -f pointing at a file holding manifest.
func applyFile(t *testing.T, ns, manifest string, args ...string) {
	t.Helper()
	p := filepath.Join(t.TempDir(), "manifest.yaml")
	if err := os.WriteFile(p, []byte(manifest), 0o600); err != nil {
		t.Fatal(err)
	}
	kubetest.MustKubectl(t, append(append([]string{"-n", ns}, args...), "-f", p)...)
}

// blameLineOf returns the blame of the line of text starting with s (after
// its indentation and a list item's "- ") that comes after the line
// starting with after.
func blameLineOf(t *testing.T, text string, lines []model.BlameLine, after, s string) model.BlameLine {
	t.Helper()
	seen := after == ""
	for i, l := range strings.Split(text, "\n") {
		l = strings.TrimPrefix(strings.TrimSpace(l), "- ")
		if !seen {
			seen = strings.HasPrefix(l, after)
			continue
		}
		if strings.HasPrefix(l, s) {
			return lines[i]
		}
	}
	t.Fatalf("no line %q after %q in\n%s", s, after, text)
	return model.BlameLine{}
}

func lineOwner(l model.BlameLine) string {
	if len(l.Owners) == 0 {
		return ""
	}
	return l.Owners[0].Manager
}

func TestBlameTwoManagersOnTheServer(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	applyFile(t, ns, `
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 1
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: app
        image: nginx:1.27
        env:
        - {name: FROM_A, value: a}
`, "apply", "--field-manager=a")
	// b adds a container and an env entry to a's container, with a
	// strategic merge patch (merged by name).
	kubetest.MustKubectl(t, "-n", ns, "patch", "deployment", "web", "--field-manager=b", "--type=strategic", "-p",
		`{"spec":{"template":{"spec":{"containers":[{"name":"app","env":[{"name":"FROM_B","value":"b"}]},{"name":"sidecar","image":"envoyproxy/envoy:v1.31"}]}}}}`)
	applyFile(t, ns, `
apiVersion: v1
kind: Service
metadata:
  name: dns
spec:
  selector: {app: dns}
  ports:
  - {name: dns-tcp, port: 53, protocol: TCP}
`, "apply", "--server-side", "--field-manager=tcp-owner")
	// The same port number over UDP is another item of the list, keyed by
	// port and protocol.
	applyFile(t, ns, `
apiVersion: v1
kind: Service
metadata:
  name: dns
spec:
  ports:
  - {name: dns-udp, port: 53, protocol: UDP}
`, "apply", "--server-side", "--field-manager=udp-owner")

	dc := kubetest.Dynamic(t)
	get := func(gvr schema.GroupVersionResource, name string) *unstructured.Unstructured {
		obj, err := dc.Resource(gvr).Namespace(ns).Get(context.Background(), name, metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return obj
	}

	deploy := get(schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}, "web")
	text, err := model.RenderYAML(deploy)
	if err != nil {
		t.Fatal(err)
	}
	lines, err := model.Blame(deploy, text)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ after, line, want string }{
		{"name: FROM_A", "value: a", "a"},
		{"name: FROM_B", "value: b", "b"},
		{"", "image: nginx:1.27", "a"},
		{"", "image: envoyproxy/envoy:v1.31", "b"},
		{"image: envoyproxy/envoy:v1.31", "name: sidecar", "b"},
		{"image: nginx:1.27", "name: app", "a"},
	} {
		l := blameLineOf(t, text, lines, tc.after, tc.line)
		if got := lineOwner(l); got != tc.want {
			t.Errorf("deployment: %q blamed on %q, want %q (path %s)", tc.line, got, tc.want, l.Path)
		}
	}
	// The server defaulted imagePullPolicy in both containers: each is
	// shown as its own container's.
	var pulls []string
	for i, l := range strings.Split(text, "\n") {
		if strings.Contains(l, "imagePullPolicy") {
			pulls = append(pulls, lineOwner(lines[i]))
		}
	}
	if strings.Join(pulls, ",") != "a,b" {
		t.Errorf("imagePullPolicy lines blamed on %v, want a then b", pulls)
	}

	svc := get(schema.GroupVersionResource{Version: "v1", Resource: "services"}, "dns")
	text, err = model.RenderYAML(svc)
	if err != nil {
		t.Fatal(err)
	}
	if lines, err = model.Blame(svc, text); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ line, want string }{
		{"name: dns-tcp", "tcp-owner"},
		{"name: dns-udp", "udp-owner"},
		{"protocol: UDP", "udp-owner"},
	} {
		if got := lineOwner(blameLineOf(t, text, lines, "", tc.line)); got != tc.want {
			t.Errorf("service: %q blamed on %q, want %q", tc.line, got, tc.want)
		}
	}
}
