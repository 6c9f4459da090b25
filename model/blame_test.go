package model

import (
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"
)

// blameFor returns the blame of the one line of text that starts with s,
// indentation and a list item's "- " aside.
func blameFor(t *testing.T, text string, lines []BlameLine, s string) BlameLine {
	t.Helper()
	found := -1
	for i, l := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		l = strings.TrimSpace(l)
		if strings.HasPrefix(l, s) || strings.HasPrefix(l, "- "+s) {
			if found >= 0 {
				t.Fatalf("%q is on lines %d and %d of\n%s", s, found+1, i+1, text)
			}
			found = i
		}
	}
	if found < 0 {
		t.Fatalf("no line holds %q in\n%s", s, text)
	}
	return lines[found]
}

// owner is a line's latest owner, "" for none, with a "~" when inherited
// from an enclosing field.
func owner(l BlameLine) string {
	if len(l.Owners) == 0 {
		return ""
	}
	if l.Inherited {
		return "~" + l.Owners[0].Manager
	}
	return l.Owners[0].Manager
}

func mustYAML(t *testing.T, s string) *unstructured.Unstructured {
	t.Helper()
	var m map[string]any
	if err := yaml.Unmarshal([]byte(s), &m); err != nil {
		t.Fatal(err)
	}
	return &unstructured.Unstructured{Object: m}
}

// twoManagerDeployment is a Deployment whose containers, and the env
// entries of one container, were written by two managers, and whose status
// the controller writes through the status subresource.
const twoManagerDeployment = `
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: ns
  uid: 1234
  resourceVersion: "7"
  managedFields:
  - manager: alice
    operation: Apply
    apiVersion: apps/v1
    time: "2026-11-22T04:00:10Z"
    fieldsType: FieldsV1
    fieldsV1:
      f:spec:
        f:replicas: {}
        f:template:
          f:spec:
            f:containers:
              k:{"name":"app"}:
                .: {}
                f:name: {}
                f:image: {}
                f:args: {}
                f:env:
                  k:{"name":"A"}:
                    .: {}
                    f:name: {}
                    f:value: {}
  - manager: bob
    operation: Update
    apiVersion: apps/v1
    time: "2026-11-22T04:00:20Z"
    fieldsType: FieldsV1
    fieldsV1:
      f:spec:
        f:template:
          f:spec:
            f:containers:
              k:{"name":"app"}:
                f:env:
                  k:{"name":"B"}:
                    .: {}
                    f:name: {}
                    f:value: {}
              k:{"name":"sidecar"}:
                .: {}
                f:name: {}
                f:image: {}
  - manager: kube-controller-manager
    operation: Update
    subresource: status
    apiVersion: apps/v1
    time: "2026-11-22T04:00:30Z"
    fieldsType: FieldsV1
    fieldsV1:
      f:status:
        f:conditions:
          k:{"type":"Available"}:
            .: {}
            f:status: {}
            f:type: {}
spec:
  replicas: 2
  template:
    spec:
      containers:
      - name: app
        image: nginx:1.27
        args: ["--port", "8080"]
        env:
        - {name: A, value: from-alice}
        - {name: B, value: from-bob}
        resources: {}
      - name: sidecar
        image: envoy:1.31
status:
  conditions:
  - type: Available
    status: "True"
  - type: Progressing
    status: "True"
`

func TestBlameDeploymentContainersAndEnv(t *testing.T) {
	obj := mustYAML(t, twoManagerDeployment)
	for _, full := range []bool{false, true} {
		var text string
		if full {
			b, err := yaml.Marshal(obj.Object)
			if err != nil {
				t.Fatal(err)
			}
			text = string(b)
		} else {
			text = text0(t, obj)
		}
		lines, err := Blame(obj, text)
		if err != nil {
			t.Fatal(err)
		}
		if len(lines) != strings.Count(text, "\n") {
			t.Fatalf("%d blame lines for %d lines", len(lines), strings.Count(text, "\n"))
		}
		for _, tc := range []struct{ line, want string }{
			{"image: nginx:1.27", "alice"},
			{"image: envoy:1.31", "bob"},
			{"name: sidecar", "bob"},
			{"value: from-alice", "alice"},
			{"value: from-bob", "bob"},
			{"- name: B", "bob"},
			{"- --port", "~alice"},      // an atomic list is its owner's, item by item
			{"resources: {}", "~alice"}, // defaulted inside alice's container
			{"replicas: 2", "alice"},
			{"uid:", ""},
			{"resourceVersion:", ""},
			{"containers:", ""},
		} {
			if got := owner(blameFor(t, text, lines, tc.line)); got != tc.want {
				t.Errorf("full=%v: %q blamed on %q, want %q", full, tc.line, got, tc.want)
			}
		}
		if l := blameFor(t, text, lines, "image: envoy:1.31"); l.Path != `.spec.template.spec.containers[name="sidecar"].image` ||
			l.Owners[0].Operation != "Update" || l.Owners[0].Time.IsZero() {
			t.Errorf("sidecar image: %+v", l)
		}
		// The field docs' path of a line: its keys, list items left out.
		for _, tc := range []struct{ line, want string }{
			{"image: envoy:1.31", "spec template spec containers image"},
			{"- name: B", "spec template spec containers env name"},
			{"- --port", "spec template spec containers args"},
			{"replicas: 2", "spec replicas"},
		} {
			if got := strings.Join(blameFor(t, text, lines, tc.line).Field, " "); got != tc.want {
				t.Errorf("full=%v: %q's field %q, want %q", full, tc.line, got, tc.want)
			}
		}
		if full {
			l := blameFor(t, text, lines, "type: Available")
			if owner(l) != "kube-controller-manager" || l.Owners[0].Subresource != "status" {
				t.Errorf("status condition: %+v", l)
			}
			// Progressing is nobody's in managedFields.
			if got := owner(blameFor(t, text, lines, "type: Progressing")); got != "" {
				t.Errorf("the unowned condition is blamed on %q", got)
			}
			if got := owner(blameFor(t, text, lines, "manager: bob")); got != "" {
				t.Errorf("managedFields itself is blamed on %q", got)
			}
		}
	}
}

// text0 renders obj as the draft and the object view without managedFields.
func text0(t *testing.T, obj *unstructured.Unstructured) string {
	t.Helper()
	s, err := RenderYAML(obj)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestBlameServicePortsByPortAndProtocol(t *testing.T) {
	// Port 53 twice, told apart only by protocol: the list's keys are
	// both, and each item is its own manager's.
	obj := mustYAML(t, `
apiVersion: v1
kind: Service
metadata:
  name: dns
  managedFields:
  - manager: tcp-writer
    operation: Apply
    time: "2026-11-22T04:00:10Z"
    fieldsType: FieldsV1
    fieldsV1:
      f:spec:
        f:ports:
          k:{"port":53,"protocol":"TCP"}:
            .: {}
            f:name: {}
            f:port: {}
            f:protocol: {}
  - manager: udp-writer
    operation: Apply
    time: "2026-11-22T04:00:05Z"
    fieldsType: FieldsV1
    fieldsV1:
      f:spec:
        f:ports:
          k:{"port":53,"protocol":"UDP"}:
            .: {}
            f:name: {}
            f:port: {}
            f:protocol: {}
spec:
  ports:
  - name: dns-tcp
    port: 53
    protocol: TCP
    targetPort: 5353
  - name: dns-udp
    port: 53
    protocol: UDP
    targetPort: 5353
`)
	text := text0(t, obj)
	lines, err := Blame(obj, text)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ line, want string }{
		{"name: dns-tcp", "tcp-writer"},
		{"protocol: TCP", "tcp-writer"},
		{"name: dns-udp", "udp-writer"},
		{"protocol: UDP", "udp-writer"},
	} {
		if got := owner(blameFor(t, text, lines, tc.line)); got != tc.want {
			t.Errorf("%q blamed on %q, want %q", tc.line, got, tc.want)
		}
	}
	// targetPort was defaulted or left: the item's owner, marked inherited.
	var inherited []string
	for i, l := range strings.Split(text, "\n") {
		if strings.Contains(l, "targetPort") {
			inherited = append(inherited, owner(lines[i]))
		}
	}
	if strings.Join(inherited, ",") != "~tcp-writer,~udp-writer" {
		t.Errorf("targetPort lines blamed on %v", inherited)
	}
}

func TestBlameBlockScalarAndSharedFields(t *testing.T) {
	obj := mustYAML(t, `
apiVersion: v1
kind: ConfigMap
metadata:
  name: nginx-conf
  managedFields:
  - manager: kubectl-create
    operation: Update
    time: "2026-11-22T04:00:00Z"
    fieldsType: FieldsV1
    fieldsV1:
      f:data:
        .: {}
        f:nginx.conf: {}
  - manager: ops
    operation: Apply
    time: "2026-11-22T04:00:30Z"
    fieldsType: FieldsV1
    fieldsV1:
      f:data:
        f:foo: {}
        f:shared: {}
  - manager: dev
    operation: Apply
    time: "2026-11-22T04:00:40Z"
    fieldsType: FieldsV1
    fieldsV1:
      f:data:
        f:shared: {}
data:
  foo: "1"
  nginx.conf: |
    events {
      worker_connections 1024;
    }
  shared: "x"
`)
	text := text0(t, obj)
	lines, err := Blame(obj, text)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ line, want string }{
		{"nginx.conf: |", "kubectl-create"},
		{"events {", "kubectl-create"},
		{"worker_connections", "kubectl-create"},
		{"}", "kubectl-create"},
		{"foo:", "ops"},
		{"data:", "kubectl-create"},
		{"name: nginx-conf", ""},
	} {
		if got := owner(blameFor(t, text, lines, tc.line)); got != tc.want {
			t.Errorf("%q blamed on %q, want %q", tc.line, got, tc.want)
		}
	}
	if l := blameFor(t, text, lines, "worker_connections"); l.Path != ".data.nginx.conf" {
		t.Errorf("a block scalar's line has path %q", l.Path)
	}
	// Two appliers share a field: both own it, the latest first.
	if l := blameFor(t, text, lines, "shared:"); len(l.Owners) != 2 || l.Owners[0].Manager != "dev" || l.Owners[1].Manager != "ops" {
		t.Errorf("shared field owners %+v", l.Owners)
	}
}

func TestBlameUnknownTypeAndSets(t *testing.T) {
	// A custom resource: no schema here, the keys come from managedFields;
	// finalizers are a set, named by value.
	obj := mustYAML(t, `
apiVersion: example.com/v1
kind: Widget
metadata:
  name: w
  finalizers: [example.com/a, example.com/b]
  managedFields:
  - manager: op-a
    operation: Apply
    time: "2026-11-22T04:00:10Z"
    fieldsType: FieldsV1
    fieldsV1:
      f:metadata:
        f:finalizers:
          v:"example.com/a": {}
      f:spec:
        f:routes:
          k:{"host":"a.example.com","path":"/"}:
            .: {}
            f:backend: {}
  - manager: op-b
    operation: Apply
    time: "2026-11-22T04:00:20Z"
    fieldsType: FieldsV1
    fieldsV1:
      f:metadata:
        f:finalizers:
          v:"example.com/b": {}
      f:spec:
        f:routes:
          k:{"host":"a.example.com","path":"/api"}:
            .: {}
            f:backend: {}
spec:
  routes:
  - {host: a.example.com, path: /, backend: web}
  - {host: a.example.com, path: /api, backend: api}
`)
	text := text0(t, obj)
	lines, err := Blame(obj, text)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ line, want string }{
		{"- example.com/a", "op-a"},
		{"- example.com/b", "op-b"},
		{"backend: web", "op-a"},
		{"backend: api", "op-b"},
	} {
		if got := owner(blameFor(t, text, lines, tc.line)); got != tc.want {
			t.Errorf("%q blamed on %q, want %q", tc.line, got, tc.want)
		}
	}
}

func TestBlameEdgeCases(t *testing.T) {
	if lines, err := Blame(nil, "a: 1\n"); err != nil || len(lines) != 1 || lines[0].Path != "" {
		t.Errorf("nil object: %+v, %v", lines, err)
	}
	obj := cm("1", "foo", "1")
	if lines, err := Blame(obj, "data: [\n"); err == nil || len(lines) != 1 {
		t.Errorf("text that is not YAML: %+v, %v", lines, err)
	}
	// No managedFields: every line has its path and no owner.
	text := text0(t, obj)
	lines, err := Blame(obj, text)
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range lines {
		if l.Path == "" || len(l.Owners) != 0 {
			t.Errorf("line %d: %+v", i+1, l)
		}
	}
}
