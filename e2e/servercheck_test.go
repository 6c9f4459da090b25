package e2e

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kedit/kedit/internal/testwait"
	"github.com/kedit/kedit/kube/kubetest"
	"github.com/kedit/kedit/ui/editor"
)

// The server's own checks as the user types, through the real binary: a
// limit only the API server's code knows (a Deployment's replicas below
// 0) is said on its line from a dry run, and nothing but dry runs is sent;
// offline, or for a user who may not update the object, nothing is sent
// and one line says why; a draft back from $EDITOR is dry-run before s.

// serverRefusal is the API server's own words on replicas: -1, as the
// in-app editor says them at the cursor.
const serverRefusal = "the server refuses: replicas: Invalid value: -1: must be greater than or equal to 0"

// typeReplicas makes the in-app editor's spec.replicas -1: find it, go
// to its line's end, and type the new value over the old.
func typeReplicas(term *terminal) {
	term.t.Helper()
	term.send("C-f")
	term.typeKeys("replicas: 1")
	term.send("Right")
	term.send("End")
	term.send("BSpace")
	term.typeKeys("-1")
}

// writesOf are the requests of lines that change something on the server
// (PUT, PATCH, POST, DELETE), and of those the dry runs.
func writesOf(lines []string) (writes, dryRuns []string) {
	for _, l := range lines {
		for _, m := range []string{"request PUT ", "request PATCH ", "request POST ", "request DELETE "} {
			if !strings.HasPrefix(l, m) || strings.Contains(l, "selfsubjectaccessreviews") {
				continue
			}
			writes = append(writes, l)
			if strings.Contains(l, "dryRun=All") {
				dryRuns = append(dryRuns, l)
			}
		}
	}
	return writes, dryRuns
}

// sentAny reports whether a write (a dry run included) is in the log
// after its first from requests, or comes within twice the editor's
// pause before it asks the server, and a second more.
func sentAny(t *testing.T, log string, from int) bool {
	t.Helper()
	return testwait.Until(2*editor.ServerQuiet+time.Second, func() bool {
		writes, _ := writesOf(debugRequests(t, log, from))
		return len(writes) > 0
	})
}

// TestE2EServerRefusesAsYouType: replicas: -1 typed in a Deployment's
// in-app editor, which the schema passes (its OpenAPI sets no minimum),
// is said on its line as the server's within a few seconds; every write
// kedit sent was a dry run on the object's resourceVersion, and the
// object is as it was.
func TestE2EServerRefusesAsYouType(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "deployment", "web", "--image=nginx")
	rv := strings.TrimSpace(kubetest.MustKubectl(t, "-n", ns, "get", "deployment", "web", "-o", "jsonpath={.metadata.resourceVersion}"))
	log := filepath.Join(t.TempDir(), "debug.log")
	term := openKeditOn(t, ns, "deployment/web", "Deployment/web", editorScript(t, "exit 1"), 160, 50, "--debug="+log)
	term.send("i")
	term.waitFor(screenWait, "editing the draft")
	typeReplicas(term)
	term.waitFor(screenWait, "replicas: -1", serverRefusal)

	writes, dryRuns := writesOf(debugRequests(t, log, 0))
	if len(dryRuns) == 0 || len(writes) != len(dryRuns) {
		t.Fatalf("kedit sent, beside its reads:\n%s\nwant dry runs only", strings.Join(writes, "\n"))
	}
	for _, d := range dryRuns {
		if !strings.Contains(d, "(rv sent "+rv+",") || !strings.Contains(d, "fieldValidation=Strict") {
			t.Errorf("a dry run not on rv %s with the save's validation: %s", rv, d)
		}
	}
	if now := strings.TrimSpace(kubetest.MustKubectl(t, "-n", ns, "get", "deployment", "web", "-o", "jsonpath={.metadata.resourceVersion} {.spec.replicas}")); now != rv+" 1" {
		t.Fatalf("the object is now %q, want rv %s with 1 replica", now, rv)
	}
}

// TestE2EServerNotAskedWithoutTheRight: a user who may read configmaps
// but not update them gets no dry run as they type, and one line says
// why as the editor opens.
func TestE2EServerNotAskedWithoutTheRight(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=1")
	env := viewerWith(t, ns, "get,list,watch", editorScript(t, "exit 1"))
	log := filepath.Join(t.TempDir(), "debug.log")
	term := env.run(t, 160, 40, "-n", ns, "configmap/testmap", "--debug="+log)
	term.waitFor(screenWait, "ConfigMap/testmap", "apiVersion: ")
	term.send("i")
	term.waitFor(screenWait, "editing the draft")
	term.waitForText(screenWait, "you may not update configmaps in "+ns+": a draft can be made but not saved, and the server's checks of it are off (its dry run needs that right)")
	term.send("C-f")
	term.typeKeys(`foo: "1"`)
	term.send("Right")
	term.send("End")
	term.send("BSpace")
	term.send("BSpace")
	term.typeKeys(`2"`)
	// Kept as the draft once typing pauses: then the server would be
	// asked after its own pause.
	waitFile(t, env.draft(ns, "configmaps", "testmap", 1), holds(`foo: "2"`))
	if sentAny(t, log, 0) {
		t.Fatalf("kedit sent for a user who may not update:\n%s", strings.Join(debugRequests(t, log, 0), "\n"))
	}
	if screen := term.screen(); strings.Count(squeeze(screen), squeeze("the server's checks of it are off")) != 1 {
		t.Fatalf("the line is not said once:\n%s", screen)
	}
}

// TestE2EServerNotAskedOffline: with the API server gone (a cluster of
// the test's own, stopped), the in-app editor sends no dry run, and says
// that the server was not asked.
func TestE2EServerNotAskedOffline(t *testing.T) {
	t.Parallel()
	c := kubetest.NewCluster(t)
	c.MustKubectl(t, "create", "deployment", "web", "--image=nginx")
	env := newKeditEnv(t, editorScript(t, "exit 1"))
	env.kubeconfig = c.Kubeconfig()
	log := filepath.Join(t.TempDir(), "debug.log")
	term := env.run(t, 160, 50, "-n", "default", "deployment/web", "--debug="+log)
	term.waitFor(screenWait, "Deployment/web", "apiVersion: ", "connected")
	c.Stop(t)
	term.waitFor(screenWait, "reconnecting since")
	from := len(debugRequests(t, log, 0))
	term.send("i")
	term.waitFor(screenWait, "editing the draft")
	typeReplicas(term)
	term.waitFor(screenWait, "replicas: -1", "the server was not asked (no connection)")
	if sentAny(t, log, from) {
		t.Fatalf("kedit sent dry runs offline:\n%s", strings.Join(debugRequests(t, log, from), "\n"))
	}
}

// TestE2EServerChecksTheDraftFromEditor: a draft back from $EDITOR with
// replicas: -1 is dry-run before s: the status names the server's reason
// with its line in the file; s asks first and sends nothing; e opens the
// file again with the server's reason at its head, on its line there.
func TestE2EServerChecksTheDraftFromEditor(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "deployment", "web", "--image=nginx")
	rv := strings.TrimSpace(kubetest.MustKubectl(t, "-n", ns, "get", "deployment", "web", "-o", "jsonpath={.metadata.resourceVersion}"))
	editor, set := switchableEditor(t)
	term := openKeditOn(t, ns, "deployment/web", "Deployment/web", editor, 200, 50)
	set(`sed -i 's/replicas: 1$/replicas: -1/' "$1"`)
	term.editAndWait("replicas: -1", "the server refuses 1 field: line ", "replicas: Invalid value: -1")
	term.send("s")
	term.waitFor(screenWait, "s again sends it")
	if now := strings.TrimSpace(kubetest.MustKubectl(t, "-n", ns, "get", "deployment", "web", "-o", "jsonpath={.metadata.resourceVersion}")); now != rv {
		t.Fatalf("the first s sent the draft: rv %s, was %s", now, rv)
	}

	seen := filepath.Join(t.TempDir(), "seen.yaml")
	set(`cp "$1" '` + seen + `'`)
	term.send("e")
	file := string(waitFile(t, seen, func(b []byte) bool { return len(b) > 0 }))
	var at string
	for i, l := range strings.Split(file, "\n") {
		if strings.HasSuffix(l, "replicas: -1") && !strings.HasPrefix(l, "#") {
			at = "# line " + itoa(i+1) + ": replicas: Invalid value: -1: must be greater than or equal to 0"
		}
	}
	if at == "" || !strings.Contains(file, "# kedit: the draft was refused") || !strings.Contains(file, at) {
		t.Fatalf("the file opened again has not the server's reason (%q) at its head:\n%s", at, file)
	}
	t.Logf("the file's head:\n%s", strings.Join(strings.SplitN(file, "\n", 4)[:3], "\n"))
}

// BenchmarkDryRunsPer100Keys counts the server's checks one typist
// makes: 100 keys typed through tmux into the in-app editor of a
// Deployment (letters and spaces into an annotation's value, so that
// every text parses and the schema passes it), counted from --debug's
// request log once the last answer is in. "steady" types a key every
// 150 ms (about 80 words a minute) without a pause; "pauses" stops for
// a second after each word of 9 letters and a space. Run by make bench:
//
//	go test ./e2e -run '^$' -bench DryRunsPer100Keys -benchtime 1x
func BenchmarkDryRunsPer100Keys(b *testing.B) {
	for _, typist := range []struct {
		name  string
		pause time.Duration
	}{{"steady", 0}, {"pauses", time.Second}} {
		b.Run(typist.name, func(b *testing.B) {
			for range b.N {
				b.ReportMetric(float64(dryRunsTyping(b, typist.pause)), "dryruns/100keys")
			}
			b.ReportMetric(0, "ns/op")
		})
	}
}

// dryRunsTyping types 100 keys as BenchmarkDryRunsPer100Keys says, pause
// after each word (none for 0), and returns the dry runs they made.
func dryRunsTyping(b *testing.B, pause time.Duration) int {
	ns := kubetest.Namespace(b)
	kubetest.MustKubectl(b, "-n", ns, "create", "deployment", "web", "--image=nginx")
	kubetest.MustKubectl(b, "-n", ns, "annotate", "deployment", "web", "note=x")
	log := filepath.Join(b.TempDir(), "debug.log")
	term := newKeditEnv(b, editorScript(b, "exit 1")).run(b, 160, 50, "-n", ns, "deployment/web", "--debug="+log)
	term.waitFor(screenWait, "Deployment/web", "apiVersion: ")
	term.send("i")
	term.waitFor(screenWait, "editing the draft")
	term.send("C-f")
	term.typeKeys("note: x")
	term.send("Right")
	term.send("End")
	dryRuns := func() int {
		_, d := writesOf(debugRequests(b, log, 0))
		return len(d)
	}
	before := dryRuns()
	// The typist's pace is the input: the ticker paces the keys, it
	// waits for nothing of kedit's.
	key := time.NewTicker(150 * time.Millisecond)
	defer key.Stop()
	for i := range 100 {
		<-key.C
		if i%10 == 9 {
			term.send("Space")
			if pause > 0 {
				<-time.After(pause)
				key.Reset(150 * time.Millisecond)
			}
			continue
		}
		term.typeKeys(string(rune('a' + i%10)))
	}
	term.waitFor(screenWait, "x"+strings.Repeat("abcdefghi ", 9)+"abcdefghi")
	// The last text is asked once typing has paused: count once the
	// count has stood still for twice the pause and a second.
	n := dryRuns()
	for testwait.Until(2*editor.ServerQuiet+time.Second, func() bool { return dryRuns() != n }) {
		n = dryRuns()
	}
	return n - before
}
