package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/kedit/kedit/internal/testwait"
	"github.com/kedit/kedit/kube/kubetest"
)

// End to end, the server's schema for people: completion in the in-app
// editor and the field docs, from the schema of a built-in kind and of a
// custom resource.

// gizmoCRD is a custom resource whose fields the schema describes.
var gizmoCRD = kubetest.CRD("docs.kedit.example.com", "gizmos", "gizmo", "Gizmo", `description: What the gizmo should be.
properties:
  speed:
    type: integer
    description: How fast the gizmo spins, in turns a second.
  mode:
    type: string
    enum: [calm, wild]
`)

// TestE2EEditorCompletesFromTheSchema: in i on a Deployment, the
// container's imagePullPolicy line cut back to imagePullP; ctrl+space
// completes the key, and again lists its values, down and enter take
// IfNotPresent; tab completes workingD; the save stores both.
func TestE2EEditorCompletesFromTheSchema(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "deployment", "web", "--image=nginx")
	term := openKeditOn(t, ns, "deployment/web", "Deployment/web", editorScript(t, "exit 1"), 160, 50)
	term.send("i")
	term.waitFor(screenWait, "editing the draft")
	term.send("C-f")
	term.typeKeys("imagePullPolicy: Always")
	term.waitFor(screenWait, "imagePullPolicy: Always")
	term.send("End")
	for range len("olicy: Always") {
		term.send("BSpace")
	}
	term.waitFor(screenWait, "imagePullP\n")
	// The schema is read in the background as the editor opens: until it
	// is, ctrl+space says so and changes nothing; then, one field fitting,
	// it puts that field.
	if !testwait.Until(screenWait, func() bool {
		term.send("C-Space")
		return testwait.Until(2*time.Second, func() bool { return strings.Contains(term.screen(), "        imagePullPolicy:") })
	}) {
		t.Fatalf("ctrl+space never completed imagePullP:\n%s", term.screen())
	}
	term.send("C-Space")
	term.waitFor(screenWait, "> Always", "IfNotPresent", "Never")
	term.send("Down", "Enter")
	term.waitFor(screenWait, "imagePullPolicy: IfNotPresent")
	// tab after part of a key only one field fits completes it.
	term.send("Enter")
	term.typeKeys("workingD")
	term.send("Tab")
	term.waitFor(screenWait, "        workingDir:")
	term.typeKeys("/tmp")
	term.send("C-s")
	term.waitFor(screenWait, "saved rv ")
	if out := kubetest.MustKubectl(t, "-n", ns, "get", "deployment", "web", "-o", "jsonpath={.spec.template.spec.containers[0].imagePullPolicy} {.spec.template.spec.containers[0].workingDir}"); out != "IfNotPresent /tmp" {
		t.Fatalf("the server has imagePullPolicy and workingDir %q", out)
	}
}

// TestE2EDocsOfACustomResourcesField: K on blame's line of a custom
// resource's field shows its docs from the CRD's schema (the description,
// the type); esc goes back to blame. alt+k in the in-app editor shows an
// enum's values.
func TestE2EDocsOfACustomResourcesField(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.CreateCustom(t, ns, gizmoCRD, "apiVersion: docs.kedit.example.com/v1\nkind: Gizmo\nmetadata:\n  name: g\nspec:\n  speed: 3\n  mode: calm\n")
	term := openKeditOn(t, ns, "gizmo/g", "Gizmo/g", editorScript(t, "exit 1"), 120, 40)
	term.send("b")
	term.waitFor(screenWait, "blame of live rv")
	// The last line, spec's fields sorted: speed.
	term.send("End")
	term.waitFor(screenWait, ">   speed: 3")
	term.send("K")
	term.waitFor(screenWait, "FIELD:    .spec.speed <integer>", "How fast the gizmo spins, in turns a second.", "KIND:     Gizmo")
	term.send("Escape")
	term.waitFor(screenWait, ">   speed: 3", "blame of live rv")

	term.send("i")
	term.waitFor(screenWait, "editing the draft")
	term.send("C-f")
	term.typeKeys("mode: calm")
	term.send("End", "M-k")
	term.waitFor(screenWait, "FIELD:    .spec.mode <string>", "VALUES:", "calm, wild")
	term.send("Escape")
	term.waitFor(screenWait, "editing the draft")
}
