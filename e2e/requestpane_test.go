package e2e

import (
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

	term.send("e")
	term.waitFor(screenWait, "unsaved draft")
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
