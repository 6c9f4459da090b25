package e2e

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kedit/kedit/internal/testgit"
	"github.com/kedit/kedit/kube/kubetest"
)

// boutiqueRepo writes a repository laid out as microservices-demo's
// kustomize/: a base whose Deployment has a blank first line, a
// license comment and a flow list over several lines; a component whose
// inline patch sets an env value; a component whose images: sets the
// image's tag; a root kustomization that uses both, with Flux's labels
// and the deprecated commonLabels, which the kustomize API warns of on
// stderr.
// It applies the build in ns and returns the repository.
func boutiqueRepo(t *testing.T, ns string) string {
	t.Helper()
	files := map[string]string{
		"base/kustomization.yaml": "resources:\n- frontend.yaml\n",
		"base/frontend.yaml": `
# Copyright 2018 Google LLC
apiVersion: apps/v1
kind: Deployment
metadata:
  name: frontend
spec:
  selector:
    matchLabels:
      app: frontend
  template:
    metadata:
      labels:
        app: frontend
    spec:
      containers:
        - name: server
          image: registry.example/boutique/frontend:v0.10.0
          args: ["--listen",
                  "--port=8080",
                  "--verbose"] # the flags
          env:
          - name: PORT
            value: "8080"
`,
		"components/cymbal-branding/kustomization.yaml": `# Copyright 2022 Google LLC

apiVersion: kustomize.config.k8s.io/v1alpha1
kind: Component
patches:
- patch: |-
    apiVersion: apps/v1
    kind: Deployment
    metadata:
      name: frontend
    spec:
      template:
        spec:
          containers:
          - name: server
            env:
            - name: CYMBAL_BRANDING
              value: "true"
`,
		"components/images-tag/kustomization.yaml": `apiVersion: kustomize.config.k8s.io/v1alpha1
kind: Component
images:
- name: registry.example/boutique/frontend
  newTag: v0.10.1 # the release
`,
		"kustomization.yaml": `# Copyright 2022 Google LLC

apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
namespace: ` + ns + `
resources:
- base
components:
- components/cymbal-branding
- components/images-tag
# - components/network-policies
commonLabels:
  tier: web
labels:
- pairs:
    kustomize.toolkit.fluxcd.io/name: apps
    kustomize.toolkit.fluxcd.io/namespace: flux-system
`,
	}
	dir := testgit.Commit(t, files)
	out, err := exec.Command("kubectl", "kustomize", dir).Output()
	if err != nil {
		t.Fatalf("kubectl kustomize: %v", err)
	}
	kubetest.MustKubectlStdin(t, string(out), "apply", "-f", "-")
	return dir
}

// TestE2ESourceOfRealLayouts: through the binary, a live edit of an
// object of a microservices-demo-like repository, written back with g
// and y: an env value a component's inline patch sets goes into that
// patch; an image tag a component's images: sets goes into its newTag;
// an item of a flow list over several lines is changed in place. Each
// time the diff is the one line, kubectl kustomize builds the edit, and
// the live object is not saved; the build's warning is in the source
// diff.
func TestE2ESourceOfRealLayouts(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, sed, placed, line, built string
	}{
		{"a component's inline patch", `s/value: "true"/value: "false"/`,
			"-> components/cymbal-branding/kustomization.yaml (inline patch)", `+              value: "false"`, `value: "false"`},
		{"an images: transformer", `s/frontend:v0.10.1/frontend:v0.10.2/`,
			"-> components/images-tag/kustomization.yaml (images transformer)", "+  newTag: v0.10.2 # the release", "frontend:v0.10.2"},
		{"a flow list over several lines", `s/--port=8080/--port=9090/`,
			"-> base/frontend.yaml (resource)", `+                  "--port=9090",`, "--port=9090"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			ns := kubetest.Namespace(t)
			dir := boutiqueRepo(t, ns)
			term := newKeditEnv(t, editorScript(t, `sed -i '`+c.sed+`' "$1"`)).run(t, 200, 50, "-n", ns, "--source", dir, "deployment/frontend")
			term.waitFor(screenWait, "managed by Flux (kustomization flux-system/apps)")
			term.editAndWait()
			term.send("s")
			term.waitFor(screenWait, "b does both)")
			term.send("g")
			// kustomize's warning is shown in the source diff, never
			// printed over the screen.
			term.waitFor(screenWait, "to its source (nothing written yet)", c.placed, c.line, "warning: # Warning: 'commonLabels' is deprecated")
			term.send("y")
			term.waitFor(screenWait, "wrote 1 file of the source")
			diffOut, _, _ := testgit.Run(t, dir, "diff", "--numstat")
			if f := strings.Fields(diffOut); len(f) != 3 || f[0] != "1" || f[1] != "1" {
				t.Errorf("git diff --numstat: %s", diffOut)
			}
			built, err := exec.Command("kubectl", "kustomize", filepath.Join(dir)).Output()
			if err != nil || !strings.Contains(string(built), c.built) {
				t.Errorf("kubectl kustomize (%v):\n%s", err, built)
			}
			if live := kubetest.MustKubectl(t, "-n", ns, "get", "deployment/frontend", "-o", "yaml"); strings.Contains(live, c.built) {
				t.Errorf("the live Deployment was saved:\n%s", live)
			}
		})
	}
}
