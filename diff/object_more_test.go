package diff

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"k8s.io/kube-openapi/pkg/validation/spec"
	"sigs.k8s.io/structured-merge-diff/v6/typed"
)

func TestMergeObjectsTextConflictCarriesHunks(t *testing.T) {
	res, err := MergeObjects(
		obj(t, cm("  conf: |\n    a\n    b\n    c\n    d\n    e\n")),
		obj(t, cm("  conf: |\n    a\n    B\n    c\n    d\n    E\n")),
		obj(t, cm("  conf: |\n    a\n    b2\n    c\n    d\n    e\n")))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Conflicts) != 1 {
		t.Fatalf("conflicts %v", conflictPaths(res))
	}
	c := res.Conflicts[0]
	if c.Path.String() != ".data.conf" || c.Hunks == nil {
		t.Fatalf("conflict %s with hunks %v", c.Path, c.Hunks)
	}
	var colliding []Hunk
	for _, h := range c.Hunks {
		if h.Conflict {
			colliding = append(colliding, h)
		}
	}
	want := Hunk{Conflict: true, Base: LineRange{1, 1}, Mine: LineRange{1, 1}, Theirs: LineRange{1, 1},
		BaseLines: []string{"b\n"}, MineLines: []string{"B\n"}, TheirsLines: []string{"b2\n"}}
	if len(colliding) != 1 || !reflect.DeepEqual(colliding[0], want) {
		t.Errorf("colliding hunks %#v, want %#v", colliding, want)
	}
	if c.Base.Value != "a\nb\nc\nd\ne\n" || c.Mine.Value != "a\nB\nc\nd\nE\n" || c.Theirs.Value != "a\nb2\nc\nd\ne\n" {
		t.Errorf("values %#v %#v %#v", c.Base, c.Mine, c.Theirs)
	}
}

func TestMergeObjectsChanges(t *testing.T) {
	res, err := MergeObjects(
		obj(t, cm("  a: \"1\"\n  b: \"1\"\n  c: \"1\"\n  d: \"1\"\n")),
		obj(t, cm("  a: \"2\"\n  c: \"1\"\n  d: \"2\"\n  m: \"1\"\n")),
		obj(t, cm("  a: \"1\"\n  b: \"1\"\n  c: \"2\"\n  d: \"2\"\n")))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range res.Changes {
		got = append(got, c.Path.String()+" "+c.Side.String()+" "+c.Kind.String())
	}
	want := []string{
		".data.a mine modified",
		".data.b mine removed",
		".data.c theirs modified",
		".data.d both modified",
		".data.m mine added",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("changes\n got %q\nwant %q", got, want)
	}
}

func TestMergeObjectsSecretData(t *testing.T) {
	b64 := base64.StdEncoding.EncodeToString
	secret := func(data map[string]string) *unstructured.Unstructured {
		d := map[string]any{}
		for k, v := range data {
			d[k] = b64([]byte(v))
		}
		return &unstructured.Unstructured{Object: map[string]any{
			"apiVersion": "v1", "kind": "Secret",
			"metadata": map[string]any{"name": "s", "namespace": "default"},
			"type":     "Opaque",
			"data":     d,
		}}
	}
	base := secret(map[string]string{"conf": "user=a\nport=1\nhost=x\n", "pw": "old", "token": "t"})
	mine := secret(map[string]string{"conf": "user=b\nport=1\nhost=x\n", "pw": "mine", "token": "t"})
	theirs := secret(map[string]string{"conf": "user=a\nport=1\nhost=y\n", "pw": "theirs", "token": "t"})
	res, err := MergeObjects(base, mine, theirs)
	if err != nil {
		t.Fatal(err)
	}
	data := res.Merged.Object["data"].(map[string]any)
	if data["conf"] != b64([]byte("user=b\nport=1\nhost=y\n")) {
		t.Errorf("conf = %q: the decoded lines should merge and be encoded again", data["conf"])
	}
	if data["token"] != b64([]byte("t")) {
		t.Errorf("token = %q", data["token"])
	}
	if len(res.Conflicts) != 1 || res.Conflicts[0].Path.String() != ".data.pw" {
		t.Fatalf("conflicts %v", conflictPaths(res))
	}
	c := res.Conflicts[0]
	if c.Mine.Value != "mine" || c.Theirs.Value != "theirs" || c.Base.Value != "old" {
		t.Errorf("conflict values are shown decoded: %#v %#v %#v", c.Base, c.Mine, c.Theirs)
	}
	if data["pw"] != b64([]byte("theirs")) {
		t.Errorf("open conflict holds %q, want theirs encoded", data["pw"])
	}
	text, err := res.YAML()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(text), "  pw: "+b64([]byte("mine"))+"\n") {
		t.Errorf("the block shows encoded values:\n%s", text)
	}
	if _, err := res.Resolve(0, Resolution{Choice: TakeCustom, Value: val("custom")}); err != nil {
		t.Fatal(err)
	}
	final, err := res.Final()
	if err != nil {
		t.Fatal(err)
	}
	if got := final.Object["data"].(map[string]any)["pw"]; got != b64([]byte("custom")) {
		t.Errorf("custom value = %q, want it encoded", got)
	}
	// A value that is not base64 is compared as it is.
	bad := secret(nil)
	bad.Object["data"] = map[string]any{"x": "not base64!"}
	bad2 := bad.DeepCopy()
	bad2.Object["data"] = map[string]any{"x": "not base64!", "y": b64([]byte("y"))}
	res, err = MergeObjects(bad, bad2, bad)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(res.Merged.Object["data"], bad2.Object["data"]) {
		t.Errorf("data = %v, want %v", res.Merged.Object["data"], bad2.Object["data"])
	}
}

func TestMergeObjectsIdentity(t *testing.T) {
	base := cm("  a: b\n")
	tests := []struct {
		name, mine, theirs string
		side, field        string
	}{
		{"name", strings.Replace(base, "name: cm", "name: other", 1), base, "mine", "metadata.name"},
		{"namespace", base, strings.Replace(base, "namespace: default", "namespace: prod", 1), "theirs", "metadata.namespace"},
		{"kind", base, strings.Replace(base, "kind: ConfigMap", "kind: Secret", 1), "theirs", "kind"},
		{"apiVersion", strings.Replace(base, "apiVersion: v1", "apiVersion: v2", 1), base, "mine", "apiVersion"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := MergeObjects(obj(t, base), obj(t, tt.mine), obj(t, tt.theirs))
			var ie *IdentityError
			if !errors.As(err, &ie) {
				t.Fatalf("err = %v, want *IdentityError", err)
			}
			if ie.Side != tt.side || ie.Field != tt.field {
				t.Errorf("IdentityError{%s %s}, want {%s %s}", ie.Side, ie.Field, tt.side, tt.field)
			}
		})
	}
	if _, err := MergeObjects(nil, obj(t, base), obj(t, base)); !errors.Is(err, ErrNoObject) {
		t.Errorf("nil base: err = %v", err)
	}
}

func TestMergeObjectsResolve(t *testing.T) {
	res, err := MergeObjects(
		obj(t, cm("  a: base\n  b: base\n  c: base\n  d: base\n")),
		obj(t, cm("  a: mine\n  b: mine\n  c: mine\n")),
		obj(t, cm("  a: theirs\n  b: theirs\n  c: theirs\n  d: theirs\n")))
	if err != nil {
		t.Fatal(err)
	}
	if got := conflictPaths(res); !reflect.DeepEqual(got, []string{".data.a", ".data.b", ".data.c", ".data.d"}) {
		t.Fatalf("conflicts %v", got)
	}
	if _, err := res.Final(); !errors.As(err, new(*OpenConflictsError)) {
		t.Fatalf("Final with open conflicts: err = %v", err)
	}
	steps := []struct {
		i    int
		r    Resolution
		open int
	}{
		{0, Resolution{Choice: TakeMine}, 3},
		{1, Resolution{Choice: TakeTheirs}, 2},
		{2, Resolution{Choice: TakeBase}, 1},
		{3, Resolution{Choice: TakeCustom, Value: absent()}, 0},
		{3, Resolution{}, 1},
		{3, Resolution{Choice: TakeMine}, 0},
	}
	for _, s := range steps {
		open, err := res.Resolve(s.i, s.r)
		if err != nil || open != s.open {
			t.Fatalf("Resolve(%d, %v) = %d, %v; want %d", s.i, s.r, open, err, s.open)
		}
	}
	final, err := res.Final()
	if err != nil {
		t.Fatal(err)
	}
	want := obj(t, cm("  a: mine\n  b: theirs\n  c: base\n"))
	if !reflect.DeepEqual(final.Object, want.Object) {
		t.Errorf("final %v, want %v", final.Object, want.Object)
	}
	if _, err := res.Resolve(9, Resolution{Choice: TakeMine}); err == nil {
		t.Error("Resolve of a conflict that does not exist succeeded")
	}
	if _, err := res.Resolve(0, Resolution{Choice: TakeCustom, Value: val(struct{}{})}); err == nil {
		t.Error("Resolve with a value that is not JSON succeeded")
	}
	c := res.Clone()
	c.Resolve(0, Resolution{})
	if res.Open() != 0 || c.Open() != 1 {
		t.Errorf("Clone shares resolutions: %d %d", res.Open(), c.Open())
	}
}

// widgetSchemas is what kube/ would build from a server's OpenAPI v3
// document for a custom resource whose spec.ports is a list keyed by port.
func widgetSchemas(t *testing.T) Schemas {
	t.Helper()
	const doc = `{
  "com.example.v1.Widget": {
    "type": "object",
    "x-kubernetes-group-version-kind": [{"group": "example.com", "version": "v1", "kind": "Widget"}],
    "properties": {
      "apiVersion": {"type": "string"},
      "kind": {"type": "string"},
      "metadata": {"type": "object", "additionalProperties": {"x-kubernetes-preserve-unknown-fields": true}},
      "spec": {
        "type": "object",
        "properties": {
          "ports": {
            "type": "array",
            "x-kubernetes-list-type": "map",
            "x-kubernetes-list-map-keys": ["port"],
            "items": {"type": "object", "properties": {"port": {"type": "integer"}, "name": {"type": "string"}}}
          }
        }
      }
    }
  }
}`
	var defs map[string]*spec.Schema
	if err := json.Unmarshal([]byte(doc), &defs); err != nil {
		t.Fatal(err)
	}
	tc, err := managedfields.NewTypeConverter(defs, false)
	if err != nil {
		t.Fatal(err)
	}
	return tc
}

type failingSchemas struct{}

func (failingSchemas) ObjectToTyped(runtime.Object, ...typed.ValidationOptions) (*typed.TypedValue, error) {
	return nil, errors.New("no schema")
}

func TestMergeObjectsWithSchemas(t *testing.T) {
	const head = "apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\nspec:\n  ports:\n"
	base := obj(t, head+"  - port: 80\n    name: a\n")
	mine := obj(t, head+"  - port: 80\n    name: b\n")
	theirs := obj(t, head+"  - port: 80\n    name: a\n  - port: 90\n    name: c\n")

	res, err := MergeObjects(base, mine, theirs, WithSchemas(widgetSchemas(t)))
	if err != nil {
		t.Fatal(err)
	}
	if res.Schema != SchemaGiven || len(res.Conflicts) != 0 {
		t.Fatalf("schema %s, conflicts %v", res.Schema, conflictPaths(res))
	}
	want := obj(t, head+"  - port: 80\n    name: b\n  - port: 90\n    name: c\n")
	if !reflect.DeepEqual(res.Merged.Object, want.Object) {
		t.Errorf("merged %v, want %v", res.Merged.Object, want.Object)
	}

	// Without the server's schema the list is atomic.
	for _, opts := range [][]Option{nil, {WithSchemas(failingSchemas{})}} {
		res, err = MergeObjects(base, mine, theirs, opts...)
		if err != nil {
			t.Fatal(err)
		}
		if res.Schema != SchemaDeduced || !reflect.DeepEqual(conflictPaths(res), []string{".spec.ports"}) {
			t.Errorf("schema %s, conflicts %v", res.Schema, conflictPaths(res))
		}
	}

	// Built-in kinds use client-go's schema.
	res, err = MergeObjects(obj(t, cm("")), obj(t, cm("")), obj(t, cm("")), WithSchemas(failingSchemas{}))
	if err != nil || res.Schema != SchemaBuiltin {
		t.Errorf("schema %s, err %v", res.Schema, err)
	}
}

func TestMergeObjectsDoesNotModifyInputs(t *testing.T) {
	b := obj(t, deployHead+"      - name: app\n        image: a\n")
	m := obj(t, deployHead+"      - name: app\n        image: b\n")
	th := obj(t, deployHead+"      - name: app\n        image: c\n      - name: x\n")
	b0, m0, t0 := b.DeepCopy(), m.DeepCopy(), th.DeepCopy()
	res, err := MergeObjects(b, m, th)
	if err != nil {
		t.Fatal(err)
	}
	res.Resolve(0, Resolution{Choice: TakeMine})
	final, _ := res.Final()
	unstructured.SetNestedField(final.Object, "changed", "spec", "replicas")
	if !reflect.DeepEqual(b, b0) || !reflect.DeepEqual(m, m0) || !reflect.DeepEqual(th, t0) {
		t.Error("MergeObjects or Final changed an input")
	}
}

func TestMergeObjectsPlainGoValues(t *testing.T) {
	// Objects built in Go often hold int; they must not panic.
	mk := func(n int) *unstructured.Unstructured {
		return &unstructured.Unstructured{Object: map[string]any{
			"apiVersion": "apps/v1", "kind": "Deployment",
			"metadata": map[string]any{"name": "d"},
			"spec":     map[string]any{"replicas": n},
		}}
	}
	res, err := MergeObjects(mk(1), mk(2), mk(1))
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Merged.Object["spec"].(map[string]any)["replicas"]; got != int64(2) {
		t.Errorf("replicas = %#v", got)
	}
	weird := mk(1)
	weird.Object["spec"] = map[string]any{"replicas": make(chan int)}
	if _, err := MergeObjects(mk(1), weird, mk(1)); !errors.As(err, new(*InputError)) {
		t.Errorf("err = %v, want *InputError", err)
	}
}

// samePrunedComparison checks that Compare on the objects pruned of what
// all three share reports the change sets Compare on the whole objects does.
func samePrunedComparison(t *testing.T, base, mine, theirs *unstructured.Unstructured) {
	t.Helper()
	b, _ := stripped(base, false)
	m, _ := stripped(mine, false)
	th, _ := stripped(theirs, false)
	tb, err := builtinSchemas().ObjectToTyped(b, typed.AllowDuplicates)
	if err != nil {
		return // not a built-in schema case
	}
	full := func(o *unstructured.Unstructured) *typed.Comparison {
		tv, err := builtinSchemas().ObjectToTyped(o, typed.AllowDuplicates)
		if err != nil {
			return nil // the side does not validate: nothing to check
		}
		c, err := tb.Compare(tv)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	wantMine, wantTheirs := full(m), full(th)
	if wantMine == nil || wantTheirs == nil {
		return
	}
	_, _, _, gotMine, gotTheirs, err := compareWith(builtinSchemas().ObjectToTyped, b, m, th)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []struct {
		name      string
		got, want *typed.Comparison
	}{{"mine", gotMine, wantMine}, {"theirs", gotTheirs, wantTheirs}} {
		if !p.got.Added.Equals(p.want.Added) || !p.got.Modified.Equals(p.want.Modified) || !p.got.Removed.Equals(p.want.Removed) {
			t.Errorf("%s: pruned comparison\n%v\nwhole comparison\n%v", p.name, p.got, p.want)
		}
	}
}

func TestPrunedComparison(t *testing.T) {
	for _, objs := range [][3]*unstructured.Unstructured{
		func() (o [3]*unstructured.Unstructured) { o[0], o[1], o[2] = benchDeployment(); return }(),
		func() (o [3]*unstructured.Unstructured) { o[0], o[1], o[2] = benchConfigMap(); return }(),
	} {
		samePrunedComparison(t, objs[0], objs[1], objs[2])
	}
}

func TestLoadBuiltinSchemas(t *testing.T) {
	LoadBuiltinSchemas()
	LoadBuiltinSchemas()
	res, err := MergeObjects(obj(t, cm("")), obj(t, cm("  a: b\n")), obj(t, cm("")))
	if err != nil || res.Schema != SchemaBuiltin {
		t.Fatalf("schema %v, err %v", res, err)
	}
}
