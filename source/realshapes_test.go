package source

import (
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kedit/kedit/diff"
)

// The layouts of the repositories the write-back was tried on, written
// here with their shapes: kustomize's examples (ldap, springboot,
// multibases), microservices-demo's components, and images: and
// replicas: transformers.

var ldapLayout = map[string]string{
	"base/kustomization.yaml": "resources:\n- deployment.yaml\nconfigMapGenerator:\n- name: ldap-configmap\n  files:\n    - env.startup.txt\n",
	"base/env.startup.txt":    "LDAP_ORGANISATION=Example\n",
	"base/deployment.yaml": `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ldap
  labels:
    app: ldap
spec:
  replicas: 1
  selector:
    matchLabels:
      app: ldap
  template:
    metadata:
      labels:
        app: ldap
    spec:
      containers:
        - name: ldap
          image: osixia/openldap:1.1.11
          volumeMounts:
            - name: ldap-config
              mountPath: /etc/ldap/slapd.d
      volumes:
        - name: ldap-config
          configMap:
            name: ldap-configmap
`,
	"overlays/staging/kustomization.yaml": "resources:\n- ../../base\npatches:\n - path: deployment.yaml\nnamePrefix: staging-\nconfigMapGenerator:\n- name: env-config\n  files:\n  - config.env\n",
	"overlays/staging/deployment.yaml":    "\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: ldap\nspec:\n  replicas: 2\n",
	"overlays/staging/config.env":         "DB_USERNAME=admin\nDB_PASSWORD=somepw\n",
}

var springbootLayout = map[string]string{
	"base/kustomization.yaml":     "resources:\n- deployment.yaml\nconfigMapGenerator:\n- name: demo-configmap\n  # behavior: merge\n  files:\n    - application.properties\n",
	"base/application.properties": "app.name=Kinflate Demo\n",
	"base/deployment.yaml": `apiVersion: apps/v1
kind: Deployment
metadata:
  name: sbdemo
spec:
  selector:
    matchLabels:
      app: sbdemo
  template:
    metadata:
      labels:
        app: sbdemo
    spec:
      containers:
        - name: sbdemo
          image: jingfang/sbdemo
          volumeMounts:
          - name: demo-config
            mountPath: /config
      volumes:
      - name: demo-config
        configMap:
          name: demo-configmap
`,
	"overlays/production/kustomization.yaml": "resources:\n- ../../base\npatches:\n- path: patch.yaml\n- path: memorylimit_patch.yaml\nnamePrefix: production-\n",
	"overlays/production/patch.yaml": `apiVersion: v1
kind: ConfigMap
metadata:
  name: demo-configmap
data:
  application.properties: |
    app.name=Production Kinflate Demo
    server.tomcat.max-threads=20
`,
	"overlays/production/memorylimit_patch.yaml": `apiVersion: apps/v1
kind: Deployment
metadata:
  name: sbdemo
spec:
  replicas: 2
  template:
    spec:
      containers:
        - name: sbdemo
          resources:
            limits:
              memory: 1250Mi
          env:
          - name: MEM_TOTAL_MB
            valueFrom:
              resourceFieldRef:
                resource: limits.memory
`,
}

var multibasesLayout = map[string]string{
	"kustomization.yaml":            "resources:\n- dev\n- staging\n- production\nnamePrefix: cluster-a-\n",
	"base/kustomization.yaml":       "resources:\n- pod.yaml",
	"base/pod.yaml":                 "apiVersion: v1\nkind: Pod\nmetadata:\n  name: myapp-pod\n  labels:\n    app: myapp\nspec:\n  containers:\n  - name: nginx\n    image: nginx:1.7.9\n",
	"dev/kustomization.yaml":        "resources:\n- ../base\nnamePrefix: dev-\n",
	"staging/kustomization.yaml":    "resources:\n- ../base\nnamePrefix: staging-\n",
	"production/kustomization.yaml": "resources:\n- ../base\nnamePrefix: prod-\n",
}

var sharedTransformers = map[string]string{
	"base/kustomization.yaml":          "resources:\n- deploy.yaml\nimages:\n- name: nginx\n  newTag: \"1.26\" # the fleet's\nreplicas:\n- name: web\n  count: 3\n",
	"base/deploy.yaml":                 "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 1\n  selector:\n    matchLabels:\n      app: web\n  template:\n    metadata:\n      labels:\n        app: web\n    spec:\n      containers:\n      - name: app\n        image: nginx:1.25\n",
	"overlays/prod/kustomization.yaml": "namespace: prod\nresources:\n- ../../base\n",
	"overlays/dev/kustomization.yaml":  "namespace: dev\nresources:\n- ../../base\nreplicas:\n- name: web\n  count: 2 # dev runs two\n",
}

const frontend = `# Copyright 2018 Google LLC

apiVersion: apps/v1
kind: Deployment
metadata:
  name: frontend
spec:
  selector:
    matchLabels:
      app: frontend
  template:
    metadata:
      labels:
        app: frontend
    spec:
      containers:
        - name: server
          image: us-central1-docker.pkg.dev/boutique/frontend:v0.10.0
          env:
          - name: PORT
            value: "8080"
---
apiVersion: v1
kind: Service
metadata:
  name: frontend
spec:
  selector:
    app: frontend
  ports:
  - name: http
    port: 80
    targetPort: 8080
`

// boutique is microservices-demo's kustomize/: a base, a component whose
// inline patch sets an env value, and one whose images: sets the tag.
func boutique(sharedComponent bool) map[string]string {
	files := map[string]string{
		"base/kustomization.yaml": "resources:\n- frontend.yaml\n",
		"base/frontend.yaml":      frontend,
		"kustomization.yaml": `# Copyright 2022 Google LLC

apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
resources:
- base
components:
- components/cymbal-branding
- components/container-images-tag
# - components/network-policies
`,
		"components/cymbal-branding/kustomization.yaml": "# Copyright 2022 Google LLC\n\napiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\npatches:\n- patch: |-\n" + indentRest(cymbalPatch, 4, false) + "\n",
		"components/container-images-tag/kustomization.yaml": `apiVersion: kustomize.config.k8s.io/v1alpha1
kind: Component
images:
- name: us-central1-docker.pkg.dev/boutique/frontend
  newTag: v0.10.1 # the release
`,
	}
	if sharedComponent {
		files["tests/all/kustomization.yaml"] = "resources:\n- ../../base\ncomponents:\n- ../../components/cymbal-branding\nnamespace: test\n"
	}
	return files
}

func containerOf(u *unstructured.Unstructured) map[string]any {
	return u.Object["spec"].(map[string]any)["template"].(map[string]any)["spec"].(map[string]any)["containers"].([]any)[0].(map[string]any)
}

func TestPlanWritesWhereRealRepositoriesSetTheField(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		files map[string]string
		root  string
		kind  string
		named string // a prefix of the object's name
		edit  func(u *unstructured.Unstructured)
		// the files changed and a line each must have
		want map[string]string
		why  string // in the placement's Why
		// also: the builds under the root's that hold the object, by
		// the object's name there
		also map[string]string
	}{
		{"a generator's file, beside a patch with a blank first line", ldapLayout, "overlays/staging", "ConfigMap", "staging-env-config",
			func(u *unstructured.Unstructured) {
				u.Object["data"].(map[string]any)["config.env"] = "DB_USERNAME=root\n"
			},
			map[string]string{"overlays/staging/config.env": "DB_USERNAME=root\n"}, "", nil},
		{"a patch with a blank first line", ldapLayout, "overlays/staging", "Deployment", "staging-ldap",
			func(u *unstructured.Unstructured) { u.Object["spec"].(map[string]any)["replicas"] = int64(3) },
			map[string]string{"overlays/staging/deployment.yaml": "\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: ldap\nspec:\n  replicas: 3\n"}, "", nil},
		{"a block scalar set by a patch, beside one with lists indented two ways", springbootLayout, "overlays/production", "ConfigMap", "production-demo-configmap",
			func(u *unstructured.Unstructured) {
				u.Object["data"].(map[string]any)["application.properties"] = "app.name=Production Kinflate Demo\nserver.tomcat.max-threads=40\n"
			},
			map[string]string{"overlays/production/patch.yaml": "    server.tomcat.max-threads=40\n"}, "", nil},
		{"a component's inline patch", boutique(false), "", "Deployment", "frontend",
			func(u *unstructured.Unstructured) {
				envNamed(containerOf(u), "CYMBAL_BRANDING")["value"] = "false"
			},
			map[string]string{"components/cymbal-branding/kustomization.yaml": "              value: \"false\"\n"}, "no other build uses it", nil},
		{"a component another build uses: a patch in the overlay, said why", boutique(true), "", "Deployment", "frontend",
			func(u *unstructured.Unstructured) {
				envNamed(containerOf(u), "CYMBAL_BRANDING")["value"] = "false"
			},
			map[string]string{"deployment-frontend-patch.yaml": "          value: \"false\"\n", "kustomization.yaml": "- path: deployment-frontend-patch.yaml\n"}, "tests/all", nil},
		{"an images: transformer's tag", boutique(false), "", "Deployment", "frontend",
			func(u *unstructured.Unstructured) {
				containerOf(u)["image"] = "us-central1-docker.pkg.dev/boutique/frontend:v0.10.2"
			},
			map[string]string{"components/container-images-tag/kustomization.yaml": "  newTag: v0.10.2 # the release\n"}, "", nil},
		{"an images: transformer's digest", boutique(false), "", "Deployment", "frontend",
			func(u *unstructured.Unstructured) {
				containerOf(u)["image"] = "us-central1-docker.pkg.dev/boutique/frontend@sha256:" + strings.Repeat("ab", 32)
			},
			map[string]string{"components/container-images-tag/kustomization.yaml": "  digest: sha256:" + strings.Repeat("ab", 32) + " # the release\n"}, "", nil},
		{"a shared base's images: and replicas: entries: new entries in the overlay, said why", sharedTransformers, "overlays/prod", "Deployment", "web",
			func(u *unstructured.Unstructured) {
				containerOf(u)["image"] = "nginx:1.27"
				u.Object["spec"].(map[string]any)["replicas"] = int64(5)
			},
			map[string]string{"overlays/prod/kustomization.yaml": "- ../../base\nreplicas:\n- name: web\n  count: 5\nimages:\n- name: nginx\n  newTag: \"1.27\"\n"}, "also makes overlays/dev",
			nil},
		{"an overlay's own replicas: entry", sharedTransformers, "overlays/dev", "Deployment", "web",
			func(u *unstructured.Unstructured) { u.Object["spec"].(map[string]any)["replicas"] = int64(4) },
			map[string]string{"overlays/dev/kustomization.yaml": "  count: 4 # dev runs two\n"}, "", nil},
		{"a base three builds share: the patch in the one nearest the object", multibasesLayout, "", "Pod", "cluster-a-dev-myapp-pod",
			func(u *unstructured.Unstructured) { containerOf(podAsTemplate(u))["image"] = "nginx:1.8" },
			map[string]string{"dev/pod-myapp-pod-patch.yaml": "    image: nginx:1.8\n", "dev/kustomization.yaml": "- path: pod-myapp-pod-patch.yaml\n"}, "staging",
			map[string]string{"dev": "dev-myapp-pod"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			dir := writeLayout(t, c.files)
			ref := findRef(t, dir, c.root, c.kind, c.named)
			src, err := Find(dir, ref, Hints{})
			if err != nil {
				t.Fatal(err)
			}
			base := live(t, dir, c.root, ref)
			mine := base.DeepCopy()
			c.edit(mine)
			before := kubectlBuilds(t, dir, c.files)
			e, err := Plan(src, base, mine)
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(paths(e), " "); got != strings.Join(sortedKeys(anyMap(c.want)), " ") {
				t.Fatalf("files changed: %s; placed %+v", got, e.Placed)
			}
			for _, f := range e.Files {
				if !strings.Contains(string(f.New), c.want[f.Path]) {
					t.Errorf("%s lacks %q:\n%s", f.Path, c.want[f.Path], f.New)
				}
				if f.Old != nil {
					assertCommentsKept(t, string(f.Old), string(f.New))
				}
			}
			for _, p := range e.Placed {
				if c.why != "" && !strings.Contains(p.Why, c.why) {
					t.Errorf("placed: %s, want a why naming %s", p, c.why)
				}
			}
			if err := e.Write(); err != nil {
				t.Fatal(err)
			}
			// kubectl kustomize, not kedit's build, says what each
			// kustomization builds now: the edit in the object's, every
			// other object of every build as it was.
			after := kubectlBuilds(t, dir, c.files)
			cs, err := changes(base, mine)
			if err != nil {
				t.Fatal(err)
			}
			for root, objs := range before {
				for r, o := range objs {
					got := after[root][r]
					if r.Kind == ref.Kind && (root == displayDir(c.root) && strings.HasPrefix(r.Name, c.named) || c.also[root] == r.Name) {
						for _, ch := range cs {
							o, _ = diff.WithValueAt(o, ch.Path, ch.Value)
						}
					}
					if !sameObject(normalMap(o), normalMap(got)) {
						t.Errorf("%s builds %s as\n%v\nwant\n%v", root, r, got, o)
					}
				}
			}
		})
	}
}

// podAsTemplate lets containerOf reach a Pod's containers.
func podAsTemplate(u *unstructured.Unstructured) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{"spec": map[string]any{"template": map[string]any{"spec": u.Object["spec"]}}}}
}

func envNamed(c map[string]any, name string) map[string]any {
	for _, e := range c["env"].([]any) {
		if e.(map[string]any)["name"] == name {
			return e.(map[string]any)
		}
	}
	return nil
}

func anyMap(m map[string]string) map[string]any {
	out := map[string]any{}
	for k, v := range m {
		out[k] = v
	}
	return out
}

func normalMap(m map[string]any) map[string]any {
	n, _ := normal(m).(map[string]any)
	return n
}

// kubectlBuilds are refereeBuilds of every kustomization of files that
// is no component.
func kubectlBuilds(t *testing.T, dir string, files map[string]string) map[string]map[Ref]map[string]any {
	t.Helper()
	var roots []string
	for p, text := range files {
		if d, name := splitRel(p); name == "kustomization.yaml" && !strings.Contains(text, "kind: Component") {
			roots = append(roots, displayDir(d))
		}
	}
	return refereeBuilds(t, dir, roots, files)
}
