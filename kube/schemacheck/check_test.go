package schemacheck_test

import (
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"

	"github.com/kedit/kedit/internal/testwait"
	"github.com/kedit/kedit/kube"
	"github.com/kedit/kedit/kube/kubetest"
	"github.com/kedit/kedit/kube/schemacheck"
)

// deployment is a valid Deployment with two containers.
const deployment = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels: {app: web}
spec:
  replicas: 2
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: web
        image: nginx
        imagePullPolicy: Always
        ports:
        - containerPort: 80
      - name: side
        image: busybox
        env:
        - name: A
          value: "1"
`

// schemaOf reads the test server's schema of gvk as kedit does.
func schemaOf(t testing.TB, gvk schema.GroupVersionKind) *schemacheck.Schema {
	t.Helper()
	var s *schemacheck.Schema
	var err error
	// The server publishes a new custom resource's document a moment
	// after the definition is established.
	if !testwait.Until(30*time.Second, func() bool {
		var dc *discovery.DiscoveryClient
		if dc, err = discovery.NewDiscoveryClientForConfig(kubetest.RESTConfig(t)); err != nil {
			return false
		}
		s, err = kube.ServerCheckSchema(dc, gvk)
		return err == nil
	}) {
		t.Fatal(err)
	}
	return s
}

var (
	deploymentGVK = schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}
	thingGVK      = schema.GroupVersionKind{Group: "check.kedit.example.com", Version: "v1", Kind: "Thing"}
	configMapGVK  = schema.GroupVersionKind{Version: "v1", Kind: "ConfigMap"}
	secretGVK     = schema.GroupVersionKind{Version: "v1", Kind: "Secret"}
)

// TestCheckSaysWhereAndWhy: each kind of refusal the schema states is
// found on its line, in the schema's words, and a valid object has none.
func TestCheckSaysWhereAndWhy(t *testing.T) {
	t.Parallel()
	schemacheck.InstallThing(t)
	schemas := map[schema.GroupVersionKind]*schemacheck.Schema{}
	for _, gvk := range []schema.GroupVersionKind{deploymentGVK, thingGVK, configMapGVK, secretGVK} {
		schemas[gvk] = schemaOf(t, gvk)
	}
	for _, tc := range []struct {
		name     string
		gvk      schema.GroupVersionKind
		text     string
		from, to string // text's edit: from replaced by to
		at       string // the line the diagnostic is on holds it
		path     string
		message  string
	}{
		{"valid deployment", deploymentGVK, deployment, "", "", "", "", ""},
		{"valid thing", thingGVK, schemacheck.ThingYAML, "", "", "", "", ""},
		{"unknown field", deploymentGVK, deployment, "imagePullPolicy: Always", "imagePullPolicyy: Always",
			"imagePullPolicyy", "spec.template.spec.containers[0].imagePullPolicyy", "imagePullPolicyy: unknown field, did you mean imagePullPolicy?"},
		{"wrong type", deploymentGVK, deployment, "replicas: 2", `replicas: "3"`,
			"replicas", "spec.replicas", `replicas: "3" is a string, an integer is expected`},
		{"enum", deploymentGVK, deployment, "imagePullPolicy: Always", "imagePullPolicy: Sometimes",
			"Sometimes", "spec.template.spec.containers[0].imagePullPolicy", `imagePullPolicy: "Sometimes" is not one of Always, IfNotPresent, Never`},
		{"required", deploymentGVK, deployment, "      - name: side\n        image: busybox", "      - image: busybox",
			"- image: busybox", "spec.template.spec.containers[1].name", "a required field is missing: name"},
		{"duplicate key", deploymentGVK, deployment, "name: side", "name: web",
			"- name: web\n        image: busybox", "spec.template.spec.containers[1]", `containers: {"name":"web"} is given twice`},
		{"configmap data", configMapGVK, "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  a: 1\n", "", "",
			"a: 1", "data.a", "a: 1 is an integer, a string is expected"},
		{"secret stringData", secretGVK, "apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\nstringData:\n  a: {b: c}\n", "", "",
			"a: {b: c}", "stringData.a", `a: {"b":"c"} is an object, a string is expected`},
		{"crd unknown", thingGVK, schemacheck.ThingYAML, "  mode: fast", "  mdoe: fast", "mdoe", "spec.mdoe", "mdoe: unknown field, did you mean mode?"},
		{"crd enum", thingGVK, schemacheck.ThingYAML, "mode: fast", "mode: quick", "quick", "spec.mode", `mode: "quick" is not one of fast, slow`},
		{"crd pattern", thingGVK, schemacheck.ThingYAML, "code: abc", "code: ABCD", "ABCD", "spec.code", `code: "ABCD" should match '^[a-z]{3}$'`},
		{"crd max", thingGVK, schemacheck.ThingYAML, "size: 3", "size: 11", "size: 11", "spec.size", "size: 11 should be less than or equal to 10"},
		{"crd min", thingGVK, schemacheck.ThingYAML, "weight: 1", "weight: -1", "weight: -1", "spec.entries[0].weight", "should be greater than or equal to 0"},
		{"crd maxLength", thingGVK, schemacheck.ThingYAML, "short: ab", "short: abcdef", "abcdef", "spec.short", "may not be more than 5"},
		{"crd format", thingGVK, schemacheck.ThingYAML, "uid: 0b8c3a7e", "uid: x0b8c3a7e", "x0b8", "spec.uid", `uid: "x0b8c3a7e-5f0e-4a53-9d1c-2f7a0c1f3b11" is not a valid uuid`},
		{"crd int-or-string", thingGVK, schemacheck.ThingYAML, "port: http", "port: [1]", "port: [1]", "spec.port", "port: [1] is a list, an integer or a string is expected"},
		{"crd required", thingGVK, schemacheck.ThingYAML, "  size: 3\n", "", "spec:", "spec.size", "a required field is missing: size"},
		{"crd keyed list", thingGVK, schemacheck.ThingYAML, "name: b", "name: a", "- name: a\n    weight: 2", "spec.entries[1]", "given twice"},
		{"crd set", thingGVK, schemacheck.ThingYAML, "tags: [p, q]", "tags: [p, p]", "tags: [p, p]", "spec.tags[1]", "given twice"},
		{"crd rule", thingGVK, schemacheck.ThingYAML, "minReplicas: 1", "minReplicas: 5", "spec:", "spec", "spec: minReplicas must not exceed maxReplicas"},
		{"crd metadata", thingGVK, schemacheck.ThingYAML, "    app: one", "    app: 1", "app: 1", "metadata.labels.app", "app: 1 is an integer, a string is expected"},
		{"crd metadata unknown", thingGVK, schemacheck.ThingYAML, "  name: one\n", "  name: one\n  nmae: x\n", "nmae", "metadata.nmae", "nmae: unknown field, did you mean name?"},
		{"crd embedded", thingGVK, schemacheck.ThingYAML, "    kind: ConfigMap\n", "", "template:", "spec.template.kind", "a required field is missing: kind"},
		{"crd keeps anything", thingGVK, schemacheck.ThingYAML, "anything: [1, 2]", "whatever: {a: [true]}", "", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			text := tc.text
			if tc.from != "" {
				if !strings.Contains(text, tc.from) {
					t.Fatalf("the fixture has no %q", tc.from)
				}
				text = strings.Replace(text, tc.from, tc.to, 1)
			}
			got := schemas[tc.gvk].Check(text)
			if tc.path == "" {
				if len(got) > 0 {
					t.Fatalf("diagnostics of a valid object: %+v", got)
				}
				return
			}
			line := strings.Count(text[:strings.Index(text, tc.at)], "\n") + 1
			for _, d := range got {
				if d.Path == tc.path && d.Line == line && strings.Contains(d.Message, tc.message) {
					// Only an unknown or repeated field is what a
					// server not asked to be strict drops.
					if dropped := strings.Contains(d.Message, "unknown field") || strings.Contains(d.Message, "the field is given twice"); d.Dropped != dropped {
						t.Fatalf("%+v: Dropped is %v", d, d.Dropped)
					}
					return
				}
			}
			t.Fatalf("want line %d %s %q; got %+v\n%s", line, tc.path, tc.message, got, text)
		})
	}
}

// TestBuiltinStatusIsNotChecked: a Node as the server has it, its status
// with the zero values the server wrote (kubeletEndpoint's Port 0, an empty
// nodeInfo), is not refused: a main resource's update keeps the server's
// status, and never validates it.
func TestBuiltinStatusIsNotChecked(t *testing.T) {
	const node = `apiVersion: v1
kind: Node
metadata:
  name: node-a
  labels:
    kedit-test: edited
spec: {}
status:
  conditions:
  - lastHeartbeatTime: null
    lastTransitionTime: null
    message: heartbeat 0
    reason: KubeletReady
    status: "True"
    type: Ready
  daemonEndpoints:
    kubeletEndpoint:
      Port: 0
  nodeInfo:
    architecture: ""
    bootID: ""
    containerRuntimeVersion: ""
    kernelVersion: ""
    kubeProxyVersion: ""
    kubeletVersion: ""
    machineID: ""
    operatingSystem: ""
    osImage: ""
    systemUUID: ""
`
	s := schemaOf(t, schema.GroupVersionKind{Version: "v1", Kind: "Node"})
	if got := s.Check(node); len(got) != 0 {
		t.Errorf("a Node's status as the server wrote it is refused: %+v", got)
	}
	if got := s.Check(strings.Replace(node, "  daemonEndpoints:", "  bogus: 1\n  daemonEndpoints:", 1)); len(got) != 1 || got[0].Path != "status.bogus" {
		t.Errorf("an unknown field in the status is not said: %+v", got)
	}
}
