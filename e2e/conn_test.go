package e2e

import (
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kedit/kedit/internal/testwait"
	"github.com/kedit/kedit/kube/kubetest"
)

// The link to the API server through the real binary: an answer is never
// called no answer, a waiting save goes once the server is back, and a
// user with few rights is told what is true.

// TestE2EApplyRefusalIsFinal: with --strategy apply, a custom resource
// draft with a field its schema does not declare is answered 500 by the
// API server. kedit says the server refused the save, naming the field,
// keeps the draft, and never retries: the status stays the refusal and
// the object stays as it was.
func TestE2EApplyRefusalIsFinal(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.CreateCustom(t, ns, kubetest.WidgetCRDs, kubetest.Widget("w", "a=1"))
	rv := strings.TrimSpace(kubetest.MustKubectl(t, "-n", ns, "get", "widgets.kedit.example.com", "w", "-o", "jsonpath={.metadata.resourceVersion}"))
	log := filepath.Join(t.TempDir(), "debug.log")
	term := openKeditOn(t, ns, "widgets.kedit.example.com/w", "Widget/w",
		editorScript(t, `sed -i 's/^spec:$/spec:\n  bogus: 1/' "$1"`), 200, 40, "--strategy", "apply", "--debug="+log)
	term.editAndWait("bogus: 1")
	from := len(debugRequests(t, log, 0))
	// The schema refuses the field as the server will: s asks first, and
	// sends nothing; s again sends it.
	term.send("s")
	term.waitFor(screenWait, "the schema refuses 1 field", "s again sends it")
	if got := debugRequests(t, log, from); len(got) != 0 {
		t.Fatalf("the first s sent %d requests: %v", len(got), got)
	}
	term.send("s")
	screen := term.waitFor(screenWait, "the server refused the save (500 Internal Server Error): .spec.bogus: field not declared in schema (the draft is kept)")
	// Three seconds is past the first two retries' back-off: none comes.
	var said string
	if testwait.Until(3*time.Second, func() bool {
		screen = term.screen()
		for _, never := range []string{"did not get an answer", "retrying", "next try"} {
			if strings.Contains(screen, never) {
				said = never
				return true
			}
		}
		return false
	}) {
		t.Fatalf("an answer called %q:\n%s", said, screen)
	}
	if !strings.Contains(screen, "unsaved draft") || !strings.Contains(screen, "bogus: 1") {
		t.Errorf("the draft is not shown after the refusal:\n%s", screen)
	}
	sent := debugRequests(t, log, from)
	if len(sent) == 0 || !strings.Contains(sent[len(sent)-1], "PATCH") || !strings.Contains(sent[len(sent)-1], " 500") || strings.Count(strings.Join(sent, "\n"), " 500") != 1 {
		t.Errorf("the save sent:\n%s\nwant one refused apply, and nothing after it", strings.Join(sent, "\n"))
	}
	if now := strings.TrimSpace(kubetest.MustKubectl(t, "-n", ns, "get", "widgets.kedit.example.com", "w", "-o", "jsonpath={.metadata.resourceVersion}")); now != rv {
		t.Errorf("the object moved from rv %s to %s", rv, now)
	}
}

// nextTry and attemptNo read the back-off and the attempt the status line
// announces; a long failure wraps, so a line may end between their words.
var (
	nextTry   = regexp.MustCompile(`next try in\s+(\d+)s`)
	attemptNo = regexp.MustCompile(`\(attempt\s+(\d+)\)`)
)

// TestE2EWaitingSaveGoesWhenTheServerIsBack: the network to the API
// server is cut while a draft is open; the header says reconnecting, and
// saves fail until the back-off is 30 s. Once the network is back, the
// header says connected and the waiting save goes within a second, not
// when the 30 s are over: the header never says connected beside a status
// that still waits.
func TestE2EWaitingSaveGoesWhenTheServerIsBack(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=1")
	log := filepath.Join(t.TempDir(), "debug.log")
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("requests:\n%s", strings.Join(debugRequests(t, log, 0), "\n"))
		}
	})
	term, proxy := startThroughSlowProxy(t, ns, "configmap/testmap", editorScript(t, `sed -i 's/foo: "1"/foo: mine/' "$1"`), "--debug="+log)
	term.waitFor(screenWait, "connected")
	term.editAndWait("foo: mine")

	proxy.cut()
	cut := time.Now()
	term.waitFor(screenWait, "reconnecting since")
	t.Logf("reconnecting said %s after the cut", time.Since(cut).Round(time.Millisecond))
	// Each s fails at once and doubles the back-off: 1, 2, 4 ... 30 s.
	last := 0
	for {
		term.send("s")
		screen, _ := term.waitUntil(screenWait, "another failed attempt", func(screen string) bool {
			m := attemptNo.FindStringSubmatch(screen)
			n := 0
			if m != nil {
				n, _ = strconv.Atoi(m[1])
			}
			if n > last {
				last = n
				return true
			}
			return false
		})
		if m := nextTry.FindStringSubmatch(screen); m != nil && m[1] == "30" {
			break
		}
		if last > 8 {
			t.Fatalf("no back-off of 30 s after %d attempts:\n%s", last, screen)
		}
	}
	waiting := time.Now()
	proxy.restore(t)

	var connected time.Time
	var screen string
	saved := func() bool {
		screen = term.screen()
		header := strings.SplitN(screen, "\n", 2)[0]
		up := strings.Contains(header, "connected") && !strings.Contains(header, "reconnecting")
		if up && connected.IsZero() {
			connected = time.Now()
		}
		if strings.Contains(screen, "saved rv") {
			if connected.IsZero() {
				t.Fatalf("saved before the header said connected:\n%s", screen)
			}
			took := time.Since(connected)
			t.Logf("connected %s after the network was back; saved %s later", connected.Sub(waiting).Round(time.Millisecond), took.Round(time.Millisecond))
			// Screen captures add their own delay to a second's promise.
			if took > 1500*time.Millisecond {
				t.Errorf("the waiting save went %s after the header said connected, want within 1 s", took.Round(time.Millisecond))
			}
			if time.Since(waiting) > 29*time.Second {
				t.Errorf("saved %s after the 30 s back-off began: the back-off, not the reconnect, sent it", time.Since(waiting).Round(time.Second))
			}
			return true
		}
		if up && strings.Contains(screen, "next try in") && time.Since(connected) > 1500*time.Millisecond {
			t.Fatalf("the header says connected and the status still waits, %s on:\n%s", time.Since(connected).Round(time.Millisecond), screen)
		}
		return false
	}
	if !testwait.Until(time.Minute, saved) {
		t.Fatalf("not saved a minute after the network was back:\n%s", screen)
	}
	if data, _ := configMapData(t, ns, "testmap"); data["foo"] != "mine" {
		t.Errorf("foo = %q on the server", data["foo"])
	}
}

// viewerWith gives the viewer user (no rights of its own) verbs on
// configmaps in ns, by a real Role and RoleBinding, and returns an
// environment that runs kedit as that user.
func viewerWith(t *testing.T, ns, verbs, editor string) keditEnv {
	t.Helper()
	kubetest.MustKubectl(t, "-n", ns, "create", "role", "cm-user", "--verb="+verbs, "--resource=configmaps")
	kubetest.MustKubectl(t, "-n", ns, "create", "rolebinding", "cm-user", "--role=cm-user", "--user=kedit-viewer")
	env := newKeditEnv(t, editor)
	env.kubeconfig = kubetest.ViewerKubeconfig(t)
	return env
}

// TestE2ENotAllowedToWatchPolls: a user who may get, list and update
// configmaps but not watch them is told so in the header (beside the
// object's name, at 60 columns too), never that the server is gone, and
// kedit polls: another writer's change shows as it
// comes, and the save goes through.
func TestE2ENotAllowedToWatchPolls(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=1", "--from-literal=bar=1")
	env := viewerWith(t, ns, "get,list,update", editorScript(t, `sed -i 's/foo: "1"/foo: mine/' "$1"`))
	term := env.start(t, ns, "configmap/testmap")
	term.waitFor(screenWait, "not allowed to watch configmaps in "+ns+": polling every 2 s")
	// On a small terminal the header keeps the object's name beside it.
	term.tmux("resize-window", "-t", term.name, "-x", "60", "-y", "15")
	term.waitUntil(screenWait, "the name and the polling in a 60-column header", func(s string) bool {
		header := strings.SplitN(s, "\n", 2)[0]
		return strings.HasPrefix(header, "ConfigMap/testmap") && strings.Contains(header, "not allowed to watch")
	})
	term.tmux("resize-window", "-t", term.name, "-x", "300", "-y", "40")
	term.editAndWait("foo: mine")

	kubetest.MustKubectl(t, "-n", ns, "patch", "configmap", "testmap", "--type=merge", "-p", `{"data":{"bar":"theirs"}}`)
	start := time.Now()
	term.waitFor(screenWait, "changed on server", "by kubectl-patch", ".data.bar")
	t.Logf("the change shown %s after it was made", time.Since(start).Round(time.Millisecond))

	term.send("s")
	term.waitFor(screenWait, "clean rebase: ", ".data.bar")
	term.send("s")
	screen := term.waitFor(screenWait, "saved rv")
	if strings.Contains(screen, "reconnecting") {
		t.Errorf("the header says reconnecting for a user who may not watch:\n%s", screen)
	}
	if data, _ := configMapData(t, ns, "testmap"); data["foo"] != "mine" || data["bar"] != "theirs" {
		t.Errorf("data %v on the server", data)
	}
}

// TestE2EMayNotUpdateSaidOnEdit: a user who may read a configmap but not
// update it learns so on pressing e, from one SelfSubjectAccessReview
// asked then (none at start-up), and again on i without asking again; the
// draft is made all the same, and the save's 403 says the same.
func TestE2EMayNotUpdateSaidOnEdit(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=1")
	env := viewerWith(t, ns, "get,list,watch", editorScript(t, `sed -i 's/foo: "1"/foo: mine/' "$1"`))
	log := filepath.Join(t.TempDir(), "debug.log")
	term := env.start(t, ns, "configmap/testmap", "--debug="+log)
	term.waitFor(screenWait, "connected")
	reviews := func() int {
		n := 0
		for _, r := range debugRequests(t, log, 0) {
			if strings.Contains(r, "selfsubjectaccessreviews") {
				n++
			}
		}
		return n
	}
	if n := reviews(); n != 0 {
		t.Fatalf("%d access reviews at start-up, want none", n)
	}
	const said = "you may not update configmaps in "
	// The line goes on to say that the server's checks are off, and may
	// wrap.
	term.editAndWait("foo: mine")
	term.waitForText(screenWait, said+ns+": a draft can be made but not saved")
	term.send("i")
	term.waitFor(screenWait, "editing the draft")
	term.waitForText(screenWait, said+ns+": a draft can be made but not saved")
	// Escape is tmux's name for the key ("esc" would type three letters);
	// s sent before the editor closed would reach kedit as alt+s.
	term.send("Escape")
	term.waitGone(screenWait, "editing the draft")
	if n := reviews(); n != 1 {
		t.Errorf("%d access reviews after e and i, want 1", n)
	}
	term.send("s")
	term.waitFor(screenWait, "forbidden: you may not update this object (403)", "the draft is kept")
	if data, _ := configMapData(t, ns, "testmap"); data["foo"] != "1" {
		t.Errorf("foo = %q on the server", data["foo"])
	}
}

// TestE2ELeftObjectsSaveIsTriedAgain: a save that got no answer (the
// network to the API server cut) is tried again once its back-off is over
// also after esc left its object for the browser: the browser's status
// line says each attempt with the object's name. Another writer changes
// another key meanwhile, so once the network is back the retry meets a
// conflict, which --auto-rebase resubmits: the line says what it merged,
// as it does for the object shown, and that the save went through. The
// server holds both changes, and the DRAFT mark goes.
func TestE2ELeftObjectsSaveIsTriedAgain(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=1")
	term, proxy := startThroughSlowProxy(t, ns, "configmap/testmap", editorScript(t, `sed -i 's/foo: "1"/foo: mine/' "$1"`), "--auto-rebase")
	term.waitFor(screenWait, "connected")
	term.editAndWait("foo: mine")

	proxy.cut()
	term.waitFor(screenWait, "reconnecting since")
	term.send("s")
	term.waitForText(screenWait, "retrying (attempt 1)")
	term.send("Escape")
	term.waitForText(screenWait, "the draft of configmaps/testmap stays on disk in")
	// The back-off's next attempt, from the browser.
	term.waitForText(screenWait, "configmaps/testmap: the save", "retrying (attempt 2)")
	kubetest.MustKubectl(t, "-n", ns, "patch", "configmap", "testmap", "--type=merge", "-p", `{"data":{"bar":"theirs"}}`)
	proxy.restore(t)

	screen := term.waitForText(time.Minute, "configmaps/testmap: saved rv")
	data, rv := configMapData(t, ns, "testmap")
	if data["foo"] != "mine" || data["bar"] != "theirs" {
		t.Errorf("the server holds %v, want foo mine and bar theirs", data)
	}
	if want := "configmaps/testmap: saved rv " + rv + " (auto-rebased onto rv "; !strings.Contains(screen, want) ||
		!strings.Contains(screen, ".data.bar (theirs), .data.foo (mine)") {
		t.Errorf("want %q, saying what was merged, on:\n%s", want, screen)
	}
	term.waitUntil(screenWait, "the DRAFT mark gone", func(screen string) bool {
		for _, l := range strings.Split(screen, "\n") {
			if f := strings.Fields(strings.TrimPrefix(l, "> ")); len(f) > 1 && f[0] == "testmap" {
				return !strings.Contains(l, "stored")
			}
		}
		return false
	})
	term.send("q")
	term.waitFor(screenWait, "EXIT=0")
}

// TestE2EBrowserPollsWhenNotAllowedToWatch: the browser of a user who may
// list configmaps but not watch them shows the list, says why it polls in
// the object view's words (never "refused": the rows are there), and a
// configmap another writer creates appears within a few polls.
func TestE2EBrowserPollsWhenNotAllowedToWatch(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "first", "--from-literal=foo=1")
	env := viewerWith(t, ns, "get,list", editorScript(t, `true`))
	term := env.run(t, 200, 30, "-n", ns, "configmaps")
	screen := term.waitFor(screenWait, "not allowed to watch configmaps in "+ns+": polling every 2 s", "first")
	if strings.Contains(screen, "refused") {
		t.Errorf("the browser says refused while it lists:\n%s", screen)
	}
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "second", "--from-literal=foo=1")
	term.waitFor(screenWait, "second")
}
