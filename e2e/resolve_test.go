package e2e

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kedit/kedit/internal/fixture"
	"github.com/kedit/kedit/kube/kubetest"
)

// End to end: no resolution drops a change that did not collide,
// with the real binary in tmux against localcluster.

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
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "app", "--from-file=app.conf="+writeFile(t, "app.conf", fixture.AppConfBase))
	term := openKedit(t, ns, "app", editorScript(t, `sed -i 's/option5 = 5$/option5 = mine/; s/option10 = 10$/option10 = mine/' "$1"`), 120, 40)

	term.editAndWait("option5 = mine")
	theirs, _ := json.Marshal(map[string]any{"data": map[string]any{"app.conf": fixture.AppConfTheirs}})
	kubetest.MustKubectl(t, "-n", ns, "patch", "configmap", "app", "--type=merge", "-p", string(theirs))
	term.waitFor(screenWait, "changed on server", ".data.app.conf")

	term.send("s")
	term.waitFor(screenWait, "1 conflict, 2 changes merged", "open    .data.app.conf line 10", "mine    .data.app.conf line 5", "theirs  .data.app.conf line 30")
	term.send("m")
	term.waitFor(screenWait, "(0 open)")
	term.send("s")
	term.waitFor(screenWait, "saved rv")
	data, _ := configMapData(t, ns, "app")
	if want := fixture.AppConfMineAt10; data["app.conf"] != want {
		t.Errorf("app.conf on the server:\n%s\nwant\n%s", data["app.conf"], want)
	}
}

// TestE2ECustomResourceListMergesByItem: a custom resource's list of type
// map (kubetest's Widget), mine changes part a, theirs part b. The shipped
// binary reads the server's schema, so the rebase is clean and both
// changes land.
func TestE2ECustomResourceListMergesByItem(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.CreateCustom(t, ns, kubetest.WidgetCRDs, kubetest.Widget("w", "a=1", "b=1"))
	term := openKeditOn(t, ns, "widgets.kedit.example.com/w", "Widget/w", editorScript(t, `sed -i '/- name: a$/{n;s/size: 1$/size: 2/}' "$1"`), 120, 40)

	term.editAndWait("size: 2")
	kubetest.MustKubectl(t, "-n", ns, "patch", "widgets.kedit.example.com", "w", "--type=json", "-p", `[{"op":"replace","path":"/spec/parts/1/size","value":5}]`)
	term.waitFor(screenWait, "changed on server")

	term.send("s")
	term.waitFor(screenWait, "clean rebase: ", `.spec.parts[name="b"].size`, `.spec.parts[name="a"].size`)
	term.send("s")
	term.waitFor(screenWait, "saved rv")

	gvr := schema.GroupVersionResource{Group: "kedit.example.com", Version: "v1", Resource: "widgets"}
	got, err := kubetest.Dynamic(t).Resource(gvr).Namespace(ns).Get(context.Background(), "w", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	parts, _, _ := unstructured.NestedSlice(got.Object, "spec", "parts")
	if len(parts) != 2 || parts[0].(map[string]any)["size"] != int64(2) || parts[1].(map[string]any)["size"] != int64(5) {
		t.Errorf("parts = %v, want a 2 (mine) and b 5 (theirs)", parts)
	}
}
