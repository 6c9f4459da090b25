package schemacheck

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"

	"github.com/kedit/kedit/internal/testwait"
	"github.com/kedit/kedit/kube/kubetest"
)

func TestMain(m *testing.M) { kubetest.Main(m) }

// ThingCRD is a custom resource with each rule a schema can state: a
// keyed list, a set, an enum, a pattern, a format, bounds, an
// int-or-string, fields that keep anything, an embedded resource and CEL
// rules.
var ThingCRD = kubetest.CRD("check.kedit.example.com", "things", "thing", "Thing", `required: [size]
x-kubernetes-validations:
- rule: "!has(self.minReplicas) || !has(self.maxReplicas) || self.minReplicas <= self.maxReplicas"
  message: minReplicas must not exceed maxReplicas
properties:
  size: {type: integer, minimum: 1, maximum: 10}
  mode: {type: string, enum: [fast, slow]}
  code: {type: string, pattern: '^[a-z]{3}$'}
  short: {type: string, maxLength: 5}
  uid: {type: string, format: uuid}
  port: {x-kubernetes-int-or-string: true}
  enabled: {type: boolean}
  minReplicas: {type: integer}
  maxReplicas: {type: integer}
  entries:
    type: array
    x-kubernetes-list-type: map
    x-kubernetes-list-map-keys: [name]
    items:
      type: object
      required: [name]
      properties:
        name: {type: string}
        weight: {type: integer, minimum: 0}
  tags:
    type: array
    x-kubernetes-list-type: set
    items: {type: string}
  extra:
    type: object
    x-kubernetes-preserve-unknown-fields: true
  template:
    type: object
    x-kubernetes-embedded-resource: true
    x-kubernetes-preserve-unknown-fields: true
`)

// ThingYAML is a valid Thing.
const ThingYAML = `apiVersion: check.kedit.example.com/v1
kind: Thing
metadata:
  name: one
  labels:
    app: one
spec:
  size: 3
  mode: fast
  code: abc
  short: ab
  uid: 0b8c3a7e-5f0e-4a53-9d1c-2f7a0c1f3b11
  port: http
  enabled: true
  minReplicas: 1
  maxReplicas: 2
  entries:
  - name: a
    weight: 1
  - name: b
    weight: 2
  tags: [p, q]
  extra:
    anything: [1, 2]
  template:
    apiVersion: v1
    kind: ConfigMap
    metadata:
      name: inner
`

var thingOnce sync.Once

// InstallThing installs ThingCRD once for the tests of the package, run
// in parallel.
func InstallThing(t testing.TB) {
	thingOnce.Do(func() { kubetest.CreateCustom(t, kubetest.Namespace(t), ThingCRD, "") })
}

// serverSchema reads the test server's schema of gvk (the document read
// here as kube.ServerCheckSchema reads it: this package's tests cannot
// import kube, which imports it).
func serverSchema(t testing.TB, gvk schema.GroupVersionKind) *Schema {
	t.Helper()
	key := "apis/" + gvk.Group + "/" + gvk.Version
	if gvk.Group == "" {
		key = "api/" + gvk.Version
	}
	var s *Schema
	var err error
	// The server publishes a new custom resource's document a moment
	// after the definition is established.
	if !testwait.Until(30*time.Second, func() bool {
		var dc *discovery.DiscoveryClient
		if dc, err = discovery.NewDiscoveryClientForConfig(kubetest.RESTConfig(t)); err != nil {
			return false
		}
		paths, perr := dc.OpenAPIV3().Paths()
		if err = perr; err != nil {
			return false
		}
		doc, ok := paths[key]
		if !ok {
			err = fmt.Errorf("no document for %s", key)
			return false
		}
		raw, rerr := doc.Schema("application/json")
		if err = rerr; err != nil {
			return false
		}
		s, err = New(raw, gvk)
		return err == nil
	}) {
		t.Fatal(err)
	}
	return s
}
