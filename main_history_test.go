package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestHistoryPath: kedit history --path prints the field's value in each
// version of the log (GKE's fixture: helm creates foo "1", bob's patch
// makes it "bob", alice's "alice"), as text and in --json; a path not
// in the object says absent in each version; a bad path is a usage error.
func TestHistoryPath(t *testing.T) {
	t.Setenv("KUBECONFIG", filepath.Join(t.TempDir(), "none")) // read from the log alone
	log := filepath.Join("kube", "auditlog", "testdata", "gke-race.jsonl")
	args := []string{"history", "configmap/app-config", "-n", "shop", "--audit-log", log}

	out, stderr, _ := runKedit(t, append(args, "--path", ".data.foo")...)
	if !strings.Contains(out, `VALUES OF .data.foo: "1" → "bob" → "alice"`+"\n") || !strings.Contains(out, "RV") {
		t.Errorf("--path .data.foo:\n%s%s", out, stderr)
	}
	out, _, _ = runKedit(t, append(args, "--path", ".data.nothing")...)
	if !strings.Contains(out, "VALUES OF .data.nothing: absent\n") || strings.Contains(out, `""`) {
		t.Errorf("--path .data.nothing:\n%s", out)
	}

	out, stderr, _ = runKedit(t, append(args, "--path", "data.foo", "--json")...)
	var rep struct {
		Path struct {
			Path   string `json:"path"`
			Values []struct {
				ResourceVersion string `json:"resourceVersion"`
				State           string `json:"state"`
				Value           any    `json:"value"`
			} `json:"values"`
		} `json:"path"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("--json: %v\n%s%s", err, out, stderr)
	}
	var values []string
	for _, v := range rep.Path.Values {
		if v.State != "set" {
			t.Errorf("version %s: state %s", v.ResourceVersion, v.State)
		}
		values = append(values, v.Value.(string))
	}
	if rep.Path.Path != "data.foo" || strings.Join(values, " ") != "1 bob alice" {
		t.Errorf("--json path %+v", rep.Path)
	}

	_, stderr, code := runKedit(t, append(args, "--path", ".data[")...)
	if code != 2 || !strings.Contains(stderr, "--path: \".data[\" is not a field path such as .data.foo") {
		t.Errorf("--path .data[: exit %d, %s", code, stderr)
	}
}
