package demo

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/tools/clientcmd"
)

// canEdit reports what the server answers user's read and patch of the
// demo's testmap through the admin kubeconfig's impersonation: nil when
// both pass.
func canEdit(t *testing.T, kubeconfig, user string) error {
	t.Helper()
	cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Impersonate.UserName = user
	dc, err := dynamic.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	cms := dc.Resource(configMapsResource).Namespace(Namespace)
	if _, err := cms.List(ctx, metav1.ListOptions{}); err != nil {
		return err
	}
	obj, err := cms.Get(ctx, "testmap", metav1.GetOptions{})
	if err != nil {
		return err
	}
	if _, err := cms.Update(ctx, obj, metav1.UpdateOptions{}); err != nil {
		return err
	}
	_, err = cms.Patch(ctx, "testmap", types.MergePatchType, []byte(`{"data":{"by":"`+user+`"}}`), metav1.PatchOptions{})
	return err
}

// checkClass: alice and bob may read, update and patch the demo's
// objects as themselves, and a user not named is refused by RBAC.
func checkClass(t *testing.T, kubeconfig string) {
	t.Helper()
	for _, u := range Users {
		if err := canEdit(t, kubeconfig, u); err != nil {
			t.Errorf("%s cannot edit testmap: %v", u, err)
		}
	}
	if err := canEdit(t, kubeconfig, "carol"); !apierrors.IsForbidden(err) {
		t.Errorf("carol, not in the class, edits testmap: %v; want a 403", err)
	}
}

// TestJoinNamesTheClusterAndTheObject: the join lines name the demo's
// kubeconfig, this kedit as a shell finds it, bob and the object, and
// quote what a shell would split.
func TestJoinNamesTheClusterAndTheObject(t *testing.T) {
	lines := Join("/tmp/a b/cluster/kubeconfig", "configmap/testmap")
	text := strings.Join(lines, "\n")
	for _, want := range []string{"as bob (alice or bob may edit", "  export KUBECONFIG='/tmp/a b/cluster/kubeconfig'\n",
		" --as bob --field-manager kedit-bob configmap/testmap\n", "  kubectl --as alice edit configmap/testmap"} {
		if !strings.Contains(text, want) {
			t.Errorf("join lines lack %q:\n%s", want, text)
		}
	}
	self, _ := os.Executable()
	self, _ = filepath.EvalSymlinks(self)
	// The test binary is not on PATH: its absolute path is what runs it.
	if !strings.HasPrefix(lines[2], "  "+shellWord(self)+" --as") {
		t.Errorf("the kedit line %q does not run this binary (%s)", lines[2], self)
	}
	// A kedit on PATH that is this one: its name is enough.
	onPath := t.TempDir()
	if err := os.Symlink(self, filepath.Join(onPath, "kedit")); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", onPath)
	if got := Join("/k", "cm/x")[2]; got != "  kedit --as bob --field-manager kedit-bob cm/x" {
		t.Errorf("with this kedit on PATH the line is %q", got)
	}
}
