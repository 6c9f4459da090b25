package source

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/kustomize/kyaml/kio"

	"github.com/kedit/kedit/diff"
	"github.com/kedit/kedit/internal/testseed"
)

// randomLayout writes a layout drawn from rng: an overlay on a base that a
// second overlay may share, patches that may set the image, the replicas
// and an env value, a generator in the base or the overlay with literals
// and maybe an env file, and a plain file; sequences indented either way,
// comments on every line kustomize allows.
func randomLayout(rng *rand.Rand) (files map[string]string, roots []string) {
	ind := "" // compact sequences
	if rng.IntN(2) == 0 {
		ind = "  "
	}
	q := func(s string) string {
		switch rng.IntN(3) {
		case 0:
			return `"` + s + `"`
		case 1:
			return "'" + s + "'"
		}
		return s
	}
	files = map[string]string{}
	files["base/deploy.yaml"] = fmt.Sprintf(`# the app
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web # name
  labels:
    app: web # label
spec:
  replicas: 1 # replicas
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      %s- name: app # container
      %s  image: %s # image
      %s  env:
      %s  %s- name: A # a
      %s  %s  value: %s # a's value
      %s  %s- name: B
      %s  %s  value: b # b's value
`, ind, ind, q("nginx:1"), ind, ind, ind, ind, ind, q("a"), ind, ind, ind, ind)
	genInBase := rng.IntN(2) == 0
	gen := fmt.Sprintf(`configMapGenerator:
%s- name: settings # the settings
%s  literals:
%s  %s- color=blue # color
%s  %s- size=1 # size
`, ind, ind, ind, ind, ind, ind)
	envFile := rng.IntN(2) == 0
	if envFile {
		gen += fmt.Sprintf("%s  envs:\n%s  %s- more.env # more\n", ind, ind, ind)
	}
	base := fmt.Sprintf("# the base\nresources:\n%s- deploy.yaml # the deployment\n", ind)
	if genInBase {
		base += gen
		if envFile {
			files["base/more.env"] = "# more\nTIMEOUT=30\nRETRIES=5\n"
		}
	}
	files["base/kustomization.yaml"] = base
	prod := fmt.Sprintf("# prod\nnamespace: prod\nresources:\n%s- ../../base # the base\n", ind)
	var patch []string
	if rng.IntN(2) == 0 {
		patch = append(patch, "  replicas: 3 # prod's replicas")
	}
	if rng.IntN(2) == 0 {
		patch = append(patch, fmt.Sprintf("  template:\n    spec:\n      containers:\n      %s- name: app\n      %s  image: nginx:2 # prod's image", ind, ind))
	}
	var pl []string
	if len(patch) > 0 {
		files["overlays/prod/patch.yaml"] = "# prod's patch\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n" + strings.Join(patch, "\n") + "\n"
		pl = append(pl, fmt.Sprintf("%s- path: patch.yaml # the patch\n", ind))
	}
	if rng.IntN(2) == 0 {
		// A list at the top of a file is written flush left: the YAML
		// encoder indents no other way there.
		files["overlays/prod/ops.yaml"] = "# ops\n- op: replace\n  path: /spec/template/spec/containers/0/env/1/value\n  value: bb # prod's b\n"
		pl = append(pl, fmt.Sprintf("%s- path: ops.yaml\n%s  target:\n%s    kind: Deployment\n%s    name: web\n", ind, ind, ind, ind))
	}
	if len(pl) > 0 {
		prod += "patches:\n" + strings.Join(pl, "")
	}
	if !genInBase {
		prod += gen
		if envFile {
			files["overlays/prod/more.env"] = "# more\nTIMEOUT=30\nRETRIES=5\n"
		}
	}
	files["overlays/prod/kustomization.yaml"] = prod
	roots = []string{"overlays/prod"}
	if rng.IntN(2) == 0 {
		files["overlays/dev/kustomization.yaml"] = fmt.Sprintf("# dev\nnamespace: dev\nresources:\n%s- ../../base\n", ind)
		roots = append(roots, "overlays/dev")
	}
	files["plain/cm.yaml"] = fmt.Sprintf("# plain\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: plain # name\n  namespace: default\ndata:\n  x: %s # x\n  y: '2'\n---\n# another\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: other\n  namespace: default\ndata:\n  z: z\n", q("1"))
	return files, roots
}

// randomEdit changes one to three random fields of obj: a value set, a
// field added, a field or a list item removed.
func randomEdit(rng *rand.Rand, obj map[string]any) map[string]any {
	mine := unstructuredOf(obj).DeepCopy().Object
	n := 1 + rng.IntN(3)
	for range n {
		switch unstructuredOf(mine).GetKind() {
		case "ConfigMap":
			data, _ := mine["data"].(map[string]any)
			keys := sortedKeys(data)
			switch r := rng.IntN(3); {
			case r == 0 && len(keys) > 1:
				delete(data, keys[rng.IntN(len(keys))])
			case r == 1 || len(keys) == 0:
				data[fmt.Sprintf("k%d", rng.IntN(100))] = fmt.Sprintf("v%d", rng.IntN(100))
			default:
				data[keys[rng.IntN(len(keys))]] = fmt.Sprintf("w%d", rng.IntN(100))
			}
		case "Deployment":
			spec := mine["spec"].(map[string]any)
			c := spec["template"].(map[string]any)["spec"].(map[string]any)["containers"].([]any)[0].(map[string]any)
			env, _ := c["env"].([]any)
			switch rng.IntN(6) {
			case 0:
				spec["replicas"] = int64(2 + rng.IntN(9))
			case 1:
				c["image"] = fmt.Sprintf("nginx:%d", 3+rng.IntN(9))
			case 2:
				if len(env) > 0 {
					env[rng.IntN(len(env))].(map[string]any)["value"] = fmt.Sprintf("e%d", rng.IntN(100))
				}
			case 3:
				c["env"] = append(env, map[string]any{"name": fmt.Sprintf("N%d", rng.IntN(100)), "value": "new"})
			case 4:
				if len(env) > 0 {
					i := rng.IntN(len(env))
					c["env"] = append(env[:i:i], env[i+1:]...)
				}
			case 5:
				md := mine["metadata"].(map[string]any)
				l, _ := md["labels"].(map[string]any)
				if l == nil {
					l = map[string]any{}
					md["labels"] = l
				}
				l[fmt.Sprintf("tier%d", rng.IntN(3))] = "x"
			}
		}
	}
	return mine
}

func sortedKeys(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// allowedRefusal: edits kedit says it does not write, by design.
func allowedRefusal(err error) bool {
	var pe *PlaceError
	if !errors.As(err, &pe) {
		return false
	}
	return strings.Contains(pe.Why, "list of values that a shared base sets") || strings.Contains(pe.Why, "cannot remove a key") ||
		strings.Contains(pe.Why, "removing that op")
}

// indexedOpRefusal: a JSON 6902 op names an env item by its index, and
// an edit that adds or removes an env item moves what it names; the
// contract's check refuses that edit, naming the field.
func indexedOpRefusal(err error, files map[string]string) bool {
	var pe *PlaceError
	_, ops := files["overlays/prod/ops.yaml"]
	return ops && errors.As(err, &pe) && strings.Contains(pe.Field, ".env")
}

func TestWriteBackOfRandomEditsKeepsTheContract(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(testseed.Seed(t), 0))
	written, refused := 0, 0
	for i := range 40 {
		files, roots := randomLayout(rng)
		dir := writeLayout(t, files)
		root := roots[rng.IntN(len(roots))]
		plain := rng.IntN(5) == 0
		var base map[string]any
		var ref Ref
		var others []built
		if plain {
			ref = Ref{Kind: "ConfigMap", Namespace: "default", Name: "plain"}
			base = plainDocs(t, dir)[0]
			others = []built{{ref: Ref{Kind: "ConfigMap", Namespace: "default", Name: "other"}, obj: plainDocs(t, dir)[1]}}
		} else {
			objs, err := mustTree(t, dir).build(root, nil)
			if err != nil {
				t.Fatalf("%d: %v", i, err)
			}
			b := objs[rng.IntN(len(objs))]
			ref, base = b.ref, b.obj
			for _, o := range unhashed(objs) {
				if !sameRef(o, ref) {
					others = append(others, o)
				}
			}
		}
		mine := randomEdit(rng, base)
		if reflect.DeepEqual(mine, base) {
			continue
		}
		src, err := Find(dir, ref, Hints{})
		if err != nil {
			t.Fatalf("%d: find %s: %v", i, ref, err)
		}
		e, err := Plan(src, unstructuredOf(base), unstructuredOf(mine))
		if allowedRefusal(err) || indexedOpRefusal(err, files) {
			refused++
			continue
		}
		if err != nil {
			t.Fatalf("%d: %s in %s: %v\nfiles: %v", i, ref, root, err, files)
		}
		if err := e.Write(); err != nil {
			t.Fatalf("%d: %v", i, err)
		}
		written++
		// What is on disk now, read afresh: the edited object, the
		// others as they were, every comment still there.
		var got map[string]any
		gotOthers := map[Ref]map[string]any{}
		if plain {
			docs := plainDocs(t, dir)
			got, gotOthers[others[0].ref] = docs[0], docs[1]
		} else {
			objs, err := mustTree(t, dir).build(root, nil)
			if err != nil {
				t.Fatalf("%d: the written files do not build: %v", i, err)
			}
			for _, o := range unhashed(objs) {
				if sameRef(o, ref) {
					got = o.obj
				} else {
					gotOthers[o.ref] = o.obj
				}
			}
		}
		cs, _ := changes(unstructuredOf(base), unstructuredOf(mine))
		want := unhashedObj(base, ref)
		for _, c := range cs {
			want, _ = diff.WithValueAt(want, c.Path, c.Value)
		}
		if !sameObject(got, want) {
			t.Fatalf("%d: %s after the write-back:\n%v\nwant\n%v", i, ref, got, want)
		}
		for _, o := range others {
			if !sameObject(gotOthers[o.ref], o.obj) {
				t.Fatalf("%d: %s changed:\n%v\nwas\n%v", i, o.ref, gotOthers[o.ref], o.obj)
			}
		}
		commentsStay(t, i, dir, files, cs)
	}
	t.Logf("%d written back, %d refused by design", written, refused)
	if written < 20 {
		t.Errorf("only %d of 40 edits written back", written)
	}
}

// commentsStay: every comment of files, as the layout was written, is
// still in its file in dir, but those of the lines the changes cs removed.
func commentsStay(t *testing.T, i int, dir string, files map[string]string, cs []diff.Change) {
	t.Helper()
	for p, old := range files {
		now, err := os.ReadFile(filepath.Join(dir, p))
		if err != nil {
			t.Fatalf("%d: %s: %v", i, p, err)
		}
		for _, l := range strings.Split(old, "\n") {
			at := strings.Index(l, "# ")
			if at < 0 {
				continue
			}
			if c := l[at:]; !strings.Contains(string(now), c) && !commentOfRemoved(l, cs) {
				t.Fatalf("%d: %s lost the comment %q:\n%s", i, p, c, now)
			}
		}
	}
}

// commentOfRemoved: the comment's line is of a field, list item or
// literal the edit removed, and went with it.
func commentOfRemoved(line string, cs []diff.Change) bool {
	for _, ch := range cs {
		if ch.Kind != diff.Removed {
			continue
		}
		last := ch.Path[len(ch.Path)-1]
		name := ""
		switch {
		case last.FieldName != nil:
			name = *last.FieldName
		case last.Key != nil && len(*last.Key) > 0:
			name = fmt.Sprint((*last.Key)[0].Value.Unstructured())
		}
		if name != "" && strings.Contains(line, name) {
			return true
		}
		// A removed list item's other lines.
		if m, ok := ch.Base.Value.(map[string]any); ok {
			for k, v := range m {
				if strings.Contains(strings.NewReplacer(`"`, "", "'", "").Replace(line), fmt.Sprintf("%s: %v", k, v)) {
					return true
				}
			}
		}
	}
	return false
}

func unhashedObj(obj map[string]any, ref Ref) map[string]any {
	u := unstructuredOf(unstructuredOf(obj).DeepCopy().Object)
	if hashSuffix.MatchString(ref.Name) {
		u.SetName(hashSuffix.ReplaceAllString(ref.Name, ""))
	}
	return u.Object
}

func plainDocs(t *testing.T, dir string) []map[string]any {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "plain/cm.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	f, err := readYAMLFile("plain/cm.yaml", b)
	if err != nil {
		t.Fatal(err)
	}
	docs := docMaps(f)
	for i, d := range docs {
		docs[i], _ = jsonObject(d)
	}
	return docs
}

// TestTheBuildAgreesWithKubectlKustomize: the in-process build is the one
// kubectl kustomize makes, on the layout of the tests.
func TestTheBuildAgreesWithKubectlKustomize(t *testing.T) {
	t.Parallel()
	dir := writeLayout(t, layout)
	for _, root := range []string{"overlays/prod", "overlays/dev"} {
		out, err := exec.Command("kubectl", "kustomize", filepath.Join(dir, root)).Output()
		if err != nil {
			t.Fatalf("kubectl kustomize %s: %v", root, err)
		}
		nodes, err := (&kio.ByteReader{Reader: strings.NewReader(string(out)), OmitReaderAnnotations: true}).Read()
		if err != nil {
			t.Fatal(err)
		}
		theirs := map[Ref]map[string]any{}
		for _, n := range nodes {
			m, _ := n.Map()
			m, _ = jsonObject(m)
			theirs[RefOf(&unstructured.Unstructured{Object: m})] = m
		}
		ours, err := mustTree(t, dir).build(root, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(ours) != len(theirs) {
			t.Fatalf("%s: %d objects, kubectl kustomize %d", root, len(ours), len(theirs))
		}
		for _, b := range ours {
			if !reflect.DeepEqual(normal(b.obj), normal(theirs[b.ref])) {
				t.Errorf("%s: %s:\n%v\nkubectl kustomize:\n%v", root, b.ref, b.obj, theirs[b.ref])
			}
		}
	}
}
