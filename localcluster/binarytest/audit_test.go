package binarytest

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

type auditLine struct {
	Kind       string `json:"kind"`
	Level      string `json:"level"`
	Stage      string `json:"stage"`
	Verb       string `json:"verb"`
	RequestURI string `json:"requestURI"`
	ObjectRef  *struct {
		Resource string `json:"resource"`
		Name     string `json:"name"`
	} `json:"objectRef"`
	ResponseObject json.RawMessage `json:"responseObject"`
}

func readAudit(t *testing.T, path string) []auditLine {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []auditLine
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var l auditLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("%s: a line that is not JSON: %v\n%s", path, err, sc.Text())
		}
		out = append(out, l)
	}
	return out
}

// awaitAudit reads the audit log at path until ok holds of its lines (the
// server writes a request's line once it ends), and returns them; the
// test fails after 30 s, saying what it waited for.
func awaitAudit(t *testing.T, path, what string, ok func([]auditLine) bool) []auditLine {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		lines := readAudit(t, path)
		if ok(lines) {
			return lines
		}
		if time.Now().After(deadline) {
			t.Fatalf("the audit log has no %s; %d lines", what, len(lines))
		}
		time.Sleep(100 * time.Millisecond) // the poll's interval
	}
}

// TestAuditLogDefaultPolicy runs localcluster with --audit-log and checks
// the default policy on what kubectl does: a create at RequestResponse
// with the stored object, a get at Metadata, no RequestReceived stage, no
// Event, Lease or health check.
func TestAuditLogDefaultPolicy(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "audit.log")
	s := startServer(t, "--dir", filepath.Join(dir, "c"), "--audit-log", log)
	defer s.stop(t)
	mustKubectl(t, s.kubeconfig, "create", "configmap", "audited", "--from-literal=foo=1")
	mustKubectl(t, s.kubeconfig, "get", "configmap", "audited")
	lines := awaitAudit(t, log, "a create at RequestResponse and a get at Metadata of the configmap", func(lines []auditLine) bool {
		create, get := false, false
		for _, l := range lines {
			if l.ObjectRef != nil && l.ObjectRef.Name == "audited" {
				create = create || (l.Verb == "create" && l.Level == "RequestResponse" && len(l.ResponseObject) > 0)
				get = get || (l.Verb == "get" && l.Level == "Metadata" && len(l.ResponseObject) == 0)
			}
		}
		return create && get
	})
	for _, l := range lines {
		if l.Kind != "Event" || l.Stage == "RequestReceived" {
			t.Errorf("kind %q stage %q in the log: %+v", l.Kind, l.Stage, l)
		}
		if l.ObjectRef != nil && (l.ObjectRef.Resource == "events" || l.ObjectRef.Resource == "leases") {
			t.Errorf("a %s request is in the log: %s %s", l.ObjectRef.Resource, l.Verb, l.RequestURI)
		}
		for _, p := range []string{"/healthz", "/livez", "/readyz"} {
			if strings.HasPrefix(l.RequestURI, p) {
				t.Errorf("a health check is in the log: %s", l.RequestURI)
			}
		}
	}
}

// TestAuditPolicyFlag runs localcluster with a policy of its own, which
// records nothing but Metadata of configmaps.
func TestAuditPolicyFlag(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "audit.log")
	policy := filepath.Join(dir, "policy.yaml")
	if err := os.WriteFile(policy, []byte(`apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: ["RequestReceived"]
rules:
  - level: Metadata
    resources: [{group: "", resources: ["configmaps"]}]
  - level: None
`), 0o600); err != nil {
		t.Fatal(err)
	}
	s := startServer(t, "--dir", filepath.Join(dir, "c"), "--audit-log", log, "--audit-policy", policy)
	defer s.stop(t)
	mustKubectl(t, s.kubeconfig, "create", "configmap", "audited", "--from-literal=foo=1")
	awaitAudit(t, log, "a create of the configmap", func(lines []auditLine) bool {
		found := false
		for _, l := range lines {
			if l.ObjectRef == nil || l.ObjectRef.Resource != "configmaps" {
				t.Fatalf("the policy records configmaps only; the log has %s %s", l.Verb, l.RequestURI)
			}
			if l.Level != "Metadata" {
				t.Fatalf("the policy records Metadata only; the log has %s", l.Level)
			}
			found = found || (l.Verb == "create" && l.ObjectRef.Name == "audited")
		}
		return found
	})
}
