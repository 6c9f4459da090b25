package ui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kedit/kedit/model"
)

// openObject opens obj in an app of the given size.
func openObject(t *testing.T, r model.ObjectRef, obj *unstructured.Unstructured) App {
	t.Helper()
	sess := model.NewSession(r)
	if _, _, err := sess.Handle(model.Opened{Object: obj, At: t0}); err != nil {
		t.Fatal(err)
	}
	return drive(t, New(Config{Object: &Object{Session: sess, Runner: &fakeRunner{server: obj.DeepCopy()}}}), tea.WindowSizeMsg{Width: 120, Height: 40})
}

// changedLines are the + and - lines the object view's body shows.
func changedLines(m App) []string {
	var out []string
	for _, l := range strings.Split(plain(m), "\n") {
		if strings.HasPrefix(l, "+ ") || strings.HasPrefix(l, "- ") {
			out = append(out, strings.TrimRight(l, " "))
		}
	}
	return out
}

// TestDraftDiffShowsOnlyTheDraftsChange: d compares the draft with base
// rendered as the draft's text was made from it, so what the object view
// hides (status, empty or not) is no change of the draft's.
func TestDraftDiffShowsOnlyTheDraftsChange(t *testing.T) {
	deployRef := model.ObjectRef{Resource: schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"},
		Kind: "Deployment", Namespace: "default", Name: "web"}
	svcRef := model.ObjectRef{Resource: schema.GroupVersionResource{Version: "v1", Resource: "services"},
		Kind: "Service", Namespace: "default", Name: "web"}
	meta := func(name string) map[string]any {
		return map[string]any{"name": name, "namespace": "default", "resourceVersion": "812", "uid": "u-1"}
	}
	deployment := func(status map[string]any) *unstructured.Unstructured {
		return &unstructured.Unstructured{Object: map[string]any{
			"apiVersion": "apps/v1", "kind": "Deployment", "metadata": meta("web"),
			"spec": map[string]any{"replicas": int64(1), "selector": map[string]any{"matchLabels": map[string]any{"app": "web"}},
				"template": map[string]any{"metadata": map[string]any{"labels": map[string]any{"app": "web"}},
					"spec": map[string]any{"containers": []any{map[string]any{"name": "web", "image": "nginx"}}}}},
			"status": status,
		}}
	}
	cases := []struct {
		name     string
		ref      model.ObjectRef
		obj      *unstructured.Unstructured
		old, new string
		want     []string
	}{
		{"deployment with an empty status", deployRef, deployment(map[string]any{}),
			"replicas: 1", "replicas: 3", []string{"-   replicas: 1", "+   replicas: 3"}},
		{"deployment with a controller's status", deployRef,
			deployment(map[string]any{"replicas": int64(1), "readyReplicas": int64(1), "observedGeneration": int64(4)}),
			"replicas: 1\n  selector", "replicas: 3\n  selector", []string{"-   replicas: 1", "+   replicas: 3"}},
		{"service", svcRef, &unstructured.Unstructured{Object: map[string]any{
			"apiVersion": "v1", "kind": "Service", "metadata": meta("web"),
			"spec":   map[string]any{"ports": []any{map[string]any{"port": int64(80), "protocol": "TCP"}}, "type": "ClusterIP"},
			"status": map[string]any{"loadBalancer": map[string]any{}},
		}}, "port: 80", "port: 8080", []string{"-   - port: 80", "+   - port: 8080"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := openObject(t, c.ref, c.obj)
			m = edit(t, m, c.old, c.new)
			m = drive(t, m, keyMsg("d"))
			if got := changedLines(m); strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("d shows\n%s\nwant only\n%s\nscreen:\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"), plain(m))
			}
		})
	}
}
