package source

import (
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// TestWhatTheClusterSetsIsNeverWritten: a live Service carries what the
// cluster set (its clusterIP, a port's nodePort, last-applied-configuration,
// the server's metadata, a status); a draft that changes a port, a label
// and the last-applied annotation writes the port and the label, the port
// without its nodePort, and says what it left out.
func TestWhatTheClusterSetsIsNeverWritten(t *testing.T) {
	t.Parallel()
	const svc = "apiVersion: v1\nkind: Service\nmetadata:\n  name: web # the service\n  namespace: default\nspec:\n  type: NodePort\n  selector:\n    app: web\n  ports:\n  - port: 80 # http\n    protocol: TCP\n    targetPort: 8080\n"
	dir := writeLayout(t, map[string]string{"apps/svc.yaml": svc})
	ref := Ref{Kind: "Service", Namespace: "default", Name: "web"}
	src, err := Find(dir, ref, Hints{})
	if err != nil {
		t.Fatal(err)
	}
	live := &unstructured.Unstructured{}
	f, _ := readYAMLFile("svc.yaml", []byte(svc))
	live.Object, _ = jsonObject(docMaps(f)[0])
	live.SetResourceVersion("41")
	live.SetUID("0f6c6a36")
	live.SetAnnotations(map[string]string{"kubectl.kubernetes.io/last-applied-configuration": `{"kind":"Service"}`})
	spec := live.Object["spec"].(map[string]any)
	spec["clusterIP"], spec["clusterIPs"] = "10.96.0.17", []any{"10.96.0.17"}
	spec["ports"].([]any)[0].(map[string]any)["nodePort"] = int64(30080)
	live.Object["status"] = map[string]any{"loadBalancer": map[string]any{}}
	mine := live.DeepCopy()
	mine.SetAnnotations(map[string]string{"kubectl.kubernetes.io/last-applied-configuration": `{"kind":"Service","v":2}`})
	mine.SetLabels(map[string]string{"tier": "web"})
	mine.Object["spec"].(map[string]any)["ports"].([]any)[0].(map[string]any)["port"] = int64(8080)
	e, err := Plan(src, live, mine)
	if err != nil {
		t.Fatal(err)
	}
	got := string(e.Files[0].New)
	for _, bad := range []string{"clusterIP", "nodePort", "30080", "last-applied", "resourceVersion", "status"} {
		if strings.Contains(got, bad) {
			t.Errorf("the file got %s:\n%s", bad, got)
		}
	}
	for _, want := range []string{"  - port: 8080", "    tier: web\n", "name: web # the service"} {
		if !strings.Contains(got, want) {
			t.Errorf("the file lacks %q:\n%s", want, got)
		}
	}
	if len(e.Notes) != 1 || !strings.Contains(e.Notes[0], `.metadata.annotations.kubectl.kubernetes.io/last-applied-configuration (written by kubectl apply)`) ||
		!strings.Contains(e.Notes[0], "nodePort (allocated by the cluster)") {
		t.Errorf("notes: %q", e.Notes)
	}
	// A draft that changes only what the cluster sets changes nothing of
	// the source, and says why.
	only := live.DeepCopy()
	only.SetAnnotations(map[string]string{"kubectl.kubernetes.io/last-applied-configuration": "{}"})
	if _, err := Plan(src, live, only); err == nil || !strings.Contains(err.Error(), "left out of the source, as the cluster sets them") {
		t.Errorf("only the cluster's fields: %v", err)
	}
}
