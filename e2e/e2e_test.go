package e2e

import (
	"strings"
	"testing"

	"github.com/kedit/kedit/kube/kubetest"
)

// End to end: the real kedit binary in tmux against localcluster, with
// KUBE_EDITOR pointing at a script that edits the file (as kubectl's own
// edit tests do) and kubectl as the other writer between the edit and the
// save. Each test asserts on the screen and on the object read back.

func TestE2ESameFieldConflict(t *testing.T) {
	// Theirs throughout resubmits what the server holds: it writes
	// nothing, and kedit says so.
	for _, tc := range []struct{ key, want, said string }{{"m", "mine", "saved rv"}, {"t", "theirs", "nothing to write: rv"}} {
		t.Run(tc.want, func(t *testing.T) {
			ns := kubetest.Namespace(t)
			kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=1")
			term := openKedit(t, ns, "testmap", editorScript(t, `sed -i 's/foo: "1"/foo: mine/' "$1"`), 120, 40)

			term.editAndWait()
			kubetest.MustKubectl(t, "-n", ns, "patch", "configmap", "testmap", "--type=merge", "-p", `{"data":{"foo":"theirs"}}`)
			term.waitFor(screenWait, "changed on server", "by kubectl-patch", ".data.foo")

			term.send("s")
			screen := term.waitFor(screenWait, "conflict: base rv", "1 conflict,", ".data.foo")
			for _, col := range []string{"base (rv", "theirs (rv", "mine"} {
				if !strings.Contains(screen, col) {
					t.Errorf("the conflict view has no %q column:\n%s", col, screen)
				}
			}
			// Resubmitting with the conflict open is refused.
			term.send("s")
			term.waitFor(screenWait, "1 of 1 conflict is still open")
			if data, _ := configMapData(t, ns, "testmap"); data["foo"] != "theirs" {
				t.Fatalf("foo = %q before the conflict was resolved", data["foo"])
			}

			term.send(tc.key)
			term.send("s")
			term.waitFor(screenWait, tc.said)
			if data, _ := configMapData(t, ns, "testmap"); data["foo"] != tc.want {
				t.Errorf("foo = %q on the server, want exactly %q", data["foo"], tc.want)
			}
		})
	}
}

func TestE2EDisjointChangeMergedAndResubmitted(t *testing.T) {
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=1", "--from-literal=bar=1")
	term := openKedit(t, ns, "testmap", editorScript(t, `sed -i 's/foo: "1"/foo: mine/' "$1"`), 80, 24)

	term.editAndWait()
	kubetest.MustKubectl(t, "-n", ns, "patch", "configmap", "testmap", "--type=merge", "-p", `{"data":{"bar":"theirs"}}`)
	term.waitFor(screenWait, "changed on server")

	term.send("s")
	// A clean rebase is shown before it is resubmitted.
	term.waitFor(screenWait, "clean rebase: ", ".data.bar")
	term.send("s")
	term.waitFor(screenWait, "saved rv")
	if data, _ := configMapData(t, ns, "testmap"); data["foo"] != "mine" || data["bar"] != "theirs" {
		t.Errorf("data = %v, want foo=mine and bar=theirs", data)
	}
}

func TestE2EControlCharactersAreEscaped(t *testing.T) {
	ns := kubetest.Namespace(t)
	// OSC 52 would write the operator's clipboard, CSI 2J clear the screen.
	// Had the terminal obeyed them, their text would not be on screen and
	// the header would be gone.
	evil := "\x1b]52;c;aGFja2Vk\x07 then \x1b[2J cleared"
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "evil", "--from-literal=payload="+evil)
	term := openKedit(t, ns, "evil", editorScript(t, `sed -i 's/cleared/mine/' "$1"`), 120, 40)
	term.waitFor(screenWait, "ConfigMap/evil", "]52;c;aGFja2Vk", "[2J cleared")

	// The conflict view draws the three values outside YAML: they must be
	// escaped there too.
	term.editAndWait()
	kubetest.MustKubectl(t, "-n", ns, "patch", "configmap", "evil", "--type=merge", "-p",
		`{"data":{"payload":"\u001b]0;owned title\u0007 \u001b[2J theirs"}}`)
	term.waitFor(screenWait, "changed on server")
	term.send("s")
	screen := term.waitFor(screenWait, "conflict: base rv", "]0;owned title", "[2J theirs")
	if !strings.Contains(screen, ".data.payload") {
		t.Errorf("the conflict list is gone: the value drove the terminal:\n%s", screen)
	}
}

func TestE2EInvalidYAMLKeepsDraft(t *testing.T) {
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=1")
	_, before := configMapData(t, ns, "testmap")
	term := openKedit(t, ns, "testmap", editorScript(t, `printf 'data:\n  foo: [unclosed\n' >> "$1"`), 120, 40)

	term.editAndWait("cannot be saved: draft, line 12: did not find expected ',' or ']'", "foo: [unclosed")
	term.send("s")
	term.waitFor(screenWait, "the draft is kept but cannot be saved: draft, line 12")
	if data, rv := configMapData(t, ns, "testmap"); rv != before || data["foo"] != "1" {
		t.Errorf("the invalid draft changed the server: foo=%q rv %s -> %s", data["foo"], before, rv)
	}
	// Still there after the refused save: nothing typed is lost.
	term.waitFor(screenWait, "unsaved draft", "foo: [unclosed")
}

// TestE2EBooleanKeyKeepsDraft: a key YAML reads as a boolean (y: would be
// stored as "true") is refused naming it and how to keep it; the draft is
// kept and the server unchanged. Quoted, it saves as written.
func TestE2EBooleanKeyKeepsDraft(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=1")
	_, before := configMapData(t, ns, "testmap")
	editor, set := switchableEditor(t)
	term := openKedit(t, ns, "testmap", editor, 160, 40)
	set(`sed -i 's/^  foo: "1"$/  foo: "1"\n  y: added/' "$1"`)
	term.editAndWait(`.data.y: key y is read by YAML as the boolean true, and would be stored as "true"`)
	term.send("s")
	term.waitFor(screenWait, "the draft is kept but cannot be saved")
	if data, rv := configMapData(t, ns, "testmap"); rv != before || len(data) != 1 {
		t.Errorf("the refused draft changed the server: %v, rv %s -> %s", data, before, rv)
	}
	set(`sed -i 's/^  y: added$/  "y": added/' "$1"`)
	// The quoted key on screen: the draft from this $EDITOR (the one
	// before it is an unsaved draft too).
	term.editAndWait("unsaved draft  based on rv", `"y": added`)
	term.send("s")
	term.waitFor(screenWait, "saved rv")
	if data, _ := configMapData(t, ns, "testmap"); data["y"] != "added" || data["true"] != "" {
		t.Errorf("the quoted key on the server: %v", data)
	}
}
