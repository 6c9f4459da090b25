package source

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kedit/kedit/internal/testgit"
)

// devEdit plans a change of dev's Deployment, which no patch of dev sets:
// a new patch in dev, and dev's kustomization naming it.
func devEdit(t *testing.T, dir string) (*Edit, Ref) {
	t.Helper()
	ref := Ref{Group: "apps", Kind: "Deployment", Namespace: "dev", Name: "web"}
	src, err := Find(dir, ref, Hints{})
	if err != nil {
		t.Fatal(err)
	}
	base := live(t, dir, "overlays/dev", ref)
	mine := base.DeepCopy()
	if err := unstructured.SetNestedField(mine.Object, int64(2), "spec", "replicas"); err != nil {
		t.Fatal(err)
	}
	e, err := Plan(src, base, mine)
	if err != nil {
		t.Fatal(err)
	}
	return e, ref
}

func TestPlanAddsAPatchToTheOverlayNotTheSharedBase(t *testing.T) {
	t.Parallel()
	dir := writeLayout(t, layout)
	e, _ := devEdit(t, dir)
	if got := strings.Join(paths(e), " "); got != "overlays/dev/deployment-web-patch.yaml overlays/dev/kustomization.yaml" {
		t.Fatalf("files: %s", got)
	}
	if !strings.Contains(string(e.Files[0].New), "spec:\n  replicas: 2\n") || e.Files[0].Old != nil {
		t.Errorf("the new patch:\n%s", e.Files[0].New)
	}
	if !strings.HasSuffix(string(e.Files[1].New), "patches:\n- path: deployment-web-patch.yaml\n") {
		t.Errorf("the kustomization:\n%s", e.Files[1].New)
	}
	assertCommentsKept(t, string(e.Files[1].Old), string(e.Files[1].New))
}

// Commit commits the edit on a new branch through an index of its own:
// the checkout stays on its branch, its files as they were; Write then
// writes them.
func TestWriteAndCommit(t *testing.T) {
	t.Parallel()
	dir := writeLayout(t, layout)
	e, ref := devEdit(t, dir)
	head, _, _ := testgit.Run(t, dir, "rev-parse", "HEAD")
	checkout, _, _ := testgit.Run(t, dir, "symbolic-ref", "HEAD")
	branch, err := e.Commit(ref)
	if err != nil {
		t.Fatal(err)
	}
	if branch != "kedit/deployment-dev-web" {
		t.Errorf("branch %s", branch)
	}
	out, _, _ := testgit.Run(t, dir, "log", "-1", "--format=%s%n%b", "--name-only", branch)
	if !strings.Contains(out, "Deployment.apps/web in namespace dev") || !strings.Contains(out, ".spec.replicas in overlays/dev/deployment-web-patch.yaml") {
		t.Errorf("the commit:\n%s", out)
	}
	for _, f := range e.Files {
		if got, _, _ := testgit.Run(t, dir, "show", branch+":"+f.Path); got != string(f.New) {
			t.Errorf("%s on %s:\n%s", f.Path, branch, got)
		}
	}
	if now, _, _ := testgit.Run(t, dir, "symbolic-ref", "HEAD"); now != checkout {
		t.Errorf("the checkout moved from %s to %s", checkout, now)
	}
	if now, _, _ := testgit.Run(t, dir, "rev-parse", "HEAD"); now != head {
		t.Errorf("HEAD moved")
	}
	if st, _, _ := testgit.Run(t, dir, "status", "--porcelain"); st != "" {
		t.Errorf("the work tree changed: %s", st)
	}
	if _, err := e.Commit(ref); err == nil || !strings.Contains(err.Error(), "the branch kedit/deployment-dev-web exists") {
		t.Errorf("a second commit: %v", err)
	}
	if err := e.Write(); err != nil {
		t.Fatal(err)
	}
	for _, f := range e.Files {
		b, _ := os.ReadFile(filepath.Join(dir, f.Path))
		if string(b) != string(f.New) {
			t.Errorf("%s not written", f.Path)
		}
	}
}

func TestWriteRefusesAFileChangedSinceAndUncommittedChanges(t *testing.T) {
	t.Parallel()
	dir := writeLayout(t, layout)
	e, _ := devEdit(t, dir)
	kf := filepath.Join(dir, "overlays/dev/kustomization.yaml")
	orig, _ := os.ReadFile(kf)
	if err := os.WriteFile(kf, append(orig, "# mine\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	var ce *ConflictError
	if err := e.Write(); !errors.As(err, &ce) || ce.Files[0] != "overlays/dev/kustomization.yaml" {
		t.Fatalf("a file changed since: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "overlays/dev/deployment-web-patch.yaml")); err == nil {
		t.Error("a file was written in spite of the conflict")
	}
	// The change is made after the plan read the file: planned again, it
	// is the work tree's uncommitted change that refuses.
	e, _ = devEdit(t, dir)
	var de *DirtyError
	if err := e.Write(); !errors.As(err, &de) || !strings.Contains(de.Error(), "overlays/dev/kustomization.yaml") {
		t.Fatalf("uncommitted changes: %v", err)
	}
}

// Removing a list item by key that a shared base sets deletes it in the
// overlay's patch with $patch: delete, and the build of that overlay no
// longer has it while the other overlay's still does; an item of a list
// of values stays refused, with the reason.
func TestPlanDeletesASharedBasesListItemWithPatchDelete(t *testing.T) {
	t.Parallel()
	dir := writeLayout(t, layout)
	ref := Ref{Group: "apps", Kind: "Deployment", Namespace: "dev", Name: "web"}
	src, err := Find(dir, ref, Hints{})
	if err != nil {
		t.Fatal(err)
	}
	base := live(t, dir, "overlays/dev", ref)
	mine := base.DeepCopy()
	containers, _, _ := unstructured.NestedSlice(mine.Object, "spec", "template", "spec", "containers")
	app := containers[0].(map[string]any)
	env := app["env"].([]any)
	var kept []any
	for _, e := range env {
		if e.(map[string]any)["name"] != "MODE" {
			kept = append(kept, e)
		}
	}
	app["env"] = kept
	if err := unstructured.SetNestedSlice(mine.Object, containers, "spec", "template", "spec", "containers"); err != nil {
		t.Fatal(err)
	}
	e, err := Plan(src, base, mine)
	if err != nil {
		t.Fatalf("Plan: %v", err)
	}
	var patch string
	for _, f := range e.Files {
		if strings.Contains(string(f.New), "$patch: delete") {
			patch = string(f.New)
		}
	}
	if patch == "" || !strings.Contains(patch, "name: MODE") || strings.HasPrefix(e.Files[0].Path, "base/") {
		t.Fatalf("the plan: %+v\n%s", e.Placed, patch)
	}
	if len(e.Placed) != 1 || !strings.Contains(e.Placed[0].How, "$patch: delete") {
		t.Errorf("placed: %+v", e.Placed)
	}
	if err := e.Write(); err != nil {
		t.Fatal(err)
	}
	after := live(t, dir, "overlays/dev", ref)
	if s := fmt.Sprint(after.Object["spec"]); strings.Contains(s, "MODE") {
		t.Errorf("dev's build still has MODE: %s", s)
	}
	if s := fmt.Sprint(live(t, dir, "overlays/prod", Ref{Group: "apps", Kind: "Deployment", Namespace: "prod", Name: "web"}).Object["spec"]); !strings.Contains(s, "MODE") {
		t.Errorf("prod's build lost MODE: %s", s)
	}
}
