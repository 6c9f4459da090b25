package schemacheck_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/kedit/kedit/kube/schemacheck"
)

// TestExplainSaysWhatKubectlExplainSays: a field's path, type, whether it
// is required, its description, its values and its fields, from the
// server's own schema, for a built-in kind and a custom resource alike; a
// path the schema does not name is not explained.
func TestExplainSaysWhatKubectlExplainSays(t *testing.T) {
	schemacheck.InstallThing(t)
	dep := schemaOf(t, deploymentGVK)
	f, ok := dep.Explain([]string{"spec", "template", "spec", "containers", "imagePullPolicy"})
	if !ok || f.Path != ".spec.template.spec.containers.imagePullPolicy" || f.Type != "string" || f.Required ||
		!strings.Contains(f.Description, "Image pull policy") || !slices.Equal(f.Values, []string{"Always", "IfNotPresent", "Never"}) {
		t.Errorf("imagePullPolicy: %+v, %v", f, ok)
	}
	f, ok = dep.Explain([]string{"spec", "template", "spec", "containers"})
	if !ok || f.Type != "[]Object" || !f.Required || len(f.Fields) < 10 {
		t.Errorf("containers: %+v", f)
	}
	var name bool
	for _, c := range f.Fields {
		name = name || c.Name == "name" && c.Required && c.Type == "string"
	}
	if !name {
		t.Errorf("containers' fields lack a required name: %+v", f.Fields)
	}
	if f, ok := dep.Explain([]string{"metadata", "labels"}); !ok || f.Type != "map[string]string" {
		t.Errorf("labels: %+v, %v", f, ok)
	}
	if f, ok := dep.Explain(nil); !ok || f.Path != "Deployment" || len(f.Fields) == 0 {
		t.Errorf("the root: %+v, %v", f, ok)
	}
	if _, ok := dep.Explain([]string{"spec", "replicaz"}); ok {
		t.Error("a field the schema does not name is explained")
	}
	if got := dep.Values([]string{"spec", "paused"}); !slices.Equal(got, []string{"true", "false"}) {
		t.Errorf("a boolean's values: %q", got)
	}

	th := schemaOf(t, thingGVK)
	if f, ok := th.Explain([]string{"spec", "mode"}); !ok || !slices.Equal(f.Values, []string{"fast", "slow"}) {
		t.Errorf("the custom resource's enum: %+v, %v", f, ok)
	}
	if f, ok := th.Explain([]string{"spec", "size"}); !ok || f.Type != "integer" || !f.Required {
		t.Errorf("a required integer: %+v, %v", f, ok)
	}
	if f, ok := th.Explain([]string{"spec", "port"}); !ok || f.Type != "int-or-string" {
		t.Errorf("an int-or-string: %+v, %v", f, ok)
	}
	if f, ok := th.Explain([]string{"spec", "extra"}); !ok || !f.AnyField {
		t.Errorf("fields kept whatever they are: %+v, %v", f, ok)
	}
	var names []string
	for _, c := range th.Fields([]string{"spec", "entries"}) {
		names = append(names, c.Name)
	}
	if !slices.Equal(names, []string{"name", "weight"}) {
		t.Errorf("a keyed list's items' fields: %q", names)
	}
}
