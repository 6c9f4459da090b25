package kube

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/discovery"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/kedit/kedit/internal/testwait"
	"github.com/kedit/kedit/kube/kubetest"
	"github.com/kedit/kedit/kube/schemacheck"
)

// The differential corpus: edits of live objects of the built-in kinds an
// operator edits most and of a custom resource whose schema states each
// kind of rule, each judged by kedit before a save (the schema check,
// then the server's dry run) and by the referee, `kubectl replace
// --dry-run=server --validate=strict`. Duplicate keys are not in it:
// kubectl reads YAML into JSON before sending, keeping the last of a
// repeated key, so the referee never sees them (kedit flags them, as the
// server refuses them in a body it is sent).

// knobCRD is a custom resource with an enum, bounds, a pattern, a
// length, required fields and a CEL rule.
var knobCRD = kubetest.CRD("diff.kedit.example.com", "knobs", "knob", "Knob", `required: [size, mode]
x-kubernetes-validations:
- rule: "!has(self.low) || !has(self.high) || self.low <= self.high"
  message: low must not exceed high
properties:
  size: {type: integer, minimum: 1, maximum: 10}
  mode: {type: string, enum: [fast, slow]}
  code: {type: string, pattern: '^[a-z]{3}$'}
  label: {type: string, maxLength: 8}
  low: {type: integer}
  high: {type: integer}
`)

// diffObjects are the objects edited, created once: the kind's resource
// and its manifest.
var diffObjects = map[string]string{
	"deployment": checkDeployment[:strings.Index(checkDeployment, "  replicas:")] + `  replicas: 2
  strategy:
    type: RollingUpdate
    rollingUpdate: {maxSurge: 1, maxUnavailable: 0}
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: web
        image: nginx
        imagePullPolicy: IfNotPresent
        ports:
        - {name: http, containerPort: 80, protocol: TCP}
        env:
        - {name: MODE, value: fast}
        resources:
          limits: {cpu: 100m}
`,
	"service": `apiVersion: v1
kind: Service
metadata:
  name: front
spec:
  type: ClusterIP
  sessionAffinity: None
  selector: {app: web}
  ports:
  - {name: http, port: 80, targetPort: 8080, protocol: TCP}
`,
	"configmap": `apiVersion: v1
kind: ConfigMap
metadata:
  name: conf
data:
  a: one
  b: two
`,
	"cronjob": `apiVersion: batch/v1
kind: CronJob
metadata:
  name: tick
spec:
  schedule: "*/5 * * * *"
  concurrencyPolicy: Allow
  successfulJobsHistoryLimit: 3
  failedJobsHistoryLimit: 1
  jobTemplate:
    spec:
      backoffLimit: 2
      template:
        spec:
          restartPolicy: OnFailure
          containers:
          - {name: c, image: busybox}
`,
	"job": `apiVersion: batch/v1
kind: Job
metadata:
  name: once
spec:
  suspend: true
  parallelism: 1
  completions: 1
  backoffLimit: 2
  template:
    spec:
      restartPolicy: Never
      containers:
      - {name: c, image: busybox}
`,
	"knob": `apiVersion: diff.kedit.example.com/v1
kind: Knob
metadata:
  name: dial
spec:
  size: 3
  mode: fast
  code: abc
  label: short
  low: 1
  high: 2
`,
}

// diffEdit is one edit of a live object's YAML: the first line whose text
// (after its indentation and a list item's dash) begins with at becomes to, at the same
// indentation (removed when to is empty; with add, to is put after it,
// one level deeper when it begins with "  "). miss: the server refuses it
// for a rule of its own code, which only its dry run says, on the line
// of line (the edit's own when empty).
type diffEdit struct {
	object, name, at, to string
	add                  bool
	miss                 bool
	line                 string
}

var diffCorpus = []diffEdit{
	// The misses: no schema states these.
	{object: "deployment", name: "replicas -1", at: "replicas:", to: "replicas: -1", miss: true},
	{object: "deployment", name: "maxSurge abc", at: "maxSurge:", to: "maxSurge: abc", miss: true},
	{object: "deployment", name: "a container without image", at: "image: nginx", to: "", miss: true, line: "env:"},
	{object: "service", name: "port 70000", at: "port: 80", to: "port: 70000", miss: true},
	{object: "cronjob", name: "successfulJobsHistoryLimit -1", at: "successfulJobsHistoryLimit:", to: "successfulJobsHistoryLimit: -1", miss: true},
	{object: "cronjob", name: "schedule not a cron", at: "schedule:", to: "schedule: not a cron", miss: true},
	{object: "job", name: "restartPolicy Always", at: "restartPolicy:", to: "restartPolicy: Always", miss: true},

	{object: "deployment", name: "replicas 3", at: "replicas:", to: "replicas: 3"},
	{object: "deployment", name: "replicas a string", at: "replicas:", to: "replicas: three"},
	{object: "deployment", name: "imagePullPolicy not in its enum", at: "imagePullPolicy:", to: "imagePullPolicy: Sometimes"},
	{object: "deployment", name: "imagePullPolicyy", at: "imagePullPolicy:", to: "imagePullPolicyy: Always"},
	{object: "deployment", name: "replicass under spec", at: "replicas:", to: "replicass: 3"},
	{object: "deployment", name: "specc at the top", at: "apiVersion:", to: "specc: 1", add: true},
	{object: "deployment", name: "containerPort 0", at: "containerPort:", to: "containerPort: 0"},
	{object: "deployment", name: "protocol not in its enum", at: "protocol:", to: "protocol: HTTP"},
	{object: "deployment", name: "a port's name too long", at: "name: http", to: "name: http-port-name-too-long"},
	{object: "deployment", name: "an env value a number", at: "value: fast", to: "value: 5"},
	{object: "deployment", name: "a cpu limit that is no quantity", at: "cpu:", to: "cpu: lots"},
	{object: "deployment", name: "maxUnavailable and maxSurge 0", at: "maxSurge:", to: "maxSurge: 0"},
	{object: "deployment", name: "Recreate with rollingUpdate", at: "type: RollingUpdate", to: "type: Recreate"},
	{object: "deployment", name: "strategy type not in its enum", at: "type: RollingUpdate", to: "type: Sometimes"},
	{object: "deployment", name: "an annotation", at: "name: web", to: "annotations: {note: kept}", add: true},
	{object: "deployment", name: "a second container of the same name", at: "containers:", to: "- {name: web, image: busybox}", add: true},
	{object: "deployment", name: "revisionHistoryLimit -1", at: "revisionHistoryLimit:", to: "revisionHistoryLimit: -1"},

	{object: "service", name: "port 8080", at: "port: 80", to: "port: 8080"},
	{object: "service", name: "port a string", at: "port: 80", to: `port: "80"`},
	{object: "service", name: "type not in its enum", at: "type: ClusterIP", to: "type: Balanced"},
	{object: "service", name: "sessionAffinity not in its enum", at: "sessionAffinity:", to: "sessionAffinity: Sticky"},
	{object: "service", name: "protocol not in its enum", at: "protocol:", to: "protocol: HTTP"},
	{object: "service", name: "a port name in capitals", at: "name: http", to: "name: HTTP"},
	{object: "service", name: "a targetPort name too long", at: "targetPort:", to: "targetPort: web-http-port-too-long"},
	{object: "service", name: "another selector", at: "app: web", to: "app: api"},
	{object: "service", name: "clusterIP changed", at: "clusterIP:", to: "clusterIP: 10.0.0.99"},
	{object: "service", name: "portt", at: "port: 80", to: "portt: 80"},

	{object: "configmap", name: "a value changed", at: "a: one", to: "a: three"},
	{object: "configmap", name: "a key with a space", at: "a: one", to: "bad key!: one"},
	{object: "configmap", name: "a value a number", at: "a: one", to: "a: 1"},
	{object: "configmap", name: "binaryData not base64", at: "apiVersion:", to: "binaryData: {c: not base64!}", add: true},
	{object: "configmap", name: "datta", at: "apiVersion:", to: "datta: {x: y}", add: true},
	{object: "configmap", name: "immutable true", at: "apiVersion:", to: "immutable: true", add: true},

	{object: "cronjob", name: "schedule @hourly", at: "schedule:", to: "schedule: '@hourly'"},
	{object: "cronjob", name: "concurrencyPolicy not in its enum", at: "concurrencyPolicy:", to: "concurrencyPolicy: Sometimes"},
	{object: "cronjob", name: "suspend a string", at: "suspend:", to: "suspend: sometimes"},
	{object: "cronjob", name: "startingDeadlineSeconds -5", at: "schedule:", to: "startingDeadlineSeconds: -5", add: true},
	{object: "cronjob", name: "a time zone that is none", at: "schedule:", to: "timeZone: Mars/Olympus", add: true},
	{object: "cronjob", name: "failedJobsHistoryLimit 5", at: "failedJobsHistoryLimit:", to: "failedJobsHistoryLimit: 5"},
	{object: "cronjob", name: "backoffLimit -1", at: "backoffLimit:", to: "backoffLimit: -1"},
	{object: "cronjob", name: "restartPolicy Always in its job", at: "restartPolicy:", to: "restartPolicy: Always"},

	{object: "job", name: "parallelism -1", at: "parallelism:", to: "parallelism: -1"},
	{object: "job", name: "parallelism 2", at: "parallelism:", to: "parallelism: 2"},
	{object: "job", name: "completions changed", at: "completions:", to: "completions: 3"},
	{object: "job", name: "completionMode not in its enum", at: "completionMode:", to: "completionMode: Sometimes"},
	{object: "job", name: "ttlSecondsAfterFinished -1", at: "completions:", to: "ttlSecondsAfterFinished: -1", add: true},
	{object: "job", name: "an annotation", at: "metadata:", to: "  annotations: {team: a}", add: true},

	{object: "knob", name: "size 0", at: "size:", to: "size: 0"},
	{object: "knob", name: "size 11", at: "size:", to: "size: 11"},
	{object: "knob", name: "size 5", at: "size:", to: "size: 5"},
	{object: "knob", name: "size a string", at: "size:", to: "size: five"},
	{object: "knob", name: "mode not in its enum", at: "mode:", to: "mode: medium"},
	{object: "knob", name: "mode removed", at: "mode:", to: ""},
	{object: "knob", name: "code not of its pattern", at: "code:", to: "code: ABC"},
	{object: "knob", name: "code xyz", at: "code:", to: "code: xyz"},
	{object: "knob", name: "label too long", at: "label:", to: "label: much-too-long"},
	{object: "knob", name: "low above high", at: "low:", to: "low: 5"},
	{object: "knob", name: "low and high 4", at: "high:", to: "high: 4"},
	{object: "knob", name: "sizee", at: "size:", to: "sizee: 3"},
}

// apply makes the edit on text; false when text has no line at e.at.
func (e diffEdit) apply(text string) (string, int, bool) {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		body := lineBody(l)
		if !strings.HasPrefix(body, e.at) {
			continue
		}
		indent := l[:len(l)-len(body)]
		switch {
		case e.add:
			out := append(append(append([]string(nil), lines[:i+1]...), indent+e.to), lines[i+1:]...)
			return strings.Join(out, "\n"), i + 2, true
		case e.to == "":
			return strings.Join(append(append([]string(nil), lines[:i]...), lines[i+1:]...), "\n"), i + 1, true
		default:
			out := append([]string(nil), lines...)
			out[i] = indent + e.to
			return strings.Join(out, "\n"), i + 1, true
		}
	}
	return "", 0, false
}

// liveYAML is obj's YAML as an editor shows it: what the server holds,
// its managedFields and status left out.
func liveYAML(t *testing.T, obj *unstructured.Unstructured) string {
	t.Helper()
	o := obj.DeepCopy()
	o.SetManagedFields(nil)
	delete(o.Object, "status")
	raw, err := sigsyaml.Marshal(o.Object)
	if err != nil {
		t.Fatal(err)
	}
	return string(raw)
}

// TestServerCheckAgreesWithKubectl: each edit of the corpus, judged by
// kedit before a save (schemacheck under strict validation, then
// Runner.ServerCheck), is refused exactly when `kubectl replace
// --dry-run=server --validate=strict` refuses it; each of the misses,
// rules of the server's code, is said by the server's dry run on its
// line.
func TestServerCheckAgreesWithKubectl(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.CreateCustom(t, ns, knobCRD, "")
	for name, manifest := range diffObjects {
		if !testwait.Until(30*time.Second, func() bool {
			_, err := kubetest.KubectlStdin(t, manifest, "-n", ns, "create", "-f", "-")
			return err == nil
		}) {
			t.Fatalf("creating the %s", name)
		}
	}
	ctx := context.Background()
	runners, schemas := map[string]*Runner{}, map[string]*schemacheck.Schema{}
	for object := range diffObjects {
		r := loggedRunner(t, ns, object, nameOf(t, diffObjects[object]), NewRequestLog(nil), ValidationStrict)
		runners[object] = r
		schemas[object] = checkSchemaOf(t, r.Target)
	}
	if len(diffCorpus) < 50 {
		t.Fatalf("the corpus has %d edits, want at least 50", len(diffCorpus))
	}
	var table strings.Builder
	agree := 0
	for _, e := range diffCorpus {
		r := runners[e.object]
		base := readBase(t, r.Target)
		live := liveYAML(t, base)
		text, line, ok := e.apply(live)
		if !ok {
			t.Errorf("%s %s: no line at %q in\n%s", e.object, e.name, e.at, live)
			continue
		}
		if e.line != "" {
			line = lineStarting(text, e.line)
		}
		out, refErr := kubetest.KubectlStdin(t, text, "-n", ns, "replace", "--dry-run=server", "--validate=strict", "-f", "-")
		refereeRefuses := refErr != nil

		draft := draftOf(t, base, text)
		found := schemas[e.object].CheckUpdate(text, draft.Object, base.Object)
		server, err := r.ServerCheck(ctx, base, draft, text)
		if err != nil {
			t.Errorf("%s %s: the server's check: %v", e.object, e.name, err)
			continue
		}
		found = append(found, server...)
		keditRefuses := len(found) > 0
		fmt.Fprintf(&table, "%-10s %-42s kubectl %-7v kedit %-7v %s\n", e.object, e.name, verdict(refereeRefuses), verdict(keditRefuses), diagnosticsWords(found))
		if keditRefuses != refereeRefuses {
			t.Errorf("%s %s: kedit refuses %v, kubectl %v:\n%s\nkedit: %+v\n%s", e.object, e.name, keditRefuses, refereeRefuses, out, found, text)
			continue
		}
		agree++
		if e.miss && !(refereeRefuses && saidOn(server, line)) {
			t.Errorf("%s %s: the server's dry run says nothing on line %d: %+v\nkubectl: %s\n%s", e.object, e.name, line, server, out, text)
		}
	}
	t.Logf("%d of %d agree:\n%s", agree, len(diffCorpus), table.String())
}

// saidOn reports whether a server's diagnostic of found is on line.
func saidOn(found []schemacheck.Diagnostic, line int) bool {
	for _, d := range found {
		if d.Server && !d.Dropped && d.Line == line {
			return true
		}
	}
	return false
}

func verdict(refuses bool) string {
	if refuses {
		return "refuses"
	}
	return "takes"
}

// diagnosticsWords is found on one line: each line and message, the
// server's marked so.
func diagnosticsWords(found []schemacheck.Diagnostic) string {
	parts := make([]string, len(found))
	for i, d := range found {
		by := "schema"
		if d.Server {
			by = "server"
		}
		parts[i] = fmt.Sprintf("%d %s: %s", d.Line, by, d.Message)
	}
	return strings.Join(parts, "; ")
}

// lineStarting is the line of text (from 1) whose body begins with at.
func lineStarting(text, at string) int {
	for i, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(lineBody(l), at) {
			return i + 1
		}
	}
	return 0
}

// lineBody is a line without its indentation and a list item's dash.
func lineBody(l string) string {
	return strings.TrimPrefix(strings.TrimLeft(l, " "), "- ")
}

// nameOf is the name a manifest gives its object.
func nameOf(t *testing.T, manifest string) string {
	t.Helper()
	var obj unstructured.Unstructured
	if err := sigsyaml.Unmarshal([]byte(manifest), &obj.Object); err != nil {
		t.Fatal(err)
	}
	return obj.GetName()
}

// checkSchemaOf is the server's schema of target's kind, as the app
// reads it; a new custom resource's document is published a moment
// after its definition is established.
func checkSchemaOf(t *testing.T, target *Target) *schemacheck.Schema {
	t.Helper()
	var s *schemacheck.Schema
	var err error
	if !testwait.Until(30*time.Second, func() bool {
		var dc *discovery.DiscoveryClient
		if dc, err = discovery.NewDiscoveryClientForConfig(kubetest.RESTConfig(t)); err != nil {
			return false
		}
		s, err = ServerCheckSchema(dc, target.Mapping.GroupVersionKind)
		return err == nil
	}) {
		t.Fatalf("the schema of %s: %v", target.Mapping.GroupVersionKind, err)
	}
	return s
}
