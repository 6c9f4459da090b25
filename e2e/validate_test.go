package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kedit/kedit/internal/testwait"
	"github.com/kedit/kedit/kube/kubetest"
)

// addTypoField is an editor that adds imagePullPolicyy under the
// container's imagePullPolicy, a field no Deployment has.
const addTypoField = `sed -i 's/^\( *\)imagePullPolicy: \(.*\)$/&\n\1imagePullPolicyy: Always/' "$1"`

// TestE2EUnknownFieldIsRefused: a Deployment's draft with a field the
// server does not know is refused under the default --validate=strict,
// naming the field by its container as the user wrote it; the draft is
// kept, on disk too, and the server is unchanged. Under --validate=warn
// the save lands and the server's warning is said, with the field that is
// not on the server; under --validate=ignore only the field is named.
// Under both, the draft's check says before the save that the server
// drops the field, and holds no save for it.
func TestE2EUnknownFieldIsRefused(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "deployment", "web1", "--image=nginx")
	rv := func() string {
		return strings.TrimSpace(kubetest.MustKubectl(t, "-n", ns, "get", "deploy", "web1", "-o", "jsonpath={.metadata.resourceVersion}"))
	}
	before := rv()
	env := newKeditEnv(t, editorScript(t, addTypoField))
	term := env.run(t, 250, 40, "-n", ns, "deploy/web1")
	term.waitFor(screenWait, "Deployment/web1", "apiVersion: ")
	term.editAndWait("imagePullPolicyy: Always")
	sendPastTheSchema(term)
	screen := term.waitFor(screenWait, `refused the draft as invalid (400 Bad Request): .spec.template.spec.containers[name="nginx"].imagePullPolicyy: unknown field (the draft is kept); on line `)
	if now := rv(); now != before {
		t.Errorf("the server moved from rv %s to %s after a refused save", before, now)
	}
	files, _ := filepath.Glob(filepath.Join(env.state, "kedit", "drafts", "*", ns, "deployments.apps", "web1.yaml"))
	if len(files) != 1 {
		all, _ := filepath.Glob(filepath.Join(env.state, "kedit", "drafts", "*", "*", "*", "*"))
		t.Fatalf("the draft on disk after the refusal: %v (all: %v)", files, all)
	}
	// The line named is the draft's line of the field.
	data, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	const header = "# The draft text follows this header line byte for byte.\n"
	if i := strings.Index(text, header); i >= 0 {
		text = text[i+len(header):]
	}
	line := 0
	for i, l := range strings.Split(text, "\n") {
		if strings.Contains(l, "imagePullPolicyy: Always") {
			line = i + 1
		}
	}
	if want := fmt.Sprintf("on line %d of the draft", line); line == 0 || !strings.Contains(screen, want) {
		t.Errorf("the status does not say %q; the draft:\n%s\nthe screen:\n%s", want, data, screen)
	}

	warn := newKeditEnv(t, editorScript(t, addTypoField))
	term = warn.run(t, 250, 40, "-n", ns, "--validate=warn", "deploy/web1")
	term.waitFor(screenWait, "Deployment/web1", "apiVersion: ")
	term.editAndWait("imagePullPolicyy: Always")
	sendDropped(term, "warn")
	// The server took the save without the field, which left it as it
	// was: nothing written, and said so, with the server's warning and the
	// field that is not on the server.
	term.waitFor(screenWait, "nothing to write: rv "+before, `the server warned: unknown field "spec.template.spec.containers[0].imagePullPolicyy"`,
		`.spec.template.spec.containers[name="nginx"].imagePullPolicyy is not on the server`)

	// Under ignore the server says nothing; kedit names the field the
	// server did not store, by itself, not the list it is in.
	ignore := newKeditEnv(t, editorScript(t, addTypoField))
	term = ignore.run(t, 250, 40, "-n", ns, "--validate=ignore", "deploy/web1")
	term.waitFor(screenWait, "Deployment/web1", "apiVersion: ")
	term.editAndWait("imagePullPolicyy: Always")
	sendDropped(term, "ignore")
	screen = term.waitFor(screenWait, "nothing to write: rv "+before+" already holds it, but "+
		`.spec.template.spec.containers[name="nginx"].imagePullPolicyy is not on the server`)
	if strings.Contains(screen, "warned") || strings.Contains(screen, "+5 lines") {
		t.Errorf("under --validate=ignore: a warning, or the whole list named:\n%s", screen)
	}
	// What the user wrote is not on the server: the draft keeps it, on
	// disk too, until x discards it.
	term.waitFor(screenWait, "the draft keeps what you wrote (x discards it, e edits it)", "unsaved draft")
	draftFile := func() (string, bool) {
		drafts, err := filepath.Glob(filepath.Join(ignore.state, "kedit", "drafts", "*", ns, "*", "web1.yaml"))
		if err != nil || len(drafts) == 0 {
			return "", false
		}
		b, err := os.ReadFile(drafts[0])
		return string(b), err == nil
	}
	if text, ok := draftFile(); !ok || !strings.Contains(text, "imagePullPolicyy: Always") {
		t.Fatalf("after the save the stored draft is %q (%v), want the user's text", text, ok)
	}
	term.send("x")
	screen, _ = term.waitUntil(screenWait, "x to ask or discard", func(s string) bool { return strings.Contains(s, "(y/n)") || !strings.Contains(s, "unsaved draft") })
	if strings.Contains(screen, "(y/n)") {
		term.send("y")
	}
	term.waitUntil(screenWait, "the draft discarded", func(s string) bool { return !strings.Contains(s, "unsaved draft") })
	if !testwait.Until(screenWait, func() bool { _, ok := draftFile(); return !ok }) {
		t.Error("the discarded draft's file is still on disk")
	}
}

// TestE2ESetValidates: kedit set's patch carries --validate: strict (the
// default) refuses a field the server does not know with exit status 1,
// naming it, the dry run too, and leaves the server unchanged; warn
// applies the patch without it and prints the server's warning on stderr.
func TestE2ESetValidates(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "deployment", "web1", "--image=nginx")
	before := strings.TrimSpace(kubetest.MustKubectl(t, "-n", ns, "get", "deploy", "web1", "-o", "jsonpath={.metadata.resourceVersion}"))
	set := func(args ...string) (string, int) {
		cmd := exec.Command(keditBinary(t), append([]string{"--kubeconfig", kubetest.Kubeconfig(t), "-n", ns, "set", "deploy/web1",
			"/spec/template/spec/containers/0/imagePullPolicyy=Always"}, args...)...)
		cmd.Env = append(os.Environ(), "KUBECACHEDIR="+t.TempDir(), "XDG_STATE_HOME="+t.TempDir())
		out, err := cmd.CombinedOutput()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return string(out), code
	}
	for _, args := range [][]string{nil, {"--dry-run"}, {"--validate=strict"}} {
		out, code := set(args...)
		if code != 1 || !strings.Contains(out, `.spec.template.spec.containers[0].imagePullPolicyy: unknown field`) {
			t.Errorf("kedit set %v: exit %d, %q; want 1 naming the unknown field", args, code, out)
		}
	}
	if now := strings.TrimSpace(kubetest.MustKubectl(t, "-n", ns, "get", "deploy", "web1", "-o", "jsonpath={.metadata.resourceVersion}")); now != before {
		t.Errorf("the server moved from rv %s to %s after refused patches", before, now)
	}
	out, code := set("--validate=warn")
	if code != 0 || !strings.Contains(out, `kedit set: the server warned: unknown field "spec.template.spec.containers[0].imagePullPolicyy"`) {
		t.Errorf("kedit set --validate=warn: exit %d, %q; want 0 and the server's warning", code, out)
	}
}

// TestE2ETooLongNamesTheObject: a ConfigMap's data over 1 MiB is refused
// naming the object and its size in words, and the draft is kept.
func TestE2ETooLongNamesTheObject(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=1")
	_, before := configMapData(t, ns, "testmap")
	term := openKedit(t, ns, "testmap", editorScript(t, `head -c 1126400 /dev/zero | tr '\0' x > "$1.big"
awk -v f="$1.big" '/^  foo: / { getline v < f; print "  foo: " v; next } { print }' "$1" > "$1.new"
mv "$1.new" "$1"`), 200, 40)
	term.editAndWait()
	term.saveExpecting("configmaps/testmap: its data is 1.1 MiB (1126403 bytes); Too long")
	term.waitForText(screenWait, "(the draft is kept)")
	if _, rv := configMapData(t, ns, "testmap"); rv != before {
		t.Errorf("the server moved from rv %s to %s after a refused save", before, rv)
	}
}

// TestE2ESetValidatesEachObject: a set's saves carry --validate too: the
// object whose draft has a field the server does not know is refused,
// naming it, and stays as it was; the other is saved.
func TestE2ESetValidatesEachObject(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "a", "--from-literal=foo=1")
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "b", "--from-literal=foo=2")
	_, beforeB := configMapData(t, ns, "b")
	editor := editorScript(t, `sed -i -e 's/foo: "1"/foo: mine/' -e 's/^\( *\)name: b$/&\n\1namee: x/' "$1"`)
	term := newKeditEnv(t, editor).run(t, 200, 30, "-n", ns, "cm/a", "cm/b")
	term.waitFor(screenWait, "set: cm/a cm/b", "2 objects", "connected")
	term.send("e")
	term.waitFor(screenWait, "2 drafts edited")
	// The schema's check of b's draft is said on its row before s, which
	// then asks first; s again sends both, and the server refuses b.
	sendPastTheSchema(term)
	term.waitFor(screenWait, ".metadata.namee: unknown field")
	if data, rv := configMapData(t, ns, "b"); rv != beforeB || data["foo"] != "2" {
		t.Errorf("b after its refused save: %v rv %s, want foo=2 at rv %s", data, rv, beforeB)
	}
	if data, _ := configMapData(t, ns, "a"); data["foo"] != "mine" {
		t.Errorf("a = %v, want foo=mine", data)
	}
}

// saveExpecting sends s and waits for want (wrapped or not), the save's
// answer. The server's dry run of a draft back from $EDITOR may have
// refused it before s came: then s asks first ("s again sends it"), and
// s again sends it, which the server answers in its own words.
func (term *terminal) saveExpecting(want string) string {
	term.t.Helper()
	term.send("s")
	screen, _ := term.waitUntil(screenWait, fmt.Sprintf("%q or s asking first", want), func(s string) bool {
		s = squeeze(s)
		return strings.Contains(s, squeeze(want)) || strings.Contains(s, squeeze("s again sends it"))
	})
	if !strings.Contains(squeeze(screen), squeeze(want)) {
		term.send("s")
	}
	return term.waitForText(screenWait, want)
}

// sendPastTheSchema saves a draft the server's schema refuses, as the
// check of a draft back from $EDITOR has said: s asks first, s again sends
// it.
func sendPastTheSchema(term *terminal) {
	term.t.Helper()
	term.waitFor(screenWait, "the schema refuses 1 field")
	term.send("s")
	term.waitFor(screenWait, "s again sends it")
	term.send("s")
}

// sendDropped saves a draft whose only diagnostic is the unknown field
// the server drops under --validate mode: it is said as dropped, not
// refused, and the first s sends the draft.
func sendDropped(term *terminal, mode string) {
	term.t.Helper()
	term.waitFor(screenWait, "line ", ": the server will drop imagePullPolicyy (--validate="+mode+")")
	term.stillNot("the schema refuses")
	term.send("s")
}
