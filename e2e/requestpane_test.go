package e2e

import (
	"encoding/base64"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/kedit/kedit/kube/kubetest"
)

// TestE2ERequestPaneShowsTheConflict: a save that meets kubectl's change
// of the same field; L shows the watch's event of kubectl's version (by
// its field manager), then the PUT refused 409 with both
// resourceVersions, the version the server held and the one the write was
// based on; once the conflict is resolved and resubmitted, the PUT based
// on theirs and its 200 with the version saved.
func TestE2ERequestPaneShowsTheConflict(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=1")
	_, base := configMapData(t, ns, "testmap")
	term := openKedit(t, ns, "testmap", editorScript(t, `sed -i 's/foo: "1"/foo: mine/' "$1"`), 200, 50)

	term.editAndWait()
	kubetest.MustKubectl(t, "-n", ns, "patch", "configmap", "testmap", "--field-manager=demo-writer", "--type=merge", "-p", `{"data":{"foo":"theirs"}}`)
	_, theirs := configMapData(t, ns, "testmap")
	term.waitFor(screenWait, "changed on server")
	term.send("s")
	term.waitFor(screenWait, "conflict: base rv", "1 conflict,")

	term.send("L")
	conflict := "the server holds rv " + theirs + "; this write was based on " + base
	screen := term.waitFor(screenWait, "requests kedit sent and watch events it read", "MODIFIED rv "+theirs+" by demo-writer", "409 Conflict", conflict)
	event, refused := strings.Index(screen, "MODIFIED rv "+theirs), strings.Index(screen, conflict)
	if event > refused {
		t.Errorf("the watch's event is not before the 409:\n%s", screen)
	}
	if !regexp.MustCompile(`PUT +\S+ +` + base + ` +409 Conflict`).MatchString(screen) {
		t.Errorf("the 409's row does not say the PUT carried rv %s:\n%s", base, screen)
	}

	term.send("Escape")
	term.waitGone(screenWait, "requests kedit sent")
	term.send("m")
	term.send("s")
	term.waitFor(screenWait, "saved rv")
	data, saved := configMapData(t, ns, "testmap")
	if data["foo"] != "mine" {
		t.Fatalf("foo = %q on the server, want mine", data["foo"])
	}
	term.send("L")
	resubmit := regexp.MustCompile(`PUT +\S+ +` + theirs + ` +200 +` + saved + ` `)
	screen, _ = term.waitUntil(screenWait, "the resubmit's 200", resubmit.MatchString)
	if strings.Index(screen, conflict) > resubmit.FindStringIndex(screen)[0] {
		t.Errorf("the 200 is not after the 409:\n%s", screen)
	}
	term.send("Escape")
	term.waitGone(screenWait, "requests kedit sent")
}

// TestE2ERequestPaneMasksSecrets: a Secret saved, then the pane's rows
// and the bodies of the last three (the PUT, its answer, the watch's
// event), shown one after another: the values show as ••••, and nothing
// kedit wrote to the terminal holds them, as the object holds them
// (base64) or decoded.
func TestE2ERequestPaneMasksSecrets(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	old, mine := "old-s3cr3t-"+randomSuffix(), "new-s3cr3t-"+randomSuffix()
	kubetest.MustKubectl(t, "-n", ns, "create", "secret", "generic", "vault", "--from-literal=token="+old)
	env := newKeditEnv(t, editorScript(t, `sed -i 's/`+old+`/`+mine+`/' "$1"`))
	term, raw := env.runRaw(t, 200, 50, "-n", ns, "secret/vault")
	term.waitFor(screenWait, "Secret/vault")
	term.editAndWait()
	term.send("s")
	term.waitFor(screenWait, "saved rv")
	if got := secretValue(t, ns); got != mine {
		t.Fatalf("the Secret holds %q after the save", got)
	}
	term.send("L")
	term.waitFor(screenWait, "requests kedit sent", "PUT")
	masked := false
	for range 3 {
		term.send("Enter")
		screen := term.waitFor(screenWait, "request body", "answer's body")
		masked = masked || strings.Contains(screen, `"token": "••••"`)
		term.send("Escape")
		term.waitGone(screenWait, "answer's body")
		term.send("k")
	}
	if !masked {
		t.Error("no body showed the Secret's value masked")
	}
	term.send("q")
	term.waitFor(screenWait, "EXIT=0")
	b, err := os.ReadFile(raw)
	if err != nil || len(b) == 0 {
		t.Fatalf("nothing was captured from the terminal (%v)", err)
	}
	for _, s := range []string{old, mine, base64.StdEncoding.EncodeToString([]byte(old)), base64.StdEncoding.EncodeToString([]byte(mine))} {
		if strings.Contains(string(b), s) {
			t.Errorf("%q reached the terminal", s)
		}
	}
}

// TestE2ERequestPaneAutoRebase: with --auto-rebase a save that meets
// kubectl's change of another key goes back at once; the pane's 409 still
// names the version the server held, which the resubmit was based on.
func TestE2ERequestPaneAutoRebase(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=1", "--from-literal=bar=1")
	_, base := configMapData(t, ns, "testmap")
	term := openKeditOn(t, ns, "configmap/testmap", "ConfigMap/testmap", editorScript(t, `sed -i 's/foo: "1"/foo: mine/' "$1"`), 200, 50, "--auto-rebase")
	term.editAndWait()
	kubetest.MustKubectl(t, "-n", ns, "patch", "configmap", "testmap", "--type=merge", "-p", `{"data":{"bar":"theirs"}}`)
	_, theirs := configMapData(t, ns, "testmap")
	term.waitFor(screenWait, "changed on server")
	term.send("s")
	term.waitFor(screenWait, "saved rv")
	_, saved := configMapData(t, ns, "testmap")
	term.send("L")
	term.waitFor(screenWait, "409 Conflict", "the server holds rv "+theirs+"; this write was based on "+base)
	term.waitUntil(screenWait, "the resubmit's 200", regexp.MustCompile(`PUT +\S+ +`+theirs+` +200 +`+saved+` `).MatchString)
}
