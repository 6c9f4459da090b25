package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/kedit/kedit/internal/testwait"
	"github.com/kedit/kedit/kube/kubetest"
)

// ratchetedKind is a custom kind whose size has a bound, MAX.
var ratchetedKind = kubetest.CRD("e2eratchet.kedit.test", "dials", "dial", "Dial", `properties:
  size: {type: integer, maximum: MAX}
  note: {type: string}
`)

// TestE2ETightenedSchemaIsRatcheted: an object written before its
// kind's schema was tightened holds a value the schema now refuses. A
// draft that changes that value is flagged; one that leaves it as it is
// and edits another field is not, and is saved at the first s, as the
// server takes it (it ratchets an update against the object it holds).
func TestE2ETightenedSchemaIsRatcheted(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.CreateCustom(t, ns, strings.Replace(ratchetedKind, "MAX", "10", 1), "apiVersion: e2eratchet.kedit.test/v1\nkind: Dial\nmetadata: {name: d}\nspec: {size: 8}\n")
	kubetest.MustKubectlStdin(t, strings.Replace(ratchetedKind, "MAX", "5", 1), "apply", "-f", "-")
	if !testwait.Until(30*time.Second, func() bool {
		doc, _ := kubetest.Kubectl(t, "get", "--raw", "/openapi/v3/apis/e2eratchet.kedit.test/v1")
		return strings.Contains(doc, `"maximum":5`)
	}) {
		t.Fatal("the server does not publish the tightened schema")
	}
	// The first $EDITOR makes the size 9; the second sets it back to 8
	// and adds a note.
	script := `if [ -f "$0.ran" ]; then sed -i -e 's/^  size: 9$/  note: hi\n  size: 8/' "$1"; else touch "$0.ran"; sed -i 's/^  size: 8$/  size: 9/' "$1"; fi`
	term := openKeditOn(t, ns, "dial/d", "Dial/d", editorScript(t, script), 160, 40)
	term.send("e")
	term.waitFor(screenWait, "size: 9", "the schema refuses 1 field", "should be less than or equal to 5")
	term.send("e")
	screen := term.waitFor(screenWait, "note: hi", "unsaved draft")
	if strings.Contains(screen, "the schema refuses") {
		t.Fatalf("a draft that keeps the value the server holds is flagged:\n%s", screen)
	}
	term.send("s")
	term.waitFor(screenWait, "saved rv")
	if got := kubetest.MustKubectl(t, "-n", ns, "get", "dial", "d", "-o", "jsonpath={.spec.note} {.spec.size}"); got != "hi 8" {
		t.Fatalf("the server holds %q, want the note and the size kept", got)
	}
}
