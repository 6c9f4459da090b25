package builtinschema

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"testing"

	"k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/structured-merge-diff/v6/schema"
	"sigs.k8s.io/structured-merge-diff/v6/typed"
)

// TestGeneratedIsCurrent regenerates the file from the client-go in go.mod:
// a client-go upgrade without go generate fails here.
func TestGeneratedIsCurrent(t *testing.T) {
	out := filepath.Join(t.TempDir(), "zz_generated.go")
	cmd := exec.Command("go", "run", "./gen", out)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go run ./gen: %v\n%s", err, b)
	}
	want, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("zz_generated.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("zz_generated.go is not what ./gen writes from the client-go in go.mod: run go generate ./diff/...")
	}
}

// TestTypesAreClientGos checks the Go data type by type against what
// structured-merge-diff's own parser makes of client-go's text, defaults
// included (an associative list's missing key takes its default).
func TestTypesAreClientGos(t *testing.T) {
	src, err := exec.Command("go", "run", "./gen", "-yaml").Output()
	if err != nil {
		t.Fatalf("go run ./gen -yaml: %v", err)
	}
	p, err := typed.NewParser(typed.YAMLObject(src))
	if err != nil {
		t.Fatal(err)
	}
	want := p.Schema.Types
	Parser() // sets the defaults that are maps
	if len(types) != len(want) {
		t.Fatalf("%d types, client-go has %d", len(types), len(want))
	}
	for i := range want {
		if !reflect.DeepEqual(types[i], want[i]) {
			t.Errorf("type %d (%s) differs:\n got %#v\nwant %#v", i, want[i].Name, types[i], want[i])
		}
	}
	var defaults int
	for _, td := range types {
		if td.Map == nil {
			continue
		}
		for _, f := range td.Map.Fields {
			if f.Default != nil {
				defaults++
			}
		}
	}
	if defaults < 100 {
		t.Errorf("only %d fields with a default: the comparison did not see them", defaults)
	}
}

// TestParserResolvesEveryReference: every named type a type points to is
// in the data.
func TestParserResolvesEveryReference(t *testing.T) {
	p := Parser()
	var check func(where string, a schema.Atom)
	ref := func(where string, r schema.TypeRef) {
		if r.NamedType != nil {
			if _, ok := p.Schema.FindNamedType(*r.NamedType); !ok {
				t.Errorf("%s points to %s, which is not there", where, *r.NamedType)
			}
			return
		}
		check(where, r.Inlined)
	}
	check = func(where string, a schema.Atom) {
		if a.List != nil {
			ref(where+"[]", a.List.ElementType)
		}
		if a.Map != nil {
			ref(where+"{}", a.Map.ElementType)
			for _, f := range a.Map.Fields {
				ref(where+"."+f.Name, f.Type)
			}
		}
	}
	for _, td := range types {
		check(td.Name, td.Atom)
	}
	if _, ok := p.Schema.FindNamedType("io.k8s.api.apps.v1.Deployment"); !ok {
		t.Error("no Deployment")
	}
}

// TestTypeNameIsTheSchemes: every kind of client-go's scheme is found by
// TypeName under the name the scheme gives it, when that type is here, and
// not found otherwise (the scheme's converter fails on those too: no type
// of that name).
func TestTypeNameIsTheSchemes(t *testing.T) {
	p := Parser()
	var found int
	for gvk := range scheme.Scheme.AllKnownTypes() {
		want, err := scheme.Scheme.ToOpenAPIDefinitionName(gvk)
		if err != nil {
			t.Fatalf("%s: %v", gvk, err)
		}
		_, here := p.Schema.FindNamedType(want)
		got, ok := TypeName(gvk.Group, gvk.Version, gvk.Kind)
		switch {
		case here && (!ok || got != want):
			t.Errorf("%s: TypeName says %q, %v; the scheme says %q", gvk, got, ok, want)
		case !here && ok:
			t.Errorf("%s: TypeName says %q, which is not among the types", gvk, got)
		}
		if ok {
			found++
		}
	}
	if found < 150 {
		t.Errorf("only %d kinds found", found)
	}
	for _, k := range [][3]string{{"", "v1", "Nope"}, {"apps", "v9", "Deployment"}, {"", "", ""}} {
		if name, ok := TypeName(k[0], k[1], k[2]); ok {
			t.Errorf("TypeName%q = %q, want not found", k, name)
		}
	}
}
