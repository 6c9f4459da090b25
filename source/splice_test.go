package source

import (
	"strings"
	"testing"

	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"

	"github.com/kedit/kedit/diff"
)

// set is one edit of a document: the value at path, or its removal.
type set struct {
	doc  int
	path []any
	v    diff.FieldValue
}

func to(v any) diff.FieldValue { return diff.FieldValue{Present: true, Value: v} }

var gone = diff.FieldValue{}

// TestSpliceKeepsEveryOtherByte: the layouts of public repositories
// (podinfo, kustomize's examples, microservices-demo), each edited: the
// text written is the text read with the changed values' lines changed
// and nothing else.
func TestSpliceKeepsEveryOtherByte(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, text string
		sets       []set
		want       string
	}{
		{"a blank first line",
			"\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: ldap\nspec:\n  replicas: 2\n",
			[]set{{0, []any{"spec", "replicas"}, to(int64(3))}},
			"\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: ldap\nspec:\n  replicas: 3\n"},
		{"lists indented two ways in one file",
			podinfo,
			[]set{
				{0, []any{"spec", "template", "spec", "containers", 0, "image"}, to("ghcr.io/stefanprodan/podinfo:6.15.0")},
				{0, []any{"spec", "template", "spec", "containers", 0, "volumeMounts"}, to([]any{map[string]any{"name": "data", "mountPath": "/data"}, map[string]any{"name": "tmp", "mountPath": "/tmp"}})},
				{0, []any{"spec", "template", "spec", "containers", 0, "env", 0, "value"}, to("#ffffff")},
			},
			strings.NewReplacer(
				"podinfo:6.14.1", "podinfo:6.15.0",
				`"#34577c"`, `"#ffffff"`,
				"            mountPath: /data\n", "            mountPath: /data\n          - mountPath: /tmp\n            name: tmp\n",
			).Replace(podinfo)},
		{"a flow list over several lines: an item changed",
			helloWorld,
			[]set{{0, []any{"spec", "template", "spec", "containers", 0, "command", 1}, to("--port=9090")}},
			strings.Replace(helloWorld, `"--port=8080"`, `"--port=9090"`, 1)},
		{"a flow list over several lines: an item added and one removed",
			helloWorld,
			[]set{
				{0, []any{"spec", "template", "spec", "containers", 0, "command", 2}, gone},
				{0, []any{"spec", "template", "spec", "containers", 0, "command"}, to([]any{"/hello", "--port=8080", "--v=2"})},
			},
			strings.Replace(helloWorld, `"--port=8080",`+"\n"+`                  "--enableRiskyFeature=$(ENABLE_RISKY)"]`, `"--port=8080", "--v=2"]`, 1)},
		{"a block scalar",
			springbootPatch,
			[]set{{0, []any{"data", "application.properties"}, to("app.name=Production\nserver.tomcat.max-threads=40\n")}},
			strings.Replace(springbootPatch, "    app.name=Production\n    server.tomcat.max-threads=20\n", "    app.name=Production\n    server.tomcat.max-threads=40\n", 1)},
		{"a folded block scalar changed to a value of one line: folded still",
			"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ui\ndata:\n  greeting: >-\n    Hello from\n    the guestbook\n  other: x\n",
			[]set{{0, []any{"data", "greeting"}, to("Hello from the new guestbook")}},
			"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ui\ndata:\n  greeting: >-\n    Hello from the new guestbook\n  other: x\n"},
		{"documents with comments at their separators",
			separated,
			[]set{{1, []any{"spec", "ports", 0, "port"}, to(int64(8080))}, {1, []any{"metadata", "labels", "tier"}, to("web")}},
			strings.NewReplacer("  - port: 80 # http", "  - port: 8080 # http", "    app: frontend # the app\n", "    app: frontend # the app\n    tier: web\n").Replace(separated)},
		{"a list indented by one, no newline at the end",
			"resources:\n- ../../base\npatches:\n - path: deployment.yaml\nnamePrefix: staging-",
			[]set{{0, []any{"patches"}, to([]any{map[string]any{"path": "deployment.yaml"}, map[string]any{"path": "new.yaml"}})}, {0, []any{"nameSuffix"}, to("-x")}},
			"resources:\n- ../../base\npatches:\n - path: deployment.yaml\n - path: new.yaml\nnamePrefix: staging-\nnameSuffix: -x"},
		{"a key whose list is only comments",
			componentsOnlyComments,
			[]set{{0, []any{"patches"}, to([]any{map[string]any{"path": "p.yaml"}})}},
			componentsOnlyComments + "patches:\n- path: p.yaml\n"},
		{"a key removed, and the first key of a list item",
			"env: # the env\n- name: A # a\n  value: a\n- name: B\n  value: b # b\nkeep: 1\n",
			[]set{{0, []any{"env", 0, "name"}, gone}, {0, []any{"keep"}, gone}},
			"env: # the env\n- value: a\n- name: B\n  value: b # b\n"},
		{"an inline patch in a component",
			cymbal,
			[]set{{0, []any{"patches", 0, "patch"}, to(strings.Replace(cymbalPatch, `"true"`, `"false"`, 1))}},
			strings.Replace(cymbal, `value: "true"`, `value: "false"`, 1)},
		{"a flow mapping and quoted keys",
			"a: {x: 1, 'y': \"2\"}\nb: [] # none\n",
			[]set{{0, []any{"a", "y"}, to("3")}, {0, []any{"a", "z"}, to(int64(4))}, {0, []any{"b"}, to([]any{"q"})}},
			"a: {x: 1, 'y': \"3\", z: 4}\nb: [q] # none\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f, err := readYAMLFile("f.yaml", []byte(c.text))
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range c.sets {
				if err := setAt(f.nodes[s.doc].YNode(), fieldpath.MakePathOrDie(s.path...), s.v); err != nil {
					t.Fatal(err)
				}
			}
			got, err := f.bytes()
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != c.want {
				t.Errorf("got\n%s\nwant\n%s\ndiff:\n%s", got, c.want, FileEdit{Path: "f", Old: []byte(c.want), New: got}.Unified())
			}
		})
	}
}

func TestAFileThatDoesNotParseIsRefusedByItsLine(t *testing.T) {
	t.Parallel()
	_, err := readYAMLFile("overlays/prod/patch.yaml", []byte("a: 1\nb:\n\tc: 2\n"))
	if err == nil || !strings.Contains(err.Error(), "overlays/prod/patch.yaml does not parse: line 3") {
		t.Errorf("err = %v", err)
	}
}

const podinfo = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: podinfo
spec:
  template:
    metadata:
      annotations:
        prometheus.io/scrape: "true"
    spec:
      containers:
      - name: podinfod
        image: ghcr.io/stefanprodan/podinfo:6.14.1
        command:
        - ./podinfo
        - --port=9898
        env:
        - name: PODINFO_UI_COLOR
          value: "#34577c"
        volumeMounts:
          - name: data
            mountPath: /data
      volumes:
        - name: data
          emptyDir: {}
`

const helloWorld = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: the-deployment
spec:
  template:
    spec:
      containers:
      - name: the-container
        image: monopole/hello:1
        command: ["/hello",
                  "--port=8080",
                  "--enableRiskyFeature=$(ENABLE_RISKY)"]
        ports:
        - containerPort: 8080
`

const springbootPatch = `apiVersion: v1
kind: ConfigMap
metadata:
  name: demo-configmap
data:
  application.properties: |
    app.name=Production
    server.tomcat.max-threads=20
  # after the block
  other: x
`

const separated = `# Copyright 2018 Google LLC
#
# Licensed under the Apache License.

apiVersion: apps/v1
kind: Deployment
metadata:
  name: frontend
---
# the service
apiVersion: v1
kind: Service
metadata:
  name: frontend
  labels:
    app: frontend # the app
spec:
  ports:
  - port: 80 # http
--- # the last
apiVersion: v1
kind: ServiceAccount
metadata:
  name: frontend
`

const componentsOnlyComments = `# Copyright 2022 Google LLC

apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
resources:
- base
components:
# - components/cymbal-branding
# - components/google-cloud-operations
`

const cymbalPatch = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: frontend
spec:
  template:
    spec:
      containers:
      - name: server
        env:
        - name: CYMBAL_BRANDING
          value: "true"`

var cymbal = `# Copyright 2022 Google LLC

apiVersion: kustomize.config.k8s.io/v1alpha1
kind: Component
patches:
- patch: |-
` + indentRest(cymbalPatch, 4, false) + "\n"
