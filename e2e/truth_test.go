package e2e

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/kedit/kedit/kube/kubetest"
)

// End to end: every message true. The real kedit binary in tmux against
// localcluster, kubectl as the other writer.

// switchableEditor is $EDITOR as a script whose body the test sets before
// each e.
func switchableEditor(t *testing.T) (editor string, set func(body string)) {
	t.Helper()
	dir := t.TempDir()
	action := filepath.Join(dir, "action.sh")
	set = func(body string) {
		t.Helper()
		if err := os.WriteFile(action, []byte("set -e\n"+body+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	set("true")
	return editorScript(t, `sh '`+action+`' "$1"`), set
}

// TestE2EStatusLinesGoWithTheirState: the three stale lines seen in use go
// once their state does: a refused resubmit once every conflict is
// resolved, a draft that cannot be saved once it is fixed in the app,
// "no change" once the merge is resolved by hand.
func TestE2EStatusLinesGoWithTheirState(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=1", "--from-literal=bar=1")
	editor, set := switchableEditor(t)
	term := openKedit(t, ns, "testmap", editor, 120, 40)

	// Two conflicts; one resolved, the resubmit is refused; the other
	// resolved, the refusal goes.
	set(`sed -i -e 's/foo: "1"/foo: mine/' -e 's/bar: "1"/bar: mine/' "$1"`)
	term.editAndWait("foo: mine")
	kubetest.MustKubectl(t, "-n", ns, "patch", "configmap", "testmap", "--type=merge", "-p", `{"data":{"foo":"theirs","bar":"theirs"}}`)
	term.waitFor(screenWait, "changed on server")
	term.send("s")
	term.waitFor(screenWait, "conflict: base rv", "2 conflicts,")
	term.send("m")
	term.send("s")
	term.waitFor(screenWait, "resubmit refused: 1 of 2 conflicts is still open")
	term.send("n")
	term.send("t")
	term.waitFor(screenWait, "(0 open)")
	term.stillNot("still open")
	term.send("s")
	term.waitFor(screenWait, "saved rv")

	// A draft typed in the app that does not parse, then fixed there.
	term.send("i")
	term.waitForLine(1)
	term.send("Down", "Down", "End") // bar: mine
	term.typeKeys(": x")
	term.send("Escape")
	term.waitFor(screenWait, "the draft is kept but cannot be saved")
	term.send("i")
	term.waitForLine(1)
	term.send("Down", "Down", "End", "BSpace", "BSpace", "BSpace")
	term.typeKeys("2")
	term.send("Escape")
	term.waitFor(screenWait, "unsaved draft  based on rv")
	term.stillNot("cannot be saved")

	// "no change" from $EDITOR on the merge, then the merge resolved by
	// hand in $EDITOR.
	kubetest.MustKubectl(t, "-n", ns, "patch", "configmap", "testmap", "--type=merge", "-p", `{"data":{"bar":"theirs-again"}}`)
	term.waitFor(screenWait, "changed on server")
	term.send("s")
	term.waitFor(screenWait, "conflict: base rv", "1 conflict,")
	set("true")
	term.send("e")
	term.waitFor(screenWait, "no change")
	set(`sed -i '/^<<<<<<< /,/^>>>>>>> /c\  bar: both' "$1"`)
	term.editAndWait("bar: both")
	term.stillNot("no change")
	term.send("s")
	term.waitFor(screenWait, "saved rv")
	if data, _ := configMapData(t, ns, "testmap"); data["bar"] != "both" {
		t.Errorf("bar = %q on the server, want both", data["bar"])
	}
}

// TestE2ETimelineCreditsOnlyAKnownWriter: dave's JSON patch that only
// removes a field leaves no managedFields entry; the banner, the timeline
// and its diff say the writer is unknown, never carol, whose entry
// predates it. A Secret version's diff shows its changed value masked.
func TestE2ETimelineCreditsOnlyAKnownWriter(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "team", "--from-literal=a=1", "--from-literal=b=1", "--field-manager=carol")
	term := openKedit(t, ns, "team", editorScript(t, `sed -i 's/a: "1"/a: mine/' "$1"`), 120, 40)
	term.editAndWait("a: mine")
	kubetest.MustKubectl(t, "-n", ns, "patch", "configmap", "team", "--type=json", "-p", `[{"op":"remove","path":"/data/b"}]`, "--field-manager=dave")
	screen := term.waitFor(screenWait, "by unknown writer (no managedFields entry changed): .data.b")
	if strings.Contains(screen, "by carol") {
		t.Errorf("the banner credits carol:\n%s", screen)
	}
	term.send("t")
	screen = term.waitFor(screenWait, "timeline of ConfigMap/team: 2 versions")
	newest := regexp.MustCompile(`(?m)^> .*$`).FindString(screen)
	if !strings.Contains(newest, "unknown writer") || strings.Contains(newest, "carol") || !strings.Contains(newest, ".data.b") {
		t.Errorf("the removal's row: %q\n%s", newest, screen)
	}
	term.send("Enter")
	term.waitFor(screenWait, "by unknown writer (no managedFields entry changed), against rv", "-   b: \"1\"")
	term.send("q")
	term.waitFor(screenWait, "quit with an unsaved draft?")
	term.send("y")
	term.waitFor(screenWait, "EXIT=0")

	kubetest.MustKubectl(t, "-n", ns, "create", "secret", "generic", "creds", "--from-literal=password=old-secret")
	term = openKeditOn(t, ns, "secret/creds", "Secret/creds", "true", 120, 40)
	rv := kubetest.MustKubectl(t, "-n", ns, "patch", "secret", "creds", "--type=merge", "-p", `{"data":{"password":"bmV3LXNlY3JldA=="}}`,
		"-o", "jsonpath={.metadata.resourceVersion}")
	// The watch brought the patch before t: the timeline opens on it.
	term.waitFor(screenWait, "rv "+strings.TrimSpace(rv))
	term.send("t")
	term.waitFor(screenWait, "timeline of Secret/creds: 2 versions")
	term.send("Enter")
	screen = term.waitFor(screenWait, "changed: .data.password", "-   password: ••••", "+   password: ••••")
	for _, v := range []string{"no difference", "old-secret", "new-secret", "bmV3LXNlY3JldA=="} {
		if strings.Contains(screen, v) {
			t.Errorf("the Secret version's diff shows %q:\n%s", v, screen)
		}
	}
}

// TestE2EDraftDiffShowsOnlyTheDraftsChange: d of a Deployment draft that
// changed only replicas, and of a Service draft, shows that change and no
// status; b's header reads "blame of live rv".
func TestE2EDraftDiffShowsOnlyTheDraftsChange(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "deployment", "web", "--image=nginx")
	kubetest.MustKubectl(t, "-n", ns, "create", "service", "clusterip", "web", "--tcp=80:80")
	editor := editorScript(t, `sed -i -e 's/replicas: 1$/replicas: 3/' -e 's/sessionAffinity: None/sessionAffinity: ClientIP/' "$1"`)
	for _, tc := range []struct {
		object, header string
		want           []string
	}{
		{"deployment/web", "Deployment/web", []string{"-   replicas: 1", "+   replicas: 3"}},
		{"service/web", "Service/web", []string{"-   sessionAffinity: None", "+   sessionAffinity: ClientIP"}},
	} {
		term := openKeditOn(t, ns, tc.object, tc.header, editor, 120, 40)
		term.send("b")
		term.waitFor(screenWait, "blame of live rv ")
		term.send("b")
		term.editAndWait()
		term.send("d")
		screen := term.waitFor(screenWait, append([]string{"diff against base rv"}, tc.want...)...)
		var changed []string
		for _, l := range strings.Split(screen, "\n") {
			if strings.HasPrefix(l, "+ ") || strings.HasPrefix(l, "- ") {
				changed = append(changed, strings.TrimRight(l, " "))
			}
		}
		if strings.Join(changed, "\n") != strings.Join(tc.want, "\n") {
			t.Errorf("%s: d shows\n%s\nwant only\n%s\n%s", tc.object, strings.Join(changed, "\n"), strings.Join(tc.want, "\n"), screen)
		}
		term.send("x")
		term.waitFor(screenWait, "discard the draft?")
		term.send("y")
		term.waitFor(screenWait, "; e edits a draft")
		term.send("q")
		term.waitFor(screenWait, "EXIT=0")
	}
}

// TestE2ENamespaceThatDoesNotExist: :ns NAME of a namespace the server
// does not have says so and keeps the list; tab with no match says so; a
// user who may not read namespaces is told kedit cannot tell.
func TestE2ENamespaceThatDoesNotExist(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "visible")
	term := newKeditEnv(t, "true").run(t, 120, 40, "-n", ns, "configmaps")
	term.waitFor(screenWait, "configmaps  namespace "+ns, "visible")
	term.send(":")
	term.typeKeys("ns nosuchns")
	term.send("Enter")
	screen := term.waitFor(screenWait, `namespace "nosuchns" does not exist`)
	if !strings.Contains(screen, "configmaps  namespace "+ns) || strings.Contains(screen, `in namespace "nosuchns"`) {
		t.Errorf(":ns nosuchns left the list:\n%s", screen)
	}
	term.send(":")
	term.typeKeys("ns nosuchnsz")
	term.send("Tab")
	term.waitFor(screenWait, `no namespace starts with "nosuchnsz"`)
	// esc and q sent together would reach kedit as alt+q.
	term.send("Escape")
	term.waitGone(screenWait, "no namespace starts with")
	term.send("q")
	term.waitFor(screenWait, "EXIT=0")

	// A user who may list ConfigMaps in ns and other, and nothing else.
	other := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", other, "create", "configmap", "there")
	for _, n := range []string{ns, other} {
		kubetest.MustKubectl(t, "-n", n, "create", "role", "cm-reader", "--verb=get,list,watch", "--resource=configmaps")
		kubetest.MustKubectl(t, "-n", n, "create", "rolebinding", "cm-reader", "--role=cm-reader", "--user=kedit-viewer")
	}
	viewer := newKeditEnv(t, "true")
	viewer.kubeconfig = kubetest.ViewerKubeconfig(t)
	term = viewer.run(t, 200, 40, "-n", ns, "configmaps")
	term.waitFor(screenWait, "configmaps  namespace "+ns, "visible")
	term.send(":")
	term.typeKeys("ns " + other)
	term.send("Enter")
	term.waitFor(screenWait, `cannot tell whether namespace "`+other+`" exists: not allowed to get namespaces; listing in it`,
		"configmaps  namespace "+other, "there")
	term.send(":")
	term.typeKeys("ns x")
	term.send("Tab")
	term.waitFor(screenWait, "cannot complete namespaces: not allowed to list namespaces")
}

// TestE2ETheirsEverywhereWritesNothing: a conflict resolved to theirs
// throughout resubmits what the server already holds; the server writes
// nothing and keeps its version, and kedit says so rather than "saved":
// the version is the other writer's, and kedit is not among the object's
// managers.
func TestE2ETheirsEverywhereWritesNothing(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=1")
	term := openKedit(t, ns, "testmap", editorScript(t, `sed -i 's/foo: "1"/foo: mine/' "$1"`), 120, 40)
	term.editAndWait("foo: mine")
	kubetest.MustKubectl(t, "-n", ns, "patch", "configmap", "testmap", "--type=merge", "-p", `{"data":{"foo":"theirs"}}`)
	term.waitFor(screenWait, "changed on server")
	theirsRV := strings.TrimSpace(kubetest.MustKubectl(t, "-n", ns, "get", "configmap", "testmap", "-o", "jsonpath={.metadata.resourceVersion}"))
	term.send("s")
	term.waitFor(screenWait, "conflict: base rv", "1 conflict,")
	term.send("t")
	term.waitFor(screenWait, "(0 open)")
	term.send("s")
	screen := term.waitFor(screenWait, "nothing to write: rv "+theirsRV+" already holds it")
	if strings.Contains(screen, "saved rv") {
		t.Errorf("kedit says saved though nothing was written:\n%s", screen)
	}
	out := kubetest.MustKubectl(t, "-n", ns, "get", "configmap", "testmap", "-o", "jsonpath={.metadata.resourceVersion} {.metadata.managedFields[*].manager} {.data.foo}")
	if f := strings.Fields(out); len(f) < 3 || f[0] != theirsRV || f[len(f)-1] != "theirs" || strings.Contains(out, "kedit") {
		t.Errorf("the server after the resubmit: %q; want rv %s, theirs, no kedit manager", out, theirsRV)
	}
}

// TestE2EConflictEditLeavesOutManagedFields: e in the conflict view opens
// the merge in $EDITOR without theirs' managedFields, as e on the object
// opens the draft, and the draft it makes (the object view's, once the
// merge is taken) shows none.
func TestE2EConflictEditLeavesOutManagedFields(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=1")
	editor, set := switchableEditor(t)
	term := openKedit(t, ns, "testmap", editor, 120, 40)
	set(`sed -i 's/foo: "1"/foo: mine/' "$1"`)
	term.editAndWait("foo: mine")
	kubetest.MustKubectl(t, "-n", ns, "patch", "configmap", "testmap", "--type=merge", "-p", `{"data":{"foo":"theirs"}}`)
	term.waitFor(screenWait, "changed on server")
	term.send("s")
	term.waitFor(screenWait, "conflict: base rv", "1 conflict,")
	seen := filepath.Join(t.TempDir(), "merge.yaml")
	set(`cp "$1" ` + seen + `
sed -i -e '/^<<<<<<< /d' -e '/^||||||| /,/^>>>>>>> /d' "$1"`)
	term.editAndWait("unsaved draft  based on rv", "foo: mine")
	waitFile(t, seen, holds("<<<<<<< "))
	b, err := os.ReadFile(seen)
	if err != nil || !strings.Contains(string(b), "<<<<<<<") || strings.Contains(string(b), "managedFields") {
		t.Errorf("the merge in $EDITOR (%v):\n%s", err, b)
	}
	term.stillNot("managedFields:")
}
