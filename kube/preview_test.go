package kube

import (
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kedit/kedit/kube/kubetest"
	"github.com/kedit/kedit/model"
)

// The preview (p) through the engine against the real API server: the
// draft's save sent with dryRun=All with each strategy. What the server
// would store carries its defaults, and nothing is written.

// resourceVersionOf reads the object's resourceVersion with kubectl, a
// client of its own.
func resourceVersionOf(t *testing.T, ns, typ, name string) string {
	t.Helper()
	return strings.TrimSpace(kubetest.MustKubectl(t, "-n", ns, "get", typ, name, "-o", "jsonpath={.metadata.resourceVersion}"))
}

// previewOf asks the engine's session for a dry run of its draft and
// returns the answer.
func previewOf(t *testing.T, e *engine) model.DryRunResult {
	t.Helper()
	if err := e.handle(model.PreviewRequested{}); err != nil {
		t.Fatalf("PreviewRequested: %v", err)
	}
	p, ok := e.session.Preview()
	if !ok {
		t.Fatal("no answer to the dry run")
	}
	return p
}

func TestEnginePreviewShowsTheServersDefaults(t *testing.T) {
	t.Parallel()
	for _, strategy := range Strategies {
		t.Run(string(strategy), func(t *testing.T) {
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
      - {name: app, image: "nginx:1.27"}
`, "apply", "--server-side", "--field-manager=deployer")
			before := resourceVersionOf(t, ns, "deployment", "web")
			e := newEngineFor(t, ns, "deployment", "web", strategy)
			// A sidecar with only a name and an image: the server defaults
			// the rest.
			e.editDraft("      containers:\n", "      containers:\n      - image: envoyproxy/envoy:v1.31\n        name: sidecar\n")
			p := previewOf(t, e)
			if p.Err != nil {
				t.Fatalf("the dry run was refused: %v", p.Err)
			}
			var sidecar map[string]any
			containers, _, _ := unstructured.NestedSlice(p.Object.Object, "spec", "template", "spec", "containers")
			for _, c := range containers {
				if c, _ := c.(map[string]any); c["name"] == "sidecar" {
					sidecar = c
				}
			}
			if sidecar["imagePullPolicy"] != "IfNotPresent" || sidecar["terminationMessagePath"] != "/dev/termination-log" {
				t.Errorf("the dry run's sidecar has no defaults: %v", sidecar)
			}
			if got := p.Object.GetResourceVersion(); got != before {
				t.Errorf("the dry run's object is at rv %s, want the unchanged %s", got, before)
			}
			if after := resourceVersionOf(t, ns, "deployment", "web"); after != before {
				t.Errorf("the object moved from rv %s to %s: the dry run wrote", before, after)
			}
			out := kubetest.MustKubectl(t, "-n", ns, "get", "deployment", "web", "-o", "jsonpath={.spec.template.spec.containers[*].name}")
			if strings.TrimSpace(out) != "app" {
				t.Errorf("containers on the server: %q, want only app", out)
			}
			// The draft is as typed: the defaults are the preview's only.
			if d := e.session.Draft(); d == nil || strings.Contains(d.Text, "imagePullPolicy: IfNotPresent\n        name: sidecar") {
				t.Errorf("the draft took the server's defaults: %+v", d)
			}
		})
	}
}

func TestEnginePreviewOfARemovedDefaultAndOfARefusal(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "service", "clusterip", "web", "--tcp=80:8080")
	before := resourceVersionOf(t, ns, "service", "web")
	e := newEngineFor(t, ns, "service", "web", StrategyUpdate)
	// The draft leaves sessionAffinity out: a PUT without it gets the
	// default back.
	e.editDraft("  sessionAffinity: None\n", "")
	p := previewOf(t, e)
	if p.Err != nil {
		t.Fatalf("the dry run was refused: %v", p.Err)
	}
	if v, _, _ := unstructured.NestedString(p.Object.Object, "spec", "sessionAffinity"); v != "None" {
		t.Errorf("the dry run's sessionAffinity is %q, want the default None", v)
	}
	// An invalid draft: the server's causes, and still nothing written.
	e.editDraft("  type: ClusterIP\n", "  type: Sideways\n")
	p = previewOf(t, e)
	if model.KindOf(p.Err) != model.ErrorInvalid || len(model.CausesOf(p.Err)) == 0 || model.CausesOf(p.Err)[0].Field != "spec.type" {
		t.Errorf("an invalid type's dry run: %v, causes %+v", p.Err, model.CausesOf(p.Err))
	}
	if after := resourceVersionOf(t, ns, "service", "web"); after != before {
		t.Errorf("the object moved from rv %s to %s: a dry run wrote", before, after)
	}
}
