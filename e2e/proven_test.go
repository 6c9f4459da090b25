package e2e

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/kedit/kedit/kube/kubetest"
)

// Hostile input and faults through the real binary: what reaches the terminal, what is
// written to disk, and the faults a user meets.

// payload is one hostile string and the raw bytes that must never reach a
// terminal because of it.
type payload struct {
	name, text string
	// raw is what its reaching the terminal unescaped would look like in
	// the output; escaped, it is drawn as visible letters.
	raw string
}

// hostile are payloads that would drive a terminal, each with a marker of its own.
var hostile = []payload{
	{"OSC 52 (clipboard)", "\x1b]52;c;cHduZWQ=\x07CLIP-MARK", "\x1b]52;"},
	{"OSC 0 (title)", "\x1b]0;TITLE-MARK\x07", "\x1b]0;"},
	{"CSI 2J (clear)", "\x1b[2JWIPED-MARK", "\x1b[2JWIPED-MARK"},
	{"cursor movement", "\x1b[5AUP-MARK", "\x1b[5AUP-MARK"},
	{"BEL", "\x07BELL-MARK", "\x07BELL-MARK"},
	{"carriage return overwrite", "visible\rHIDDEN-MARK", "visible\rHIDDEN-MARK"},
	{"bidi override", "\u202eRTL-MARK", "\u202eRTL-MARK"},
	{"C1 CSI", "\u009b2JC1-MARK", "\u009b2JC1-MARK"},
}

// allowedCSI are the final bytes of the CSI sequences kedit's renderer
// writes itself (Bubble Tea and termenv): colours and attributes, cursor
// position and visibility, erasing, modes (alternate screen, mouse,
// bracketed paste), scrolling regions and the cursor position query.
const allowedCSI = "mKJHfABCDEFGhlrnsuSTLM@PX"

// ownOSC is the one operating system command kedit writes: termenv's query
// of the terminal's background colour (for adaptive colours), which asks
// and changes nothing.
const ownOSC = "\x1b]11;?\x1b\\"

var csiRE = regexp.MustCompile(`^\x1b\[[0-9;:?<=>]*[ -/]*([@-~])`)

// checkRawOutput fails the test when out, the bytes a program wrote to its
// terminal, holds anything but kedit's own terminal control: every ESC
// must start a CSI sequence of allowedCSI or the background colour query;
// no BEL, no C1 control, no bidirectional control; and no payload's raw
// bytes, which would mean it was passed through (a payload of the same
// kind as kedit's own control, like CSI 2J, is found by its marker).
func checkRawOutput(t *testing.T, what string, out []byte, payloads []payload) {
	t.Helper()
	s := string(out)
	for i := 0; i < len(s); i++ {
		if s[i] != 0x1b {
			continue
		}
		rest := s[i:]
		if strings.HasPrefix(rest, ownOSC) {
			i += len(ownOSC) - 1
			continue
		}
		m := csiRE.FindStringSubmatch(rest)
		if m == nil || !strings.Contains(allowedCSI, m[1]) {
			t.Errorf("%s: an escape sequence kedit does not write: %q", what, rest[:min(len(rest), 24)])
			continue
		}
		i += len(m[0]) - 1
	}
	if i := strings.IndexByte(s, 0x07); i >= 0 {
		t.Errorf("%s: a raw BEL reached the terminal: %q", what, s[max(0, i-20):min(len(s), i+20)])
	}
	for _, r := range s {
		if (r >= 0x80 && r <= 0x9f) || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) {
			t.Errorf("%s: a raw %U reached the terminal", what, r)
			break
		}
	}
	for _, p := range payloads {
		if strings.Contains(s, p.raw) {
			t.Errorf("%s: the %s payload reached the terminal raw", what, p.name)
		}
	}
}

func randomSuffix() string {
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// TestE2ETerminalInjectionNeverReachesTheTerminal: a ConfigMap whose values,
// and a custom resource whose keys and values, carry OSC 52, OSC 0, CSI 2J,
// cursor movement, BEL, a carriage return overwrite, a bidi override and a
// C1 control, are shown in the object view (all fields too), the help, the
// draft's diff, the banner, the conflict view, the timeline and a
// version's diff, the status line with a 422 whose message (a validation rule's messageExpression) repeats the value,
// kedit set's output and an error printed before the UI starts. Every byte
// kedit writes is captured (script(1)) and checked: none of them reaches
// the terminal raw, while their escapes are on the screen.
func TestE2ETerminalInjectionNeverReachesTheTerminal(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	var all []string
	for _, p := range hostile {
		all = append(all, p.text)
	}
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "evil", "--from-literal=payload="+strings.Join(all, " "), "--from-literal=keep=1")

	env := newKeditEnv(t, editorScript(t, `sed -i 's/^  keep: "1"$/  keep: mine/; s/^  payload: .*$/  payload: mine/' "$1"`))
	term, raw := env.runRaw(t, 250, 50, "-n", ns, "configmap/evil")
	term.waitFor(screenWait, "ConfigMap/evil", `\x1b]52;c;cHduZWQ=\x07CLIP-MARK`, `\u202eRTL-MARK`)
	// One key a send-keys, each after the last one's effect: keys that
	// arrive in one read reach Bubble Tea as one message of two runes,
	// which matches no binding.
	term.send("f")
	term.waitFor(screenWait, "managedFields:")
	term.send("f")
	term.waitGone(screenWait, "managedFields:")
	term.send("?")
	term.waitFor(screenWait, "escapes (reversed)")
	term.send("?")
	term.waitGone(screenWait, "escapes (reversed)")
	term.editAndWait()
	term.send("d")
	term.waitFor(screenWait, "- ", `WIPED-MARK`, "+   payload: mine")
	term.send("d")
	term.waitGone(screenWait, "+   payload: mine")
	// Theirs with more of the same, on the same field: a banner, then a
	// conflict whose three versions hold payloads.
	patch, err := json.Marshal(map[string]any{"data": map[string]any{"payload": "theirs " + strings.Join(all, " | ")}})
	if err != nil {
		t.Fatal(err)
	}
	kubetest.MustKubectl(t, "-n", ns, "patch", "configmap", "evil", "--type=merge", "-p", string(patch))
	term.waitFor(screenWait, "changed on server")
	term.send("s")
	term.waitFor(screenWait, "conflict: base rv", ".data.payload", "TITLE-MARK")
	term.send("m")
	term.waitFor(screenWait, "(0 open)")
	term.send("s")
	term.waitFor(screenWait, "saved rv")
	// The timeline, and the diff of the newest version (the save, which
	// replaced theirs' payloads).
	term.send("t")
	term.waitFor(screenWait, "timeline of ConfigMap/evil")
	term.send("Enter")
	term.waitFor(screenWait, "-   payload: \"theirs", "TITLE-MARK")
	term.send("Escape")
	term.waitGone(screenWait, "-   payload: \"theirs")
	term.send("t")
	term.waitFor(screenWait, "; e edits a draft")
	term.send("q")
	term.waitFor(screenWait, "EXIT=0")
	if title := term.display("#{pane_title}"); strings.Contains(title, "TITLE-MARK") {
		t.Errorf("the terminal's title was set to %q", title)
	}
	out, err := os.ReadFile(raw)
	if err != nil {
		t.Fatal(err)
	}
	checkRawOutput(t, "the ConfigMap's session", out, hostile)

	// Keys too, and a server message that repeats a value: a custom
	// resource that keeps unknown fields, with a validation rule whose
	// message quotes the field.
	sfx := randomSuffix()
	group := "h" + sfx + ".kedit.test"
	crd := fmt.Sprintf(`{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
"metadata":{"name":"hostiles.%[1]s"},
"spec":{"group":"%[1]s","scope":"Namespaced","names":{"plural":"hostiles","singular":"hostile","kind":"Hostile"},
"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","properties":{"spec":{"type":"object","x-kubernetes-preserve-unknown-fields":true,"properties":{"x":{"type":"string"}},
"x-kubernetes-validations":[{"rule":"!has(self.x) || self.x.startsWith('ok')","messageExpression":"'x is not ok: ' + self.x"}]}}}}}]}}`, group)
	t.Cleanup(func() { _, _ = kubetest.Kubectl(t, "delete", "crd", "hostiles."+group, "--wait=false") })
	spec := map[string]any{"x": "ok"}
	for i, p := range hostile {
		spec[fmt.Sprintf("k%d-%s", i, p.text)] = p.text
	}
	obj := map[string]any{"apiVersion": group + "/v1", "kind": "Hostile", "metadata": map[string]any{"name": "keys"}, "spec": spec}
	b, err := json.Marshal(obj)
	if err != nil {
		t.Fatal(err)
	}
	kubetest.CreateCustom(t, ns, crd, string(b))

	env2 := newKeditEnv(t, editorScript(t, `sed -i 's/^  x: ok$/  x: "no \\x1b]0;TITLE-MARK\\x07 \\x1b[2JWIPED-MARK \\u202eRTL-MARK"/' "$1"`))
	term2, raw2 := env2.runRaw(t, 250, 50, "-n", ns, "hostiles."+group+"/keys")
	term2.waitFor(screenWait, "Hostile/keys", `"k0-\x1b]52;c;cHduZWQ=\x07CLIP-MARK"`)
	term2.editAndWait()
	term2.send("s")
	term2.waitForText(screenWait, "x is not ok")
	term2.send("q")
	term2.waitFor(screenWait, "(y/n)")
	term2.send("y")
	term2.waitFor(screenWait, "EXIT=")
	out2, err := os.ReadFile(raw2)
	if err != nil {
		t.Fatal(err)
	}
	checkRawOutput(t, "the custom resource's session", out2, hostile)
	if !bytes.Contains(out2, []byte("x is not ok")) {
		t.Error("the 422 that repeats the value was never shown, so it went untested")
	}

	// kedit set prints the value it found, and an error printed before
	// the UI starts quotes the name it was given. The session above
	// replaced evil's payload: a ConfigMap of their own.
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "evil-set", "--from-literal=payload="+strings.Join(all, " "))
	for _, args := range [][]string{
		{"set", "configmap/evil-set", "/data/keep=2", "--if", "/data/payload=nothing"},
		{"set", "--dry-run", "configmap/evil-set", "/data/other=" + hostile[0].text},
		{"configmap/" + hostile[1].text},
	} {
		cmd := exec.Command(keditBinary(t), append([]string{"--kubeconfig", kubetest.Kubeconfig(t), "-n", ns}, args...)...)
		cmd.Env = append(os.Environ(), "KUBECACHEDIR="+t.TempDir(), "XDG_STATE_HOME="+t.TempDir())
		out, _ := cmd.CombinedOutput()
		checkRawOutput(t, "kedit "+args[0], out, hostile)
		if !strings.Contains(string(out), `\x1b]`) {
			t.Errorf("kedit %s printed no escaped payload, so it went untested: %q", args[0], out)
		}
	}
}
