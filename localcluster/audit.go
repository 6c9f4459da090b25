package main

import (
	"fmt"
	"os"
	"path/filepath"
)

// auditPolicyFile is where the default policy is written in the cluster
// directory when --audit-log is given without --audit-policy.
const auditPolicyFile = "audit-policy.yaml"

// defaultAuditPolicy records every write with the object the request sent
// and the object the server stored (RequestResponse), and every read with
// who read what and when (Metadata): enough to rebuild an object's history
// and what each client had seen. It leaves out Events and Leases, written
// by the thousand and of no one's history, and the server's own health
// checks. Nothing else is recorded.
const defaultAuditPolicy = `apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: ["RequestReceived"]
rules:
  - level: None
    resources:
      - group: ""
        resources: ["events"]
      - group: "events.k8s.io"
        resources: ["events"]
      - group: "coordination.k8s.io"
        resources: ["leases"]
  - level: None
    nonResourceURLs: ["/healthz", "/healthz/*", "/livez", "/livez/*", "/readyz", "/readyz/*"]
  - level: RequestResponse
    verbs: ["create", "update", "patch", "delete", "deletecollection"]
  - level: Metadata
    verbs: ["get", "list", "watch"]
  - level: None
`

// setAudit turns the audit log on at path with the policy at policyPath
// (the default when empty); an empty path leaves it off. Relative paths are
// taken from the working directory.
func (c *cluster) setAudit(path, policyPath string) error {
	var err error
	if path != "" {
		if path, err = filepath.Abs(path); err != nil {
			return err
		}
	}
	if policyPath != "" {
		if policyPath, err = filepath.Abs(policyPath); err != nil {
			return err
		}
	}
	c.auditArgs, err = auditFlags(c.dir, path, policyPath)
	return err
}

// auditFlags are the API server's flags for an audit log at path (absolute),
// with the policy at policyPath, or the default policy written into dir
// when policyPath is empty. An empty path turns auditing off.
func auditFlags(dir, path, policyPath string) ([]string, error) {
	if path == "" {
		if policyPath != "" {
			return nil, fmt.Errorf("--audit-policy needs --audit-log")
		}
		return nil, nil
	}
	if policyPath == "" {
		policyPath = filepath.Join(dir, auditPolicyFile)
		if err := writeFileAtomic(policyPath, []byte(defaultAuditPolicy), 0o600); err != nil {
			return nil, fmt.Errorf("writing the audit policy: %w", err)
		}
	} else if _, err := os.Stat(policyPath); err != nil {
		return nil, fmt.Errorf("--audit-policy: %w", err)
	}
	return []string{
		"--audit-log-path=" + path,
		"--audit-policy-file=" + policyPath,
		"--audit-log-format=json",
		// Each event is written in the request's own path rather than
		// from a buffer flushed later, so that it is in the file
		// moments after the client has its answer.
		"--audit-log-mode=blocking",
		// Rotation as lumberjack does it (audit.log, then
		// audit-TIMESTAMP.log), kept whole for the tests.
		"--audit-log-maxsize=100",
		"--audit-log-maxbackup=10",
	}, nil
}
