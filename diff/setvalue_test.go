package diff

import (
	"reflect"
	"testing"

	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v6/value"
)

func TestWithValueAt(t *testing.T) {
	obj := map[string]any{
		"data": map[string]any{"a": "1"},
		"spec": map[string]any{"containers": []any{
			map[string]any{"name": "app", "image": "nginx:1"},
		}},
	}
	orig := copyOf(t, obj)
	app := fieldpath.MakePathOrDie("spec", "containers", fieldpath.KeyByFields("name", "app"), "image")
	side := fieldpath.MakePathOrDie("spec", "containers", fieldpath.KeyByFields("name", "side"), "image")
	for _, c := range []struct {
		name string
		path fieldpath.Path
		v    FieldValue
	}{
		{"a map key", fieldpath.MakePathOrDie("data", "a"), FieldValue{Present: true, Value: "2"}},
		{"a new map key", fieldpath.MakePathOrDie("data", "b"), FieldValue{Present: true, Value: "3"}},
		{"a removed key", fieldpath.MakePathOrDie("data", "a"), FieldValue{}},
		{"a new map", fieldpath.MakePathOrDie("metadata", "labels", "x"), FieldValue{Present: true, Value: "y"}},
		{"a keyed item's field", app, FieldValue{Present: true, Value: "nginx:2"}},
		{"a missing keyed item", side, FieldValue{Present: true, Value: "envoy:1"}},
		{"a removed keyed item", fieldpath.MakePathOrDie("spec", "containers", fieldpath.KeyByFields("name", "app")), FieldValue{}},
		{"a set value", fieldpath.MakePathOrDie("metadata", "finalizers", value.NewValueInterface("x")), FieldValue{Present: true, Value: "x"}},
	} {
		got, ok := WithValueAt(obj, c.path, c.v)
		if !ok {
			t.Errorf("%s: not set", c.name)
			continue
		}
		if back := ValueAt(got, c.path); back.Present != c.v.Present || (c.v.Present && !reflect.DeepEqual(back.Value, c.v.Value)) {
			t.Errorf("%s: reads back %+v, want %+v", c.name, back, c.v)
		}
		if !reflect.DeepEqual(obj, orig) {
			t.Fatalf("%s: the object given was changed", c.name)
		}
	}
	if _, ok := WithValueAt(obj, fieldpath.MakePathOrDie("data", "a", "deeper"), FieldValue{Present: true, Value: "x"}); ok {
		t.Error("a path through a string was followed")
	}
}

func copyOf(t *testing.T, v map[string]any) map[string]any {
	t.Helper()
	c, err := copyJSON(v)
	if err != nil {
		t.Fatal(err)
	}
	return c.(map[string]any)
}
