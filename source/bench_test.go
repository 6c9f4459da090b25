package source

import (
	"fmt"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// fleetOf is a repository of apps, each a base (a Deployment, a Service,
// a generator) and four overlays (dev, staging, prod, canary) with a
// patch and an images: entry each, and a namespace each, or (names) a
// name prefix and no namespace: 100 apps are 500 kustomizations.
func fleetOf(apps int, names bool) map[string]string {
	files := map[string]string{}
	for a := range apps {
		app := fmt.Sprintf("app%03d", a)
		base := "apps/" + app + "/base/"
		files[base+"kustomization.yaml"] = "# " + app + "\nresources:\n- deploy.yaml\n- svc.yaml\nconfigMapGenerator:\n- name: " + app + "-settings\n  literals:\n  - color=blue # the color\n"
		files[base+"deploy.yaml"] = fmt.Sprintf(`# %[1]s
apiVersion: apps/v1
kind: Deployment
metadata:
  name: %[1]s
  labels:
    app: %[1]s
spec:
  replicas: 1
  selector:
    matchLabels:
      app: %[1]s
  template:
    metadata:
      labels:
        app: %[1]s
    spec:
      containers:
        - name: app
          image: registry.example/%[1]s:1.0.0
          args: ["--port=8080",
                 "--log=info"]
          env:
          - name: MODE
            value: normal # the mode
`, app)
		files[base+"svc.yaml"] = fmt.Sprintf("apiVersion: v1\nkind: Service\nmetadata:\n  name: %[1]s\nspec:\n  selector:\n    app: %[1]s\n  ports:\n  - port: 80\n    targetPort: 8080\n", app)
		for _, env := range []string{"dev", "staging", "prod", "canary"} {
			o := "apps/" + app + "/overlays/" + env + "/"
			ns := fmt.Sprintf("namespace: %s-%s", app, env)
			if names {
				ns = "namePrefix: " + env + "-"
			}
			files[o+"kustomization.yaml"] = fmt.Sprintf("# %[2]s\n%[3]s\nresources:\n- ../../base\npatches:\n- path: replicas.yaml\nimages:\n- name: registry.example/%[1]s\n  newTag: 1.0.1 # %[2]s's release\n", app, env, ns)
			files[o+"replicas.yaml"] = fmt.Sprintf("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: %s\nspec:\n  replicas: 3 # %s\n", app, env)
		}
	}
	return files
}

// BenchmarkSourceIn500Kustomizations: the source of one Deployment found
// by search in a repository of 500 kustomizations, their overlays told
// apart by namespace or by name prefix, and an edit of its image planned
// and verified (the images: entry written, the overlay built again).
// make bench holds each to 1 s.
func BenchmarkSourceIn500Kustomizations(b *testing.B) {
	for _, c := range []struct {
		name  string
		names bool
		ref   Ref
	}{
		{"namespaces", false, Ref{Group: "apps", Kind: "Deployment", Namespace: "app042-prod", Name: "app042"}},
		{"name-prefixes", true, Ref{Group: "apps", Kind: "Deployment", Namespace: "default", Name: "prod-app042"}},
	} {
		dir := writeLayout(b, fleetOf(100, c.names))
		b.Run("find/"+c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				src, err := Find(dir, c.ref, Hints{})
				if err != nil || src.Kustomization != "apps/app042/overlays/prod" {
					b.Fatalf("%+v %v", src, err)
				}
			}
		})
		src, err := Find(dir, c.ref, Hints{})
		if err != nil {
			b.Fatal(err)
		}
		objs, err := mustTree(b, dir).build(src.Kustomization, nil)
		if err != nil {
			b.Fatal(err)
		}
		var base *unstructured.Unstructured
		for _, o := range objs {
			if sameRef(o, c.ref) {
				base = &unstructured.Unstructured{Object: o.obj}
			}
		}
		mine := base.DeepCopy()
		containerOf(mine)["image"] = "registry.example/app042:1.0.2"
		b.Run("plan/"+c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				e, err := Plan(src, base, mine)
				if err != nil || len(e.Files) != 1 || e.Placed[0].How != "images transformer" {
					b.Fatalf("%+v %v", e, err)
				}
			}
		})
	}
}
