package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The scripts behind make's targets, run as make runs them.

// TestBenchNamesWhatIsMissing: make bench on a machine without hyperfine
// and GNU time, where nothing can be installed (no apt-get on PATH), says
// what is missing and how to get it, and stops before doing anything
// else: no build, no server, no Python traceback. python3 is make bench's
// alone, not make test's: on a machine without it, the script names it
// among the missing.
func TestBenchNamesWhatIsMissing(t *testing.T) {
	bin := t.TempDir()
	// Every tool the script may look for but hyperfine, apt-get and sudo;
	// make test needs each of them but python3.
	wants := []string{"needs hyperfine, GNU time (", "sudo apt-get install hyperfine time", "brew install hyperfine gnu-time"}
	for _, tool := range []string{"bash", "dirname", "grep", "id", "tmux", "python3", "git", "go", "kubectl", "make"} {
		path, err := exec.LookPath(tool)
		if err != nil && tool == "python3" {
			wants = append(wants, "python3")
			continue
		}
		if err != nil {
			t.Fatalf("%s is needed to run the script: %v", tool, err)
		}
		if err := os.Symlink(path, filepath.Join(bin, tool)); err != nil {
			t.Fatal(err)
		}
	}
	for _, script := range []string{"scripts/bench.sh", "scripts/bench-browser.sh"} {
		cmd := exec.Command(filepath.Join(bin, "bash"), script)
		cmd.Env = append(os.Environ(), "PATH="+bin, "GNU_TIME="+filepath.Join(bin, "no-time"))
		out, err := cmd.CombinedOutput()
		exit, _ := err.(*exec.ExitError)
		if exit == nil || exit.ExitCode() != 1 {
			t.Errorf("%s: exit %v, want 1\n%s", script, err, out)
		}
		for _, want := range wants {
			if !strings.Contains(string(out), want) {
				t.Errorf("%s does not say %q:\n%s", script, want, out)
			}
		}
		for _, not := range []string{"Traceback", "peer:", "go build", "localcluster"} {
			if strings.Contains(string(out), not) {
				t.Errorf("%s went on past the check (%q):\n%s", script, not, out)
			}
		}
	}
}

// progress runs scripts/progress.sh in dir with extra environment.
func progress(t *testing.T, dir string, env []string, args ...string) (string, error) {
	t.Helper()
	script, err := filepath.Abs("scripts/progress.sh")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(script, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// module writes a module into a new directory: its main package, with
// src as main.go, and a package lib with a constant of its own, so that
// no run finds lib in Go's build cache.
func module(t *testing.T, src string) string {
	dir := t.TempDir()
	lib := fmt.Sprintf("package lib\n\nconst Run = %d\n", time.Now().UnixNano())
	for name, text := range map[string]string{"go.mod": "module example.com/progress\n\ngo 1.22\n", "main.go": src, "lib/lib.go": lib} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestProgressCountsWhatItCompiles: a build says how many packages it
// compiles, why it takes long, how far it is and that it is done; one
// that is all in Go's cache says nothing; a broken one passes Go's error
// through with its exit status.
func TestProgressCountsWhatItCompiles(t *testing.T) {
	dir := module(t, "package main\n\nimport \"example.com/progress/lib\"\n\nfunc main() { println(lib.Run) }\n")
	out, err := progress(t, dir, []string{"PROGRESS_WHY=it is the test's"}, "a test build", "build", "-o", filepath.Join(dir, "bin"), ".")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, want := range []string{"a test build: 2 packages to compile\n", "a test build: it is the test's\n",
		"a test build: 2 of 2 packages compiled (100%), 0m", "a test build: done, 0m"} {
		if !strings.Contains(out, want) {
			t.Errorf("the build does not say %q:\n%s", want, out)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "bin")); err != nil {
		t.Errorf("the build did not write its binary: %v", err)
	}
	if out, err := progress(t, dir, nil, "a test build", "build", "-o", filepath.Join(dir, "bin"), "."); err != nil || out != "" {
		t.Errorf("a cached build says %q (%v), want nothing", out, err)
	}

	broken := module(t, "package main\n\nimport \"example.com/progress/lib\"\n\nfunc main() { undefinedName(lib.Run) }\n")
	out, err = progress(t, broken, nil, "a broken build", "build", ".")
	if exit, _ := err.(*exec.ExitError); exit == nil || exit.ExitCode() != 1 {
		t.Errorf("a broken build exits %v, want go's 1\n%s", err, out)
	}
	if !strings.Contains(out, "undefined: undefinedName") || strings.Contains(out, "done") {
		t.Errorf("a broken build says:\n%s", out)
	}
}

// TestProgressSaysItIsStillWorking: a command that names nothing as it
// goes (vet, or here a program that takes three seconds) gets a line at
// every interval, so that it never looks hung.
func TestProgressSaysItIsStillWorking(t *testing.T) {
	dir := module(t, "package main\n\nimport \"time\"\n\nfunc main() { time.Sleep(3 * time.Second) }\n")
	out, err := progress(t, dir, []string{"PROGRESS_INTERVAL=1"}, "a slow run", "run", ".")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !strings.HasPrefix(out, "a slow run: started\n") || strings.Count(out, "a slow run: still working, 0m0") < 2 || !strings.Contains(out, "a slow run: done, 0m") {
		t.Errorf("the slow run says:\n%s", out)
	}
}
