package e2e

import (
	"testing"

	"github.com/kedit/kedit/kube/kubetest"
)

// End to end, the server's schema for people: completion in the in-app
// editor and the field docs, from the schema of a built-in kind and of a
// custom resource.

// gizmoCRD is a custom resource whose fields the schema describes.
const gizmoCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: gizmos.docs.kedit.example.com
spec:
  group: docs.kedit.example.com
  scope: Namespaced
  names: {plural: gizmos, singular: gizmo, kind: Gizmo}
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
            description: What the gizmo should be.
            properties:
              speed:
                type: integer
                description: How fast the gizmo spins, in turns a second.
              mode:
                type: string
                enum: [calm, wild]
`

// TestE2EEditorCompletesFromTheSchema: in i on a Deployment, the
// container's imagePullPolicy line cut back to imagePullP; tab completes
// the key, ctrl+space lists its values, down and enter take IfNotPresent,
// and the save stores it.
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
	term.send("Tab")
	term.waitFor(screenWait, "        imagePullPolicy:")
	term.send("C-Space")
	term.waitFor(screenWait, "> Always", "IfNotPresent", "Never")
	term.send("Down", "Enter")
	term.waitFor(screenWait, "imagePullPolicy: IfNotPresent")
	term.send("C-s")
	term.waitFor(screenWait, "saved rv ")
	if out := kubetest.MustKubectl(t, "-n", ns, "get", "deployment", "web", "-o", "jsonpath={.spec.template.spec.containers[0].imagePullPolicy}"); out != "IfNotPresent" {
		t.Fatalf("the server has imagePullPolicy %q", out)
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
