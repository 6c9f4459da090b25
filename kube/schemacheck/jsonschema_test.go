package schemacheck_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/kedit/kedit/kube/kubetest"
	"github.com/kedit/kedit/kube/schemacheck"
)

// compileJSONSchema compiles the kind's JSON Schema with a JSON Schema
// validator of its own, which refuses a document that is not a valid
// schema.
func compileJSONSchema(t *testing.T, s *schemacheck.Schema) *jsonschema.Schema {
	t.Helper()
	doc, err := s.JSONSchema()
	if err != nil {
		t.Fatal(err)
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("kind.schema.json", v); err != nil {
		t.Fatal(err)
	}
	js, err := c.Compile("kind.schema.json")
	if err != nil {
		t.Fatalf("the JSON Schema is not a valid schema: %v", err)
	}
	return js
}

// liveJSON reads an object from the test server with kubectl, as JSON.
func liveJSON(t *testing.T, args ...string) any {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(strings.NewReader(kubetest.MustKubectl(t, append(args, "-o", "json")...)))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestJSONSchemaValidatesAsTheServerDoes: the JSON Schema written for an
// editor's language server is a valid draft-07 schema to a JSON Schema
// validator; the live object, a built-in one and a custom resource, is
// valid by it, and the same with a mistyped field is not, where the
// server refuses or prunes unknown fields; a field that keeps anything
// takes one.
func TestJSONSchemaValidatesAsTheServerDoes(t *testing.T) {
	schemacheck.InstallThing(t)
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "deployment", "web", "--image=nginx")
	dep := compileJSONSchema(t, schemaOf(t, deploymentGVK))
	live := liveJSON(t, "-n", ns, "get", "deployment", "web")
	if err := dep.Validate(live); err != nil {
		t.Fatalf("the live Deployment is refused: %v", err)
	}
	container := live.(map[string]any)["spec"].(map[string]any)["template"].(map[string]any)["spec"].(map[string]any)["containers"].([]any)[0].(map[string]any)
	container["imagePullPolicyy"] = container["imagePullPolicy"]
	delete(container, "imagePullPolicy")
	err := dep.Validate(live)
	if err == nil || !strings.Contains(err.Error(), "imagePullPolicyy") {
		t.Fatalf("the mistyped field is not refused: %v", err)
	}
	raw, _ := json.Marshal(map[string]any{"apiVersion": "apps/v1", "kind": "Deployment", "spec": map[string]any{"replicas": "3"}})
	bad, _ := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if dep.Validate(bad) == nil {
		t.Error("a string where an integer goes is not refused")
	}

	th := compileJSONSchema(t, schemaOf(t, thingGVK))
	thing := `{"apiVersion":"check.kedit.example.com/v1","kind":"Thing","metadata":{"name":"a"},` +
		`"spec":{"size":3,"mode":"fast","port":"http","extra":{"anything":1},"entries":[{"name":"x","weight":1}]}}`
	v, _ := jsonschema.UnmarshalJSON(strings.NewReader(thing))
	if err := th.Validate(v); err != nil {
		t.Fatalf("a valid Thing is refused: %v", err)
	}
	for _, bad := range []string{
		strings.Replace(thing, `"mode"`, `"modee"`, 1),
		strings.Replace(thing, `"fast"`, `"sometimes"`, 1),
	} {
		v, _ := jsonschema.UnmarshalJSON(strings.NewReader(bad))
		if th.Validate(v) == nil {
			t.Errorf("a Thing the server refuses is taken: %s", bad)
		}
	}
}
