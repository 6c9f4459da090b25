package kube

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kedit/kedit/kube/kubetest"
)

// names lists a set's objects as resource/namespace/name.
func names(objs []SetObject) []string {
	var out []string
	for _, o := range objs {
		out = append(out, o.Target.String()+"@"+o.Target.Namespace)
		if o.Object == nil || o.Object.GetName() != o.Target.Name || o.Object.GetResourceVersion() == "" {
			out = append(out, "(not read)")
		}
	}
	return out
}

// TestReadSet reads the objects of a set from the real API server each
// way the command line names them: several TYPE/NAME (each once), TYPE
// and names, a selector in the namespace and in every namespace, and the
// live objects that manifests name (a multi-document file whose content
// is not what is read, a List, a directory, stdin).
func TestReadSet(t *testing.T) {
	t.Parallel()
	ns, other := kubetest.Namespace(t), kubetest.Namespace(t)
	for _, n := range []string{"a", "b", "c"} {
		kubetest.MustKubectl(t, "-n", ns, "create", "configmap", n, "--from-literal=foo=1")
	}
	// A label of the test's own: other tests' objects are in other
	// namespaces, which -A lists too.
	label := "readset=" + ns
	kubetest.MustKubectl(t, "-n", ns, "label", "configmap", "a", "b", label)
	kubetest.MustKubectl(t, "-n", other, "create", "configmap", "z", "--from-literal=foo=1")
	kubetest.MustKubectl(t, "-n", other, "label", "configmap", "z", label)
	c := connectForTest(t, kubetest.Kubeconfig(t), ns)

	dir := t.TempDir()
	manifest := filepath.Join(dir, "two.yaml")
	write := func(path, text string) {
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(manifest, "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  foo: not-the-draft\n---\n# a comment only\n---\n"+
		"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  namespace: "+ns+"\n")
	write(filepath.Join(dir, "list.json"), `{"apiVersion":"v1","kind":"List","items":[{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"b"}}]}`)
	write(filepath.Join(dir, "notes.txt"), "not a manifest")
	// A tree for -R: a manifest at each depth, a file that is none, and a
	// link to a directory, which is not followed.
	tree := t.TempDir()
	for _, d := range []string{"sub/deeper", "sub/empty"} {
		if err := os.MkdirAll(filepath.Join(tree, d), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	cmDoc := func(n string) string { return "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: " + n + "\n" }
	write(filepath.Join(tree, "top.yaml"), cmDoc("c"))
	write(filepath.Join(tree, "sub", "b.yml"), cmDoc("b"))
	write(filepath.Join(tree, "sub", "deeper", "a.json"), `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"}}`)
	write(filepath.Join(tree, "sub", "deeper", "README.md"), "not a manifest")
	if err := os.Symlink(dir, filepath.Join(tree, "sub", "link")); err != nil {
		t.Fatal(err)
	}

	cm := func(n string) string { return "configmaps/" + n + "@" + ns }
	for _, tc := range []struct {
		name string
		src  SetSource
		want []string
	}{
		{"TYPE/NAME each once", SetSource{Args: []string{"cm/b", "configmap/a", "configmaps/b"}}, []string{cm("b"), cm("a")}},
		{"TYPE NAME NAME", SetSource{Args: []string{"cm", "c", "a"}}, []string{cm("c"), cm("a")}},
		{"selector", SetSource{Args: []string{"cm"}, Selector: label}, []string{cm("a"), cm("b")}},
		{"selector in every namespace", SetSource{Args: []string{"cm"}, Selector: label, AllNamespaces: true},
			[]string{cm("a"), cm("b"), "configmaps/z@" + other}},
		{"a multi-document file", SetSource{Files: []string{manifest}}, []string{cm("c"), cm("a")}},
		{"a directory", SetSource{Files: []string{dir}}, []string{cm("b"), cm("c"), cm("a")}},
		{"a directory without -R", SetSource{Files: []string{tree}}, []string{cm("c")}},
		{"a directory with -R, in the order of the paths", SetSource{Files: []string{tree}, Recursive: true}, []string{cm("b"), cm("a"), cm("c")}},
		{"stdin", SetSource{Files: []string{"-"}, Stdin: strings.NewReader("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: b}\n")}, []string{cm("b")}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			objs, err := c.ReadSet(context.Background(), tc.src)
			if err != nil {
				t.Fatal(err)
			}
			got := names(objs)
			if tc.src.AllNamespaces {
				// Listed by namespace, whose names are the tests' own.
				sort.Strings(got)
				sort.Strings(tc.want)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
			for _, o := range objs {
				if v, _, _ := unstructured.NestedString(o.Object.Object, "data", "foo"); v != "1" {
					t.Errorf("%s holds foo %q: not the live object", o.Target, v)
				}
			}
		})
	}
}

// TestReadSetRefuses: what cannot be a set is said before anything opens,
// naming what is wrong: a selector that matches nothing (and where it
// looked), every missing object, a bad selector, a manifest of another
// namespace than -n, a manifest that names no object, forms mixed.
func TestReadSetRefuses(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "a", "--from-literal=foo=1")
	c := connectForTest(t, kubetest.Kubeconfig(t), ns)
	dir := t.TempDir()
	elsewhere := filepath.Join(dir, "elsewhere.yaml")
	_ = os.WriteFile(elsewhere, []byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  namespace: team-b\n"), 0o600)
	emptyTree := t.TempDir()
	_ = os.MkdirAll(filepath.Join(emptyTree, "a", "b"), 0o700)
	_ = os.WriteFile(filepath.Join(emptyTree, "a", "notes.txt"), []byte("not a manifest"), 0o600)
	generated := filepath.Join(dir, "generated.yaml")
	_ = os.WriteFile(generated, []byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  generateName: x-\n"), 0o600)

	_, err := c.ReadSet(context.Background(), SetSource{Args: []string{"cm"}, Selector: "app=none"})
	var nm *NoMatchError
	if !errors.As(err, &nm) || !strings.Contains(err.Error(), `no objects match the selector "app=none" (looked in configmaps in namespace "`+ns+`")`) {
		t.Errorf("no match: %v", err)
	}
	_, err = c.ReadSet(context.Background(), SetSource{Args: []string{"cm/a", "cm/nope", "cm/gone"}})
	var missing *MissingError
	if !errors.As(err, &missing) || len(missing.Errs) != 2 || !strings.Contains(err.Error(), "configmaps/nope not found") || !strings.Contains(err.Error(), "configmaps/gone not found") {
		t.Errorf("missing: %v", err)
	}
	for _, tc := range []struct {
		name string
		src  SetSource
		want string
	}{
		{"bad selector", SetSource{Args: []string{"cm"}, Selector: "app=="}, `the selector "app=="`},
		{"selector with names", SetSource{Args: []string{"cm/a"}, Selector: "app=web"}, "-l selects objects of one TYPE"},
		{"-f with names", SetSource{Args: []string{"cm/a"}, Files: []string{elsewhere}}, "-f names the objects itself"},
		{"another namespace than -n", SetSource{Files: []string{elsewhere}, NamespaceFlag: ns}, `is in namespace "team-b", not -n "` + ns + `"`},
		{"generateName", SetSource{Files: []string{generated}}, "generateName and no name names no object"},
		{"forms mixed", SetSource{Args: []string{"cm", "a", "cm/b"}}, `"cm/b" is not a name`},
		{"an empty directory", SetSource{Files: []string{t.TempDir()}}, "no .yaml, .yml or .json file in the directory"},
		{"an empty tree with -R", SetSource{Files: []string{emptyTree}, Recursive: true}, "no .yaml, .yml or .json file in the directory or below it"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := c.ReadSet(context.Background(), tc.src); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want %q", err, tc.want)
			}
		})
	}
}
