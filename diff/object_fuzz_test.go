package diff

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// The fuzz targets below check MergeObjects' properties on small
// ConfigMap-like objects built from the fuzz input: a base and two sides,
// each side a few edits of base (data keys set, removed or nulled, labels,
// finalizers, server-owned fields, the whole data map dropped). Values come
// from a small pool, multi-line texts and marker-like lines included, so
// that sides often touch the same fields.

// fuzzBytes hands out the fuzz input one byte at a time, then zeros.
type fuzzBytes []byte

func (b *fuzzBytes) next() int {
	if len(*b) == 0 {
		return 0
	}
	c := (*b)[0]
	*b = (*b)[1:]
	return int(c)
}

var (
	fuzzKeys   = []string{"a", "b", "conf", "d"}
	fuzzLabels = []string{"app", "tier"}
	fuzzFins   = []string{"f1", "f2", "f3"}
	fuzzValues = []any{
		"", "x", "y",
		"l1\nl2\nl3\nl4\nl5\n",
		"L1\nl2\nl3\nl4\nl5\n",
		"l1\nl2\nl3\nl4\nL5\n",
		"l1\nl2\nX\nl4\nl5\n",
		"l1\nl2\nY\nl4\nl5\n",
		"l1\nl2\nl3\nl4\nl5",
		"=======\nl2\n",
		"<<<<<<< mine\n",
		nil,
		int64(3),
	}
)

// fuzzObjects builds base, mine and theirs from the fuzz input.
func fuzzObjects(data []byte) (base, mine, theirs *unstructured.Unstructured) {
	in := fuzzBytes(data)
	base = &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "v1",
		"kind":       "ConfigMap",
		"metadata": map[string]any{
			"name":            "cm",
			"namespace":       "default",
			"resourceVersion": "1",
		},
	}}
	md := base.Object["metadata"].(map[string]any)
	bits := in.next()
	d := map[string]any{}
	for i, k := range fuzzKeys {
		if bits&(1<<i) != 0 {
			d[k] = fuzzValues[in.next()%len(fuzzValues)]
		}
	}
	if bits&16 == 0 {
		base.Object["data"] = d
	}
	if bits&32 != 0 {
		md["labels"] = map[string]any{"app": "web"}
	}
	if bits&64 != 0 {
		md["finalizers"] = []any{"f1", "f2"}
	}
	return base, fuzzEdit(base, &in), fuzzEdit(base, &in)
}

// fuzzEdit returns a copy of base with a few edits read from in.
func fuzzEdit(base *unstructured.Unstructured, in *fuzzBytes) *unstructured.Unstructured {
	o := base.DeepCopy()
	md := o.Object["metadata"].(map[string]any)
	n := in.next() % 5
	for range n {
		op, arg := in.next(), in.next()
		switch op % 8 {
		case 0, 1, 2:
			d, ok := o.Object["data"].(map[string]any)
			if !ok {
				d = map[string]any{}
				o.Object["data"] = d
			}
			d[fuzzKeys[arg%len(fuzzKeys)]] = fuzzValues[(arg/4)%len(fuzzValues)]
		case 3:
			if d, ok := o.Object["data"].(map[string]any); ok {
				delete(d, fuzzKeys[arg%len(fuzzKeys)])
			}
		case 4:
			l, ok := md["labels"].(map[string]any)
			if !ok {
				l = map[string]any{}
				md["labels"] = l
			}
			k := fuzzLabels[arg%len(fuzzLabels)]
			if arg&4 != 0 {
				delete(l, k)
			} else {
				l[k] = fuzzValues[1+(arg/8)%2]
			}
		case 5:
			f, _ := md["finalizers"].([]any)
			v := fuzzFins[arg%len(fuzzFins)]
			if i := slices.Index(f, any(v)); i >= 0 {
				f = slices.Delete(slices.Clone(f), i, i+1)
			} else {
				f = append(slices.Clone(f), v)
			}
			md["finalizers"] = f
		case 6:
			md["resourceVersion"] = string(rune('2' + arg%8))
			o.Object["status"] = map[string]any{"n": int64(arg)}
		case 7:
			if arg&1 != 0 {
				delete(o.Object, "data")
			} else {
				o.Object["data"] = nil
			}
		}
	}
	return o
}

func objectFuzzSeeds(f *testing.F) {
	for _, s := range [][]byte{
		{},
		{0x0f, 0, 3, 4, 2, 1, 0x12, 0, 9, 1, 0, 0x16},
		{0x6f, 3, 3, 3, 3, 2, 0, 12, 5, 1, 2, 0, 16, 5, 2},
		{0x04, 3, 1, 0, 0x0e, 1, 0, 0x1a},
		{0x01, 1, 2, 3, 1, 7, 0, 1, 0, 5},
		{0x0f, 9, 10, 3, 11, 3, 0, 44, 4, 1, 6, 3, 2, 0, 8, 7, 1},
	} {
		f.Add(s)
	}
}

// withoutServerFields is obj as MergeObjects compares it.
func withoutServerFields(t *testing.T, obj *unstructured.Unstructured) map[string]any {
	t.Helper()
	s, err := stripped(obj, false)
	if err != nil {
		t.Fatal(err)
	}
	return s.Object
}

func mustMerge(t *testing.T, base, mine, theirs *unstructured.Unstructured) *ObjectMerge {
	t.Helper()
	res, err := MergeObjects(base, mine, theirs)
	if err != nil {
		t.Fatalf("MergeObjects: %v\nbase %v\nmine %v\ntheirs %v", err, base.Object, mine.Object, theirs.Object)
	}
	return res
}

// FuzzMergeObjectsOneSide checks merge(base, base, x) = x and
// merge(base, x, base) = x, server-owned fields aside (they come from
// theirs).
func FuzzMergeObjectsOneSide(f *testing.F) {
	objectFuzzSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		base, x, _ := fuzzObjects(data)
		res := mustMerge(t, base, base, x)
		if len(res.Conflicts) != 0 || !reflect.DeepEqual(res.Merged.Object, x.Object) {
			t.Fatalf("merge(base, base, x):\n got %v\nwant %v\nconflicts %v", res.Merged.Object, x.Object, conflictPaths(res))
		}
		res = mustMerge(t, base, x, base)
		if len(res.Conflicts) != 0 || !reflect.DeepEqual(withoutServerFields(t, res.Merged), withoutServerFields(t, x)) {
			t.Fatalf("merge(base, x, base):\n got %v\nwant %v\nconflicts %v", res.Merged.Object, x.Object, conflictPaths(res))
		}
	})
}

// FuzzMergeObjectsSameChange checks merge(base, x, x) = x.
func FuzzMergeObjectsSameChange(f *testing.F) {
	objectFuzzSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		base, x, _ := fuzzObjects(data)
		res := mustMerge(t, base, x, x.DeepCopy())
		if len(res.Conflicts) != 0 || !reflect.DeepEqual(res.Merged.Object, x.Object) {
			t.Fatalf("merge(base, x, x):\n got %v\nwant %v\nconflicts %v", res.Merged.Object, x.Object, conflictPaths(res))
		}
	})
}

// FuzzMergeObjectsSwap checks that swapping mine and theirs swaps the sides
// of each conflict, and that the rendered YAML holds a block exactly when a
// conflict is open and reads back as the merged object otherwise.
func FuzzMergeObjectsSwap(f *testing.F) {
	objectFuzzSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		base, mine, theirs := fuzzObjects(data)
		samePrunedComparison(t, base, mine, theirs)
		a := mustMerge(t, base, mine, theirs)
		b := mustMerge(t, base, theirs, mine)
		if len(a.Conflicts) != len(b.Conflicts) {
			t.Fatalf("conflicts %v, swapped %v", conflictPaths(a), conflictPaths(b))
		}
		for i, ca := range a.Conflicts {
			cb := b.Conflicts[i]
			if ca.Path.String() != cb.Path.String() || !reflect.DeepEqual(ca.Base, cb.Base) ||
				!reflect.DeepEqual(ca.Mine, cb.Theirs) || !reflect.DeepEqual(ca.Theirs, cb.Mine) {
				t.Fatalf("conflict %d: %+v, swapped %+v", i, ca, cb)
			}
		}

		text, err := a.YAML()
		if err != nil {
			t.Fatalf("YAML: %v", err)
		}
		got, err := ParseYAML(text)
		if len(a.Conflicts) > 0 {
			var me *MarkerError
			if !errors.As(err, &me) {
				t.Fatalf("ParseYAML with %d open conflicts: %v\n%s", len(a.Conflicts), err, text)
			}
			return
		}
		if err != nil {
			t.Fatalf("ParseYAML: %v\n%s", err, text)
		}
		if !reflect.DeepEqual(got.Object, a.Merged.Object) {
			t.Fatalf("YAML reads back as\n%v\nwant\n%v", got.Object, a.Merged.Object)
		}
	})
}

// FuzzMergeObjectsKeepsChanges checks that no change of either side is
// dropped without a conflict: every data key, label and finalizer a side
// changed ends up as that side has it, unless a conflict covers it or both
// sides changed it and their line merge was taken.
func FuzzMergeObjectsKeepsChanges(f *testing.F) {
	objectFuzzSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		base, mine, theirs := fuzzObjects(data)
		res := mustMerge(t, base, mine, theirs)
		covered := func(path string) bool {
			for _, c := range res.Conflicts {
				p := c.Path.String()
				if p == path || len(path) > len(p) && path[:len(p)] == p && (path[len(p)] == '.' || path[len(p)] == '[') {
					return true
				}
			}
			return false
		}
		merged := res.Merged.Object
		for _, side := range []struct {
			name       string
			obj, other *unstructured.Unstructured
		}{{"mine", mine, theirs}, {"theirs", theirs, mine}} {
			for _, f := range []struct {
				path   string
				fields []string
			}{
				{".data", []string{"data"}},
				{".metadata.labels", []string{"metadata", "labels"}},
			} {
				// A map dropped or set to null reads as a map without
				// keys: each of base's keys is then a removal to check.
				bm, _ := nestedMap(base.Object, f.fields...)
				sm, _ := nestedMap(side.obj.Object, f.fields...)
				om, _ := nestedMap(side.other.Object, f.fields...)
				mm, _ := nestedMap(merged, f.fields...)
				for _, k := range keysOf(bm, sm) {
					bv, bin := bm[k]
					sv, sin := sm[k]
					if bin == sin && equalJSON(bv, sv) {
						continue
					}
					if covered(f.path + "." + k) {
						continue
					}
					mv, min := mm[k]
					if min == sin && equalJSON(mv, sv) {
						continue
					}
					ov, oin := om[k]
					if oin && (!bin || !equalJSON(ov, bv)) {
						// Both changed it; a clean line merge is allowed.
						bs, _ := bv.(string)
						ss, _ := sv.(string)
						os, _ := ov.(string)
						if ms, ok := mv.(string); ok && min {
							a := Merge3Text(ss, bs, os, TextOptions{})
							b := Merge3Text(os, bs, ss, TextOptions{})
							if (a.Conflicts == 0 && a.Merged == ms) || (b.Conflicts == 0 && b.Merged == ms) {
								continue
							}
						}
					}
					t.Fatalf("%s's change of %s.%s (%#v -> %#v) was dropped: merged has %#v (present %v); conflicts %v",
						side.name, f.path, k, bv, sv, mv, min, conflictPaths(res))
				}
			}
			// Finalizers are a set: what a side added is in, what it
			// removed is out.
			if covered(".metadata.finalizers") {
				continue
			}
			bf, _ := nestedList(base.Object, "metadata", "finalizers")
			sf, _ := nestedList(side.obj.Object, "metadata", "finalizers")
			mf, _ := nestedList(merged, "metadata", "finalizers")
			for _, v := range fuzzFins {
				inB, inS, inM := slices.Contains(bf, any(v)), slices.Contains(sf, any(v)), slices.Contains(mf, any(v))
				if inB != inS && inM != inS {
					t.Fatalf("%s's change of finalizer %s was dropped: base %v, %s %v, merged %v", side.name, v, bf, side.name, sf, mf)
				}
			}
		}
	})
}

// FuzzParseYAML checks that no text makes ParseYAML panic.
func FuzzParseYAML(f *testing.F) {
	f.Add([]byte(cm("  a: b\n")))
	f.Add([]byte("data:\n<<<<<<< mine\n  a: b\n||||||| base\n=======\n>>>>>>> theirs\n"))
	f.Add([]byte("  <<<<<<<< x\n========\n>>>>>>>>\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _ = ParseYAML(data)
	})
}

func nestedMap(obj map[string]any, fields ...string) (map[string]any, bool) {
	var cur any = obj
	for _, f := range fields {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		if cur, ok = m[f]; !ok {
			return nil, false
		}
	}
	m, ok := cur.(map[string]any)
	return m, ok
}

func nestedList(obj map[string]any, fields ...string) ([]any, bool) {
	m, ok := nestedMap(obj, fields[:len(fields)-1]...)
	if !ok {
		return nil, false
	}
	l, ok := m[fields[len(fields)-1]].([]any)
	return l, ok
}

func keysOf(ms ...map[string]any) []string {
	var out []string
	for _, m := range ms {
		for k := range m {
			if !slices.Contains(out, k) {
				out = append(out, k)
			}
		}
	}
	slices.Sort(out)
	return out
}

// fuzzDeployments builds a Deployment-like base and two sides from the fuzz
// input: containers keyed by name with images, atomic args and env lists
// keyed by name, so that keyed lists merge item by item.
func fuzzDeployments(data []byte) (base, mine, theirs *unstructured.Unstructured) {
	in := fuzzBytes(data)
	container := func(i, bits int) map[string]any {
		c := map[string]any{"name": fmt.Sprintf("c%d", i), "image": fmt.Sprintf("img%d:1", i)}
		if bits&1 != 0 {
			c["args"] = []any{"a", "b"}
		}
		if bits&2 != 0 {
			c["env"] = []any{map[string]any{"name": "A", "value": "1"}, map[string]any{"name": "B", "value": "2"}}
		}
		return c
	}
	bits := in.next()
	var cs []any
	for i := range 1 + bits%3 {
		cs = append(cs, container(i, bits>>(2+i)))
	}
	base = &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": map[string]any{"name": "d", "namespace": "default", "resourceVersion": "1"},
		"spec": map[string]any{
			"replicas": int64(1),
			"template": map[string]any{"spec": map[string]any{"containers": cs}},
		},
	}}
	edit := func() *unstructured.Unstructured {
		o := base.DeepCopy()
		spec := o.Object["spec"].(map[string]any)
		ps := spec["template"].(map[string]any)["spec"].(map[string]any)
		for range in.next() % 4 {
			op, arg := in.next(), in.next()
			cs, _ := ps["containers"].([]any)
			var c map[string]any
			if len(cs) > 0 {
				c = cs[arg%len(cs)].(map[string]any)
			}
			switch op % 8 {
			case 0:
				if c != nil {
					c["image"] = fmt.Sprintf("img:%d", arg%3)
				}
			case 1:
				ps["containers"] = append(cs, container(3+arg%2, arg>>1))
			case 2:
				if len(cs) > 1 {
					i := arg % len(cs)
					ps["containers"] = append(cs[:i:i], cs[i+1:]...)
				}
			case 3:
				if len(cs) > 1 {
					ps["containers"] = append(append([]any{}, cs[1:]...), cs[0])
				}
			case 4:
				if c != nil {
					c["args"] = []any{"a", fmt.Sprint(arg % 3)}
				}
			case 5:
				if c != nil {
					env, _ := c["env"].([]any)
					c["env"] = append(env, map[string]any{"name": fmt.Sprintf("E%d", arg%2), "value": fmt.Sprint(arg % 3)})
				}
			case 6:
				if c != nil {
					if env, ok := c["env"].([]any); ok && len(env) > 0 {
						env[0].(map[string]any)["value"] = fmt.Sprint(arg % 3)
					}
				}
			case 7:
				spec["replicas"] = int64(arg % 3)
			}
		}
		return o
	}
	return base, edit(), edit()
}

// FuzzMergeObjectsDeployment checks the properties on keyed lists:
// merge(base, base, x) = x, merge(base, x, x) = x, swapped sides swap each
// conflict, and pruning before Compare changes no change set.
func FuzzMergeObjectsDeployment(f *testing.F) {
	for _, s := range [][]byte{
		{},
		{0x0e, 2, 0, 1, 8, 2, 1, 0, 2, 0},
		{0x2f, 3, 3, 0, 5, 1, 6, 2, 3, 0, 0, 1, 5, 1},
		{0x7e, 2, 2, 1, 4, 2, 2, 0, 4, 2},
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		base, mine, theirs := fuzzDeployments(data)
		samePrunedComparison(t, base, mine, theirs)
		if res := mustMerge(t, base, base, mine); len(res.Conflicts) != 0 || !reflect.DeepEqual(res.Merged.Object, mine.Object) {
			t.Fatalf("merge(base, base, x):\n got %v\nwant %v", res.Merged.Object, mine.Object)
		}
		if res := mustMerge(t, base, mine, mine.DeepCopy()); len(res.Conflicts) != 0 || !reflect.DeepEqual(res.Merged.Object, mine.Object) {
			t.Fatalf("merge(base, x, x):\n got %v\nwant %v", res.Merged.Object, mine.Object)
		}
		a := mustMerge(t, base, mine, theirs)
		b := mustMerge(t, base, theirs, mine)
		if len(a.Conflicts) != len(b.Conflicts) {
			t.Fatalf("conflicts %v, swapped %v", conflictPaths(a), conflictPaths(b))
		}
		for i, ca := range a.Conflicts {
			cb := b.Conflicts[i]
			if ca.Path.String() != cb.Path.String() || !reflect.DeepEqual(ca.Mine, cb.Theirs) || !reflect.DeepEqual(ca.Theirs, cb.Mine) {
				t.Fatalf("conflict %d: %+v, swapped %+v", i, ca, cb)
			}
		}
		text, err := a.YAML()
		if err != nil {
			t.Fatalf("YAML: %v", err)
		}
		got, err := ParseYAML(text)
		var me *MarkerError
		switch {
		case len(a.Conflicts) > 0 && !errors.As(err, &me):
			t.Fatalf("ParseYAML with open conflicts: %v\n%s", err, text)
		case len(a.Conflicts) > 0 && me.Path == "":
			t.Fatalf("MarkerError names no field:\n%s", text)
		case len(a.Conflicts) == 0 && (err != nil || !reflect.DeepEqual(got.Object, a.Merged.Object)):
			t.Fatalf("YAML reads back as %v, %v; want %v", got, err, a.Merged.Object)
		}
	})
}
