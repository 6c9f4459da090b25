package kubetest

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/kedit/kedit/internal/testwait"
)

// The objects the tests of several packages start from, so that a
// scenario is set up once: kedit's custom resources, and many large
// ConfigMaps.

// WidgetCRDs are the custom resources the tests of every layer edit
// (group kedit.example.com): Widget (widgets, short name wdg), whose
// spec.parts is a list of type map keyed by name, so that a merge takes
// it part by part and server-side apply knows each field; and Gadget
// (gadgets), which keeps any field. CreateCustom installs them.
var WidgetCRDs = widgetCRD + "---\n" + AnyFieldsCRD("kedit.example.com", "v1", "gadgets", "gadget", "Gadget")

const widgetCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.kedit.example.com
spec:
  group: kedit.example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget, shortNames: [wdg]}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              parts:
                type: array
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [name]
                items:
                  type: object
                  required: [name]
                  properties:
                    name: {type: string}
                    size: {type: integer}
`

// FluxKustomizationCRD is Flux's Kustomization
// (kustomize.toolkit.fluxcd.io/v1), keeping any field: what kedit reads
// of it is spec.path, the directory it builds. CreateCustom installs it.
var FluxKustomizationCRD = AnyFieldsCRD("kustomize.toolkit.fluxcd.io", "v1", "kustomizations", "kustomization", "Kustomization")

// FluxKustomization is the manifest of Flux Kustomization name building
// path.
func FluxKustomization(name, path string) string {
	return "apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata:\n  name: " + name +
		"\nspec:\n  interval: 10m\n  prune: true\n  path: " + path + "\n  sourceRef:\n    kind: GitRepository\n    name: fleet\n"
}

// Widget is the manifest of Widget name with parts, each "name=size".
func Widget(name string, parts ...string) string {
	var b strings.Builder
	b.WriteString("apiVersion: kedit.example.com/v1\nkind: Widget\nmetadata:\n  name: " + name + "\nspec:\n  parts:\n")
	for _, p := range parts {
		n, size, _ := strings.Cut(p, "=")
		b.WriteString("  - {name: " + n + ", size: " + size + "}\n")
	}
	return b.String()
}

// CreateCustom applies crds, a manifest of CustomResourceDefinitions,
// waits until each is established, and creates the objects of manifest
// (YAML documents or one JSON object; none when it is "") in ns. Each
// object is created once discovery serves its type, which can lag a
// moment behind the definition being established.
func CreateCustom(t testing.TB, ns, crds, manifest string) {
	t.Helper()
	// Tests that run at once install the same definitions: kubectl
	// apply's read then create (or patch) of one meets the other's
	// (AlreadyExists, a conflict), and is asked again, when it finds it.
	var out string
	var err error
	testwait.Until(30*time.Second, func() bool {
		out, err = kubectl(Kubeconfig(t), crds, "apply", "-f", "-")
		return err == nil || !strings.Contains(out, "AlreadyExists") && !strings.Contains(out, "the object has been modified")
	})
	if err != nil {
		t.Fatalf("kubectl apply -f -: %v\n%s", err, out)
	}
	MustKubectlStdin(t, crds, "wait", "--for=condition=Established", "--timeout=60s", "-f", "-")
	if strings.TrimSpace(manifest) == "" {
		return
	}
	for _, doc := range strings.Split(manifest, "\n---\n") {
		var out string
		var err error
		if !testwait.Until(30*time.Second, func() bool {
			out, err = kubectl(Kubeconfig(t), doc, "-n", ns, "create", "-f", "-")
			return err == nil
		}) {
			t.Fatalf("creating\n%s\nin %s: %v\n%s", doc, ns, err, out)
		}
	}
}

// CreateConfigMaps creates ConfigMaps big-0000 ... in ns, n of them, each
// with size bytes of data (one key, "data"): a few at a time, through a
// client without client-go's default rate limit (5 requests a second
// would take 17 minutes for 5,000).
func CreateConfigMaps(t testing.TB, ns string, n, size int) {
	t.Helper()
	cfg := RESTConfig(t)
	cfg.QPS, cfg.Burst = -1, 0
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	value := strings.Repeat("x", size-len("data"))
	errs := make(chan error, n)
	sem := make(chan struct{}, 4)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("big-%04d", i)}, Data: map[string]string{"data": value}}
			_, err := cs.CoreV1().ConfigMaps(ns).Create(context.Background(), cm, metav1.CreateOptions{})
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatalf("creating ConfigMaps: %v", err)
		}
	}
}

// CRD is the YAML of a namespaced CustomResourceDefinition for kind
// (plural, singular) in group, served and stored at v1, whose schema's
// spec is an object that specSchema states: the lines that stand under
// "spec:" beside its "type: object" (description, required, properties
// and so on), written from the first column; CRD indents them. Install it
// with CreateCustom.
func CRD(group, plural, singular, kind, specSchema string) string {
	return crdHead(group, "v1", plural, singular, kind, "") + "        properties:\n" + objectSchema("spec", specSchema)
}

// StatusCRD is CRD's definition with a status too, an object that
// statusSchema states as specSchema states the spec. subresource: the
// status is written through its own subresource (.../status), so that an
// update of the object keeps the status the server holds.
func StatusCRD(group, plural, singular, kind, specSchema, statusSchema string, subresource bool) string {
	extra := ""
	if subresource {
		extra = "    subresources: {status: {}}\n"
	}
	return crdHead(group, "v1", plural, singular, kind, extra) + "        properties:\n" +
		objectSchema("spec", specSchema) + objectSchema("status", statusSchema)
}

// objectSchema is the schema of the object field name under a CRD's
// properties: "type: object" and the lines of schema, indented.
func objectSchema(name, schema string) string {
	var b strings.Builder
	b.WriteString("          " + name + ":\n            type: object\n")
	for _, line := range strings.Split(strings.TrimRight(schema, "\n"), "\n") {
		if line != "" {
			b.WriteString("            " + line)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// AnyFieldsCRD is the YAML of a namespaced CustomResourceDefinition for
// kind (plural, singular) in group, served and stored at version, whose
// objects keep any field.
func AnyFieldsCRD(group, version, plural, singular, kind string) string {
	return crdHead(group, version, plural, singular, kind, "") + "        x-kubernetes-preserve-unknown-fields: true\n"
}

// crdHead is a CRD's YAML down to its schema's "type: object";
// versionExtra are more lines of the version (subresources), indented.
func crdHead(group, version, plural, singular, kind, versionExtra string) string {
	return fmt.Sprintf(`apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: %[3]s.%[1]s
spec:
  group: %[1]s
  scope: Namespaced
  names: {plural: %[3]s, singular: %[4]s, kind: %[5]s}
  versions:
  - name: %[2]s
    served: true
    storage: true
%[6]s    schema:
      openAPIV3Schema:
        type: object
`, group, version, plural, singular, kind, versionExtra)
}
