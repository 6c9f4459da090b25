package e2e

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// A class on one kedit demo, through the real binaries in tmux: a second
// terminal joins as the demo says, and RBAC is the server's.

// TestE2EDemoSecondUserJoins: the demo's ? says how a second terminal
// joins; a second kedit started with exactly that, as bob, saves foo, and
// the first one's first screen names him (live object by kedit-bob); its
// save of foo is then a conflict with theirs by kedit-bob, which its
// request pane shows (bob's write by the watch, by kedit-bob, then the
// 409); the timeline's rows and kedit history on the demo's audit log
// name him (kedit-bob, user bob). alice's kubectl edit edits,
// carol's is refused by RBAC (403), and the join lines stay on the
// terminal after the demo.
func TestE2EDemoSecondUserJoins(t *testing.T) {
	term, demoDir := startDemo(t, 200, 40)
	kubeconfig := filepath.Join(demoDir, "cluster", "kubeconfig")

	term.send("?")
	screen := term.waitFor(screenWait, "A second terminal joins this cluster as bob", "export KUBECONFIG="+kubeconfig,
		" --as bob --field-manager kedit-bob configmap/testmap", "kubectl --as alice edit configmap/testmap")
	export := regexp.MustCompile(`(?m)^\s*(export KUBECONFIG=\S+)\s*$`).FindStringSubmatch(screen)
	join := regexp.MustCompile(`(?m)^\s*(\S+ --as bob --field-manager kedit-bob configmap/testmap)\s*$`).FindStringSubmatch(screen)
	if export == nil || join == nil {
		t.Fatalf("no join lines on ?:\n%s", screen)
	}
	term.send("Escape")
	term.waitGone(screenWait, "A second terminal joins")

	// bob, in a second terminal, runs what the page says, word for word.
	// bob's editor writes foo as the value file says, bob at first.
	bobValue := filepath.Join(t.TempDir(), "value")
	if err := os.WriteFile(bobValue, []byte("bob"), 0o600); err != nil {
		t.Fatal(err)
	}
	bobEditor := editorScript(t, `sed -i "s/^  foo: .*/  foo: $(cat `+bobValue+`)/" "$1"`)
	bobEnv := keditEnv{state: t.TempDir(), runtime: t.TempDir(), editor: bobEditor, extra: []string{"PATH=/usr/bin:/bin"}}
	bob := startTerminal(t, 200, 40, bobEnv.vars(t), "sh", "-c", export[1]+"; "+join[1])
	bob.waitFor(screenWait, "ConfigMap/testmap", `foo: "1"`)

	// bob's save, named as his on the first kedit's first screen.
	bob.editAndWait("foo: bob")
	bob.send("s")
	bob.waitFor(screenWait, "saved rv")
	term.waitFor(screenWait, "foo: bob", "live object by kedit-bob; e edits a draft")

	term.editAndWait("foo: mine")
	if err := os.WriteFile(bobValue, []byte("bob2"), 0o600); err != nil {
		t.Fatal(err)
	}
	bob.editAndWait("foo: bob2")
	bob.send("s")
	bob.waitGone(screenWait, "unsaved draft")
	term.waitFor(screenWait, "changed on server", "by kedit-bob")
	term.send("s")
	term.waitFor(screenWait, "conflict: base rv", "1 conflict,", ".data.foo", "theirs by kedit-bob")
	// The first kedit's request pane shows it: bob's write as its watch
	// brought it, named his, then its own PUT refused with 409.
	term.send("L")
	screen = term.waitFor(screenWait, "requests kedit sent and watch events it read", "409 Conflict", "this write was based on")
	if event, refused := strings.Index(screen, "by kedit-bob"), strings.Index(screen, "409 Conflict"); event < 0 || event > refused {
		t.Errorf("the pane has no watch event of bob's write, by kedit-bob, before the 409:\n%s", screen)
	}
	term.send("Escape")
	term.waitGone(screenWait, "requests kedit sent")
	if !auditHas(t, filepath.Join(demoDir, "audit.log"), "bob", "update", "testmap") {
		t.Errorf("the demo's audit log has no update of testmap by bob (impersonated)")
	}
	// alice's kubectl edit edits; carol is not of the class: 403.
	aliceEditor := editorScript(t, `sed -i 's/^  foo: .*/  foo: alice/' "$1"`)
	kubectl := func(user string) (string, error) {
		cmd := exec.Command("kubectl", "--kubeconfig", kubeconfig, "--as", user, "edit", "configmap/testmap")
		cmd.Env = append(os.Environ(), "KUBE_EDITOR="+aliceEditor)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	if out, err := kubectl("alice"); err != nil {
		t.Errorf("kubectl --as alice edit: %v\n%s", err, out)
	}
	if data, err := configMapDataAt(t, kubeconfig, "default", "testmap"); err != nil || data["foo"] != "alice" {
		t.Errorf("foo = %q after alice's kubectl edit (%v)", data["foo"], err)
	}
	if out, err := kubectl("carol"); err == nil || !strings.Contains(out, `User "carol" cannot get resource "configmaps"`) {
		t.Errorf("kubectl --as carol edit: %v\n%s; want RBAC's 403", err, out)
	}

	term.send("Escape")
	term.waitGone(screenWait, "merged without conflict")
	// The timeline's rows and kedit history on the demo's audit log name
	// him: his field manager, and his user.
	term.send("t")
	term.waitUntil(screenWait, "bob's rows in the timeline", regexp.MustCompile(`(?m)^[ >] \d+\s+\S+\s+kedit-bob\s+Update`).MatchString)
	term.send("Escape")
	term.waitGone(screenWait, "timeline of")
	out, stderr, _ := runBinary(t, "", "history", "configmap/testmap", "--kubeconfig", kubeconfig, "--audit-log", filepath.Join(demoDir, "audit.log"))
	if !regexp.MustCompile(`(?m)^\S+\s+\S+\s+bob\s.*kedit-bob`).MatchString(out) {
		t.Errorf("kedit history does not name bob and kedit-bob on a version:\n%s%s", out, stderr)
	}

	term.send("q")
	term.waitFor(screenWait, "quit with an unsaved draft?")
	term.send("y")
	// The join lines stay on the terminal, the commands whole to copy.
	screen = term.waitFor(screenWait, "EXIT=0", "kedit demo: A second terminal joins this cluster as bob")
	if !strings.Contains(screen, "\n  "+export[1]+"\n  "+join[1]+"\n") {
		t.Errorf("the printed join lines are not the ones on ?:\n%s", screen)
	}
}

// auditHas reports whether the audit log at path holds a verb of
// configmap name by user, impersonated.
func auditHas(t *testing.T, path, user, verb, name string) bool {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var ev struct {
			Verb             string `json:"verb"`
			ImpersonatedUser struct {
				Username string `json:"username"`
			} `json:"impersonatedUser"`
			ObjectRef struct {
				Name string `json:"name"`
			} `json:"objectRef"`
		}
		if json.Unmarshal(sc.Bytes(), &ev) == nil && ev.Verb == verb && ev.ImpersonatedUser.Username == user && ev.ObjectRef.Name == name {
			return true
		}
	}
	return false
}

// TestE2EDemoKeptAndStartedAgain: kedit demo --keep DIR leaves DIR when
// it quits, and says so; kedit history reads DIR/audit.log with kedit's
// save in it; kedit demo --dir DIR starts on the kept object, whose
// history the timeline shows from the log; a second demo on DIR while it
// runs, and --dir on what is not a kept demo, are refused.
func TestE2EDemoKeptAndStartedAgain(t *testing.T) {
	env, tmp := demoEnv(t)
	keep := filepath.Join(t.TempDir(), "class")
	term := env.run(t, 200, 40, "demo", "--demo-interval", "0", "--keep", keep)
	term.waitFor(2*time.Minute, "ConfigMap/testmap", `foo: "1"`)
	term.editAndWait("foo: mine")
	term.send("s")
	term.waitFor(screenWait, "saved rv")
	term.send("q")
	term.waitFor(time.Minute, "EXIT=0", "kedit demo: stopped the API server and kept "+keep+": kedit demo --dir "+keep+" starts again on it")
	if dirs, _ := filepath.Glob(filepath.Join(tmp, "kedit-demo-*")); len(dirs) != 0 {
		t.Errorf("a kept demo made temporary directories too: %v", dirs)
	}

	// The class's history afterwards, with no cluster running.
	out, stderr, code := runBinary(t, "", "history", "configmap/testmap", "--kubeconfig", filepath.Join(keep, "cluster", "kubeconfig"),
		"--audit-log", filepath.Join(keep, "audit.log"))
	if code != 0 || !strings.Contains(out, "kedit") || !strings.Contains(out, ".data.foo") || !strings.Contains(out, "kedit-demo") {
		t.Errorf("kedit history on the kept log: exit %d\n%s%s", code, out, stderr)
	}

	// foo's value in each version: the class's story in one line.
	out, stderr, _ = runBinary(t, "", "history", "configmap/testmap", "--kubeconfig", filepath.Join(keep, "cluster", "kubeconfig"),
		"--audit-log", filepath.Join(keep, "audit.log"), "--path", ".data.foo")
	if !strings.Contains(out, `VALUES OF .data.foo: "1" → "mine"`+"\n") {
		t.Errorf("kedit history --path .data.foo on the kept log:\n%s%s", out, stderr)
	}

	again := env.run(t, 200, 40, "demo", "--demo-interval", "0", "--dir", keep)
	again.waitFor(2*time.Minute, "ConfigMap/testmap", "foo: mine")
	again.send("t")
	again.waitFor(screenWait, "more from the audit log", "kedit-demo")

	demoRun := func(args ...string) (string, error) {
		cmd := exec.Command(env.binary, append([]string{"demo"}, args...)...)
		cmd.Env = append(os.Environ(), "TMPDIR="+tmp)
		b, err := cmd.CombinedOutput()
		return string(b), err
	}
	if out, err := demoRun("--dir", keep); err == nil || !strings.Contains(out, keep+" is in use by another kedit demo (pid ") {
		t.Errorf("a second demo on the kept directory: %v\n%s", err, out)
	}
	other := t.TempDir()
	if out, err := demoRun("--dir", other); err == nil || !strings.Contains(out, other+" is not a kept demo directory") {
		t.Errorf("--dir on an empty directory: %v\n%s", err, out)
	}
	again.send("q")
	again.waitFor(time.Minute, "EXIT=0", "kept "+keep)
}

// TestE2ETimelineFollowsAPath: in the demo, after a save of foo and the
// demo writer's two writes, the timeline's / .data.foo enter shows foo's
// value in each version ("1", "mine", the writer's), esc stops, and a
// field that came later says absent in the versions before it.
func TestE2ETimelineFollowsAPath(t *testing.T) {
	term, _ := startDemo(t, 160, 40)
	term.editAndWait("foo: mine")
	term.send("s")
	term.waitFor(screenWait, "saved rv")
	term.send("w")
	screen := term.waitFor(screenWait, `demo-writer set .data.foo = "`)
	m := regexp.MustCompile(`demo-writer set \.data\.foo = "(\w+)"`).FindStringSubmatch(screen)
	if m == nil {
		t.Fatalf("the writer's value is not said:\n%s", screen)
	}
	term.send("w")
	term.waitFor(screenWait, `demo-writer set .data.bar = "`)
	term.send("t")
	term.waitFor(screenWait, "timeline of ConfigMap/testmap")
	term.send("/")
	term.waitFor(screenWait, "follow the value of:")
	term.typeKeys(".data.foo")
	term.send("Enter")
	row := func(manager, value string) func(string) bool {
		re := regexp.MustCompile(`(?m)^[ >] \d+\s+\S+\s+` + regexp.QuoteMeta(manager) + `\s+\S+\s+` + regexp.QuoteMeta(value) + `\s`)
		return func(s string) bool { return re.MatchString(s) }
	}
	term.waitUntil(screenWait, "foo's value in each version", func(s string) bool {
		return regexp.MustCompile(`OPERATION\s+\.data\.foo\s+CHANGED`).MatchString(s) && row("kedit-demo", `"1"`)(s) &&
			row("kedit", `"mine"`)(s) && row("demo-writer", `"`+m[1]+`"`)(s)
	})
	term.send("Escape")
	term.waitGone(screenWait, `"mine"`)
	term.send("/")
	term.typeKeys(".data.bar")
	term.send("Enter")
	term.waitUntil(screenWait, "bar absent before the writer set it", func(s string) bool {
		return row("kedit-demo", "absent")(s) && row("kedit", "absent")(s) && row("demo-writer", `"1"`)(s)
	})
	// One escape at a time: two sent at once reach kedit as alt+esc.
	term.send("Escape")
	term.waitGone(screenWait, "absent")
	term.send("Escape")
	term.waitGone(screenWait, "timeline of ConfigMap/testmap")
	term.send("q")
	term.waitFor(time.Minute, "EXIT=0")
}
