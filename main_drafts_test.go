package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kedit/kedit/internal/drafts"
	"github.com/kedit/kedit/kube"
	"github.com/kedit/kedit/kube/kubetest"
)

// runKeditIn is runKedit with stdin, for the commands that ask.
func runKeditIn(t *testing.T, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errOut bytes.Buffer
	root := newRootCmd()
	root.SetOut(&out)
	root.SetErr(&errOut)
	root.SetIn(strings.NewReader(stdin))
	root.SetArgs(args)
	err := root.Execute()
	var ee *exitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		code = ee.code
	default:
		errOut.WriteString("kedit: " + err.Error() + "\n")
		code = 2
	}
	return out.String(), errOut.String(), code
}

func cmTarget(ctx, ns, name string) *kube.Target {
	return &kube.Target{Context: ctx, Namespace: ns, Name: name, Server: "https://a.example",
		Mapping: &meta.RESTMapping{Resource: schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}, Scope: meta.RESTScopeNamespace}}
}

// storeDraft leaves a draft of t in the store, as a kedit that quit would.
func storeDraft(t *testing.T, store *drafts.Store, tgt *kube.Target, rv, text string) string {
	t.Helper()
	o := store.Open(kube.DraftKey(tgt), "uid")
	defer o.Close()
	path, err := o.Write(1, rv, []byte(text), nil)
	if err != nil {
		t.Fatal(err)
	}
	return path
}

func TestDraftsCommand(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	store, err := drafts.NewStore(false)
	if err != nil {
		t.Fatal(err)
	}
	if out, errOut, code := runKedit(t, "drafts"); code != 0 || out != "" || !strings.Contains(errOut, "no drafts stored in "+store.Dir) {
		t.Fatalf("an empty store: exit %d, %q, %q", code, out, errOut)
	}
	older := storeDraft(t, store, cmTarget("prod", "team-a", "settings"), "812", "data: {}\n")
	// A draft that could not be recovered, set aside.
	storeDraft(t, store, cmTarget("dev", "", "x"), "5", "stale\n")
	o := store.Open(kube.DraftKey(cmTarget("dev", "", "x")), "uid")
	kept, err := o.KeepAside(o.Stored()[0].Path)
	o.Close()
	if err != nil {
		t.Fatal(err)
	}
	newest := storeDraft(t, store, cmTarget("prod", "team-b", "web"), "900", "data:\n  a: b\n")

	out, errOut, code := runKedit(t, "drafts")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 4 || !strings.HasPrefix(lines[0], "CONTEXT") {
		t.Fatalf("drafts printed:\n%s", out)
	}
	for i, want := range [][]string{
		{"prod", "team-b", "configmaps/web", "900", "13", "stored", newest},
		{"dev", "-", "configmaps/x", "5", "6", "kept", kept},
		{"prod", "team-a", "configmaps/settings", "812", "9", "stored", older},
	} {
		if got := strings.Fields(lines[i+1]); len(got) != 8 || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] ||
			got[3] != want[3] || got[5] != want[4] || got[6] != want[5] || got[7] != want[6] {
			t.Errorf("line %d = %q, want %v (newest first)", i+1, lines[i+1], want)
		}
	}

	out, _, code = runKedit(t, "drafts", "--json")
	var list []map[string]any
	if err := json.Unmarshal([]byte(out), &list); code != 0 || err != nil || len(list) != 3 {
		t.Fatalf("--json: exit %d, %v:\n%s", code, err, out)
	}
	if list[1]["kept"] != true || list[1]["path"] != kept || list[0]["resource"] != "configmaps" || list[0]["name"] != "web" || list[0]["baseResourceVersion"] != "900" {
		t.Errorf("--json printed %v", list)
	}

	// rm PATH asks; n keeps it, y removes it; --yes does not ask.
	if _, errOut, code := runKeditIn(t, "n\n", "drafts", "rm", older); code != 0 || !strings.Contains(errOut, "nothing removed") {
		t.Errorf("rm answered n: exit %d, %q", code, errOut)
	}
	if _, err := os.Stat(older); err != nil {
		t.Fatal("n removed the draft")
	}
	if out, errOut, code := runKeditIn(t, "y\n", "drafts", "rm", older); code != 0 || !strings.Contains(errOut, "remove "+older+"?") || !strings.Contains(out, "removed "+older) {
		t.Errorf("rm answered y: exit %d, %q, %q", code, out, errOut)
	}
	if _, err := os.Stat(older); !errors.Is(err, os.ErrNotExist) {
		t.Error("y did not remove the draft")
	}
	if _, _, code := runKedit(t, "drafts", "rm", "--yes", kept); code != 0 {
		t.Errorf("rm --yes of a kept draft: exit %d", code)
	}
	outside := filepath.Join(t.TempDir(), "x.yaml")
	if err := os.WriteFile(outside, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, errOut, code := runKedit(t, "drafts", "rm", "--yes", outside); code != 1 || !strings.Contains(errOut, "not in the draft directory") {
		t.Errorf("rm of a file outside the store: exit %d, %q", code, errOut)
	}

	// Something kedit did not write there is named, not a crash.
	stray := filepath.Join(filepath.Dir(newest), "notes.txt")
	if err := os.WriteFile(stray, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, errOut, code := runKedit(t, "drafts"); code != 1 || !strings.Contains(errOut, stray) {
		t.Errorf("a stray file: exit %d, %q", code, errOut)
	}
	if err := os.Remove(stray); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(t.TempDir(), filepath.Join(store.Dir, "prod", "link")); err != nil {
		t.Fatal(err)
	}
	if _, errOut, code := runKedit(t, "drafts", "--json"); code != 1 || !strings.Contains(errOut, "link: a symlink") {
		t.Errorf("a symlink: exit %d, %q", code, errOut)
	}
}

// TestDraftsRmObject removes the drafts of an object named as kedit names
// it, with the connection flags, on that cluster only.
func TestDraftsRmObject(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	ns, flags := setEnv(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=1")
	kubeconfig := kubetest.Kubeconfig(t)
	cf := &kube.ConnFlags{KubeConfig: kubeconfig, Namespace: ns}
	target, err := kube.Resolve(cf, "configmap", "testmap")
	if err != nil {
		t.Fatal(err)
	}
	store, err := drafts.NewStore(false)
	if err != nil {
		t.Fatal(err)
	}
	mine := storeDraft(t, store, target, "1", "mine\n")
	other := *target
	other.Server = "https://another-cluster.example"
	otherPath := storeDraft(t, store, &other, "1", "another cluster's\n")

	if _, errOut, code := runKedit(t, append([]string{"drafts", "rm", "--yes", "configmap/nope"}, flags...)...); code != 1 || !strings.Contains(errOut, "no stored draft of configmaps/nope") {
		t.Errorf("rm of an object without drafts: exit %d, %q", code, errOut)
	}
	out, errOut, code := runKeditIn(t, "yes\n", append([]string{"drafts", "rm", "cm", "testmap"}, flags...)...)
	if code != 0 || !strings.Contains(errOut, "remove 1 draft of configmaps/testmap") || !strings.Contains(out, "removed "+mine) {
		t.Fatalf("rm cm testmap: exit %d, %q, %q", code, out, errOut)
	}
	if _, err := os.Stat(otherPath); err != nil {
		t.Error("the draft of another cluster's object was removed")
	}
}

// TestDraftsSubresource: kedit drafts names a subresource's draft
// (deployments.apps/web --subresource scale), and drafts rm takes it by
// name with --subresource, leaving the object's own drafts; rm of one
// part that has none names the parts that have, and how to remove them.
func TestDraftsSubresource(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	ns, flags := setEnv(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "deployment", "web", "--image=nginx:1.27")
	target, err := kube.Resolve(&kube.ConnFlags{KubeConfig: kubetest.Kubeconfig(t), Namespace: ns}, "deployment", "web")
	if err != nil {
		t.Fatal(err)
	}
	store, err := drafts.NewStore(false)
	if err != nil {
		t.Fatal(err)
	}
	own := storeDraft(t, store, target, "1", "spec: {}\n")
	scale := *target
	scale.Subresource = kube.SubresourceScale
	scalePath := storeDraft(t, store, &scale, "1", "spec:\n  replicas: 5\n")

	out, _, code := runKedit(t, "drafts")
	if code != 0 || !strings.Contains(out, "deployments.apps/web --subresource scale  1 ") || strings.Count(strings.TrimSpace(out), "\n") != 2 {
		t.Fatalf("kedit drafts:\n%s", out)
	}
	out, _, _ = runKedit(t, "drafts", "--json")
	if !strings.Contains(out, `"subresource": "scale"`) {
		t.Errorf("--json does not name the subresource:\n%s", out)
	}

	out, errOut, code := runKeditIn(t, "y\n", append([]string{"drafts", "rm", "deployment/web", "--subresource", "scale"}, flags...)...)
	if code != 0 || !strings.Contains(errOut, "remove 1 draft of deployments.apps/web --subresource scale in namespace") || !strings.Contains(out, "removed "+scalePath) {
		t.Fatalf("rm --subresource scale: exit %d, %q, %q", code, out, errOut)
	}
	if _, err := os.Stat(own); err != nil {
		t.Fatal("rm --subresource scale removed the object's own draft")
	}
	_, errOut, code = runKedit(t, append([]string{"drafts", "rm", "--yes", "deployment/web", "--subresource", "scale"}, flags...)...)
	if code != 1 || !strings.Contains(errOut, "no stored draft of deployments.apps/web --subresource scale in namespace") ||
		!strings.Contains(errOut, "stored: 1 draft of the object itself (kedit drafts rm deployment/web)") {
		t.Errorf("rm of a part without drafts: exit %d, %q", code, errOut)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"drafts", "rm", "deployment/web", "--subresource", "spec"}, `--subresource: unknown subresource "spec"`},
		{[]string{"drafts", "rm", own, "--subresource", "scale"}, "--subresource names the drafts of an object (TYPE/NAME)"},
	} {
		if _, errOut, code := runKedit(t, append(tc.args, flags...)...); code != 1 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, %q", tc.args, code, errOut)
		}
	}
	if _, err := os.Stat(own); err != nil {
		t.Fatal("a refused rm removed a draft")
	}
}
