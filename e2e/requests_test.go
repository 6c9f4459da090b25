package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kedit/kedit/internal/testwait"
	"github.com/kedit/kedit/kube/kubetest"
)

// The requests kedit sends, through the real binary, read from --debug's
// log of every request.

// debugRequests returns the requests the debug log at path holds, from
// the from-th on.
func debugRequests(t testing.TB, path string, from int) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		if i := strings.Index(l, " request "); i >= 0 {
			out = append(out, l[i+1:])
		}
	}
	return out[min(from, len(out)):]
}

// TestE2ECleanRebaseCostsOneRequest: a save that meets theirs' change to
// another key sends the refused update and then only the resubmit (theirs
// comes from the watch's cache, never a GET); and a kedit idle with a
// draft open sends nothing beyond its watch (make bench watches 60 s; 5 s
// here).
func TestE2ECleanRebaseCostsOneRequest(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "counted", "--from-literal=foo=1", "--from-literal=bar=1")
	log := filepath.Join(t.TempDir(), "debug.log")
	term := openKeditOn(t, ns, "configmap/counted", "ConfigMap/counted",
		editorScript(t, `sed -i 's/foo: "1"/foo: mine/' "$1"`), 120, 40, "--debug="+log)
	term.editAndWait()
	// e asks once whether the object may be saved; that answer may come
	// after the draft.
	testwait.Eventually(t, screenWait, "e's access review", func() bool {
		return strings.Contains(strings.Join(debugRequests(t, log, 0), "\n"), "selfsubjectaccessreviews")
	})

	// Idle with the draft open: no request at all once the watch is
	// open, its request in the log, for the 5 s measured (the first
	// request sent ends the span).
	testwait.Eventually(t, screenWait, "the watch's request in the log", func() bool {
		return strings.Contains(strings.Join(debugRequests(t, log, 0), "\n"), "watch=true")
	})
	// The draft is checked against the server's schema of its kind, whose
	// document is read once, at the first draft (kedit's start does not
	// wait for it).
	testwait.Eventually(t, screenWait, "the schema's document read", func() bool {
		return strings.Contains(strings.Join(debugRequests(t, log, 0), "\n"), "/openapi/v3/api/v1?")
	})
	// The draft the schema passed is then the server's to check: one
	// dry run.
	testwait.Eventually(t, screenWait, "the draft's dry run", func() bool {
		return strings.Contains(strings.Join(debugRequests(t, log, 0), "\n"), "dryRun=All")
	})
	idleFrom := len(debugRequests(t, log, 0))
	if testwait.Until(5*time.Second, func() bool { return len(debugRequests(t, log, idleFrom)) > 0 }) {
		t.Errorf("idle with a draft, kedit sent:\n%s", strings.Join(debugRequests(t, log, idleFrom), "\n"))
	}

	kubetest.MustKubectl(t, "-n", ns, "patch", "configmap", "counted", "--type=merge", "-p", `{"data":{"bar":"theirs"}}`)
	term.waitFor(screenWait, "changed on server")
	from := len(debugRequests(t, log, 0))
	term.send("s")
	term.waitFor(screenWait, "clean rebase: ", ".data.bar")
	term.send("s")
	term.waitFor(screenWait, "saved rv")
	sent := debugRequests(t, log, from)
	// Both carry fieldValidation: the server refuses a field it does not
	// know rather than dropping it.
	object := "/api/v1/namespaces/" + ns + "/configmaps/counted?fieldManager=kedit&fieldValidation=Strict"
	if len(sent) != 2 || !strings.HasPrefix(sent[0], "request PUT "+object+" 409") || !strings.HasPrefix(sent[1], "request PUT "+object+" 200") {
		t.Errorf("the save and its clean rebase sent:\n%s\nwant the refused PUT and the resubmit", strings.Join(sent, "\n"))
	}
	if data, _ := configMapData(t, ns, "counted"); data["foo"] != "mine" || data["bar"] != "theirs" {
		t.Errorf("data = %v, want foo=mine and bar=theirs", data)
	}
}
