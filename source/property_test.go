package source

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/kustomize/kyaml/kio"

	"github.com/kedit/kedit/diff"
	"github.com/kedit/kedit/internal/testseed"
)

// allowedRefusal: edits kedit says it does not write, by design.
func allowedRefusal(err error) bool {
	var pe *PlaceError
	if !errors.As(err, &pe) {
		return false
	}
	return strings.Contains(pe.Why, "list of values that a shared base sets") || strings.Contains(pe.Why, "cannot remove a key") ||
		strings.Contains(pe.Why, "removing that op") || strings.Contains(pe.Why, "is an env file, which holds no value of more than one line") ||
		strings.Contains(pe.Why, "kedit does not remove a generator's file")
}

// indexedOpRefusal: a JSON 6902 op names an env item by its index, and
// an edit that adds or removes an env item moves what it names; the
// contract's check refuses that edit, naming the field. An op that
// appends an env item puts it after the items the files before it set:
// a new item added before it in the draft, or in a file before it, would
// build the env in another order, which the check refuses, naming the
// order.
func indexedOpRefusal(err error, files map[string]string) bool {
	var pe *PlaceError
	_, ops := files["overlays/prod/ops.yaml"]
	if ops && errors.As(err, &pe) && strings.Contains(pe.Field, ".env") {
		return true
	}
	appends := strings.Contains(files["overlays/prod/kustomization.yaml"], "env/-") || strings.Contains(files["overlays/dev/kustomization.yaml"], "env/-")
	return appends && errors.As(err, &pe) && strings.Contains(pe.Why, "the order of") && strings.Contains(pe.Why, ".env's items")
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
		var before map[string]map[Ref]map[string]any
		if !plain {
			before = refereeBuilds(t, dir, roots, files)
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
		onlyChangedLines(t, i, e, cs)
		if !plain {
			key := ref
			if key.Kind == "ConfigMap" {
				key.Name = hashSuffix.ReplaceAllString(key.Name, "")
			}
			everyOtherBuildStays(t, i, before, refereeBuilds(t, dir, roots, files), key, cs)
		}
	}
	t.Logf("%d written back, %d refused by design", written, refused)
	if written < 20 {
		t.Errorf("only %d of 40 edits written back", written)
	}
}

// everyOtherBuildStays: in every root's build, as the referee builds it
// before and after the write, the edited object (in each build that holds
// it) has the edit and every other object is as it was.
func everyOtherBuildStays(t *testing.T, i int, before, after map[string]map[Ref]map[string]any, key Ref, cs []diff.Change) {
	t.Helper()
	for root, objs := range before {
		if len(after[root]) != len(objs) {
			t.Fatalf("%d: %s built %d objects, now %d", i, root, len(objs), len(after[root]))
		}
		for r, o := range objs {
			want := o
			if r == key {
				for _, c := range cs {
					want, _ = diff.WithValueAt(want, c.Path, c.Value)
				}
			}
			if !sameObject(normalMap(want), normalMap(after[root][r])) {
				t.Fatalf("%d: %s builds %s as\n%v\nwant\n%v", i, root, r, after[root][r], want)
			}
		}
	}
}

// refereeBuilds are the objects each root builds, by name with a
// generated name's hash taken off, as kubectl kustomize builds them; a
// root with a remote base, which kubectl would fetch, is built in
// process (its remote base left out, as kedit builds it).
func refereeBuilds(t *testing.T, dir string, roots []string, files map[string]string) map[string]map[Ref]map[string]any {
	t.Helper()
	out := map[string]map[Ref]map[string]any{}
	type result struct {
		root string
		objs []built
		err  error
	}
	ch := make(chan result, len(roots))
	for _, root := range roots {
		go func() {
			remote := false
			for p, text := range files {
				if d, name := splitRel(p); name == "kustomization.yaml" && strings.Contains(text, "://") && mustTree(t, dir).chain(root, d, nil) != nil {
					remote = true
				}
			}
			if remote {
				tr, err := readTree(dir)
				if err != nil {
					ch <- result{root: root, err: err}
					return
				}
				objs, err := tr.build(root, nil)
				ch <- result{root, objs, err}
				return
			}
			b, err := exec.Command("kubectl", "kustomize", filepath.Join(dir, root)).CombinedOutput()
			if err != nil {
				ch <- result{root: root, err: fmt.Errorf("kubectl kustomize %s: %v\n%s", root, err, b)}
				return
			}
			nodes, err := (&kio.ByteReader{Reader: strings.NewReader(string(b)), OmitReaderAnnotations: true}).Read()
			var objs []built
			for _, n := range nodes {
				m, _ := n.Map()
				m, _ = jsonObject(m)
				u := &unstructured.Unstructured{Object: m}
				g := built{ref: RefOf(u), obj: m}
				if hashSuffix.MatchString(g.ref.Name) && u.GetKind() == "ConfigMap" {
					g.origin.ConfiguredBy.Kind = "ConfigMapGenerator"
				}
				objs = append(objs, g)
			}
			ch <- result{root, objs, err}
		}()
	}
	for range roots {
		r := <-ch
		if r.err != nil {
			t.Fatal(r.err)
		}
		byRef := map[Ref]map[string]any{}
		for _, o := range unhashed(r.objs) {
			byRef[o.ref] = o.obj
		}
		out[displayDir(cleanRel(r.root))] = byRef
	}
	return out
}

// onlyChangedLines: where every change is of a value the source holds
// (a scalar, a list of scalars), the edit removes no line but those of
// the changed values: one line for a value on one line.
func onlyChangedLines(t *testing.T, i int, e *Edit, cs []diff.Change) {
	t.Helper()
	bound := 0
	for _, c := range cs {
		n, ok := valueLines(c)
		if !ok {
			return
		}
		bound += n
	}
	removed := 0
	for _, f := range e.Files {
		for _, l := range diff.LineDiff(string(f.Old), string(f.New)) {
			if l.Op == diff.LineDelete {
				removed += len(l.Lines)
			}
		}
	}
	if removed > bound {
		var d strings.Builder
		for _, f := range e.Files {
			d.WriteString(f.Unified())
		}
		t.Fatalf("%d: %d lines changed for %d changed values:\n%s", i, removed, len(cs), d.String())
	}
}

// valueLines is how many lines of the source a change of a value may
// touch: one for a scalar on one line, those of a block scalar, one for
// each item changed of a list of scalars of the same length.
func valueLines(c diff.Change) (int, bool) {
	if !c.Base.Present || !c.Value.Present {
		return 0, false
	}
	switch b := c.Base.Value.(type) {
	case map[string]any:
		return 0, false
	case []any:
		v, ok := c.Value.Value.([]any)
		if !ok || len(v) != len(b) {
			return 0, false
		}
		n := 0
		for k := range b {
			if _, ok := b[k].(map[string]any); ok {
				return 0, false
			}
			if !reflect.DeepEqual(b[k], v[k]) {
				n++
			}
		}
		return n, true
	case string:
		return 1 + strings.Count(b, "\n"), true
	}
	return 1, true
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
