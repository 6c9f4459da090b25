package kube

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/dynamic"

	"github.com/kedit/kedit/kube/kubetest"
	"github.com/kedit/kedit/kube/schemacheck"
	"github.com/kedit/kedit/model"
)

// checkDeployment is a Deployment the server takes.
const checkDeployment = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
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
`

// draftOf is text read as the session reads a draft of base, in base's
// namespace.
func draftOf(t *testing.T, base *unstructured.Unstructured, text string) *unstructured.Unstructured {
	t.Helper()
	u := model.FormatYAML.ParseDraft(text).Object()
	if u == nil {
		t.Fatalf("the draft does not parse:\n%s", text)
	}
	u.SetNamespace(base.GetNamespace())
	return u
}

// loggedRunner is a runner of the object typ/name in ns whose requests go
// to log, their warnings to the request, as the app's.
func loggedRunner(t *testing.T, ns, typ, name string, log *RequestLog, v Validation) *Runner {
	t.Helper()
	dc, err := dynamic.NewForConfig(LogRequests(CollectWarnings(kubetest.RESTConfig(t), nil), log))
	if err != nil {
		t.Fatal(err)
	}
	return &Runner{Client: dc, Target: resolveForTest(t, kubetest.Kubeconfig(t), ns, typ, name), Strategy: StrategyUpdate, Validation: v}
}

// TestServerCheckSaysTheServersReasons: a draft the real API server
// refuses for a rule of its code (replicas -1, which no schema states)
// gets the server's reason on the line of the field, marked the
// server's; the request is a dry run carrying base's resourceVersion,
// and nothing is stored. A draft it takes gets none.
func TestServerCheckSaysTheServersReasons(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.MustKubectlStdin(t, checkDeployment, "-n", ns, "create", "-f", "-")
	log := NewRequestLog(nil)
	r := loggedRunner(t, ns, "deployment", "web", log, "")
	base := readBase(t, r.Target)
	ctx := context.Background()

	text := strings.Replace(checkDeployment, "replicas: 2", "replicas: -1", 1)
	found, err := r.ServerCheck(ctx, base, draftOf(t, base, text), text)
	if err != nil {
		t.Fatal(err)
	}
	want := schemacheck.Diagnostic{Line: 6, Path: "spec.replicas", Message: "replicas: Invalid value: -1: must be greater than or equal to 0", Server: true}
	if len(found) != 1 || found[0] != want {
		t.Fatalf("found %+v, want %+v", found, want)
	}
	rows := log.Rows()
	last := rows[len(rows)-1]
	if last.Method != "PUT" || !strings.Contains(last.Path, "dryRun=All") || last.SentRV != base.GetResourceVersion() {
		t.Errorf("the request: %s %s rv %q, want a PUT with dryRun=All at rv %s", last.Method, last.Path, last.SentRV, base.GetResourceVersion())
	}
	if now := readBase(t, r.Target); now.GetResourceVersion() != base.GetResourceVersion() {
		t.Errorf("the dry run stored a version: rv %s -> %s", base.GetResourceVersion(), now.GetResourceVersion())
	}

	text = strings.Replace(checkDeployment, "replicas: 2", "replicas: 3", 1)
	if found, err := r.ServerCheck(ctx, base, draftOf(t, base, text), text); err != nil || len(found) != 0 {
		t.Errorf("a draft the server takes: %+v, %v", found, err)
	}
}

// TestServerCheckConflictIsNoDiagnostic: a dry run of a draft whose base
// is no longer the server's is a 409, which is no diagnostic: the
// error says it, as the banner does.
func TestServerCheckConflictIsNoDiagnostic(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.MustKubectlStdin(t, checkDeployment, "-n", ns, "create", "-f", "-")
	r := loggedRunner(t, ns, "deployment", "web", NewRequestLog(nil), "")
	base := readBase(t, r.Target)
	kubetest.MustKubectl(t, "-n", ns, "label", "deployment", "web", "moved=yes")
	text := strings.Replace(checkDeployment, "replicas: 2", "replicas: -1", 1)
	found, err := r.ServerCheck(context.Background(), base, draftOf(t, base, text), text)
	if !IsConflict(err) || found != nil {
		t.Fatalf("found %+v, err %v: want no diagnostic and the 409", found, err)
	}
}

// TestServerCheckDropsUnderWarn: under --validate warn the server takes
// a draft with a misspelt field and warns; the dry run says the field
// is dropped, on its line. Under strict it is refused there.
func TestServerCheckDropsUnderWarn(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.MustKubectlStdin(t, checkDeployment, "-n", ns, "create", "-f", "-")
	text := strings.Replace(checkDeployment, "        image: nginx\n", "        image: nginx\n        imagePullPolicyy: Always\n", 1)
	for _, v := range []Validation{ValidationWarn, ValidationStrict} {
		r := loggedRunner(t, ns, "deployment", "web", NewRequestLog(nil), v)
		base := readBase(t, r.Target)
		found, err := r.ServerCheck(context.Background(), base, draftOf(t, base, text), text)
		if err != nil {
			t.Fatal(err)
		}
		want := "imagePullPolicyy: unknown field"
		if v == ValidationWarn {
			want = "the server will drop imagePullPolicyy (--validate=warn)"
		}
		if len(found) != 1 || found[0].Line != 16 || !found[0].Server || found[0].Dropped != (v == ValidationWarn) || found[0].Message != want {
			t.Errorf("--validate %s: %+v, want %q on line 16, dropped %v", v, found, want, v == ValidationWarn)
		}
	}
}

// TestServerCheckOfASecretIsMasked: a Secret's dry run, refused, keeps
// no value in the request log, and its diagnostics quote none.
func TestServerCheckOfASecretIsMasked(t *testing.T) {
	t.Parallel()
	const value = "hunter2-very-secret"
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "secret", "generic", "creds", "--from-literal=password=old-value")
	log := NewRequestLog(nil)
	r := loggedRunner(t, ns, "secret", "creds", log, "")
	base := readBase(t, r.Target)
	draft := withData(base, "bad key!", base64.StdEncoding.EncodeToString([]byte(value)))
	text := "apiVersion: v1\nkind: Secret\nmetadata:\n  name: creds\nstringData:\n  bad key!: " + value + "\n"
	found, err := r.ServerCheck(context.Background(), base, draft, text)
	if err != nil {
		t.Fatal(err)
	}
	if len(found) == 0 {
		t.Fatal("the server took a key with a space and a !")
	}
	var all strings.Builder
	for _, d := range found {
		fmt.Fprintf(&all, "%+v\n", d)
	}
	for _, row := range log.Rows() {
		fmt.Fprintf(&all, "%s %s\n%s\n%s\n", row.Method, row.Path, row.RequestBody, row.ResponseBody)
	}
	for _, leak := range []string{value, base64.StdEncoding.EncodeToString([]byte(value)), "old-value"} {
		if strings.Contains(all.String(), leak) {
			t.Errorf("a Secret's value %q is kept:\n%s", leak, all.String())
		}
	}
}

// TestMayServerCheckAsksTheServer: a user who may only read gets a
// *ForbiddenError naming the update a dry run needs, and sends none; one
// who may update is allowed.
func TestMayServerCheckAsksTheServer(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		verbs   string
		allowed bool
	}{{"get,list", false}, {"get,list,update", true}} {
		t.Run(tc.verbs, func(t *testing.T) {
			t.Parallel()
			ns := kubetest.Namespace(t)
			kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=1")
			viewer := grantViewer(t, ns, tc.verbs)
			dc, err := dynamic.NewForConfig(viewer.cfg)
			if err != nil {
				t.Fatal(err)
			}
			r := &Runner{Client: dc, Target: resolveForTest(t, viewer.kubeconfig, ns, "configmap", "testmap")}
			err = r.MayServerCheck(context.Background())
			var forbidden *ForbiddenError
			switch {
			case tc.allowed && err != nil:
				t.Fatalf("MayServerCheck: %v, want allowed", err)
			case !tc.allowed && (!errors.As(err, &forbidden) || forbidden.Verb != "update"):
				t.Fatalf("MayServerCheck: %T %v, want a *ForbiddenError to update", err, err)
			}
		})
	}
}
