package e2e

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kedit/kedit/kube/kubetest"
	"github.com/kedit/kedit/ui"
	"github.com/kedit/kedit/ui/common"
	"github.com/kedit/kedit/ui/objectset"
)

// A set, through the real binary: several objects (kedit cm/a cm/b), a
// selector (-l) or the objects manifests name (-f), each watched, edited
// in one $EDITOR file and saved each with its own resourceVersion.

// TestE2ESetConflictResolvedBothSaved: two objects edited in one $EDITOR
// file while another writer (kubectl, from the editor) changes one of
// them: s saves the other and says the conflict, n opens it (naming the
// object), m takes mine
// where both changed .data.foo, s resubmits, and both are saved, the other
// writer's change to .data.bar kept.
func TestE2ESetConflictResolvedBothSaved(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	for _, n := range []string{"a", "b"} {
		kubetest.MustKubectl(t, "-n", ns, "create", "configmap", n, "--from-literal=foo=1", "--from-literal=bar=1", "--from-literal=baz=1")
	}
	editor := editorScript(t, `sed -i -e 's/foo: "1"/foo: mine/' -e 's/baz: "1"/baz: mine/' "$1"
kubectl --kubeconfig `+kubetest.Kubeconfig(t)+` -n `+ns+` patch configmap a --type=merge -p '{"data":{"foo":"theirs","bar":"theirs"}}' >/dev/null`)
	term := newKeditEnv(t, editor).run(t, 120, 30, "-n", ns, "cm/a", "cm/b")
	term.waitFor(screenWait, "set: cm/a cm/b", "2 objects", "configmaps/a", "configmaps/b", "connected")

	term.send("e")
	term.waitFor(screenWait, "2 drafts edited (configmaps/a, configmaps/b)")
	term.send("s")
	screen := term.waitFor(screenWait, "saved 1 of 2 drafts; 1 conflict: n opens the next")
	if !strings.Contains(screen, "conflict (1 open)") || !strings.Contains(screen, "saved rv") {
		t.Errorf("the rows after the save:\n%s", screen)
	}
	if data, _ := configMapData(t, ns, "b"); data["foo"] != "mine" || data["baz"] != "mine" {
		t.Errorf("b = %v", data)
	}

	term.send("n")
	term.waitFor(screenWait, "configmaps/a · conflict: base rv", "1 conflict,", ".data.foo")
	term.send("m")
	term.send("s")
	screen = term.waitFor(screenWait, "saved configmaps/a rv", "set: cm/a cm/b")
	if strings.Count(screen, "saved rv") != 2 {
		t.Errorf("both rows should say saved:\n%s", screen)
	}
	data, _ := configMapData(t, ns, "a")
	if data["foo"] != "mine" || data["baz"] != "mine" || data["bar"] != "theirs" {
		t.Errorf("a = %v, want foo and baz mine, bar theirs (the other writer's)", data)
	}
}

// TestE2ESetResubmitsCleanMerges: two objects edited in one $EDITOR file
// while another writer (kubectl, from the editor) changes another key of
// each: s meets two clean merges, whose rows say s resubmits them; the
// next s resubmits both, says how many, and both are saved with both
// sides' changes.
func TestE2ESetResubmitsCleanMerges(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	for _, n := range []string{"a", "b"} {
		kubetest.MustKubectl(t, "-n", ns, "create", "configmap", n, "--from-literal=foo=1", "--from-literal=bar=1")
	}
	kubectl := `kubectl --kubeconfig ` + kubetest.Kubeconfig(t) + ` -n ` + ns
	editor := editorScript(t, `sed -i 's/foo: "1"/foo: mine/' "$1"
`+kubectl+` patch configmap a --type=merge -p '{"data":{"bar":"theirs"}}' >/dev/null
`+kubectl+` patch configmap b --type=merge -p '{"data":{"bar":"theirs"}}' >/dev/null`)
	term := newKeditEnv(t, editor).run(t, 140, 30, "-n", ns, "cm/a", "cm/b")
	term.waitFor(screenWait, "set: cm/a cm/b", "2 objects", "connected")

	term.send("e")
	term.waitFor(screenWait, "2 drafts edited (configmaps/a, configmaps/b)")
	term.send("s")
	screen := term.waitFor(screenWait, "saved 0 of 2 drafts; 2 conflicts: n opens the next")
	if !strings.Contains(screen, "merged cleanly: s resubmits it") {
		t.Errorf("the rows after the save:\n%s", screen)
	}
	term.send("s")
	screen = term.waitFor(screenWait, "saved 2 of 2 drafts (2 clean merges resubmitted)")
	if strings.Count(screen, "saved rv") != 2 {
		t.Errorf("both rows should say saved:\n%s", screen)
	}
	for _, n := range []string{"a", "b"} {
		if data, _ := configMapData(t, ns, n); data["foo"] != "mine" || data["bar"] != "theirs" {
			t.Errorf("%s = %v, want foo mine and the other writer's bar", n, data)
		}
	}
}

// TestE2ESetFromFile: -f of a multi-document file opens the live objects
// it names: its content is not the draft; the $EDITOR file holds them as
// they are on the server, and s saves each, under --field-manager's name.
func TestE2ESetFromFile(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	for _, n := range []string{"a", "b"} {
		kubetest.MustKubectl(t, "-n", ns, "create", "configmap", n, "--from-literal=foo=1")
	}
	dir := t.TempDir()
	manifest := filepath.Join(dir, "app.yaml")
	doc := func(n string) string {
		return "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: " + n + "\ndata:\n  foo: from-the-file\n"
	}
	if err := os.WriteFile(manifest, []byte(doc("a")+"---\n"+doc("b")), 0o600); err != nil {
		t.Fatal(err)
	}
	seen := filepath.Join(dir, "seen.yaml")
	editor := editorScript(t, `cp "$1" `+seen+`; sed -i 's/foo: "1"/foo: mine/' "$1"`)
	term := newKeditEnv(t, editor).run(t, 120, 30, "-n", ns, "--field-manager", "set-ops", "-f", manifest)
	term.waitFor(screenWait, "set: -f "+manifest, "configmaps/a", "configmaps/b")
	term.send("e")
	term.waitFor(screenWait, "2 drafts edited")
	b, err := os.ReadFile(seen)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "kind: List") || strings.Count(string(b), `foo: "1"`) != 2 || strings.Contains(string(b), "from-the-file") {
		t.Errorf("the $EDITOR file is not the live objects:\n%s", b)
	}
	term.send("s")
	term.waitFor(screenWait, "saved 2 of 2 drafts")
	for _, n := range []string{"a", "b"} {
		if data, _ := configMapData(t, ns, n); data["foo"] != "mine" {
			t.Errorf("%s = %v", n, data)
		}
		out := kubetest.MustKubectl(t, "-n", ns, "get", "configmap", n, "-o", "yaml", "--show-managed-fields")
		if !strings.Contains(out, "manager: set-ops") || strings.Contains(out, "manager: kedit") {
			t.Errorf("%s's managedFields after the save:\n%s", n, out)
		}
	}
}

// TestE2ESetSelector: -l opens the objects the selector matches, and only
// them; enter shows one as kedit shows one object, and esc comes back to
// the set.
func TestE2ESetSelector(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	for _, n := range []string{"web-a", "web-b", "db"} {
		kubetest.MustKubectl(t, "-n", ns, "create", "configmap", n, "--from-literal=foo=1")
	}
	kubetest.MustKubectl(t, "-n", ns, "label", "configmap", "web-a", "web-b", "app=web")
	term := newKeditEnv(t, editorScript(t, `sed -i 's/foo: "1"/foo: mine/' "$1"`)).run(t, 100, 24, "-n", ns, "cm", "-l", "app=web")
	screen := term.waitFor(screenWait, "set: cm -l app=web in namespace "+ns, "2 objects", "configmaps/web-a", "configmaps/web-b", "connected")
	if strings.Contains(screen, "configmaps/db") {
		t.Errorf("db does not match app=web:\n%s", screen)
	}
	term.send("Down")
	term.send("Enter")
	term.waitFor(screenWait, "ConfigMap/web-b", "apiVersion: v1", "esc back to the set")
	term.editAndWait()
	term.send("Escape")
	screen = term.waitFor(screenWait, "set: cm -l app=web", "1 draft")
	if !strings.Contains(screen, "web-b  draft") {
		t.Errorf("web-b's row:\n%s", screen)
	}
	// Another writer changes web-a: its row follows it live.
	kubetest.MustKubectl(t, "-n", ns, "label", "configmap", "web-a", "app-")
	kubetest.MustKubectl(t, "-n", ns, "delete", "configmap", "web-a")
	term.waitFor(screenWait, "1 deleted")
}

// TestE2ESetRefusals: a selector that matches nothing says so and exits 1;
// a set with no terminal on stdout exits 2 with a message, as kedit does.
func TestE2ESetRefusals(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "a", "--from-literal=foo=1")
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "b", "--from-literal=foo=1")
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"cm", "-l", "app=nothing"}, 1, `kedit: no objects match the selector "app=nothing" (looked in configmaps in namespace "` + ns + `")`},
		{[]string{"cm/a", "cm/nope"}, 1, `kedit: configmaps/nope not found in namespace "` + ns + `"`},
		{[]string{"cm/a", "cm/b"}, 2, "kedit: standard output is not a terminal"},
	} {
		cmd := exec.Command(keditBinary(t), append([]string{"--kubeconfig", kubetest.Kubeconfig(t), "-n", ns}, tc.args...)...)
		cmd.Env = append(os.Environ(), "KUBECACHEDIR="+t.TempDir(), "XDG_STATE_HOME="+t.TempDir())
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		}
		if code != tc.code || !strings.HasPrefix(stderr.String(), tc.want) || stdout.Len() != 0 {
			t.Errorf("%v: exit %d, stderr %q, stdout %q; want %d and %q", tc.args, code, stderr.String(), stdout.String(), tc.code, tc.want)
		}
	}
}

// TestE2ESetKeysCanBeFound: at 80×24 and 60×15 the set view's footer ends
// with ? help, and ? shows every key of the set view (scrolled with pgdn),
// built from the view's own bindings.
func TestE2ESetKeysCanBeFound(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	for _, n := range []string{"a", "b"} {
		kubetest.MustKubectl(t, "-n", ns, "create", "configmap", n, "--from-literal=foo=1")
	}
	for _, s := range e2eSizes {
		t.Run(s.name, func(t *testing.T) {
			term := newKeditEnv(t, editorScript(t, `exit 0`)).run(t, s.w, s.h, "-n", ns, "cm/a", "cm/b")
			screen := term.waitFor(screenWait, "configmaps/a", "configmaps/b", "connected")
			rows := strings.Split(screen, "\n")
			if footer := strings.TrimRight(rows[s.h-1], " "); !strings.HasSuffix(footer, "? help") {
				t.Errorf("the footer at %dx%d: %q", s.w, s.h, footer)
			}
			help := helpText(t, term, "set view")
			for _, g := range objectset.New(ui.DefaultKeyMap().Set, common.NewStyles()).FullHelp() {
				for _, b := range g {
					if !showsBinding(help, b) {
						t.Errorf("? at %dx%d does not show %s %s:\n%s", s.w, s.h, b.Help().Key, b.Help().Desc, help)
					}
				}
			}
		})
	}
}

// TestE2ESetSaveOfADeletedObject: an object deleted while its draft waits
// is not called refused with the object view's keys: s saves the others,
// the summary and its row say it was deleted and that the draft is kept,
// and enter then s creates it again from the draft.
func TestE2ESetSaveOfADeletedObject(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	for _, n := range []string{"a", "b"} {
		kubetest.MustKubectl(t, "-n", ns, "create", "configmap", n, "--from-literal=foo=1")
	}
	term := newKeditEnv(t, editorScript(t, `sed -i 's/foo: "1"/foo: mine/' "$1"`)).run(t, 120, 24, "-n", ns, "cm/a", "cm/b")
	term.waitFor(screenWait, "configmaps/a", "configmaps/b", "connected")
	term.send("e")
	term.waitFor(screenWait, "2 drafts edited")
	kubetest.MustKubectl(t, "-n", ns, "delete", "configmap", "b")
	term.waitFor(screenWait, "1 deleted")
	term.send("s")
	screen := term.waitFor(screenWait, "saved 1 of 2 drafts; 1 deleted on the server, the draft kept (enter, then s creates it again)")
	if strings.Contains(screen, "refused") || strings.Contains(screen, "x discards") {
		t.Errorf("the set after the save:\n%s", screen)
	}
	term.send("j", "Enter")
	term.waitFor(screenWait, "deleted on server")
	term.send("s")
	term.waitFor(screenWait, "saved rv")
	if data, _ := configMapData(t, ns, "b"); data["foo"] != "mine" {
		t.Errorf("b created again = %v, want foo mine", data)
	}
}
