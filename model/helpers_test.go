package model

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// t0 is the session's opening time; tests add seconds to it.
var t0 = time.Date(2026, 11, 22, 4, 0, 0, 0, time.UTC)

func at(sec int) time.Time { return t0.Add(time.Duration(sec) * time.Second) }

var cmRef = ObjectRef{
	Context:   "kind-dev",
	Resource:  schema.GroupVersionResource{Version: "v1", Resource: "configmaps"},
	Kind:      "ConfigMap",
	Namespace: "ns",
	Name:      "testmap",
}

var deployRef = ObjectRef{
	Context:   "kind-dev",
	Resource:  schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"},
	Kind:      "Deployment",
	Namespace: "ns",
	Name:      "web",
}

// mf is one managedFields entry: manager, operation, second after t0 and
// the owned fields in fieldsV1 JSON.
type mf struct {
	manager, op string
	sec         int
	fields      string
}

func managed(entries ...mf) []any {
	var out []any
	for _, e := range entries {
		m := map[string]any{
			"manager":    e.manager,
			"operation":  e.op,
			"apiVersion": "v1",
			"time":       at(e.sec).Format(time.RFC3339),
			"fieldsType": "FieldsV1",
		}
		if e.fields != "" {
			var v map[string]any
			mustJSON(e.fields, &v)
			m["fieldsV1"] = v
		}
		out = append(out, m)
	}
	return out
}

// cm builds ConfigMap ns/testmap at rv with data given as key, value
// pairs.
func cm(rv string, kv ...string) *unstructured.Unstructured {
	data := map[string]any{}
	for i := 0; i+1 < len(kv); i += 2 {
		data[kv[i]] = kv[i+1]
	}
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "v1",
		"kind":       "ConfigMap",
		"metadata": map[string]any{
			"name":            "testmap",
			"namespace":       "ns",
			"resourceVersion": rv,
			"uid":             "1234",
		},
		"data": data,
	}}
}

// withManaged sets obj's managedFields.
func withManaged(obj *unstructured.Unstructured, entries ...mf) *unstructured.Unstructured {
	obj.Object["metadata"].(map[string]any)["managedFields"] = managed(entries...)
	return obj
}

// deploy builds Deployment ns/web at rv with one container "app".
func deploy(rv, image string, replicas int64) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apps/v1",
		"kind":       "Deployment",
		"metadata": map[string]any{
			"name":            "web",
			"namespace":       "ns",
			"resourceVersion": rv,
			"generation":      int64(1),
		},
		"spec": map[string]any{
			"replicas": replicas,
			"selector": map[string]any{"matchLabels": map[string]any{"app": "web"}},
			"template": map[string]any{
				"metadata": map[string]any{"labels": map[string]any{"app": "web"}},
				"spec": map[string]any{
					"containers": []any{
						map[string]any{"name": "app", "image": image},
						map[string]any{"name": "sidecar", "image": "envoy:1"},
					},
				},
			},
		},
	}}
}

// opened returns a session opened on obj at t0.
func opened(t *testing.T, ref ObjectRef, obj *unstructured.Unstructured) *Session {
	t.Helper()
	s := NewSession(ref)
	if _, _, err := s.Handle(Opened{Object: obj, At: t0}); err != nil {
		t.Fatalf("Opened: %v", err)
	}
	return s
}

// text renders obj as a draft text.
func text(t *testing.T, obj *unstructured.Unstructured) string {
	t.Helper()
	s, err := RenderYAML(obj)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// must handles ev and fails the test on a refusal.
func must(t *testing.T, s *Session, ev Event) []Effect {
	t.Helper()
	_, effects, err := s.Handle(ev)
	if err != nil {
		t.Fatalf("%T: %v", ev, err)
	}
	return effects
}

// wantState fails unless s is in state want.
func wantState(t *testing.T, s *Session, want State) {
	t.Helper()
	if got := s.State(); got != want {
		t.Fatalf("state = %s, want %s", got, want)
	}
}

// saveOf returns the single Save among effects.
func saveOf(t *testing.T, effects []Effect) Save {
	t.Helper()
	var saves []Save
	for _, e := range effects {
		if s, ok := e.(Save); ok {
			saves = append(saves, s)
		}
	}
	if len(saves) != 1 {
		t.Fatalf("effects %s: want exactly one Save", describe(effects))
	}
	return saves[0]
}

func describe(effects []Effect) string {
	s := "["
	for i, e := range effects {
		if i > 0 {
			s += " "
		}
		s += fmt.Sprintf("%T", e)
	}
	return s + "]"
}

func dataOf(obj *unstructured.Unstructured, key string) (string, bool) {
	v, ok, _ := unstructured.NestedString(obj.Object, "data", key)
	return v, ok
}

func mustJSON(s string, v any) {
	if err := json.Unmarshal([]byte(s), v); err != nil {
		panic(err)
	}
}
