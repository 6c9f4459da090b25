package source

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
)

// randomLayout writes a layout drawn from rng: an overlay on a base that a
// second overlay (and one with a remote base) may share, under a root
// kustomization maybe; patches that may set the image, the replicas and
// an env value (files, JSON 6902 ops, a component's inline ones, which a
// second overlay may use too) or append an env item (a JSON 6902 add op
// on env/-, in either overlay); images: and replicas: transformers; a
// name prefix and suffix; a generator in the base or the overlay with
// literals and maybe an env file and a file, merged into by the second
// overlay maybe; and a plain file; with the shapes of real
// repositories in random combination: blank first lines and leading
// comments, lists indented one way here and another there, flow lists
// over several lines, block scalars, quoted scalars, `---` separators
// with comments, and comments on every line kustomize allows.
func randomLayout(rng *rand.Rand) (files map[string]string, roots []string) {
	indent := func() string {
		if rng.IntN(2) == 0 {
			return "  "
		}
		return "" // compact
	}
	ind, ci, ei := indent(), indent(), indent()
	q := func(s string) string {
		switch rng.IntN(3) {
		case 0:
			return `"` + s + `"`
		case 1:
			return "'" + s + "'"
		}
		return s
	}
	lead := func(what string) string {
		return []string{"", "\n", "# " + what + "\n", "\n# " + what + "\n\n", "--- # " + what + "\n"}[rng.IntN(5)]
	}
	args := fmt.Sprintf("      %s  args: [%s, # the first\n      %s         %s]\n", ci, q("--a"), ci, q("--b"))
	if rng.IntN(2) == 0 {
		args = fmt.Sprintf("      %s  args:\n      %s  %s- --a # the first\n      %s  %s- %s\n", ci, ci, ei, ci, ei, q("--b"))
	}
	files = map[string]string{}
	files["base/deploy.yaml"] = lead("the app") + fmt.Sprintf(`apiVersion: apps/v1
kind: Deployment
metadata:
  name: web # name
  labels:
    app: web # label
  annotations:
    note: | # the note
      first line
      second line
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
%s      %s  env:
      %s  %s- name: A # a
      %s  %s  value: %s # a's value
      %s  %s- name: B
      %s  %s  value: b # b's value
`, ci, ci, q("nginx:1"), args, ci, ci, ei, ci, ei, q("a"), ci, ei, ci, ei)
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
	fileSource := rng.IntN(2) == 0
	if fileSource {
		gen += fmt.Sprintf("%s  files:\n%s  %s- config.txt # the config\n", ind, ind, ind)
	}
	genDir := "base"
	if !genInBase {
		genDir = "overlays/prod"
	}
	if fileSource {
		files[genDir+"/config.txt"] = "line one\nline two\n"
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
	switch rng.IntN(4) {
	case 0, 1:
		// A list at the top of a file is written flush left: the YAML
		// encoder indents no other way there.
		files["overlays/prod/ops.yaml"] = "# ops\n- op: replace\n  path: /spec/template/spec/containers/0/env/1/value\n  value: bb # prod's b\n"
		pl = append(pl, fmt.Sprintf("%s- path: ops.yaml\n%s  target:\n%s    kind: Deployment\n%s    name: web\n", ind, ind, ind, ind))
	case 2:
		// An inline op that appends an env item (add .../env/-): the
		// item is the op's value.
		pl = append(pl, fmt.Sprintf("%s- target:\n%s    kind: Deployment\n%s  patch: |-\n%s    - op: add\n%s      path: /spec/template/spec/containers/0/env/-\n%s      value:\n%s        name: P\n%s        value: %s # prod's p\n", ind, ind, ind, ind, ind, ind, ind, ind, q("p")))
	}
	if len(pl) > 0 {
		prod += "patches:\n" + strings.Join(pl, "")
	}
	if rng.IntN(2) == 0 {
		prod += fmt.Sprintf("images:\n%s- name: nginx\n%s  newTag: \"7\" # prod's tag\n", ind, ind)
	}
	if rng.IntN(2) == 0 {
		prod += fmt.Sprintf("replicas:\n%s- name: web\n%s  count: 4 # prod's count\n", ind, ind)
	}
	if rng.IntN(3) == 0 {
		prod += "namePrefix: p-\n"
	}
	if rng.IntN(3) == 0 {
		prod += "nameSuffix: -s\n"
	}
	component := rng.IntN(2) == 0
	if component {
		files["components/team/kustomization.yaml"] = "# the team's\napiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\npatches:\n- patch: |-\n" + indentRest(`apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  template:
    spec:
      containers:
      - name: app
        env:
        - name: C
          value: c # the team's c`, 4, false) + "\n- target:\n    kind: Deployment\n  patch: |-\n    - op: add\n      path: /metadata/annotations/team\n      value: core # the team\n"
		prod += fmt.Sprintf("components:\n%s- ../../components/team # the team\n", ind)
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
		dev := fmt.Sprintf("# dev\nnamespace: dev\nresources:\n%s- ../../base\n", ind)
		if component && rng.IntN(2) == 0 {
			dev += fmt.Sprintf("components:\n%s- ../../components/team\n", ind)
		}
		if rng.IntN(3) == 0 {
			dev += fmt.Sprintf("patches:\n%s- target:\n%s    kind: Deployment\n%s  patch: |-\n%s    - op: add\n%s      path: /spec/template/spec/containers/0/env/-\n%s      value: {name: D, value: d} # dev's d\n", ind, ind, ind, ind, ind, ind)
		}
		if genInBase && rng.IntN(2) == 0 {
			dev += fmt.Sprintf("configMapGenerator:\n%s- name: settings\n%s  behavior: merge\n%s  literals:\n%s  %s- extra=1 # dev's\n", ind, ind, ind, ind, ind)
		}
		files["overlays/dev/kustomization.yaml"] = dev
		roots = append(roots, "overlays/dev")
	}
	if rng.IntN(3) == 0 {
		// A remote base beside the shared one: never fetched.
		files["overlays/edge/kustomization.yaml"] = fmt.Sprintf("# edge\nnamespace: edge\nresources:\n%s- https://github.com/example/app//deploy?ref=v1 # remote\n%s- ../../base\n", ind, ind)
		roots = append(roots, "overlays/edge")
	}
	if rng.IntN(3) == 0 {
		// A root that builds the overlays: the one the cluster applies.
		var res []string
		for _, r := range roots {
			res = append(res, ind+"- "+r+"\n")
		}
		files["kustomization.yaml"] = "# everything\nresources:\n" + strings.Join(res, "")
		roots = append([]string{"."}, roots...)
	}
	sep := []string{"---\n# another\n", "--- # another\n", "---\n\n# another\n"}[rng.IntN(3)]
	files["plain/cm.yaml"] = lead("plain") + fmt.Sprintf("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: plain # name\n  namespace: default\ndata:\n  x: %s # x\n  y: '2'\n  script: |\n    echo \"#hi\"\n    echo there\n%sapiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: other\n  namespace: default\ndata:\n  z: z\n", q("1"), sep)
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
				data[keys[rng.IntN(len(keys))]] = []string{fmt.Sprintf("w%d", rng.IntN(100)), fmt.Sprintf("w%d\nmore\n", rng.IntN(100))}[rng.IntN(2)]
			}
		case "Deployment":
			spec := mine["spec"].(map[string]any)
			c := spec["template"].(map[string]any)["spec"].(map[string]any)["containers"].([]any)[0].(map[string]any)
			env, _ := c["env"].([]any)
			switch rng.IntN(8) {
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
			case 6:
				a, _ := c["args"].([]any)
				a = slices.Clone(a)
				if len(a) > 0 && rng.IntN(2) == 0 {
					a[rng.IntN(len(a))] = fmt.Sprintf("--c%d", rng.IntN(100))
				} else {
					a = append(a, fmt.Sprintf("--d%d", rng.IntN(100)))
				}
				c["args"] = a
			case 7:
				md := mine["metadata"].(map[string]any)
				a, _ := md["annotations"].(map[string]any)
				if a == nil {
					a = map[string]any{}
					md["annotations"] = a
				}
				a["note"] = []string{fmt.Sprintf("one line %d", rng.IntN(100)), fmt.Sprintf("first line\nline %d\n", rng.IntN(100))}[rng.IntN(2)]
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
