package schemacheck_test

import (
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kedit/kedit/kube/kubetest"
)

// TestJSONSchemaStatusAsTheServerChecksIt: the language server's schema
// says of a status what an update of the object says. Where the status is
// a subresource (Meter), its values are not checked (the server keeps its
// own status), but an unknown field is still refused; where it is a
// plain field (Gauge), it is checked as any other. A built-in kind's
// status, a subresource too, keeps its types, which the strict read into
// the Go type refuses, and nothing else.
func TestJSONSchemaStatusAsTheServerChecksIt(t *testing.T) {
	t.Parallel()
	kubetest.CreateCustom(t, "", statusKinds, "")
	object := func(kind, status string) string {
		return `{"apiVersion":"statuscheck.kedit.test/v1","kind":"` + kind + `","metadata":{"name":"x"},"spec":{"size":3},"status":` + status + `}`
	}
	dep := compileJSONSchema(t, schemaOf(t, deploymentGVK))
	deployment := func(status string) string {
		return `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"x"},"status":` + status + `}`
	}
	for _, c := range []struct {
		kind, doc string
		taken     bool
	}{
		{"Meter", object("Meter", `{"phase":"Weird","count":"many"}`), true},
		{"Meter", object("Meter", `{"phase":"Ready","colour":"red"}`), false},
		{"Gauge", object("Gauge", `{"phase":"Weird"}`), false},
		{"Gauge", object("Gauge", `{"phase":"Ready","count":2}`), true},
		{"Deployment", deployment(`{"replicas":2,"conditions":[{"reason":"no type, which the schema requires"}]}`), true},
		{"Deployment", deployment(`{"replicas":"two"}`), false},
		{"Deployment", deployment(`{"replicas":2,"replicaz":2}`), false},
	} {
		js := dep
		if c.kind != "Deployment" {
			js = compileJSONSchema(t, schemaOf(t, schema.GroupVersionKind{Group: "statuscheck.kedit.test", Version: "v1", Kind: c.kind}))
		}
		v, err := jsonschema.UnmarshalJSON(strings.NewReader(c.doc))
		if err != nil {
			t.Fatal(err)
		}
		if err := js.Validate(v); (err == nil) != c.taken {
			t.Errorf("%s: taken %v (%v), want %v", c.doc, err == nil, err, c.taken)
		}
	}
}
