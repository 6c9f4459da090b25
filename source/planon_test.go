package source

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/kedit/kedit/diff"
	"github.com/kedit/kedit/internal/testseed"
)

// target is one object of a random layout a test edits: as a root's
// build makes it, or as the plain file holds it.
type target struct {
	root string // "" for the plain file's
	ref  Ref
	// key is ref with a generated name's hash taken off (unhashed): the
	// object's name however its content changes.
	key   Ref
	base  map[string]any
	plain int // the plain file's document, when root is ""
	cs    []diff.Change
}

// targets are every object the layout's roots build, and the plain
// file's two.
func targets(t *testing.T, dir string, roots []string) []target {
	t.Helper()
	var out []target
	for _, root := range roots {
		objs, err := mustTree(t, dir).build(root, nil)
		if err != nil {
			t.Fatal(err)
		}
		keys := unhashed(objs)
		for i, b := range objs {
			out = append(out, target{root: root, ref: b.ref, key: keys[i].ref, base: b.obj})
		}
	}
	docs := plainDocs(t, dir)
	return append(out,
		target{ref: Ref{Kind: "ConfigMap", Namespace: "default", Name: "plain"}, key: Ref{Kind: "ConfigMap", Namespace: "default", Name: "plain"}, base: docs[0]},
		target{ref: Ref{Kind: "ConfigMap", Namespace: "default", Name: "other"}, key: Ref{Kind: "ConfigMap", Namespace: "default", Name: "other"}, base: docs[1], plain: 1})
}

// now is the target as the files on disk make it now.
func (tg target) now(t *testing.T, dir string) map[string]any {
	t.Helper()
	if tg.root == "" {
		return plainDocs(t, dir)[tg.plain]
	}
	objs, err := mustTree(t, dir).build(tg.root, nil)
	if err != nil {
		t.Fatalf("the written files do not build %s: %v", tg.root, err)
	}
	for _, o := range unhashed(objs) {
		if o.ref == tg.key {
			return o.obj
		}
	}
	return nil
}

// TestWriteBackOfSeveralObjectsKeepsTheContract: random edits of two to
// four random objects of a random layout, planned one on another
// (PlanOn) and written as one (Combine): every edited object gets its
// edit, every other object of every build is as it was, every comment
// is still there, also where two edits change one file (two documents
// of the plain file, a generator and a new patch in one kustomization),
// which the edits planned each on the files as they were would undo.
func TestWriteBackOfSeveralObjectsKeepsTheContract(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(testseed.Seed(t), 0))
	written, shared := 0, 0
	for i := range 30 {
		files, roots := randomLayout(rng)
		dir := writeLayout(t, files)
		all := targets(t, dir, roots)
		rng.Shuffle(len(all), func(a, b int) { all[a], all[b] = all[b], all[a] })
		picked := all[:2+rng.IntN(3)]
		var edits []*Edit
		var edited []target
		// One edit per object, as a set holds each object once: an object
		// two roots build (the root kustomization and its overlay) is
		// one object, whose second edit would be planned from a base the
		// first changed.
		once := map[Ref]bool{}
		for _, tg := range picked {
			if once[tg.ref] {
				continue
			}
			once[tg.ref] = true
			mine := randomEdit(rng, tg.base)
			if reflect.DeepEqual(mine, tg.base) {
				continue
			}
			src, err := Find(dir, tg.ref, Hints{})
			if err != nil {
				t.Fatalf("%d: find %s: %v", i, tg.ref, err)
			}
			e, err := PlanOn(edits, src, unstructuredOf(tg.base), unstructuredOf(mine))
			if allowedRefusal(err) || indexedOpRefusal(err, files) {
				continue
			}
			if err != nil {
				t.Fatalf("%d: %s after %d edits: %v\nfiles: %v", i, tg.ref, len(edits), err, files)
			}
			tg.cs, _ = changes(unstructuredOf(tg.base), unstructuredOf(mine))
			edits, edited = append(edits, e), append(edited, tg)
		}
		if len(edits) == 0 {
			continue
		}
		one, err := Combine(edits)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, e := range edits {
			n += len(e.Files)
		}
		if n > len(one.Files) {
			shared++
		}
		if err := one.Write(); err != nil {
			t.Fatalf("%d: %v", i, err)
		}
		written += len(edits)
		var cs []diff.Change
		for _, tg := range all {
			want := unhashedObj(tg.base, tg.ref)
			for _, e := range edited {
				if e.ref == tg.ref {
					for _, c := range e.cs {
						want, _ = diff.WithValueAt(want, c.Path, c.Value)
					}
					cs = append(cs, e.cs...)
				}
			}
			if got := tg.now(t, dir); !sameObject(got, want) {
				t.Fatalf("%d: %s (%d edits, %d files) after the write-back:\n%v\nwant\n%v", i, tg.ref, len(edits), len(one.Files), got, want)
			}
		}
		commentsStay(t, i, dir, files, cs)
	}
	t.Logf("%d objects written back, %d times two edits in one file", written, shared)
	if written < 30 || shared == 0 {
		t.Errorf("%d objects written back, %d times two edits in one file: the test tried too little", written, shared)
	}
}

// TestSameBuild: PlanOn's check that an earlier edit's build comes out as
// it left it takes a build as itself, and names an object changed (a
// generator's literal), gone or added.
func TestSameBuild(t *testing.T) {
	t.Parallel()
	dir := writeLayout(t, layout)
	tr := mustTree(t, dir)
	prod, err := tr.build("overlays/prod", nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, same := sameBuild(prod, prod); !same {
		t.Error("a build is not the same as itself")
	}
	settings := findRef(t, dir, "overlays/prod", "ConfigMap", "prod-settings")
	src, err := Find(dir, settings, Hints{})
	if err != nil {
		t.Fatal(err)
	}
	base := live(t, dir, "overlays/prod", settings)
	mine := base.DeepCopy()
	mine.Object["data"].(map[string]any)["region"] = "us"
	e, err := Plan(src, base, mine)
	if err != nil {
		t.Fatal(err)
	}
	over := map[string][]byte{}
	for _, f := range e.Files {
		over[f.Path] = f.New
	}
	edited, err := tr.build("overlays/prod", over)
	if err != nil {
		t.Fatal(err)
	}
	if r, same := sameBuild(prod, edited); same || r.Kind != "ConfigMap" || !strings.HasPrefix(r.Name, "prod-settings") {
		t.Errorf("an edited ConfigMap: %v %v", r, same)
	}
	if r, same := sameBuild(prod, prod[1:]); same || r != prod[0].ref {
		t.Errorf("an object gone: %v %v, want %v", r, same, prod[0].ref)
	}
	if r, same := sameBuild(prod[1:], prod); same || r != prod[0].ref {
		t.Errorf("an object added: %v %v, want %v", r, same, prod[0].ref)
	}
}
