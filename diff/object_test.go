package diff

import (
	"reflect"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// obj decodes a test manifest, failing the test on bad YAML.
func obj(t testing.TB, text string) *unstructured.Unstructured {
	t.Helper()
	u, err := DecodeObject([]byte(text))
	if err != nil {
		t.Fatalf("decode %q: %v", text, err)
	}
	return u
}

const cmHead = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n  namespace: default\n"

func cm(data string) string {
	if data == "" {
		return cmHead
	}
	return cmHead + "data:\n" + data
}

const deployHead = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: default
spec:
  replicas: 1
  template:
    spec:
      containers:
`

type wantConflict struct {
	path               string
	base, mine, theirs FieldValue
}

func absent() FieldValue   { return FieldValue{} }
func val(v any) FieldValue { return FieldValue{Present: true, Value: v} }
func conflictPaths(m *ObjectMerge) []string {
	var out []string
	for _, c := range m.Conflicts {
		out = append(out, c.Path.String())
	}
	return out
}

func TestMergeObjects(t *testing.T) {
	tests := []struct {
		name               string
		base, mine, theirs string
		want               string // merged object, open conflicts holding theirs
		conflicts          []wantConflict
	}{
		{
			name:   "disjoint keys merge",
			base:   cm("  a: \"1\"\n  b: \"1\"\n"),
			mine:   cm("  a: \"2\"\n  b: \"1\"\n"),
			theirs: cm("  a: \"1\"\n  b: \"2\"\n  c: \"3\"\n"),
			want:   cm("  a: \"2\"\n  b: \"2\"\n  c: \"3\"\n"),
		},
		{
			name:      "same key changed differently is one conflict",
			base:      cm("  foo: base\n  bar: x\n"),
			mine:      cm("  foo: mine\n  bar: x\n"),
			theirs:    cm("  foo: theirs\n  bar: \"y\"\n"),
			want:      cm("  foo: theirs\n  bar: \"y\"\n"),
			conflicts: []wantConflict{{".data.foo", val("base"), val("mine"), val("theirs")}},
		},
		{
			name:   "identical change on both sides is taken once",
			base:   cm("  foo: base\n"),
			mine:   cm("  foo: same\n"),
			theirs: cm("  foo: same\n"),
			want:   cm("  foo: same\n"),
		},
		{
			name:      "delete on mine, modify on theirs",
			base:      cm("  foo: base\n  bar: x\n"),
			mine:      cm("  bar: x\n"),
			theirs:    cm("  foo: theirs\n  bar: x\n"),
			want:      cm("  foo: theirs\n  bar: x\n"),
			conflicts: []wantConflict{{".data.foo", val("base"), absent(), val("theirs")}},
		},
		{
			name:      "modify on mine, delete on theirs",
			base:      cm("  foo: base\n  bar: x\n"),
			mine:      cm("  foo: mine\n  bar: x\n"),
			theirs:    cm("  bar: x\n"),
			want:      cm("  bar: x\n"),
			conflicts: []wantConflict{{".data.foo", val("base"), val("mine"), absent()}},
		},
		{
			name:   "delete on both sides",
			base:   cm("  foo: base\n  bar: x\n"),
			mine:   cm("  bar: x\n"),
			theirs: cm("  bar: x\n"),
			want:   cm("  bar: x\n"),
		},
		{
			name:   "delete on one side, untouched on the other",
			base:   cm("  foo: base\n  bar: x\n"),
			mine:   cm("  foo: base\n  bar: x\n"),
			theirs: cm("  bar: \"y\"\n"),
			want:   cm("  bar: \"y\"\n"),
		},
		{
			name:      "both add the same key with different values",
			base:      cm("  bar: x\n"),
			mine:      cm("  bar: x\n  new: m\n"),
			theirs:    cm("  bar: x\n  new: t\n"),
			want:      cm("  bar: x\n  new: t\n"),
			conflicts: []wantConflict{{".data.new", absent(), val("m"), val("t")}},
		},
		{
			name:   "both add the same key with the same value",
			base:   cm("  bar: x\n"),
			mine:   cm("  bar: x\n  new: v\n"),
			theirs: cm("  bar: x\n  new: v\n"),
			want:   cm("  bar: x\n  new: v\n"),
		},
		{
			name:   "both add the whole data map, keys merge",
			base:   cm(""),
			mine:   cm("  a: \"1\"\n  same: s\n"),
			theirs: cm("  b: \"2\"\n  same: s\n"),
			want:   cm("  a: \"1\"\n  b: \"2\"\n  same: s\n"),
		},
		{
			name:      "null is not absent",
			base:      cmHead + "data:\n  foo: base\n",
			mine:      cmHead + "data:\n  foo: null\n",
			theirs:    cmHead + "data: {}\n",
			want:      cmHead + "data: {}\n",
			conflicts: []wantConflict{{".data.foo", val("base"), val(nil), absent()}},
		},
		{
			name:      "a null base value is reported as null, not absent",
			base:      cmHead + "data:\n  foo: null\n",
			mine:      cmHead + "data:\n  foo: m\n",
			theirs:    cmHead + "data:\n  foo: t\n",
			want:      cmHead + "data:\n  foo: t\n",
			conflicts: []wantConflict{{".data.foo", val(nil), val("m"), val("t")}},
		},
		{
			name:   "keys added on both sides to a null map merge",
			base:   "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n  labels: null\n",
			mine:   "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n  labels:\n    a: \"1\"\n",
			theirs: "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n  labels:\n    b: \"1\"\n",
			want:   "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n  labels:\n    a: \"1\"\n    b: \"1\"\n",
		},
		{
			name:   "multi-line value: edits to different lines merge",
			base:   cm("  app.conf: |\n    a=1\n    b=1\n    c=1\n    d=1\n    e=1\n"),
			mine:   cm("  app.conf: |\n    a=2\n    b=1\n    c=1\n    d=1\n    e=1\n"),
			theirs: cm("  app.conf: |\n    a=1\n    b=1\n    c=1\n    d=1\n    e=2\n"),
			want:   cm("  app.conf: |\n    a=2\n    b=1\n    c=1\n    d=1\n    e=2\n"),
		},
		{
			name:   "labels and annotations merge key by key",
			base:   "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n  labels:\n    a: \"1\"\n",
			mine:   "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n  labels:\n    a: \"1\"\n    m: \"1\"\n",
			theirs: "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n  labels:\n    a: \"1\"\n    t: \"1\"\n  annotations:\n    note: hi\n",
			want:   "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n  labels:\n    a: \"1\"\n    m: \"1\"\n    t: \"1\"\n  annotations:\n    note: hi\n",
		},
		{
			name:   "image change in one container, container added on the other side",
			base:   deployHead + "      - name: app\n        image: app:1\n",
			mine:   deployHead + "      - name: app\n        image: app:2\n",
			theirs: deployHead + "      - name: app\n        image: app:1\n      - name: sidecar\n        image: proxy:1\n",
			want:   deployHead + "      - name: app\n        image: app:2\n      - name: sidecar\n        image: proxy:1\n",
		},
		{
			name:   "container added on mine goes after the one it follows",
			base:   deployHead + "      - name: a\n        image: a\n      - name: c\n        image: c\n",
			mine:   deployHead + "      - name: a\n        image: a\n      - name: b\n        image: b\n      - name: c\n        image: c\n",
			theirs: deployHead + "      - name: a\n        image: a2\n      - name: c\n        image: c\n      - name: d\n        image: d\n",
			want:   deployHead + "      - name: a\n        image: a2\n      - name: b\n        image: b\n      - name: c\n        image: c\n      - name: d\n        image: d\n",
		},
		{
			name:      "same container image changed differently",
			base:      deployHead + "      - name: app\n        image: app:1\n",
			mine:      deployHead + "      - name: app\n        image: app:2\n",
			theirs:    deployHead + "      - name: app\n        image: app:3\n",
			want:      deployHead + "      - name: app\n        image: app:3\n",
			conflicts: []wantConflict{{`.spec.template.spec.containers[name="app"].image`, val("app:1"), val("app:2"), val("app:3")}},
		},
		{
			name:   "container removed on mine, changed on theirs",
			base:   deployHead + "      - name: app\n        image: app:1\n      - name: old\n        image: old:1\n",
			mine:   deployHead + "      - name: app\n        image: app:1\n",
			theirs: deployHead + "      - name: app\n        image: app:1\n      - name: old\n        image: old:2\n",
			want:   deployHead + "      - name: app\n        image: app:1\n      - name: old\n        image: old:2\n",
			conflicts: []wantConflict{{`.spec.template.spec.containers[name="old"]`,
				val(map[string]any{"name": "old", "image": "old:1"}), absent(), val(map[string]any{"name": "old", "image": "old:2"})}},
		},
		{
			name:   "env merges by name",
			base:   deployHead + "      - name: app\n        env:\n        - name: A\n          value: \"1\"\n        - name: B\n          value: \"1\"\n",
			mine:   deployHead + "      - name: app\n        env:\n        - name: A\n          value: \"2\"\n        - name: B\n          value: \"1\"\n",
			theirs: deployHead + "      - name: app\n        env:\n        - name: A\n          value: \"1\"\n        - name: B\n          value: \"2\"\n        - name: C\n          value: \"3\"\n",
			want:   deployHead + "      - name: app\n        env:\n        - name: A\n          value: \"2\"\n        - name: B\n          value: \"2\"\n        - name: C\n          value: \"3\"\n",
		},
		{
			name:   "a reorder of keyed items on one side is kept",
			base:   deployHead + "      - name: a\n      - name: b\n",
			mine:   deployHead + "      - name: b\n      - name: a\n",
			theirs: strings.Replace(deployHead, "replicas: 1", "replicas: 3", 1) + "      - name: a\n      - name: b\n",
			want:   strings.Replace(deployHead, "replicas: 1", "replicas: 3", 1) + "      - name: b\n      - name: a\n",
		},
		{
			name:   "a reorder on mine and an item change on theirs",
			base:   deployHead + "      - name: a\n      - name: b\n",
			mine:   deployHead + "      - name: b\n      - name: a\n",
			theirs: deployHead + "      - name: a\n        image: x\n      - name: b\n",
			want:   deployHead + "      - name: b\n      - name: a\n        image: x\n",
		},
		{
			name:   "atomic list changed on one side is taken",
			base:   deployHead + "      - name: app\n        args: [a, b]\n",
			mine:   deployHead + "      - name: app\n        args: [a, b, c]\n",
			theirs: deployHead + "      - name: app\n        args: [a, b]\n        image: x\n",
			want:   deployHead + "      - name: app\n        args: [a, b, c]\n        image: x\n",
		},
		{
			name:   "atomic list changed the same on both sides",
			base:   deployHead + "      - name: app\n        args: [a, b]\n",
			mine:   deployHead + "      - name: app\n        args: [a, c]\n",
			theirs: deployHead + "      - name: app\n        args: [a, c]\n",
			want:   deployHead + "      - name: app\n        args: [a, c]\n",
		},
		{
			name:   "atomic list changed differently conflicts as a whole",
			base:   deployHead + "      - name: app\n        args: [a, b]\n",
			mine:   deployHead + "      - name: app\n        args: [a, c]\n",
			theirs: deployHead + "      - name: app\n        args: [a, b, d]\n",
			want:   deployHead + "      - name: app\n        args: [a, b, d]\n",
			conflicts: []wantConflict{{`.spec.template.spec.containers[name="app"].args`,
				val([]any{"a", "b"}), val([]any{"a", "c"}), val([]any{"a", "b", "d"})}},
		},
		{
			name:   "ports keyed by containerPort and protocol",
			base:   deployHead + "      - name: app\n        ports:\n        - containerPort: 80\n          name: http\n",
			mine:   deployHead + "      - name: app\n        ports:\n        - containerPort: 80\n          name: web\n",
			theirs: deployHead + "      - name: app\n        ports:\n        - containerPort: 80\n          name: www\n",
			want:   deployHead + "      - name: app\n        ports:\n        - containerPort: 80\n          name: www\n",
			conflicts: []wantConflict{{`.spec.template.spec.containers[name="app"].ports[containerPort=80,protocol="TCP"].name`,
				val("http"), val("web"), val("www")}},
		},
		{
			name:   "finalizers merge as a set",
			base:   "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n  finalizers: [a]\n",
			mine:   "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n  finalizers: [a, m]\n",
			theirs: "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n  finalizers: [t]\n",
			want:   "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n  finalizers: [t, m]\n",
		},
		{
			name:   "server-owned fields come from theirs and never conflict",
			base:   "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n  resourceVersion: \"1\"\n  uid: u\n  generation: 1\ndata:\n  a: \"1\"\n",
			mine:   "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n  resourceVersion: \"5\"\n  uid: other\n  generation: 9\n  managedFields: []\ndata:\n  a: \"2\"\n",
			theirs: "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n  resourceVersion: \"2\"\n  uid: u\n  generation: 2\n  creationTimestamp: \"2026-01-01T00:00:00Z\"\ndata:\n  a: \"1\"\n",
			want:   "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n  resourceVersion: \"2\"\n  uid: u\n  generation: 2\n  creationTimestamp: \"2026-01-01T00:00:00Z\"\ndata:\n  a: \"2\"\n",
		},
		{
			name:   "status never travels from mine",
			base:   deployHead + "      - name: app\nstatus:\n  replicas: 1\n",
			mine:   deployHead + "      - name: app\nstatus:\n  replicas: 7\n",
			theirs: deployHead + "      - name: app\nstatus:\n  replicas: 2\n",
			want:   deployHead + "      - name: app\nstatus:\n  replicas: 2\n",
		},
		{
			name:      "custom resource without a schema: maps merge, lists are atomic",
			base:      "apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\nspec:\n  a: 1\n  b: 1\n  items: [x]\n",
			mine:      "apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\nspec:\n  a: 2\n  b: 1\n  items: [x, m]\n",
			theirs:    "apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\nspec:\n  a: 1\n  b: 2\n  items: [x, t]\n",
			want:      "apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\nspec:\n  a: 2\n  b: 2\n  items: [x, t]\n",
			conflicts: []wantConflict{{".spec.items", val([]any{"x"}), val([]any{"x", "m"}), val([]any{"x", "t"})}},
		},
		{
			name:   "a built-in kind with a field of the wrong type falls back to a deduced schema",
			base:   deployHead + "      - name: app\n",
			mine:   deployHead + "      - name: app\n  paused: \"yes\"\n",
			theirs: deployHead + "      - name: app\n  minReadySeconds: 5\n",
			want:   deployHead + "      - name: app\n  paused: \"yes\"\n  minReadySeconds: 5\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			samePrunedComparison(t, obj(t, tt.base), obj(t, tt.mine), obj(t, tt.theirs))
			res, err := MergeObjects(obj(t, tt.base), obj(t, tt.mine), obj(t, tt.theirs))
			if err != nil {
				t.Fatal(err)
			}
			want := obj(t, tt.want)
			if !reflect.DeepEqual(res.Merged.Object, want.Object) {
				t.Errorf("merged:\n got %v\nwant %v", res.Merged.Object, want.Object)
			}
			if len(res.Conflicts) != len(tt.conflicts) {
				t.Fatalf("conflicts at %v, want %d", conflictPaths(res), len(tt.conflicts))
			}
			for i, w := range tt.conflicts {
				c := res.Conflicts[i]
				if c.Path.String() != w.path {
					t.Errorf("conflict %d at %s, want %s", i, c.Path, w.path)
				}
				for _, s := range []struct {
					name      string
					got, want FieldValue
				}{{"base", c.Base, w.base}, {"mine", c.Mine, w.mine}, {"theirs", c.Theirs, w.theirs}} {
					if !reflect.DeepEqual(s.got, s.want) {
						t.Errorf("conflict %d %s = %#v, want %#v", i, s.name, s.got, s.want)
					}
				}
			}
			if res.Open() != len(tt.conflicts) {
				t.Errorf("Open() = %d, want %d", res.Open(), len(tt.conflicts))
			}
		})
	}
}
