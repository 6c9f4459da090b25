// Package uitest holds the objects the tests of ui and of its views start
// from, so that each package's tests build them alike.
package uitest

import (
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kedit/kedit/model"
)

// Ref is the ConfigMap default/testmap the tests edit.
var Ref = model.ObjectRef{
	Context:  "kind-dev",
	Resource: schema.GroupVersionResource{Version: "v1", Resource: "configmaps"},
	Kind:     "ConfigMap", Namespace: "default", Name: "testmap",
}

// T0 is the tests' clock: the first write's time.
var T0 = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

// ConfigMap builds testmap at rv with data, last written by manager at
// second sec after T0 (managedFields' resolution), owning the data keys in
// owned.
func ConfigMap(rv string, data map[string]any, manager string, sec int, owned ...string) *unstructured.Unstructured {
	fields := map[string]any{}
	for _, k := range owned {
		fields["f:"+k] = map[string]any{}
	}
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "v1",
		"kind":       "ConfigMap",
		"metadata": map[string]any{
			"name": "testmap", "namespace": "default", "resourceVersion": rv, "uid": "u-1",
			"managedFields": []any{map[string]any{
				"manager": manager, "operation": "Update", "apiVersion": "v1",
				"time":       T0.Add(time.Duration(sec) * time.Second).Format(time.RFC3339),
				"fieldsType": "FieldsV1", "fieldsV1": map[string]any{"f:data": fields},
			}},
		},
		"data": data,
	}}
}
