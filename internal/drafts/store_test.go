package drafts

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// draftKey names an object as kube.DraftKey does; an empty ns makes it
// cluster-scoped.
func draftKey(ctx, ns, resource, name string) Key {
	return Key{Context: ctx, Server: "https://cluster-a.example:6443", Namespace: ns, ClusterScoped: ns == "", Resource: resource, Name: name}
}

func configMapKey(ctx, ns, name string) Key { return draftKey(ctx, ns, "configmaps", name) }

// testSecretText stands in for the Secret encoding kube gives (values
// base64-encoded): the stored form is the text with every "value" word
// replaced, and back.
var testSecretText = SecretText{
	Store: func(text string) string {
		return strings.ReplaceAll(text, "super-secret-value", "c3VwZXItc2VjcmV0LXZhbHVl")
	},
	Load: func(stored string) (string, error) {
		if strings.Contains(stored, "[") {
			return "", errors.New("not a Secret")
		}
		return strings.ReplaceAll(stored, "c3VwZXItc2VjcmV0LXZhbHVl", "super-secret-value"), nil
	},
}

func secretKey(name string) Key {
	k := draftKey("ctx", "ns", "secrets", name)
	k.Secret = &testSecretText
	return k
}

// newTestDraftStore points XDG_STATE_HOME at a temporary directory, as a
// user's environment would, and returns the default store there.
func newTestDraftStore(t *testing.T, allowSecrets bool) (*Store, string) {
	t.Helper()
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	s, err := NewStore(allowSecrets)
	if err != nil {
		t.Fatal(err)
	}
	return s, state
}

// open opens k's drafts as one kedit would, and closes them at the end.
func open(t *testing.T, s *Store, k Key, uid string) *Object {
	t.Helper()
	o := s.Open(k, uid)
	t.Cleanup(o.Close)
	return o
}

// crash lets go of o's locks as a killed kedit does: the kernel releases
// them, and the lock files stay behind.
func (o *Object) crash() {
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, f := range o.held {
		f.Close()
	}
	o.held = map[string]*os.File{}
}

func mustWrite(t *testing.T, o *Object, seq uint64, rv, text string) string {
	t.Helper()
	path, err := o.Write(seq, rv, []byte(text), nil)
	if err != nil {
		t.Fatal(err)
	}
	return path
}

func TestDraftRoundTripByteForByte(t *testing.T) {
	s, state := newTestDraftStore(t, false)
	fixed := time.Date(2026, 11, 22, 4, 1, 3, 5, time.UTC)
	s.now = func() time.Time { return fixed }
	tgt := configMapKey("kind-dev", "team-a", "settings")

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
			o := open(t, s, tgt, "uid-1")
			path, err := o.Write(1, "812", text, nil)
			if err != nil {
				t.Fatal(err)
			}
			want := filepath.Join(state, "kedit", "drafts", "kind-dev", "team-a", "configmaps", "settings.yaml")
			if path != want || s.Path(tgt) != want {
				t.Fatalf("path = %s, want %s", path, want)
			}
			o.Close()
			// The next kedit on the object finds it.
			next := open(t, s, tgt, "uid-1")
			stored := next.Stored()
			if len(stored) != 1 {
				t.Fatalf("%d stored drafts, want 1", len(stored))
			}
			d := stored[0]
			if !bytes.Equal(d.Text, text) {
				t.Errorf("text = %q, want %q", d.Text, text)
			}
			if d.BaseResourceVersion != "812" || !d.SavedAt.Equal(fixed) || d.Path != want || d.UID != "uid-1" || d.Server != tgt.Server {
				t.Errorf("draft = rv %q saved %v path %s uid %s server %s", d.BaseResourceVersion, d.SavedAt, d.Path, d.UID, d.Server)
			}
			// The file stays a readable YAML file: a comment header, then the text.
			raw, _ := os.ReadFile(path)
			if !strings.HasPrefix(string(raw), "# kedit draft: configmaps/settings, namespace \"team-a\", context \"kind-dev\"\n# base resourceVersion: 812\n") {
				t.Errorf("file starts:\n%s", raw)
			}
			if !bytes.HasSuffix(raw, text) {
				t.Errorf("file does not end with the draft text verbatim")
			}
			if _, err := next.Discard(d.Path); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestDraftOfOlderKeditIsRead: a draft written before the cluster and uid
// were recorded is still read, and offered.
func TestDraftOfOlderKeditIsRead(t *testing.T) {
	s, _ := newTestDraftStore(t, false)
	tgt := configMapKey("c", "ns", "old")
	path := s.Path(tgt)
	if err := s.mkdirPrivate(filepath.Dir(path)); err != nil {
		t.Fatal(err)
	}
	old := "# kedit draft: configmaps/old, namespace \"ns\", context \"c\"\n# base resourceVersion: 7\n# saved at: 2026-01-02T03:04:05Z\n" + draftTextFollows + "\ndata: {}\n"
	if err := os.WriteFile(path, []byte(old), 0o600); err != nil {
		t.Fatal(err)
	}
	stored := open(t, s, tgt, "u").Stored()
	if len(stored) != 1 || string(stored[0].Text) != "data: {}\n" || stored[0].BaseResourceVersion != "7" || stored[0].Server != "" {
		t.Fatalf("stored = %+v", stored)
	}
}

func TestDraftHeaderSurvivesOddNames(t *testing.T) {
	s, _ := newTestDraftStore(t, false)
	tgt := configMapKey("ctx\n# base resourceVersion: 1", "ns\r\n", "two\nlines\x1b[2J")
	tgt.Server = "https://x\n# uid: forged"
	text := []byte("data: {}\n")
	o := open(t, s, tgt, "u\n# base resourceVersion: 9")
	path := mustWrite(t, o, 1, "42", string(text))
	d, err := Read(path)
	if err != nil || d.BaseResourceVersion != "42" || !bytes.Equal(d.Text, text) || d.Server != tgt.Server {
		t.Fatalf("Read = %+v, %v", d, err)
	}
	raw, _ := os.ReadFile(path)
	if bytes.Contains(raw, []byte("\x1b")) {
		t.Error("a terminal escape reached the draft file's header")
	}
	if _, err := o.Write(2, "4\n2", text, nil); err == nil {
		t.Error("a resourceVersion with a line break was written into the header")
	}
}

// TestForeignFileIsLeftAlone: a file at a draft's name that kedit did not
// write is never offered nor written over.
func TestForeignFileIsLeftAlone(t *testing.T) {
	s, _ := newTestDraftStore(t, false)
	tgt := configMapKey("c", "ns", "foreign")
	path := s.Path(tgt)
	if err := s.mkdirPrivate(filepath.Dir(path)); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("apiVersion: v1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	o := open(t, s, tgt, "u")
	if len(o.Stored()) != 0 || len(o.Warnings()) != 1 || !strings.Contains(o.Warnings()[0].Error(), "not a kedit draft") {
		t.Fatalf("stored %v, warnings %v", o.Stored(), o.Warnings())
	}
	if mine := mustWrite(t, o, 1, "1", "x: 1\n"); mine == path {
		t.Fatal("the draft was written over the foreign file")
	}
	if b, _ := os.ReadFile(path); string(b) != "apiVersion: v1\n" {
		t.Errorf("the foreign file changed: %q", b)
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
	tgt := draftKey("ctx", "", "clusterroles.rbac.authorization.k8s.io", "viewer")
	path := mustWrite(t, open(t, s, tgt, "u"), 1, "5", "rules: []\n")
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
	tgt := configMapKey("c", "ns", "many")
	o := open(t, s, tgt, "u")
	for i := range 20 {
		mustWrite(t, o, uint64(i+1), "1", strings.Repeat("x", i*1000))
	}
	entries, err := os.ReadDir(filepath.Dir(s.Path(tgt)))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if strings.Join(names, " ") != "many.yaml many.yaml.lock" {
		t.Fatalf("directory holds %v, want only many.yaml and its lock", names)
	}
	o.Close()
	if _, err := os.Stat(s.Path(tgt) + lockExt); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the lock file stays after Close: %v", err)
	}
}

func TestDraftPathSanitizing(t *testing.T) {
	s, state := newTestDraftStore(t, false)
	root := filepath.Join(state, "kedit", "drafts")
	cases := []Key{
		configMapKey("../../../../etc", "ns", "x"),
		configMapKey("..", "..", ".."),
		configMapKey(".", "ns", "."),
		configMapKey("arn:aws:eks:eu-west-1:1234:cluster/prod", "ns", "x"),
		configMapKey("a/../../b", "ns", "x"),
		configMapKey("", "ns", "x"),
		configMapKey("_cluster", "_cluster", "x"),
		configMapKey("with\nnewline\x00nul", "ns", "x"),
		configMapKey("ctx", "ns", strings.Repeat("a", 253)),
		draftKey("ctx", "ns", "../../.../..", "x"),
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
		if _, err := open(t, s, tgt, "u").Write(1, "1", []byte("x"), nil); err != nil {
			t.Errorf("Write %q: %v", tgt.Context, err)
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
	forged := s.Path(configMapKey("_nocontext", "_cluster", "x"))
	if rel, _ := filepath.Rel(root, forged); !strings.HasPrefix(rel, filepath.Join("%5Fnocontext", "%5Fcluster")) {
		t.Errorf("placeholder names not escaped: %s", rel)
	}
}

// outside reports whether a path relative to a directory leaves it.
func outside(rel string) bool {
	return rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

func TestDraftSecretRefusedWithoutOption(t *testing.T) {
	const secretValue = "c3VwZXItc2VjcmV0LXZhbHVl" // base64 of a password
	secret := secretKey("db")
	text := []byte("apiVersion: v1\nkind: Secret\ndata:\n  password: " + secretValue + "\n")

	s, state := newTestDraftStore(t, false)
	o := open(t, s, secret, "u")
	if !o.MemoryOnly() {
		t.Error("a Secret's drafts are not memory only")
	}
	_, err := o.Write(1, "7", text, nil)
	var sde *SecretError
	if !errors.As(err, &sde) {
		t.Fatalf("Write of a Secret = %v, want *SecretError", err)
	}
	if strings.Contains(err.Error(), secretValue) || strings.Contains(err.Error(), "password") {
		t.Errorf("error reveals the Secret's contents: %v", err)
	}
	if !strings.Contains(err.Error(), "secrets/db") || !strings.Contains(err.Error(), "memory only") {
		t.Errorf("error does not say what happened: %v", err)
	}
	_ = filepath.WalkDir(state, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && !strings.HasSuffix(path, lockExt) {
			t.Errorf("file written for a refused Secret draft: %s", path)
		}
		return nil
	})
	o.Close()

	s.AllowSecrets = true
	o = open(t, s, secret, "u")
	// The draft text is decoded, as the user edits it; the file holds the
	// value base64-encoded, as the API server does.
	path, err := o.Write(1, "7", []byte("apiVersion: v1\nkind: Secret\ndata:\n  password: super-secret-value\n"), nil)
	if err != nil {
		t.Fatalf("Write with --allow-secret-drafts: %v", err)
	}
	d, err := Read(path)
	if err != nil || !bytes.Contains(d.Text, []byte("password: "+secretValue)) || bytes.Contains(d.Text, []byte("super-secret-value")) {
		t.Fatalf("Read = %v, %q", err, d.Text)
	}
}

func TestDraftDirFallsBackToHome(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_STATE_HOME", "")
	dir, err := DefaultDir()
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(home, ".local", "state", "kedit", "drafts"); dir != want {
		t.Fatalf("DefaultDir = %s, want %s", dir, want)
	}
	// A relative XDG_STATE_HOME is invalid by the specification.
	t.Setenv("XDG_STATE_HOME", "relative/state")
	if dir2, _ := DefaultDir(); dir2 != dir {
		t.Fatalf("with a relative XDG_STATE_HOME: %s, want %s", dir2, dir)
	}
	s, err := NewStore(false)
	if err != nil {
		t.Fatal(err)
	}
	mustWrite(t, open(t, s, configMapKey("c", "ns", "x"), "u"), 1, "1", "x")
	if _, err := os.Stat(filepath.Join(home, ".local", "state", "kedit", "drafts", "c", "ns", "configmaps", "x.yaml")); err != nil {
		t.Fatal(err)
	}
}

func TestEscapeComponentRoundTrip(t *testing.T) {
	for _, s := range []string{"", ".", "..", "...", "a.b", "_x", "%", "a/b", "ü", "kind-dev", "x~y"} {
		e := escapeComponent(s)
		if strings.ContainsAny(e, "/\\_") || e == "." || e == ".." {
			t.Errorf("escapeComponent(%q) = %q", s, e)
		}
		got, ok := unescapeComponent(e)
		if !ok || got != s {
			t.Errorf("unescape(escape(%q)) = %q, %v", s, got, ok)
		}
	}
}

func TestSlotOf(t *testing.T) {
	for _, tc := range []struct {
		file string
		n    int
		kind string
	}{
		{"web.yaml", 1, draftExt},
		{"web_2.yaml", 2, draftExt},
		{"web_12.yaml.base.json", 12, baseExt},
		{"web.yaml.lock", 1, lockExt},
		{"web_3.yaml.lock", 3, lockExt},
		{"web_1.yaml", 0, ""},
		{"web_02.yaml", 0, ""},
		{"webx.yaml", 0, ""},
		{"web.yaml.20261122T040103Z.kept", 0, ""},
		{".web.yaml.tmp-123", 0, ""},
	} {
		if n, kind := slotOf(tc.file, "web"); n != tc.n || kind != tc.kind {
			t.Errorf("slotOf(%q) = %d %q, want %d %q", tc.file, n, kind, tc.n, tc.kind)
		}
	}
}
