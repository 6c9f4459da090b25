package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/kedit/kedit/internal/testwait"
	"github.com/kedit/kedit/kube/kubetest"
	"github.com/kedit/kedit/model"
)

// TestE2EDemo runs `kedit demo` with the real binaries, localcluster next
// to kedit as make builds them, the way the README's walk-through goes: w
// makes the demo writer change foo under the user's draft (a banner, and
// the write in the status line), the save is a conflict, resolved to mine
// it is saved, and the timeline lists demo-writer's version and the
// user's save. After q the cluster process and the demo's directory are
// gone.
func TestE2EDemo(t *testing.T) {
	term, demoDir := startDemo(t, 100, 30)
	dirs := []string{demoDir}
	b, err := os.ReadFile(filepath.Join(dirs[0], "localcluster.pid"))
	if err != nil {
		t.Fatal(err)
	}
	var pid int
	if err := json.Unmarshal(b, &pid); err != nil || pid <= 0 {
		t.Fatalf("localcluster.pid holds %q", b)
	}

	// A draft of foo, then w: demo-writer changes foo too.
	term.editAndWait("foo: mine")
	term.send("w")
	term.waitFor(screenWait, "changed on server", "by demo-writer: .data.foo", `demo-writer set .data.foo = "2" (rv `)

	// The same field: the save is a conflict; mine is saved.
	term.send("s")
	term.waitFor(screenWait, "conflict: base rv", "1 conflict,", ".data.foo", "theirs by demo-writer")
	term.send("m")
	term.send("s")
	term.waitFor(screenWait, "saved rv")
	if data, err := configMapDataAt(t, filepath.Join(dirs[0], "cluster", "kubeconfig"), "default", "testmap"); err != nil || data["foo"] != "mine" {
		t.Errorf("foo = %q on the demo's server (%v), want mine", data["foo"], err)
	}

	// The timeline: the user's save, newest, and demo-writer's version.
	term.send("t")
	// The demo's audit log is read as the timeline opens: the version
	// kedit opened on is the log's creation, so it adds no row.
	screen := term.waitFor(screenWait, "timeline of ConfigMap/testmap: 3 versions since kedit opened it, newest first",
		"audit log: 0 lost updates, 0 fights")
	rows := regexp.MustCompile(`(?m)^[> ] (\d+) +\d\d:\d\d:\d\d +(\S+) +(\S+) +(.*?) *$`).FindAllStringSubmatch(screen, -1)
	var got []string
	for _, r := range rows {
		got = append(got, r[2]+" "+r[3]+" "+r[4])
	}
	want := []string{"kedit Update .data.foo", "demo-writer Update .data.foo", "kedit-demo Update opened: the first version kedit saw"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("timeline rows:\n%s\nwant:\n%s\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"), screen)
	}
	term.send("t")
	term.waitFor(screenWait, "; e edits a draft")

	term.send("q")
	term.waitFor(screenWait, "EXIT=0")
	testwait.Eventually(t, 30*time.Second, "the cluster process exits", func() bool { return syscall.Kill(pid, 0) != nil })
	testwait.Eventually(t, 30*time.Second, "the demo directory goes", func() bool {
		_, err := os.Stat(dirs[0])
		return os.IsNotExist(err)
	})
}

// startDemo runs `kedit demo --demo-interval 0` with the real binaries,
// localcluster next to kedit as make builds them, in a terminal of width
// by height, with an editor that sets foo to mine; it waits for testmap
// and returns the terminal and the demo's directory.
func startDemo(t *testing.T, width, height int) (*terminal, string) {
	t.Helper()
	env, tmp := demoEnv(t)
	// No timer: only w makes the writer write, so the test knows when.
	term := env.run(t, width, height, "demo", "--demo-interval", "0")
	term.waitFor(2*time.Minute, "ConfigMap/testmap", "namespace default", `foo: "1"`)
	dirs, _ := filepath.Glob(filepath.Join(tmp, "kedit-demo-*"))
	if len(dirs) != 1 {
		t.Fatalf("demo directories %v, want one", dirs)
	}
	return term, dirs[0]
}

// demoEnv is the environment startDemo runs kedit demo in: kedit and
// localcluster side by side, PATH without them, the editor that sets foo
// to mine, and TMPDIR, returned too, where the demo makes its directory.
func demoEnv(t *testing.T) (keditEnv, string) {
	t.Helper()
	// An integration test, left out by -short like the others, though
	// the demo runs a cluster of its own.
	kubetest.Kubeconfig(t)
	kedit := keditBinary(t)
	lc, err := kubetest.Binary()
	if err != nil {
		t.Fatal(err)
	}
	// Next to kedit, where `make demo` puts it. kedit finds itself
	// through /proc/self/exe, which a symbolic link would not change:
	// this kedit is a hard link.
	dir := t.TempDir()
	bin := filepath.Join(dir, "kedit")
	if err := os.Link(kedit, bin); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(lc, filepath.Join(dir, "localcluster")); err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	editor := editorScript(t, `sed -i 's/^  foo: .*/  foo: mine/' "$1"`)
	// The demo's own cluster, not the test's: no kubeconfig.
	env := keditEnv{state: t.TempDir(), runtime: t.TempDir(), editor: editor, binary: bin,
		extra: []string{"TMPDIR=" + tmp, "PATH=/usr/bin:/bin"}}
	return env, tmp
}

// configMapDataAt reads a ConfigMap's data with kubectl from the cluster
// of kubeconfig.
func configMapDataAt(t *testing.T, kubeconfig, ns, name string) (map[string]string, error) {
	t.Helper()
	out, err := exec.Command("kubectl", "--kubeconfig", kubeconfig, "-n", ns, "get", "configmap", name, "-o", "jsonpath={.data}").Output()
	if err != nil {
		return nil, err
	}
	var data map[string]string
	err = json.Unmarshal(out, &data)
	return data, err
}

// TestE2EPreview previews a Service's draft that leaves a defaulted field
// out: the preview shows the server's default, says nothing was saved,
// and the object's resourceVersion is unchanged.
func TestE2EPreview(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "service", "clusterip", "web", "--tcp=80:8080")
	before := strings.TrimSpace(kubetest.MustKubectl(t, "-n", ns, "get", "service", "web", "-o", "jsonpath={.metadata.resourceVersion}"))
	term := openKeditOn(t, ns, "service/web", "Service/web", editorScript(t, `sed -i '/sessionAffinity: None/d' "$1"`), 100, 30)
	term.editAndWait()
	term.send("p")
	screen := term.waitFor(screenWait, "preview (nothing saved)", "+   sessionAffinity: None")
	if strings.Contains(screen, "resourceVersion") && !strings.Contains(screen, `resourceVersion: "`+before+`"`) {
		t.Errorf("the preview shows another resourceVersion than %s:\n%s", before, screen)
	}
	term.send("Escape")
	term.waitFor(screenWait, "unsaved draft  based on rv "+before)
	if s := term.screen(); strings.Contains(s, "preview (nothing saved)") {
		t.Errorf("esc leaves the preview's header:\n%s", s)
	}
	after := strings.TrimSpace(kubetest.MustKubectl(t, "-n", ns, "get", "service", "web", "-o", "jsonpath={.metadata.resourceVersion}"))
	if after != before {
		t.Errorf("the service moved from rv %s to %s: the preview wrote", before, after)
	}
	term.send("q")
	term.waitFor(screenWait, "quit with an unsaved draft?")
	term.send("y")
	term.waitFor(screenWait, "EXIT=0")
}

// TestE2EGitOps opens a ConfigMap that Flux reconciles: the header says
// so, and the first save asks before it is sent.
func TestE2EGitOps(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=1")
	kubetest.MustKubectl(t, "-n", ns, "label", "configmap", "testmap",
		"kustomize.toolkit.fluxcd.io/name=web", "kustomize.toolkit.fluxcd.io/namespace=apps")
	term := openKedit(t, ns, "testmap", editorScript(t, `sed -i 's/foo: "1"/foo: mine/' "$1"`), 100, 30)
	const owner = "managed by Flux (kustomization apps/web): a save may be reverted"
	term.waitFor(screenWait, owner)
	term.editAndWait()
	term.send("s")
	term.waitFor(screenWait, owner+". save anyway? (y/n; g writes it to")
	if data, _ := configMapData(t, ns, "testmap"); data["foo"] != "1" {
		t.Fatalf("foo = %q before the save was confirmed", data["foo"])
	}
	term.send("y")
	term.waitFor(screenWait, "saved rv")
	if data, _ := configMapData(t, ns, "testmap"); data["foo"] != "mine" {
		t.Errorf("foo = %q after y, want mine", data["foo"])
	}
	term.send("q")
	term.waitFor(screenWait, "EXIT=0")
}

// TestE2ETimelineOut runs kedit with --timeline-out while kubectl writes:
// each version becomes one JSON line with its writer and changed paths.
func TestE2ETimelineOut(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=1")
	out := filepath.Join(t.TempDir(), "incident.jsonl")
	term := newKeditEnv(t, "true").run(t, 100, 30, "-n", ns, "--timeline-out", out, "configmap/testmap")
	term.waitFor(screenWait, "ConfigMap/testmap")
	kubetest.MustKubectl(t, "-n", ns, "patch", "configmap", "testmap", "--type=merge", "-p", `{"data":{"foo":"2"}}`)
	kubetest.MustKubectl(t, "-n", ns, "patch", "configmap", "testmap", "--type=merge", "-p", `{"data":{"bar":"x"}}`)

	var recs []model.TimelineRecord
	testwait.Eventually(t, screenWait, "three timeline lines", func() bool {
		b, _ := os.ReadFile(out)
		recs = nil
		for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			var r model.TimelineRecord
			if json.Unmarshal([]byte(l), &r) == nil {
				recs = append(recs, r)
			}
		}
		return len(recs) >= 3
	})
	term.send("q")
	term.waitFor(screenWait, "EXIT=0")
	if len(recs) != 3 {
		t.Fatalf("%d lines: %+v", len(recs), recs)
	}
	paths := func(r model.TimelineRecord) string {
		var ps []string
		for _, c := range r.Changes {
			ps = append(ps, c.Kind+" "+c.Path)
		}
		return strings.Join(ps, ",")
	}
	if recs[0].Manager != "kubectl-create" || recs[1].Manager != "kubectl-patch" || paths(recs[1]) != "modified .data.foo" ||
		paths(recs[2]) != "added .data.bar" || recs[2].Object != "configmaps/testmap -n "+ns {
		t.Errorf("timeline lines: %+v", recs)
	}
}

// TestE2ENotKubectlEdit is the README's "Why not kubectl edit?" sequence
// through the real binary: a change lands on the server while $EDITOR is
// open on the object, then the user's edit of the same field comes back.
// kubectl edit saves the edit over the change; kedit's draft is based on
// the version the editor was given, so the banner names the change and the
// save is a conflict, and the server keeps theirs until the user decides.
func TestE2ENotKubectlEdit(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=1")
	sync := t.TempDir()
	editor := editorScript(t, fmt.Sprintf(`touch %[1]s/started
while [ ! -e %[1]s/go ]; do sleep 0.05; done
sed -i 's/foo: "1"/foo: mine/' "$1"`, sync))
	term := openKedit(t, ns, "testmap", editor, 100, 30)
	term.send("e")
	waitFile(t, filepath.Join(sync, "started"), func(b []byte) bool { return b != nil })
	kubetest.MustKubectl(t, "-n", ns, "patch", "configmap", "testmap", "--type=merge", "-p", `{"data":{"foo":"theirs"}}`)
	if err := os.WriteFile(filepath.Join(sync, "go"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	term.waitFor(screenWait, "unsaved draft", "changed on server", "by kubectl-patch: .data.foo")
	term.send("s")
	term.waitFor(screenWait, "conflict: base rv", "1 conflict,", ".data.foo", "theirs by kubectl-patch")
	if data, _ := configMapData(t, ns, "testmap"); data["foo"] != "theirs" {
		t.Errorf("foo = %q on the server before the conflict was resolved, want theirs", data["foo"])
	}
}

// TestE2EInAppEditDuringAChange: the same with the in-app editor, where
// the change is sure to reach the session while the user types (the
// timeline's file says when): leaving the editor makes a draft based on
// the version it opened on, and the save is a conflict.
func TestE2EInAppEditDuringAChange(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=1")
	out := filepath.Join(t.TempDir(), "timeline.jsonl")
	term := openKeditOn(t, ns, "configmap/testmap", "ConfigMap/testmap", "true", 100, 30, "--timeline-out", out)
	term.send("i")
	term.waitFor(screenWait, "editing the draft")
	kubetest.MustKubectl(t, "-n", ns, "patch", "configmap", "testmap", "--type=merge", "-p", `{"data":{"foo":"theirs"}}`)
	testwait.Eventually(t, screenWait, "the session sees the change", func() bool {
		b, _ := os.ReadFile(out)
		return strings.Count(string(b), "\n") >= 2
	})
	// foo's line is the third: "1" becomes "mine".
	term.send("Down")
	term.send("Down")
	term.send("End")
	term.send("BSpace", "BSpace", "BSpace")
	term.send("m")
	term.send("i")
	term.send("n")
	term.send("e")
	term.waitFor(screenWait, "foo: mine")
	term.send("Escape")
	term.waitFor(screenWait, "unsaved draft", "changed on server", "by kubectl-patch: .data.foo")
	term.send("s")
	term.waitFor(screenWait, "conflict: base rv", "1 conflict,", ".data.foo")
	if data, _ := configMapData(t, ns, "testmap"); data["foo"] != "theirs" {
		t.Errorf("foo = %q on the server before the conflict was resolved, want theirs", data["foo"])
	}
}
