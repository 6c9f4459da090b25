package kube

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

func draftTarget(ctx, ns, group, version, resource, kind, name string) *Target {
	scope := meta.RESTScopeNamespace
	if ns == "" {
		scope = meta.RESTScopeRoot
	}
	return &Target{
		Context:   ctx,
		Namespace: ns,
		Name:      name,
		Mapping: &meta.RESTMapping{
			Resource:         schema.GroupVersionResource{Group: group, Version: version, Resource: resource},
			GroupVersionKind: schema.GroupVersionKind{Group: group, Version: version, Kind: kind},
			Scope:            scope,
		},
	}
}

func configMapTarget(ctx, ns, name string) *Target {
	return draftTarget(ctx, ns, "", "v1", "configmaps", "ConfigMap", name)
}

// newTestDraftStore points XDG_STATE_HOME at a temporary directory, as a
// user's environment would, and returns the default store there.
func newTestDraftStore(t *testing.T, allowSecrets bool) (*DraftStore, string) {
	t.Helper()
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	s, err := NewDraftStore(allowSecrets)
	if err != nil {
		t.Fatal(err)
	}
	return s, state
}

func TestDraftRoundTripByteForByte(t *testing.T) {
	s, state := newTestDraftStore(t, false)
	fixed := time.Date(2026, 11, 22, 4, 1, 3, 5, time.UTC)
	s.now = func() time.Time { return fixed }
	tgt := configMapTarget("kind-dev", "team-a", "settings")

	texts := map[string][]byte{
		"yaml":                []byte("apiVersion: v1\nkind: ConfigMap\ndata:\n  foo: \"1\"\n"),
		"invalid yaml":        []byte("data:\n  foo: [unclosed\n\t- tab\n: :\n"),
		"no trailing newline": []byte("data:\n  foo: 1"),
		"leading comments":    []byte("# kedit draft: pretend header\n# base resourceVersion: 1\n\n---\nx: y\n"),
		"crlf and nul":        []byte("a: b\r\nc: \x00\xff\xfe\r\n"),
		"empty":               {},
	}
	for name, text := range texts {
		t.Run(name, func(t *testing.T) {
			path, err := s.Save(tgt, "812", text)
			if err != nil {
				t.Fatal(err)
			}
			want := filepath.Join(state, "kedit", "drafts", "kind-dev", "team-a", "configmaps", "settings.yaml")
			if path != want {
				t.Fatalf("path = %s, want %s", path, want)
			}
			d, ok, err := s.Load(tgt)
			if err != nil || !ok {
				t.Fatalf("Load = %v, %v", ok, err)
			}
			if !bytes.Equal(d.Text, text) {
				t.Errorf("text = %q, want %q", d.Text, text)
			}
			if d.BaseResourceVersion != "812" || !d.SavedAt.Equal(fixed) || d.Path != want {
				t.Errorf("draft = rv %q saved %v path %s", d.BaseResourceVersion, d.SavedAt, d.Path)
			}
			// The file stays a readable YAML file: a comment header, then the text.
			raw, _ := os.ReadFile(path)
			if !strings.HasPrefix(string(raw), "# kedit draft: configmaps/settings, namespace \"team-a\", context \"kind-dev\"\n# base resourceVersion: 812\n") {
				t.Errorf("file starts:\n%s", raw)
			}
			if !bytes.HasSuffix(raw, text) {
				t.Errorf("file does not end with the draft text verbatim")
			}
		})
	}
}

func TestDraftHeaderSurvivesOddNames(t *testing.T) {
	s, _ := newTestDraftStore(t, false)
	tgt := configMapTarget("ctx\n# base resourceVersion: 1", "ns\r\n", "two\nlines\x1b[2J")
	text := []byte("data: {}\n")
	if _, err := s.Save(tgt, "42", text); err != nil {
		t.Fatal(err)
	}
	d, ok, err := s.Load(tgt)
	if err != nil || !ok || d.BaseResourceVersion != "42" || !bytes.Equal(d.Text, text) {
		t.Fatalf("Load = %+v, %v, %v", d, ok, err)
	}
	raw, _ := os.ReadFile(d.Path)
	if bytes.Contains(raw, []byte("\x1b")) {
		t.Error("a terminal escape reached the draft file's header")
	}
	if _, err := s.Save(tgt, "4\n2", text); err == nil {
		t.Error("a resourceVersion with a line break was written into the header")
	}
}

func TestDraftLoadMissingAndDelete(t *testing.T) {
	s, _ := newTestDraftStore(t, false)
	tgt := configMapTarget("c", "ns", "gone")
	if d, ok, err := s.Load(tgt); d != nil || ok || err != nil {
		t.Fatalf("Load of no draft = %v, %v, %v", d, ok, err)
	}
	if err := s.Delete(tgt); err != nil {
		t.Fatalf("Delete of no draft: %v", err)
	}
	if _, err := s.Save(tgt, "1", []byte("x: 1\n")); err != nil {
		t.Fatal(err)
	}
	if err := s.Delete(tgt); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := s.Load(tgt); ok {
		t.Fatal("draft still there after Delete")
	}
}

func TestDraftLoadRejectsForeignFile(t *testing.T) {
	s, _ := newTestDraftStore(t, false)
	tgt := configMapTarget("c", "ns", "foreign")
	path := s.Path(tgt)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("apiVersion: v1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Load(tgt); err == nil || !strings.Contains(err.Error(), "not a kedit draft") {
		t.Fatalf("Load of a foreign file: %v", err)
	}
}

func TestDraftModes(t *testing.T) {
	s, state := newTestDraftStore(t, false)
	// An existing, too open kedit directory (an older version, a loose
	// umask) is tightened; the user's own XDG_STATE_HOME is left alone.
	if err := os.Chmod(state, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(state, "kedit", "drafts"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(state, "kedit"), 0o755); err != nil {
		t.Fatal(err)
	}
	tgt := draftTarget("ctx", "", "rbac.authorization.k8s.io", "v1", "clusterroles", "ClusterRole", "viewer")
	path, err := s.Save(tgt, "5", []byte("rules: []\n"))
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(state, "kedit", "drafts", "ctx", "_cluster", "clusterroles.rbac.authorization.k8s.io", "viewer.yaml"); path != want {
		t.Fatalf("path = %s, want %s", path, want)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("draft mode = %o, want 600", fi.Mode().Perm())
	}
	for dir := filepath.Dir(path); dir != state; dir = filepath.Dir(dir) {
		fi, err := os.Stat(dir)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != 0o700 {
			t.Errorf("%s mode = %o, want 700", dir, fi.Mode().Perm())
		}
	}
	if fi, _ := os.Stat(state); fi.Mode().Perm() != 0o755 {
		t.Errorf("XDG_STATE_HOME mode changed to %o", fi.Mode().Perm())
	}
}

func TestDraftAtomicWriteLeavesNoTempFiles(t *testing.T) {
	s, _ := newTestDraftStore(t, false)
	tgt := configMapTarget("c", "ns", "many")
	for i := range 20 {
		if _, err := s.Save(tgt, "1", bytes.Repeat([]byte("x"), i*1000)); err != nil {
			t.Fatal(err)
		}
	}
	entries, err := os.ReadDir(filepath.Dir(s.Path(tgt)))
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 || entries[0].Name() != "many.yaml" {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Fatalf("directory holds %v, want only many.yaml", names)
	}

	// A save that cannot rename (the target path is a directory) fails
	// and still leaves no temporary file behind.
	blocked := configMapTarget("c", "ns", "blocked")
	if err := os.MkdirAll(filepath.Join(s.Path(blocked), "child"), 0o700); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Save(blocked, "1", []byte("x")); err == nil {
		t.Fatal("Save over a directory succeeded")
	}
	entries, _ = os.ReadDir(filepath.Dir(s.Path(tgt)))
	for _, e := range entries {
		if strings.Contains(e.Name(), ".tmp-") {
			t.Errorf("temporary file left behind: %s", e.Name())
		}
	}
}

func TestDraftPathSanitizing(t *testing.T) {
	s, state := newTestDraftStore(t, false)
	root := filepath.Join(state, "kedit", "drafts")
	cases := []*Target{
		configMapTarget("../../../../etc", "ns", "x"),
		configMapTarget("..", "..", ".."),
		configMapTarget(".", "ns", "."),
		configMapTarget("arn:aws:eks:eu-west-1:1234:cluster/prod", "ns", "x"),
		configMapTarget("a/../../b", "ns", "x"),
		configMapTarget("", "ns", "x"),
		configMapTarget("_cluster", "_cluster", "x"),
		configMapTarget("with\nnewline\x00nul", "ns", "x"),
		configMapTarget("ctx", "ns", strings.Repeat("a", 253)),
		draftTarget("ctx", "ns", "../..", "v1", "../../..", "Evil", "x"),
	}
	seen := map[string]bool{}
	for _, tgt := range cases {
		path := s.Path(tgt)
		rel, err := filepath.Rel(root, path)
		if err != nil || outside(rel) {
			t.Errorf("%q/%q/%q escapes the store: %s", tgt.Context, tgt.Namespace, tgt.Name, path)
			continue
		}
		if parts := strings.Split(rel, string(filepath.Separator)); len(parts) != 4 {
			t.Errorf("%q: path %s has %d components below the store, want 4", tgt.Context, rel, len(parts))
		}
		for _, part := range strings.Split(rel, string(filepath.Separator)) {
			if len(part) > 255 {
				t.Errorf("component of %d bytes: %s", len(part), part)
			}
		}
		if seen[path] {
			t.Errorf("two targets share %s", path)
		}
		seen[path] = true
		if _, err := s.Save(tgt, "1", []byte("x")); err != nil {
			t.Errorf("Save %q: %v", tgt.Context, err)
		}
	}
	// Nothing was written outside the store.
	err := filepath.WalkDir(state, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if rel, _ := filepath.Rel(root, path); outside(rel) && path != state && path != filepath.Dir(root) {
			t.Errorf("written outside the store: %s", path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// The placeholders for "no context" and "cluster-scoped" cannot be
	// forged by a context or namespace of that name.
	forged := s.Path(configMapTarget("_nocontext", "_cluster", "x"))
	if rel, _ := filepath.Rel(root, forged); !strings.HasPrefix(rel, filepath.Join("%5Fnocontext", "%5Fcluster")) {
		t.Errorf("placeholder names not escaped: %s", rel)
	}
}

// outside reports whether a path relative to a directory leaves it.
func outside(rel string) bool {
	return rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

func TestDraftList(t *testing.T) {
	s, _ := newTestDraftStore(t, false)
	if got, err := s.List(); err != nil || len(got) != 0 {
		t.Fatalf("List of an empty store = %v, %v", got, err)
	}
	a := configMapTarget("arn:aws:eks:x:cluster/prod", "team-a", "settings")
	b := draftTarget("", "", "apiextensions.k8s.io", "v1", "customresourcedefinitions", "CustomResourceDefinition", "widgets.example.com")
	for _, tgt := range []*Target{a, b} {
		if _, err := s.Save(tgt, "1", []byte("x")); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.List()
	if err != nil {
		t.Fatal(err)
	}
	want := map[DraftEntry]bool{
		{Context: a.Context, Namespace: "team-a", Resource: "configmaps", Name: "settings", Path: s.Path(a)}:                                   true,
		{Context: "", Namespace: "", Resource: "customresourcedefinitions.apiextensions.k8s.io", Name: "widgets.example.com", Path: s.Path(b)}: true,
	}
	if len(got) != len(want) {
		t.Fatalf("List = %+v", got)
	}
	for _, e := range got {
		if !want[e] {
			t.Errorf("unexpected entry %+v", e)
		}
	}
}

func TestDraftSecretRefusedWithoutOption(t *testing.T) {
	const secretValue = "c3VwZXItc2VjcmV0LXZhbHVl" // base64 of a password
	secret := draftTarget("ctx", "ns", "", "v1", "secrets", "Secret", "db")
	text := []byte("apiVersion: v1\nkind: Secret\ndata:\n  password: " + secretValue + "\n")

	s, state := newTestDraftStore(t, false)
	_, err := s.Save(secret, "7", text)
	var sde *SecretDraftError
	if !errors.As(err, &sde) {
		t.Fatalf("Save of a Secret = %v, want *SecretDraftError", err)
	}
	if strings.Contains(err.Error(), secretValue) || strings.Contains(err.Error(), "password") {
		t.Errorf("error reveals the Secret's contents: %v", err)
	}
	if !strings.Contains(err.Error(), "secrets/db") || !strings.Contains(err.Error(), "memory only") {
		t.Errorf("error does not say what happened: %v", err)
	}
	_ = filepath.WalkDir(state, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			t.Errorf("file written for a refused Secret draft: %s", path)
		}
		return nil
	})

	// A resource merely named like a Secret in another group is no Secret.
	other := draftTarget("ctx", "ns", "example.com", "v1", "secrets", "Secret", "db")
	if _, err := s.Save(other, "7", []byte("x")); err != nil {
		t.Errorf("Save of secrets.example.com: %v", err)
	}

	s.AllowSecrets = true
	if _, err := s.Save(secret, "7", text); err != nil {
		t.Fatalf("Save with --allow-secret-drafts: %v", err)
	}
	d, ok, err := s.Load(secret)
	if err != nil || !ok || !bytes.Equal(d.Text, text) {
		t.Fatalf("Load = %v, %v", ok, err)
	}
}

func TestDraftDirFallsBackToHome(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_STATE_HOME", "")
	dir, err := DefaultDraftDir()
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(home, ".local", "state", "kedit", "drafts"); dir != want {
		t.Fatalf("DefaultDraftDir = %s, want %s", dir, want)
	}
	// A relative XDG_STATE_HOME is invalid by the specification.
	t.Setenv("XDG_STATE_HOME", "relative/state")
	if dir2, _ := DefaultDraftDir(); dir2 != dir {
		t.Fatalf("with a relative XDG_STATE_HOME: %s, want %s", dir2, dir)
	}
	s, err := NewDraftStore(false)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Save(configMapTarget("c", "ns", "x"), "1", []byte("x")); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(home, ".local", "state", "kedit", "drafts", "c", "ns", "configmaps", "x.yaml")); err != nil {
		t.Fatal(err)
	}
}

func TestEscapeComponentRoundTrip(t *testing.T) {
	for _, s := range []string{"", ".", "..", "...", "a.b", "_x", "%", "a/b", "ü", "kind-dev", "x~y"} {
		e := escapeComponent(s)
		if strings.ContainsAny(e, "/\\") || e == "." || e == ".." || strings.HasPrefix(e, "_") {
			t.Errorf("escapeComponent(%q) = %q", s, e)
		}
		got, ok := unescapeComponent(e)
		if !ok || got != s {
			t.Errorf("unescape(escape(%q)) = %q, %v", s, got, ok)
		}
	}
}
