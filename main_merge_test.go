package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata/merge")

// runKedit runs the root command with args and returns its output and the
// exit status main would give.
func runKedit(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errOut bytes.Buffer
	root := newRootCmd()
	root.SetOut(&out)
	root.SetErr(&errOut)
	root.SetArgs(args)
	err := root.Execute()
	var ee *exitError
	switch {
	case err == nil:
		code = 0
	case errors.As(err, &ee):
		code = ee.code
	default:
		// main prints the error and exits 2.
		errOut.WriteString("kedit: " + err.Error() + "\n")
		code = 2
	}
	return out.String(), errOut.String(), code
}

func TestMergeCommand(t *testing.T) {
	tests := []struct {
		dir    string
		code   int
		stderr string // a part of stderr
	}{
		{dir: "configmap-disjoint", code: 0},
		{dir: "configmap-same-key", code: 1, stderr: "conflict at .data.foo"},
		{dir: "configmap-config-file", code: 0},
		{dir: "configmap-delete-modify", code: 1, stderr: "conflict at .data.foo"},
		{dir: "deployment-image-and-container", code: 0},
		{dir: "json-manifests", code: 0},
		{dir: "secret-data", code: 0},
		{dir: "plain-text", code: 1, stderr: "1 conflict"},
		{dir: "not-same-object", code: 255, stderr: "not-same-object/theirs.yaml is not the same object as testdata/merge/not-same-object/base.yaml: metadata.name"},
		{dir: "invalid-yaml", code: 255, stderr: "invalid-yaml/theirs.yaml: invalid YAML"},
	}
	for _, tt := range tests {
		t.Run(tt.dir, func(t *testing.T) {
			dir := filepath.Join("testdata", "merge", tt.dir)
			stdout, stderr, code := runKedit(t, "merge",
				filepath.Join(dir, "mine.yaml"), filepath.Join(dir, "base.yaml"), filepath.Join(dir, "theirs.yaml"))
			if code != tt.code {
				t.Errorf("exit %d, want %d; stderr %q", code, tt.code, stderr)
			}
			if !strings.Contains(stderr, tt.stderr) {
				t.Errorf("stderr %q does not contain %q", stderr, tt.stderr)
			}
			if tt.code == 255 {
				if stdout != "" {
					t.Errorf("stdout %q on trouble", stdout)
				}
				return
			}
			golden := filepath.Join(dir, "merged.golden")
			if *update {
				if err := os.WriteFile(golden, []byte(stdout), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if stdout != string(want) {
				t.Errorf("stdout:\n%s\nwant (%s):\n%s", stdout, golden, want)
			}
		})
	}
}

func TestMergeCommandMatchesGitOnText(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("no git")
	}
	dir := filepath.Join("testdata", "merge", "plain-text")
	files := []string{filepath.Join(dir, "mine.yaml"), filepath.Join(dir, "base.yaml"), filepath.Join(dir, "theirs.yaml")}
	stdout, _, code := runKedit(t, append([]string{"merge"}, files...)...)
	cmd := exec.Command(git, append([]string{"merge-file", "-p", "--diff3", "-L", "mine", "-L", "base", "-L", "theirs"}, files...)...)
	want, err := cmd.Output()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatal(err)
	}
	if stdout != string(want) {
		t.Errorf("kedit merge:\n%s\ngit merge-file:\n%s", stdout, want)
	}
	if gitCode := cmd.ProcessState.ExitCode(); gitCode != code {
		t.Errorf("kedit exit %d, git exit %d", code, gitCode)
	}
}

func TestMergeCommandOutputFile(t *testing.T) {
	dir := filepath.Join("testdata", "merge", "configmap-same-key")
	out := filepath.Join(t.TempDir(), "merged.yaml")
	if err := os.WriteFile(out, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	stdout, _, code := runKedit(t, "merge", "-o", out,
		filepath.Join(dir, "mine.yaml"), filepath.Join(dir, "base.yaml"), filepath.Join(dir, "theirs.yaml"))
	if code != 1 || stdout != "" {
		t.Fatalf("exit %d, stdout %q", code, stdout)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := os.ReadFile(filepath.Join(dir, "merged.golden"))
	if string(got) != string(want) {
		t.Errorf("-o wrote:\n%s\nwant:\n%s", got, want)
	}
	if fi, _ := os.Stat(out); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v: replacing a file keeps its mode", fi.Mode())
	}
	entries, _ := os.ReadDir(filepath.Dir(out))
	if len(entries) != 1 {
		t.Errorf("temporary files left: %v", entries)
	}
}

func TestMergeCommandJSON(t *testing.T) {
	type report struct {
		Clean     bool                         `json:"clean"`
		Conflicts []map[string]json.RawMessage `json:"conflicts"`
		Merged    json.RawMessage              `json:"merged"`
	}
	run := func(t *testing.T, dir string) (report, int) {
		t.Helper()
		dir = filepath.Join("testdata", "merge", dir)
		stdout, stderr, code := runKedit(t, "merge", "--json",
			filepath.Join(dir, "mine.yaml"), filepath.Join(dir, "base.yaml"), filepath.Join(dir, "theirs.yaml"))
		var r report
		if err := json.Unmarshal([]byte(stdout), &r); err != nil {
			t.Fatalf("stdout is not JSON: %v\n%s%s", err, stdout, stderr)
		}
		return r, code
	}

	r, code := run(t, "configmap-same-key")
	if code != 1 || r.Clean || len(r.Conflicts) != 1 {
		t.Fatalf("exit %d, report %+v", code, r)
	}
	c := r.Conflicts[0]
	for k, want := range map[string]string{"path": `".data.foo"`, "base": `"base"`, "mine": `"mine"`, "theirs": `"theirs"`} {
		if string(c[k]) != want {
			t.Errorf("conflict %s = %s, want %s", k, c[k], want)
		}
	}
	var merged map[string]any
	if err := json.Unmarshal(r.Merged, &merged); err != nil || merged["kind"] != "ConfigMap" {
		t.Errorf("merged is not the object: %s", r.Merged)
	}

	// A side without the field has no key; null would be a field set to null.
	r, code = run(t, "configmap-delete-modify")
	if code != 1 || len(r.Conflicts) != 1 {
		t.Fatalf("exit %d, report %+v", code, r)
	}
	if _, ok := r.Conflicts[0]["mine"]; ok || string(r.Conflicts[0]["theirs"]) != `"theirs"` {
		t.Errorf("conflict %v: want no mine key", r.Conflicts[0])
	}

	r, code = run(t, "configmap-disjoint")
	if code != 0 || !r.Clean || len(r.Conflicts) != 0 {
		t.Errorf("exit %d, report %+v", code, r)
	}

	r, code = run(t, "plain-text")
	if code != 1 || len(r.Conflicts) != 1 || string(r.Conflicts[0]["path"]) != `"line 2"` ||
		string(r.Conflicts[0]["mine"]) != `"TWO\n"` {
		t.Errorf("exit %d, report %+v", code, r)
	}
	var text string
	if err := json.Unmarshal(r.Merged, &text); err != nil || !strings.Contains(text, "<<<<<<< mine") {
		t.Errorf("merged is not the text: %s", r.Merged)
	}
}

func TestMergeCommandTrouble(t *testing.T) {
	dir := filepath.Join("testdata", "merge", "configmap-disjoint")
	_, stderr, code := runKedit(t, "merge", filepath.Join(dir, "mine.yaml"), filepath.Join(dir, "nope.yaml"), filepath.Join(dir, "theirs.yaml"))
	if code != 255 || !strings.Contains(stderr, "nope.yaml") {
		t.Errorf("missing file: exit %d, stderr %q", code, stderr)
	}
	_, _, code = runKedit(t, "merge", filepath.Join(dir, "mine.yaml"))
	if code != 129 {
		t.Errorf("one argument: exit %d", code)
	}
	// A manifest merged with plain text is trouble, not a line merge.
	_, stderr, code = runKedit(t, "merge", filepath.Join(dir, "mine.yaml"), filepath.Join(dir, "base.yaml"),
		filepath.Join("testdata", "merge", "plain-text", "theirs.yaml"))
	if code != 255 || !strings.Contains(stderr, "plain-text/theirs.yaml: not a Kubernetes object") {
		t.Errorf("mixed: exit %d, stderr %q", code, stderr)
	}
}

// TestREADMEListsMergeFlags keeps the README's kedit merge section true:
// every flag of the command in its table, and its exit statuses. The
// driver line it gives is what e2e's TestMergeDriverInGit runs.
func TestREADMEListsMergeFlags(t *testing.T) {
	section := readmeSection(t, "`kedit merge ")
	checkREADMEFlags(t, "kedit merge", section, newMergeCmd().LocalFlags())
	for _, status := range []string{"`127`", "`255`", "`129`", "Cannot merge binary files"} {
		if !strings.Contains(section, status) {
			t.Errorf("docs/commands.md's kedit merge section does not say %s", status)
		}
	}
}
