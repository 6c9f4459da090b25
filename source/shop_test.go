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
	"base/service.yaml": "apiVersion: v1\nkind: Service\nmetadata:\n  name: shop\nspec:\n  selector:\n    app: shop\n  ports:\n    - port: 80\n      targetPort: http\n",
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
	said := false
	for _, p := range e.Placed {
		if c.why != "" && p.Why != "" && !strings.Contains(p.Why, c.why) || c.why == "" && p.Why != "" {
			t.Errorf("placed: %s, want a why naming %q", p, c.why)
		}
		said = said || c.why != "" && strings.Contains(p.Why, c.why)
	}
	if c.why != "" && !said {
		t.Errorf("placed: %v, none says why naming %q", e.Placed, c.why)
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
		{name: "an env value the shared base sets: a new patch naming the items before it, the env in its order",
			files: shopLayout, root: "overlays/staging", kind: "Deployment", named: "shop-stg",
			edit: func(u *unstructured.Unstructured) {
				envNamed(containerOf(u), "TIMEOUT")["value"] = "60"
			},
			want: map[string]string{"overlays/staging/deployment-shop-patch.yaml": "        env:\n        - name: MODE\n        - name: TIMEOUT\n          value: \"60\"\n",
				"overlays/staging/kustomization.yaml": "  - path: deployment-shop-patch.yaml\n"},
			why: "base/deployment.yaml sets it, and base is shared with overlays/production"},
		{name: "a Service port added where the base is shared: a JSON 6902 op appends it, the ports in their order",
			files: shopLayout, root: "overlays/production", kind: "Service", named: "prod-shop",
			edit: func(u *unstructured.Unstructured) {
				spec := u.Object["spec"].(map[string]any)
				spec["ports"] = append(spec["ports"].([]any), map[string]any{"name": "metrics", "port": int64(9090), "protocol": "TCP", "targetPort": int64(9090)})
			},
			want: map[string]string{"overlays/production/kustomization.yaml": "      path: /spec/ports/-\n"},
			why:  "base is shared with overlays/staging; a JSON 6902 op appends it"},
		{name: "a value a patch under patchesStrategicMerge: sets: that patch",
			files: shopLayout, root: "overlays/production", kind: "Deployment", named: "prod-shop",
			edit: func(u *unstructured.Unstructured) {
				envNamed(containerOf(u), "MODE")["value"] = "prod2"
			},
			want: map[string]string{"overlays/production/deployment-patch.yaml": "          value: prod2  # set by prod overlay\n"}},
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

// fleetLayout has the shape of a Flux fleet repository: a base two
// environments share, and a component only staging uses, whose inline
// patch selects every Deployment by its target (its document names
// "any") and sets an annotation and an env item; staging's inline patch
// of the HPA, selected by its kind alone, sets its minReplicas.
var fleetLayout = map[string]string{
	"apps/base/podinfo/kustomization.yaml": "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - deployment.yaml\n  - hpa.yaml\n",
	"apps/base/podinfo/hpa.yaml": `apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: podinfo
spec:
  scaleTargetRef:
    apiVersion: apps/v1
    kind: Deployment
    name: podinfo
  minReplicas: 2
  maxReplicas: 4
  metrics:
    - type: Resource
      resource:
        name: cpu
        target:
          type: Utilization
          averageUtilization: 99
`,
	"apps/base/podinfo/deployment.yaml": `apiVersion: apps/v1
kind: Deployment
metadata:
  name: podinfo
spec:
  selector:
    matchLabels:
      app: podinfo
  template:
    metadata:
      labels:
        app: podinfo
    spec:
      containers:
        - name: podinfod
          image: ghcr.io/stefanprodan/podinfo:6.5.0
          env:
            - name: PODINFO_UI_COLOR
              value: "#34577c"
`,
	"apps/staging/kustomization.yaml": `apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
namespace: podinfo-staging
resources:
  - ../base/podinfo
components:
  - ../../components/debug
patches:
  - patch: |
      apiVersion: autoscaling/v2
      kind: HorizontalPodAutoscaler
      metadata:
        name: podinfo
      spec:
        minReplicas: 1   # staging is small
    target:
      kind: HorizontalPodAutoscaler
`,
	"apps/production/kustomization.yaml": "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nnamespace: podinfo-production\nresources:\n  - ../base/podinfo\n",
	"components/debug/kustomization.yaml": `apiVersion: kustomize.config.k8s.io/v1alpha1
kind: Component
patches:
  - target:
      kind: Deployment
    patch: |
      apiVersion: apps/v1
      kind: Deployment
      metadata:
        name: any
        annotations:
          debug: "on"   # staging debugs
      spec:
        template:
          spec:
            containers:
            - name: podinfod
              env:
              - name: DEBUG
                value: "1"
`,
}

func TestPlanWritesWhereAComponentsTargetedPatchSetsTheField(t *testing.T) {
	t.Parallel()
	checkWriteBack(t, writeBackCase{name: "a component's patch with a target",
		files: fleetLayout, root: "apps/staging", kind: "Deployment", named: "podinfo",
		edit: func(u *unstructured.Unstructured) {
			u.SetAnnotations(map[string]string{"debug": "off"})
			envNamed(containerOf(u), "DEBUG")["value"] = "0"
		},
		want: map[string]string{"components/debug/kustomization.yaml": "          debug: \"off\"   # staging debugs\n"},
		why:  "the component sets it, and no other build uses it"})
}

// TestAPlainFileBesideAKustomizationIsSearched: a YAML file beside a
// kustomization.yaml that no kustomization names (applied with kubectl
// apply -f) is a plain file of the search; the resource file beside it
// is not, as the kustomization builds on it.
func TestAPlainFileBesideAKustomizationIsSearched(t *testing.T) {
	t.Parallel()
	files := map[string]string{
		"kustomization.yaml":         "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n- guestbook-ui-svc.yaml\n",
		"guestbook-ui-svc.yaml":      "apiVersion: v1\nkind: Service\nmetadata:\n  name: guestbook-ui\nspec:\n  ports:\n  - port: 80\n    targetPort: 80\n  selector:\n    app: guestbook-ui\n",
		"extra.yaml":                 "# applied by hand\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: guestbook-extra\n  namespace: default\ndata:\n  greeting: hello # the greeting",
		"guestbook-ui-svc-copy.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: other\n  namespace: default\ndata:\n  a: b\n",
	}
	dir := writeLayout(t, files)
	ref := Ref{Kind: "ConfigMap", Namespace: "default", Name: "guestbook-extra"}
	src, err := Find(dir, ref, Hints{})
	if err != nil {
		t.Fatal(err)
	}
	if src.File != "extra.yaml" || src.Kustomization != "" {
		t.Fatalf("found %+v, want the plain file extra.yaml", src)
	}
	f, err := readYAMLFile("extra.yaml", []byte(files["extra.yaml"]))
	if err != nil {
		t.Fatal(err)
	}
	obj, _ := jsonObject(docMaps(f)[0])
	base := &unstructured.Unstructured{Object: obj}
	mine := base.DeepCopy()
	mine.Object["data"].(map[string]any)["greeting"] = "hi"
	e, err := Plan(src, base, mine)
	if err != nil {
		t.Fatal(err)
	}
	if len(e.Files) != 1 || string(e.Files[0].New) != strings.Replace(files["extra.yaml"], "hello", "hi", 1) {
		t.Fatalf("the edit: %+v", e.Files)
	}
	if _, err := Find(dir, Ref{Kind: "Service", Namespace: "default", Name: "guestbook-ui"}, Hints{}); err != nil {
		t.Fatal(err)
	}
}

// TestARefusalNamesTheFieldItWouldChange: a port changed, which kedit's diff reads as two removals
// (a port is keyed by its port and the protocol the server defaults), is
// refused: written, neither port would be built.
func TestARefusalNamesTheFieldItWouldChange(t *testing.T) {
	t.Parallel()
	dir := writeLayout(t, shopLayout)
	ref := findRef(t, dir, "overlays/production", "Service", "prod-shop")
	src, err := Find(dir, ref, Hints{})
	if err != nil {
		t.Fatal(err)
	}
	base := live(t, dir, "overlays/production", ref)
	for _, c := range []struct {
		edit func(ports []any) []any
		want string
	}{
		{func(ports []any) []any {
			ports[0].(map[string]any)["port"] = int64(8081)
			return ports
		}, "kedit's diff of the draft does not give .spec.ports's items as the draft has them"},
	} {
		mine := base.DeepCopy()
		spec := mine.Object["spec"].(map[string]any)
		spec["ports"] = c.edit(spec["ports"].([]any))
		_, err := Plan(src, base, mine)
		var pe *PlaceError
		if !errors.As(err, &pe) || !strings.Contains(pe.Why, c.want) {
			t.Errorf("got %v, want a refusal saying %q", err, c.want)
		}
	}
}

// TestARefusedLabelNamesItsTransformer: a label the overlay's labels:
// sets is refused, naming that transformer.
func TestARefusedLabelNamesItsTransformer(t *testing.T) {
	t.Parallel()
	dir := writeLayout(t, shopLayout)
	ref := findRef(t, dir, "overlays/staging", "Deployment", "shop-stg")
	src, err := Find(dir, ref, Hints{})
	if err != nil {
		t.Fatal(err)
	}
	base := live(t, dir, "overlays/staging", ref)
	mine := base.DeepCopy()
	l := mine.GetLabels()
	l["env"] = "stage"
	mine.SetLabels(l)
	_, err = Plan(src, base, mine)
	var pe *PlaceError
	if !errors.As(err, &pe) || !strings.Contains(pe.Why, "the labels: of overlays/staging/kustomization.yaml sets it") {
		t.Fatalf("got %v, want a refusal naming the labels: transformer", err)
	}
}

// TestTheLiveObjectPicksTheOverlayWhoseFieldsItHas: two overlays build
// an object of one identity; the live object, which holds the fields the
// server defaults in each container beside the build's, has the replicas
// and the label only one of them gives, and that one is its source.
func TestTheLiveObjectPicksTheOverlayWhoseFieldsItHas(t *testing.T) {
	t.Parallel()
	files := map[string]string{
		"base/kustomization.yaml":             "resources:\n- all.yaml\n",
		"base/all.yaml":                       "\n# the base\n--- # the deployment\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 1\n  selector:\n    matchLabels: {app: web}\n  template:\n    metadata:\n      labels: {app: web}\n    spec:\n      containers:\n      - name: nginx\n        image: \"nginx:1.25\"\n        args: [\"-g\", \"daemon off;\"]",
		"overlays/dev/kustomization.yaml":     "namespace: platform-dev\nnamePrefix: dev-\nnameSuffix: -v1\nlabels:\n- pairs:\n    env: dev\nresources:\n- ../../base\nreplicas:\n- name: web\n  count: 2\n",
		"overlays/dev-alt/kustomization.yaml": "# not applied\nnamespace: platform-dev\nnamePrefix: dev-\nnameSuffix: -v1\nresources:\n- ../../base\nreplicas:\n- name: web\n  count: 7\n",
	}
	dir := writeLayout(t, files)
	ref := findRef(t, dir, "overlays/dev", "Deployment", "dev-web-v1")
	liveObj := live(t, dir, "overlays/dev", ref)
	c := containerOf(liveObj)
	c["imagePullPolicy"], c["terminationMessagePath"], c["resources"] = "IfNotPresent", "/dev/termination-log", map[string]any{}
	src, err := Find(dir, ref, Hints{Live: liveObj.Object})
	if err != nil {
		t.Fatal(err)
	}
	if src.Kustomization != "overlays/dev" {
		t.Errorf("found %+v, want overlays/dev", src)
	}
}

// TestPlanExtendsTheOverlaysInlinePatch: fields of an HPA the shared
// base sets go into the overlay's inline patch that selects the HPA (by
// its kind: the build has one), beside the minReplicas it sets, not into
// a new patch file.
func TestPlanExtendsTheOverlaysInlinePatch(t *testing.T) {
	t.Parallel()
	checkWriteBack(t, writeBackCase{name: "an inline patch of the overlay",
		files: fleetLayout, root: "apps/staging", kind: "HorizontalPodAutoscaler", named: "podinfo",
		edit: func(u *unstructured.Unstructured) {
			spec := u.Object["spec"].(map[string]any)
			spec["minReplicas"], spec["maxReplicas"] = int64(2), int64(6)
			spec["metrics"].([]any)[0].(map[string]any)["resource"].(map[string]any)["target"].(map[string]any)["averageUtilization"] = int64(80)
		},
		want: map[string]string{"apps/staging/kustomization.yaml": "        minReplicas: 2   # staging is small\n        maxReplicas: 6\n"},
		why:  "apps/base/podinfo/hpa.yaml sets it, and apps/base/podinfo is shared with apps/production"})
}
