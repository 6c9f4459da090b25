package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kedit/kedit/internal/testwait"
	"github.com/kedit/kedit/kube/kubetest"
)

// End to end, issue 8: no resolution drops a change that did not collide,
// with the real binary in tmux against localcluster.

// confLines is a 40-line config file with the given lines (1-based)
// replaced.
func confLines(set map[int]string) string {
	var b strings.Builder
	for i := 1; i <= 40; i++ {
		if v, ok := set[i]; ok {
			b.WriteString(v + "\n")
		} else {
			fmt.Fprintf(&b, "option%d = %d\n", i, i)
		}
	}
	return b.String()
}

func writeFile(t *testing.T, name, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestE2ETakeMineKeepsTheirsCleanLine: the draft changes lines 5 and 10 of
// a config file, theirs lines 10 and 30. m on the colliding line 10, then
// s: theirs' line 30 is on the server with mine's 5 and 10.
func TestE2ETakeMineKeepsTheirsCleanLine(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "app", "--from-file=app.conf="+writeFile(t, "app.conf", confLines(nil)))
	term := openKedit(t, ns, "app", editorScript(t, `sed -i 's/option5 = 5$/option5 = mine/; s/option10 = 10$/option10 = mine/' "$1"`), 120, 40)

	term.send("e")
	term.waitFor(screenWait, "unsaved draft", "option5 = mine")
	theirs, _ := json.Marshal(map[string]any{"data": map[string]any{"app.conf": confLines(map[int]string{10: "option10 = theirs", 30: "option30 = theirs"})}})
	kubetest.MustKubectl(t, "-n", ns, "patch", "configmap", "app", "--type=merge", "-p", string(theirs))
	term.waitFor(screenWait, "changed on server", ".data.app.conf")

	term.send("s")
	term.waitFor(screenWait, "1 conflict, 2 changes merged", "open    .data.app.conf line 10", "mine    .data.app.conf line 5", "theirs  .data.app.conf line 30")
	term.send("m")
	term.waitFor(screenWait, "(0 open)")
	term.send("s")
	term.waitFor(screenWait, "saved rv")
	data, _ := configMapData(t, ns, "app")
	if want := confLines(map[int]string{5: "option5 = mine", 10: "option10 = mine", 30: "option30 = theirs"}); data["app.conf"] != want {
		t.Errorf("app.conf on the server:\n%s\nwant\n%s", data["app.conf"], want)
	}
}

const e2eCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: ports.e2e.kedit.example.com
spec:
  group: e2e.kedit.example.com
  scope: Namespaced
  names: {plural: ports, singular: port, kind: Port}
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
              ports:
                type: array
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [name]
                items:
                  type: object
                  required: [name]
                  properties:
                    name: {type: string}
                    port: {type: integer}
`

// TestE2ECustomResourceListMergesByItem: a custom resource's list of type
// map, mine changes item http, theirs item https. The shipped binary reads
// the server's schema, so the rebase is clean and both changes land.
func TestE2ECustomResourceListMergesByItem(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "apply", "-f", writeFile(t, "crd.yaml", e2eCRD))
	kubetest.MustKubectl(t, "wait", "--for=condition=Established", "crd/ports.e2e.kedit.example.com", "--timeout=60s")
	obj := writeFile(t, "p.yaml", "apiVersion: e2e.kedit.example.com/v1\nkind: Port\nmetadata:\n  name: web\nspec:\n  ports:\n  - {name: http, port: 80}\n  - {name: https, port: 443}\n")
	// Discovery of a brand-new type can lag a moment behind Established.
	testwait.Eventually(t, 30*time.Second, "the Port created", func() bool {
		_, err := kubetest.Kubectl(t, "-n", ns, "create", "-f", obj)
		return err == nil
	})
	term := openKeditOn(t, ns, "ports.e2e.kedit.example.com/web", "Port/web", editorScript(t, `sed -i 's/port: 80$/port: 8080/' "$1"`), 120, 40)

	term.send("e")
	term.waitFor(screenWait, "unsaved draft", "port: 8080")
	kubetest.MustKubectl(t, "-n", ns, "patch", "ports.e2e.kedit.example.com", "web", "--type=json", "-p", `[{"op":"replace","path":"/spec/ports/1/port","value":8443}]`)
	term.waitFor(screenWait, "changed on server")

	term.send("s")
	term.waitFor(screenWait, "0 conflicts", `.spec.ports[name="https"].port`, `.spec.ports[name="http"].port`)
	term.send("s")
	term.waitFor(screenWait, "saved rv")

	gvr := schema.GroupVersionResource{Group: "e2e.kedit.example.com", Version: "v1", Resource: "ports"}
	got, err := kubetest.Dynamic(t).Resource(gvr).Namespace(ns).Get(context.Background(), "web", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ports, _, _ := unstructured.NestedSlice(got.Object, "spec", "ports")
	if len(ports) != 2 || ports[0].(map[string]any)["port"] != int64(8080) || ports[1].(map[string]any)["port"] != int64(8443) {
		t.Errorf("ports = %v, want http 8080 (mine) and https 8443 (theirs)", ports)
	}
}
