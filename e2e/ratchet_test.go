package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/kedit/kedit/internal/testwait"
	"github.com/kedit/kedit/kube/kubetest"
)

// ratchetedKind is a custom kind whose size has a bound, MAX.
const ratchetedKind = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: dials.e2eratchet.kedit.test}
spec:
  group: e2eratchet.kedit.test
  scope: Namespaced
  names: {plural: dials, singular: dial, kind: Dial}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              size: {type: integer, maximum: MAX}
              note: {type: string}
`

// TestE2ETightenedSchemaIsRatcheted: an object written before its
// kind's schema was tightened holds a value the schema now refuses. A
// draft that changes that value is flagged; one that leaves it as it is
// and edits another field is not, and is saved at the first s, as the
// server takes it (it ratchets an update against the object it holds).
func TestE2ETightenedSchemaIsRatcheted(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.MustKubectlStdin(t, strings.Replace(ratchetedKind, "MAX", "10", 1), "apply", "-f", "-")
	kubetest.MustKubectl(t, "wait", "--for=condition=Established", "--timeout=60s", "crd/dials.e2eratchet.kedit.test")
	dial := "apiVersion: e2eratchet.kedit.test/v1\nkind: Dial\nmetadata: {name: d, namespace: " + ns + "}\nspec: {size: 8}\n"
	var out string
	var err error
	if !testwait.Until(30*time.Second, func() bool {
		out, err = kubetest.KubectlStdin(t, dial, "create", "-f", "-")
		return err == nil
	}) {
		t.Fatalf("creating the dial: %v\n%s", err, out)
	}
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
