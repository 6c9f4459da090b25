package source

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// live returns the object as the build of kust makes it, as the cluster
// would hold it.
func live(t *testing.T, dir, kust string, ref Ref) *unstructured.Unstructured {
	t.Helper()
	objs, err := mustTree(t, dir).build(kust, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range objs {
		if sameRef(b, ref) {
			u := &unstructured.Unstructured{Object: b.obj}
			return u.DeepCopy()
		}
	}
	t.Fatalf("%s builds no %s", kust, ref)
	return nil
}

func findRef(t *testing.T, dir, kust, kind, prefix string) Ref {
	t.Helper()
	objs, err := mustTree(t, dir).build(kust, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range objs {
		if b.ref.Kind == kind && strings.HasPrefix(b.ref.Name, prefix) {
			return b.ref
		}
	}
	t.Fatalf("no %s %s", kind, prefix)
	return Ref{}
}

func TestPlanWritesEachFieldWhereItIsSet(t *testing.T) {
	t.Parallel()
	web := Ref{Group: "apps", Kind: "Deployment", Namespace: "prod", Name: "web"}
	cases := []struct {
		name  string
		ref   func(dir string) Ref
		kust  string
		edit  func(u *unstructured.Unstructured)
		file  string // the one file changed
		lines []string
	}{
		{"a patch's image", func(string) Ref { return web }, "overlays/prod", func(u *unstructured.Unstructured) {
			c := u.Object["spec"].(map[string]any)["template"].(map[string]any)["spec"].(map[string]any)["containers"].([]any)[0].(map[string]any)
			c["image"] = "nginx:1.27"
		}, "overlays/prod/deploy-patch.yaml", []string{"        image: nginx:1.27 # prod's image"}},
		{"a JSON 6902 patch's value", func(string) Ref { return web }, "overlays/prod", func(u *unstructured.Unstructured) {
			c := u.Object["spec"].(map[string]any)["template"].(map[string]any)["spec"].(map[string]any)["containers"].([]any)[0].(map[string]any)
			c["env"].([]any)[1].(map[string]any)["value"] = "c"
		}, "overlays/prod/json-patch.yaml", []string{`  value: "c" # prod mode`}},
		{"a field of a shared base: a new patch", func(string) Ref { return web }, "overlays/prod", func(u *unstructured.Unstructured) {
			c := u.Object["spec"].(map[string]any)["template"].(map[string]any)["spec"].(map[string]any)["containers"].([]any)[0].(map[string]any)
			c["env"].([]any)[0].(map[string]any)["value"] = "debug"
		}, "overlays/prod/deploy-patch.yaml", []string{"        env:", "        - name: LOG", "          value: debug"}},
		{"an overlay generator's literal", func(dir string) Ref { return findRef(t, dir, "overlays/prod", "ConfigMap", "prod-settings") }, "overlays/prod", func(u *unstructured.Unstructured) {
			u.Object["data"].(map[string]any)["region"] = "us"
		}, "overlays/prod/kustomization.yaml", []string{"  - region=us # where"}},
		{"an env file's line", func(dir string) Ref { return findRef(t, dir, "overlays/prod", "ConfigMap", "prod-settings") }, "overlays/prod", func(u *unstructured.Unstructured) {
			u.Object["data"].(map[string]any)["TIMEOUT"] = "60"
		}, "overlays/prod/prod.env", []string{"TIMEOUT=60"}},
		{"a shared base generator's literal: merged in the overlay", func(dir string) Ref { return findRef(t, dir, "overlays/prod", "ConfigMap", "app-cfg") }, "overlays/prod", func(u *unstructured.Unstructured) {
			u.Object["data"].(map[string]any)["color"] = "red"
		}, "overlays/prod/kustomization.yaml", []string{"- name: app-cfg", "  behavior: merge", "  - color=red"}},
		{"a plain file's value", func(string) Ref { return Ref{Kind: "ConfigMap", Namespace: "default", Name: "plain-cfg"} }, "", func(u *unstructured.Unstructured) {
			u.Object["data"].(map[string]any)["mode"] = "slow"
		}, "plain/app.yaml", []string{`  mode: "slow" # quoted`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			dir := writeLayout(t, layout)
			ref := c.ref(dir)
			src, err := Find(dir, ref, Hints{})
			if err != nil {
				t.Fatal(err)
			}
			var base *unstructured.Unstructured
			if c.kust == "" {
				b, _ := os.ReadFile(filepath.Join(dir, src.File))
				f, _ := readYAMLFile(src.File, b)
				m, _ := f.doc(ref).Map()
				base = &unstructured.Unstructured{Object: docMaps(&yamlFile{nodes: f.nodes})[0]}
				_ = m
			} else {
				base = live(t, dir, c.kust, ref)
			}
			mine := base.DeepCopy()
			c.edit(mine)
			e, err := Plan(src, base, mine)
			if err != nil {
				t.Fatal(err)
			}
			if len(e.Files) != 1 || e.Files[0].Path != c.file {
				t.Fatalf("files changed: %+v", paths(e))
			}
			for _, l := range c.lines {
				if !strings.Contains(string(e.Files[0].New), l+"\n") {
					t.Errorf("%s lacks %q:\n%s", c.file, l, e.Files[0].New)
				}
			}
			assertCommentsKept(t, string(e.Files[0].Old), string(e.Files[0].New))
		})
	}
}

func paths(e *Edit) []string {
	var out []string
	for _, f := range e.Files {
		out = append(out, f.Path)
	}
	return out
}

// assertCommentsKept: every comment of old is in new.
func assertCommentsKept(t testing.TB, old, new string) {
	t.Helper()
	for _, c := range comments(old) {
		if !strings.Contains(new, c) {
			t.Errorf("the comment %q is gone:\n%s", c, new)
		}
	}
}

func comments(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if i := strings.Index(l, "# "); i >= 0 {
			out = append(out, l[i:])
		}
	}
	return out
}

func TestPlanRefusesWhatItCannotPlace(t *testing.T) {
	t.Parallel()
	dir := writeLayout(t, layout)
	web := Ref{Group: "apps", Kind: "Deployment", Namespace: "prod", Name: "web"}
	src, err := Find(dir, web, Hints{})
	if err != nil {
		t.Fatal(err)
	}
	base := live(t, dir, "overlays/prod", web)
	mine := base.DeepCopy()
	// The replica count the patch sets is changed; the name is the
	// object's identity, which no edit of the source may change.
	mine.SetName("web2")
	if _, err := Plan(src, base, mine); err == nil {
		t.Error("a renamed object was planned")
	}
	if _, err := Plan(src, base, base.DeepCopy()); !errors.Is(err, ErrNoChange) {
		t.Errorf("no change: %v", err)
	}
}
