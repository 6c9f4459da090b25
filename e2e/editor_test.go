package e2e

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kedit/kedit/internal/testwait"
	"github.com/kedit/kedit/kube/kubetest"
)

// End to end, the in-app editor in the real binary: a config of
// 20,000 lines edited and saved whole, typing kept within a second and
// offered after kill -9, and a large bracketed paste.

// configFile returns a config file of n lines.
func configFile(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "line %05d of the config = value %d\n", i, i)
	}
	return b.String()
}

// createConfigMap creates ConfigMap name in ns with data.
func createConfigMap(t *testing.T, ns, name string, data map[string]string) {
	t.Helper()
	_, err := kubetest.Clientset(t).CoreV1().ConfigMaps(ns).Create(context.Background(),
		&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name}, Data: data}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
}

// newLineUnderData opens the in-app editor on a ConfigMap and starts a new
// line under its data:, where the next keys go.
func newLineUnderData(term *terminal) {
	term.t.Helper()
	term.send("i")
	term.waitFor(screenWait, "editing the draft")
	term.send("C-f")
	term.send("data:")
	term.send("End")
	term.send("Enter")
}

// typeKeptLine starts kedit on a new ConfigMap testmap in ns, with an
// $EDITOR that fails, and types the line "  typed: kept" under data: in
// its in-app editor, which it leaves open.
func typeKeptLine(t *testing.T, ns string) (keditEnv, *terminal) {
	t.Helper()
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=1")
	env := newKeditEnv(t, editorScript(t, "exit 1"))
	term := env.start(t, ns, "configmap/testmap")
	newLineUnderData(term)
	term.send("  typed: kept")
	return env, term
}

// offersKeptLine starts kedit on testmap in env again, once the last one
// has ended, and waits for it to offer the draft with typeKeptLine's line,
// and for the draft taken.
func offersKeptLine(t *testing.T, env keditEnv, ns string) {
	t.Helper()
	again := env.run(t, 300, 40, "-n", ns, "configmap/testmap")
	again.waitFor(screenWait, "a draft of this object from rv", "recover it?")
	again.send("y")
	again.waitFor(screenWait, "unsaved draft", "typed: kept")
}

// TestE2EEditorTwentyThousandLines: a ConfigMap whose value is a file of
// 20,000 lines (bubbles' textarea kept 10,000 and lost the rest), i, one
// character typed on the file's line 3, ctrl+s: the server has it, and
// every other line unchanged.
func TestE2EEditorTwentyThousandLines(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	conf := configFile(20000)
	createConfigMap(t, ns, "big", map[string]string{"app.conf": conf})
	term := openKedit(t, ns, "big", editorScript(t, "exit 1"), 120, 40)
	term.send("i")
	term.waitFor(screenWait, "editing the draft", "line 1/200")
	term.send("C-f")
	term.send("line 00003 ")
	term.send("End")
	term.send("X")
	term.waitFor(screenWait, "line 00003 of the config = value 3X")
	term.send("C-s")
	term.waitFor(screenWait, "saved rv")
	data, _ := configMapData(t, ns, "big")
	want := strings.Replace(conf, "value 3\n", "value 3X\n", 1)
	if got := data["app.conf"]; got != want {
		gl, wl := strings.Split(got, "\n"), strings.Split(want, "\n")
		for i := range min(len(gl), len(wl)) {
			if gl[i] != wl[i] {
				t.Fatalf("the server's line %d is %q, want %q (%d lines, want %d)", i+1, gl[i], wl[i], len(gl), len(wl))
			}
		}
		t.Fatalf("the server has %d lines, want %d", len(gl), len(wl))
	}
}

// TestE2EEditorKeepsTypingWithinASecond: what is typed in i reaches the
// draft file within a second of the keystroke (measured, the file polled
// every 50 ms; 1.5 s allowed for a loaded machine), without leaving the
// editor; after kill -9 the next kedit offers it.
func TestE2EEditorKeepsTypingWithinASecond(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	env, term := typeKeptLine(t, ns)
	path := env.draft(ns, "configmaps", "testmap", 1)
	var b []byte
	kept := func() bool { b, _ = os.ReadFile(path); return strings.Contains(string(b), "  typed: kept\n") }
	typed := time.Now()
	if !testwait.Until(1500*time.Millisecond, kept) {
		t.Fatalf("the draft file does not hold the typing %s after the keystroke: %q", time.Since(typed), b)
	}
	t.Logf("typing kept %s after the keystroke", time.Since(typed).Round(10*time.Millisecond))
	term.waitFor(screenWait, "editing the draft", "typed: kept")
	term.signal("KILL")
	term.waitFor(screenWait, "EXIT=137")
	offersKeptLine(t, env, ns)
}

// TestE2EEditorPastesALargeBuffer: a bracketed paste of half a mebibyte
// (13,000 lines) into i goes in whole, and ctrl+s sends it all to the
// server.
func TestE2EEditorPastesALargeBuffer(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=1")
	term := openKedit(t, ns, "testmap", editorScript(t, "exit 1"), 120, 40)
	newLineUnderData(term)
	conf := configFile(13000)
	text := "  pasted.conf: |\n    " + strings.ReplaceAll(strings.TrimSuffix(conf, "\n"), "\n", "\n    ") + "\n"
	start := time.Now()
	term.paste(text)
	// The cursor is after the paste's last line once all of it is in.
	term.waitFor(screenWait, "line 13000 of the config = value 13000")
	t.Logf("%d bytes pasted and drawn in %s", len(text), time.Since(start).Round(10*time.Millisecond))
	term.send("C-s")
	term.waitFor(screenWait, "saved rv")
	data, _ := configMapData(t, ns, "testmap")
	if data["pasted.conf"] != conf || data["foo"] != "1" {
		t.Fatalf("the server has %d bytes of pasted.conf (want %d) and foo %q", len(data["pasted.conf"]), len(conf), data["foo"])
	}
}

// savedRV finds the status bar's "saved rv N".
var savedRV = regexp.MustCompile(`saved rv [0-9]+`)

// TestE2EEditorReopenedDuringItsSave: ctrl+s, then i while the save is
// still on its way (the connection slowed down): the editor stays open
// when the save lands and the status says so; then the same field edited
// again: the reopened text names the version the save was sent against,
// but was made from the saved draft, so the next ctrl+s is a plain save,
// no conflict with kedit's own write.
func TestE2EEditorReopenedDuringItsSave(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=1", "--from-literal=bar=1")
	term, proxy := startThroughSlowProxy(t, ns, "configmap/testmap", editorScript(t, "exit 1"))
	term.waitFor(screenWait, `foo: "1"`)
	replaceValue := func(key, old, value string) {
		term.send("C-f")
		term.send(key + ": ")
		term.waitFor(screenWait, "find: "+key+":")
		term.send("Escape")
		term.waitGone(screenWait, "esc: close")
		term.send("End")
		for range old {
			term.send("BSpace")
		}
		term.send(value)
		term.waitFor(screenWait, key+": "+value)
	}
	term.send("i")
	term.waitFor(screenWait, "editing the draft")
	replaceValue("foo", `"1"`, "mine")
	proxy.slow.Store(true)
	term.send("C-s")
	term.waitFor(screenWait, " saving")
	term.send("i")
	term.waitFor(screenWait, "editing the draft", "foo: mine")
	proxy.slow.Store(false)
	// The editor stays open, and says the save landed.
	first := savedRV.FindString(term.waitFor(screenWait, "saved rv", "editing the draft"))
	replaceValue("foo", "mine", "again")
	term.send("C-s")
	term.waitUntil(screenWait, "a second save after "+first, func(screen string) bool {
		rv := savedRV.FindString(screen)
		return rv != "" && rv != first
	})
	if data, _ := configMapData(t, ns, "testmap"); data["foo"] != "again" || data["bar"] != "1" {
		t.Errorf("the server has %v, want foo: again and bar: 1", data)
	}
	if s := term.screen(); strings.Contains(s, "conflict") {
		t.Errorf("the save after the reopened editor met a conflict:\n%s", s)
	}
}
