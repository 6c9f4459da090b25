package diff

import (
	"reflect"
	"testing"

	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

func TestNarrowNamesEachField(t *testing.T) {
	containers := func(extra map[string]any) []any {
		c := map[string]any{"name": "nginx", "image": "nginx", "imagePullPolicy": "Always"}
		for k, v := range extra {
			c[k] = v
		}
		return []any{map[string]any{"name": "side", "image": "busybox"}, c}
	}
	path := fieldpath.MakePathOrDie("spec", "template", "spec", "containers")
	for _, tc := range []struct {
		name       string
		sent, stor FieldValue
		want       map[string][2]FieldValue
	}{{
		name: "a field dropped from a named item",
		sent: FieldValue{Present: true, Value: containers(map[string]any{"imagePullPolicyy": "Always"})},
		stor: FieldValue{Present: true, Value: containers(nil)},
		want: map[string][2]FieldValue{`.spec.template.spec.containers[name="nginx"].imagePullPolicyy`: {{Present: true, Value: "Always"}, {}}},
	}, {
		name: "a value changed in an unnamed item, by index",
		sent: FieldValue{Present: true, Value: []any{map[string]any{"a": "1"}, map[string]any{"a": "2"}}},
		stor: FieldValue{Present: true, Value: []any{map[string]any{"a": "1"}, map[string]any{"a": "3"}}},
		want: map[string][2]FieldValue{`.spec.template.spec.containers[1].a`: {{Present: true, Value: "2"}, {Present: true, Value: "3"}}},
	}, {
		name: "lists of other lengths stay whole",
		sent: FieldValue{Present: true, Value: []any{"a", "b"}},
		stor: FieldValue{Present: true, Value: []any{"a"}},
		want: map[string][2]FieldValue{`.spec.template.spec.containers`: {{Present: true, Value: []any{"a", "b"}}, {Present: true, Value: []any{"a"}}}},
	}, {
		name: "a removal stays as it is",
		sent: FieldValue{},
		stor: FieldValue{Present: true, Value: []any{"a"}},
		want: map[string][2]FieldValue{`.spec.template.spec.containers`: {{}, {Present: true, Value: []any{"a"}}}},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			got := map[string][2]FieldValue{}
			for _, m := range Narrow([]Mismatch{{Path: path, Sent: tc.sent, Stored: tc.stor}}) {
				got[m.Path.String()] = [2]FieldValue{m.Sent, m.Stored}
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Narrow = %v, want %v", got, tc.want)
			}
		})
	}
}
