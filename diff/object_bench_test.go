package diff

import (
	"fmt"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// benchConfigMap builds BENCHMARKS.md's ConfigMap: 50 data keys of about
// 20 KiB of config lines each (1 MiB in all); each side edits 10 keys, 2 of
// them the same keys on both sides (one on different lines, which merges
// line by line, one on the same line, which conflicts).
func benchConfigMap() (base, mine, theirs *unstructured.Unstructured) {
	const keys, lines = 50, 400
	data := map[string]any{}
	for k := range keys {
		var b strings.Builder
		for l := range lines {
			fmt.Fprintf(&b, "setting_%03d_%03d = value-%06d # a comment to pad the line\n", k, l, k*lines+l)
		}
		data[fmt.Sprintf("file-%02d.conf", k)] = b.String()
	}
	mk := func(d map[string]any, rv string) *unstructured.Unstructured {
		return &unstructured.Unstructured{Object: map[string]any{
			"apiVersion": "v1", "kind": "ConfigMap",
			"metadata": map[string]any{"name": "big", "namespace": "default", "resourceVersion": rv},
			"data":     d,
		}}
	}
	edit := func(keysEdited []int, line int, tag string) map[string]any {
		d := make(map[string]any, len(data))
		for k, v := range data {
			d[k] = v
		}
		for _, k := range keysEdited {
			name := fmt.Sprintf("file-%02d.conf", k)
			ls := strings.SplitAfter(d[name].(string), "\n")
			ls[line] = "edited by " + tag + "\n"
			ls[line+150] = "also edited by " + tag + "\n"
			d[name] = strings.Join(ls, "")
		}
		return d
	}
	// Keys 0 and 1 are edited on both sides: key 0 on other lines, key 1
	// on the same line.
	mineD := edit([]int{1, 2, 3, 4, 5, 6, 7, 8, 9}, 10, "mine")
	mineD = mergeKeys(mineD, edit([]int{0}, 20, "mine"))
	theirsD := edit([]int{1, 40, 41, 42, 43, 44, 45, 46, 47}, 10, "theirs")
	theirsD = mergeKeys(theirsD, edit([]int{0}, 60, "theirs"))
	return mk(data, "1"), mk(mineD, "1"), mk(theirsD, "2")
}

func mergeKeys(into, from map[string]any) map[string]any {
	into["file-00.conf"] = from["file-00.conf"]
	return into
}

// benchDeployment builds BENCHMARKS.md's Deployment with 20 containers; mine
// changes one image and adds an env entry to another container, theirs
// changes another image and the replicas and adds a container.
func benchDeployment() (base, mine, theirs *unstructured.Unstructured) {
	mk := func(edit func(i int, c map[string]any), extra int, replicas int64) *unstructured.Unstructured {
		var cs []any
		for i := range 20 + extra {
			c := map[string]any{
				"name":  fmt.Sprintf("c%02d", i),
				"image": fmt.Sprintf("registry.example.com/app-%02d:1.0", i),
				"args":  []any{"--port", fmt.Sprint(8000 + i), "--verbose"},
				"ports": []any{map[string]any{"containerPort": int64(8000 + i), "name": "http", "protocol": "TCP"}},
				"env": []any{
					map[string]any{"name": "A", "value": "1"},
					map[string]any{"name": "B", "value": "2"},
					map[string]any{"name": "C", "value": "3"},
				},
				"resources": map[string]any{
					"limits":   map[string]any{"cpu": "500m", "memory": "256Mi"},
					"requests": map[string]any{"cpu": "100m", "memory": "128Mi"},
				},
				"volumeMounts": []any{map[string]any{"name": "data", "mountPath": "/data"}},
			}
			if edit != nil {
				edit(i, c)
			}
			cs = append(cs, c)
		}
		return &unstructured.Unstructured{Object: map[string]any{
			"apiVersion": "apps/v1", "kind": "Deployment",
			"metadata": map[string]any{"name": "web", "namespace": "default", "resourceVersion": "1",
				"labels": map[string]any{"app": "web"}},
			"spec": map[string]any{
				"replicas": replicas,
				"selector": map[string]any{"matchLabels": map[string]any{"app": "web"}},
				"template": map[string]any{
					"metadata": map[string]any{"labels": map[string]any{"app": "web"}},
					"spec": map[string]any{
						"containers": cs,
						"volumes":    []any{map[string]any{"name": "data", "emptyDir": map[string]any{}}},
					},
				},
			},
		}}
	}
	base = mk(nil, 0, 3)
	mine = mk(func(i int, c map[string]any) {
		switch i {
		case 3:
			c["image"] = "registry.example.com/app-03:2.0"
		case 7:
			c["env"] = append(c["env"].([]any), map[string]any{"name": "D", "value": "4"})
		}
	}, 0, 3)
	theirs = mk(func(i int, c map[string]any) {
		if i == 12 {
			c["image"] = "registry.example.com/app-12:1.1"
		}
	}, 1, 5)
	return base, mine, theirs
}

func benchMergeObjects(b *testing.B, base, mine, theirs *unstructured.Unstructured, wantConflicts int) {
	res, err := MergeObjects(base, mine, theirs) // also loads the built-in schema
	if err != nil {
		b.Fatal(err)
	}
	if len(res.Conflicts) != wantConflicts || res.Schema != SchemaBuiltin {
		b.Fatalf("conflicts %v, schema %s", conflictPaths(res), res.Schema)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := MergeObjects(base, mine, theirs); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkMergeObjectsConfigMap1MiB(b *testing.B) {
	base, mine, theirs := benchConfigMap()
	benchMergeObjects(b, base, mine, theirs, 2)
}

func BenchmarkMergeObjectsDeployment20(b *testing.B) {
	base, mine, theirs := benchDeployment()
	benchMergeObjects(b, base, mine, theirs, 0)
}

// BenchmarkObjectMergeYAMLConfigMap1MiB times rendering the ConfigMap's
// merge, conflict block included, as the editor flow does after a merge.
func BenchmarkObjectMergeYAMLConfigMap1MiB(b *testing.B) {
	base, mine, theirs := benchConfigMap()
	res, err := MergeObjects(base, mine, theirs)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := res.YAML(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMergeDocumentsText times `kedit merge`'s in-process work on the
// text rows' 1 MiB multi-document YAML: finding that it is no manifest,
// then the line merge.
func BenchmarkMergeDocumentsText(b *testing.B) {
	mine, base, theirs := benchTexts()
	m, bs, t := []byte(mine), []byte(base), []byte(theirs)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		res, err := MergeDocuments(m, bs, t)
		if err != nil || res.Object != nil {
			b.Fatal(err)
		}
	}
}
