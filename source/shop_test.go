package source

import (
	"errors"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// shopLayout has the shape of a small shop's repository: a base with
// commonLabels and a generator that two overlays share; staging with an
// inline JSON 6902 patch that replaces the replicas and appends an env
// item (add .../env/-), a labels: transformer and a Service patch;
// production with its patch under the deprecated patchesStrategicMerge:,
// images: and replicas: entries.
var shopLayout = map[string]string{
	"base/kustomization.yaml": `# Base for the shop.
# Shared by staging and production.
apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization

commonLabels:
  app: shop   # selector label

resources:
  - deployment.yaml
  - service.yaml

configMapGenerator:
  - name: shop-config
    literals:
      - LOG_LEVEL=info
`,
	"base/deployment.yaml": `apiVersion: apps/v1
kind: Deployment
metadata:
  name: shop
spec:
  replicas: 1
  selector:
    matchLabels:
      app: shop
  template:
    metadata:
      labels:
        app: shop
    spec:
      containers:
        - name: web
          image: nginx
          ports:
            - containerPort: 8080
              name: http
          env:
            - name: MODE
              value: "base"
            - name: TIMEOUT
              value: "30"   # seconds
`,
	"base/service.yaml": "apiVersion: v1\nkind: Service\nmetadata:\n  name: shop\nspec:\n  selector:\n    app: shop\n  ports:\n    - name: http\n      port: 80\n      targetPort: http\n",
	"overlays/staging/kustomization.yaml": `apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
namespace: shop-staging
nameSuffix: -stg
resources:
  - ../../base
patches:
  - target:
      kind: Deployment
      name: shop
    patch: |-
      - op: replace
        path: /spec/replicas
        value: 2
      - op: add
        path: /spec/template/spec/containers/0/env/-
        value:
          name: STAGING
          value: "yes"   # staging only
labels:
  - pairs:
      env: staging
    includeSelectors: false
`,
	"overlays/production/kustomization.yaml": `apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
namespace: shop-prod
namePrefix: prod-
resources:
- ../../base
patchesStrategicMerge:
- deployment-patch.yaml
images:
- name: nginx
  newTag: "1.27"  # prod pin
replicas:
- name: shop
  count: 3
`,
	"overlays/production/deployment-patch.yaml": `apiVersion: apps/v1
kind: Deployment
metadata:
  name: shop
spec:
  template:
    spec:
      containers:
      - name: web
        env:
        - name: MODE
          value: production  # set by prod overlay
        resources:
          limits:
            memory: 256Mi
`,
}

// writeBackCase is an edit of an object a layout builds, the files it
// must change with a line each must have, and the words its placements
// must say why with.
type writeBackCase struct {
	name  string
	files map[string]string
	root  string
	kind  string
	named string // a prefix of the object's name
	edit  func(u *unstructured.Unstructured)
	want  map[string]string
	why   string
}

// checkWriteBack plans the case's edit, checks the files it changes,
// writes them, and asks kubectl kustomize what every build makes now:
// the edit in the object (its env in the draft's order), every other
// object as it was.
func checkWriteBack(t *testing.T, c writeBackCase) *Edit {
	t.Helper()
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
		if c.why != "" && !strings.Contains(p.Why, c.why) || c.why == "" && p.Why != "" {
			t.Errorf("placed: %s, want a why naming %q", p, c.why)
		}
	}
	if err := e.Write(); err != nil {
		t.Fatal(err)
	}
	after := kubectlBuilds(t, dir, c.files)
	for root, objs := range before {
		for r, o := range objs {
			if r.Kind == ref.Kind && root == displayDir(c.root) && strings.HasPrefix(r.Name, c.named) {
				o = normalMap(mine.Object)
				o = unhashedObj(o, r)
			}
			if got := after[root][r]; !sameObject(normalMap(o), normalMap(got)) {
				t.Errorf("%s builds %s as\n%v\nwant\n%v", root, r, got, o)
			}
		}
	}
	return e
}

func TestPlanWritesWhereTheShopSetsTheField(t *testing.T) {
	t.Parallel()
	cases := []writeBackCase{
		{name: "an env item a JSON 6902 add op appends: the op's value, the env in its order",
			files: shopLayout, root: "overlays/staging", kind: "Deployment", named: "shop-stg",
			edit: func(u *unstructured.Unstructured) {
				u.Object["spec"].(map[string]any)["replicas"] = int64(5)
				envNamed(containerOf(u), "STAGING")["value"] = "no"
			},
			want: map[string]string{"overlays/staging/kustomization.yaml": "          value: \"no\"   # staging only\n"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			checkWriteBack(t, c)
		})
	}
}

// TestTheContractKeepsTheEnvsOrder: a build whose env holds the draft's
// items in another order is not the draft (the env's order is the
// container's, and applying it would roll the pods).
func TestTheContractKeepsTheEnvsOrder(t *testing.T) {
	env := func(names ...string) map[string]any {
		var l []any
		for _, n := range names {
			l = append(l, map[string]any{"name": n, "value": "v"})
		}
		return map[string]any{"spec": map[string]any{"template": map[string]any{"spec": map[string]any{"containers": []any{
			map[string]any{"name": "web", "env": l}}}}}}
	}
	if sameObject(env("MODE", "TIMEOUT", "STAGING"), env("STAGING", "MODE", "TIMEOUT")) {
		t.Error("env in another order is the same object")
	}
	if !sameObject(env("MODE", "TIMEOUT"), env("MODE", "TIMEOUT")) {
		t.Error("the same env is not the same object")
	}
}

// TestAPlanThatReordersTheEnvIsRefused: an env item added where a JSON
// 6902 op appends another after it (the base's file, which only staging
// builds) would build the env in another order than the draft's; the
// plan is refused, naming the order, and nothing is written.
func TestAPlanThatReordersTheEnvIsRefused(t *testing.T) {
	t.Parallel()
	files := map[string]string{}
	for p, text := range shopLayout {
		if !strings.HasPrefix(p, "overlays/production/") {
			files[p] = text
		}
	}
	dir := writeLayout(t, files)
	ref := findRef(t, dir, "overlays/staging", "Deployment", "shop-stg")
	src, err := Find(dir, ref, Hints{})
	if err != nil {
		t.Fatal(err)
	}
	base := live(t, dir, "overlays/staging", ref)
	mine := base.DeepCopy()
	c := containerOf(mine)
	c["env"] = append(c["env"].([]any), map[string]any{"name": "NEW", "value": "1"})
	_, err = Plan(src, base, mine)
	var pe *PlaceError
	if !errors.As(err, &pe) || !strings.Contains(pe.Why, `the order of .spec.template.spec.containers[name="web"].env's items`) {
		t.Fatalf("got %v, want a refusal naming the env's order", err)
	}
}
