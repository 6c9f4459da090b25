package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/kedit/kedit/internal/testwait"
)

// The audit log's lost updates in kedit's timeline, through the real
// binary in tmux, on a real API server's log with real kubectl writers.

// TestE2ELostUpdateInTheTimelineIsUndone plays the incident: alice's
// kubectl edit waits in her editor while bob's kubectl patch changes foo;
// her edit then writes foo back. kedit, opened afterwards with the audit
// log, marks her write LOST, shows base, theirs and mine, and u, s puts
// bob's value back with an ordinary save. Sequential edits mark nothing.
func TestE2ELostUpdateInTheTimelineIsUndone(t *testing.T) {
	if testing.Short() {
		t.Skip("integration test: needs a real API server; not run with -short")
	}
	e := newAuditEnv(t)

	t.Run("kubectl edit race", func(t *testing.T) {
		e.t = t
		e.editRace("incident")
		e.history("cm/incident", 3) // the log holds alice's write

		// The log as rotated files, newest first, one gzip: files after
		// TYPE/NAME are logs too, as --audit-log audit*.log gives them.
		rotated := cloudExports(t, e.c.AuditLog())["rotated, gzip, newest first"]
		env := newKeditEnv(t, "true")
		env.kubeconfig = e.c.Kubeconfig()
		term := env.run(t, 160, 40, append([]string{"configmap/incident", "--audit-log"}, rotated...)...)
		term.waitFor(screenWait, "ConfigMap/incident", "foo: alice")
		term.send("t")
		term.waitFor(screenWait, "1 version since kedit opened it, 2 more from the audit log",
			"audit log: 1 lost update, 0 fights", "LOST  opened: the first version kedit saw",
			"kubectl-patch", "from the audit log: .data.foo", "from the audit log: created")
		term.send("Enter")
		term.waitFor(screenWait, "LOST at rv", "alice's kubectl edit replaced 1 change it had not read (1 open)",
			"open    .data.foo  set by bob (kubectl-patch)", "theirs (rv", "by bob (kubectl-patch))", "by alice (kubectl-edit))")
		term.send("u")
		term.waitFor(screenWait, "unsaved draft", "foo: bob", `the draft puts back .data.foo = "bob", lost by alice's patch; s saves it`)
		term.send("s")
		term.waitFor(screenWait, "saved rv")
		if data := e.getData("incident"); data["foo"] != "bob" || data["bar"] != "1" {
			t.Fatalf("after u, s the object holds %v; want bob's foo back", data)
		}
		// The history shows both writes: alice's that lost bob's foo, and
		// kedit's that put it back.
		rep, _ := e.history("cm/incident", 4)
		last := rep.Versions[len(rep.Versions)-1]
		if last.Manager != "kedit" || strings.Join(last.Changed, " ") != ".data.foo" || rep.Versions[2].Manager != "kubectl-edit" {
			t.Errorf("versions %+v; want alice's edit, then kedit's save of foo", rep.Versions)
		}
		term.send("t")
		term.waitFor(screenWait, "2 versions since kedit opened it", "kedit ", "LOST")
	})

	// At 60 columns the heading's title does not fit: it keeps its rv
	// and count, and who lost what is said in the hint, which wraps.
	t.Run("narrow heading is not cut", func(t *testing.T) {
		e.t = t
		env := newKeditEnv(t, "true")
		env.kubeconfig = e.c.Kubeconfig()
		term := env.run(t, 60, 30, "configmap/incident", "--audit-log", e.c.AuditLog())
		term.waitFor(screenWait, "ConfigMap/incident")
		term.send("t")
		term.waitFor(screenWait, "audit log: 1 lost update")
		term.send("Down")
		term.waitUntil(screenWait, "the LOST row selected", func(s string) bool {
			return strings.Contains(regexp.MustCompile(`(?m)^> .*$`).FindString(s), "LOST")
		})
		term.send("Enter")
		screen := term.waitFor(screenWait, "(1 open)", "alice's kubectl edit replaced 1 change it had not read.", "u puts the lost values")
		head := strings.Split(screen, "\n")
		for _, l := range head[:slices.IndexFunc(head, func(l string) bool { return strings.HasPrefix(l, "> open") })] {
			if strings.Contains(l, "…") {
				t.Errorf("a line of the heading is cut: %q\n%s", l, screen)
			}
		}
		if !regexp.MustCompile(`(?m)^LOST at rv \d+ \(1 open\)\s*$`).MatchString(screen) {
			t.Errorf("the title is not the short one:\n%s", screen)
		}
	})

	t.Run("sequential edits mark nothing", func(t *testing.T) {
		e.t = t
		e.sequentialEdits("quiet")
		e.history("cm/quiet", 4)
		env := newKeditEnv(t, "true")
		env.kubeconfig = e.c.Kubeconfig()
		term := env.run(t, 120, 30, "configmap/quiet", "--audit-log", e.c.AuditLog())
		term.waitFor(screenWait, "ConfigMap/quiet", "foo: alice-again")
		term.send("t")
		screen := term.waitFor(screenWait, "3 more from the audit log", "audit log: 0 lost updates, 0 fights")
		if strings.Contains(screen, "LOST") || strings.Contains(screen, "FIGHT") {
			t.Errorf("sequential edits marked:\n%s", screen)
		}
	})

	t.Run("a log that is no audit log stops kedit before it starts", func(t *testing.T) {
		e.t = t
		notes := filepath.Join(t.TempDir(), "notes.yaml")
		if err := os.WriteFile(notes, []byte("apiVersion: v1\nkind: ConfigMap\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		for _, log := range []string{notes, "-"} {
			_, stderr, code := runBinary(t, "", "--kubeconfig", e.c.Kubeconfig(), "configmap/quiet", "--audit-log", log)
			if code != 1 || !strings.Contains(stderr, "--audit-log") || (log != "-" && !strings.Contains(stderr, notes+":1:")) {
				t.Errorf("--audit-log %s: exit %d, stderr %q", log, code, stderr)
			}
		}
	})
}

// getData reads ConfigMap name's data with kubectl.
func (e *auditEnv) getData(name string) map[string]string {
	e.t.Helper()
	var data map[string]string
	if err := json.Unmarshal([]byte(e.must("", "get", "configmap", name, "-o", "jsonpath={.data}")), &data); err != nil {
		e.t.Fatal(err)
	}
	return data
}

// TestE2EDemoKubectlEditLostAndUndone is the README's step: in kedit
// demo, a draft of foo, W (alice's kubectl edit reads foo), s within the
// 5 s it waits; her write puts foo back, the timeline marks it LOST, and
// enter, u, s brings the value back.
func TestE2EDemoKubectlEditLostAndUndone(t *testing.T) {
	term, demoDir := startDemo(t, 160, 40)
	kubeconfig := filepath.Join(demoDir, "cluster", "kubeconfig")

	term.editAndWait("foo: mine")
	term.send("W")
	term.waitFor(screenWait, `alice's kubectl edit read .data.foo = "1" (rv `)
	term.send("s")
	term.waitFor(screenWait, "saved rv")
	// Five seconds after its read, alice's edit writes foo back.
	term.waitFor(screenWait, `alice's kubectl edit set .data.foo back to "1" (rv `, "a lost update", `foo: "1"`)
	if data, err := configMapDataAt(t, kubeconfig, "default", "testmap"); err != nil || data["foo"] != "1" {
		t.Fatalf("foo = %q after alice's edit (%v), want her 1", data["foo"], err)
	}
	term.send("t")
	term.waitFor(screenWait, "audit log: 1 lost update", "LOST", "kubectl-edit")
	term.send("Enter")
	term.waitFor(screenWait, "LOST at rv", "alice's kubectl edit replaced 1 change it had not read", "(kedit))", "mine")
	term.send("u")
	term.waitFor(screenWait, "unsaved draft", "foo: mine", `the draft puts back .data.foo = "mine"`)
	term.send("s")
	term.waitFor(screenWait, "saved rv")
	if data, err := configMapDataAt(t, kubeconfig, "default", "testmap"); err != nil || data["foo"] != "mine" {
		t.Errorf("foo = %q after u, s (%v), want mine back", data["foo"], err)
	}
	// The timeline shows both writes: alice's, LOST, and kedit's since.
	term.send("t")
	screen := term.waitFor(screenWait, "LOST", "kubectl-edit")
	if n := strings.Count(screen, " kedit "); n < 2 {
		t.Errorf("the timeline shows %d of kedit's saves, want the first and the undo:\n%s", n, screen)
	}
	var pid int
	b, _ := os.ReadFile(filepath.Join(demoDir, "localcluster.pid"))
	_ = json.Unmarshal(b, &pid)
	term.send("q")
	term.waitFor(screenWait, "EXIT=0")
	testwait.Eventually(t, 30*time.Second, "the cluster process exits", func() bool { return pid <= 0 || syscall.Kill(pid, 0) != nil })
}
