package kube

import (
	"bytes"
	"encoding/base64"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kedit/kedit/internal/drafts"
	"github.com/kedit/kedit/model"
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
		Server:    "https://cluster-a.example:6443",
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
func newTestDraftStore(t *testing.T, allowSecrets bool) (*drafts.Store, string) {
	t.Helper()
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	s, err := drafts.NewStore(allowSecrets)
	if err != nil {
		t.Fatal(err)
	}
	return s, state
}

// open opens tgt's drafts as one kedit would, and closes them at the end.
func open(t *testing.T, s *drafts.Store, tgt *Target, uid string) *drafts.Object {
	t.Helper()
	o := s.Open(DraftKey(tgt), uid)
	t.Cleanup(o.Close)
	return o
}

// TestDraftKey: the store files an object by its cluster, namespace,
// resource.group and name; a Secret's drafts are the store's to keep in
// memory, and a resource merely named like a Secret in another group is
// no Secret.
func TestDraftKey(t *testing.T) {
	k := DraftKey(draftTarget("ctx", "ns", "apps", "v1", "deployments", "Deployment", "web"))
	want := drafts.Key{Context: "ctx", Server: "https://cluster-a.example:6443", Namespace: "ns", Resource: "deployments.apps", Name: "web"}
	if k != want {
		t.Errorf("DraftKey = %+v, want %+v", k, want)
	}
	if k := DraftKey(draftTarget("ctx", "", "rbac.authorization.k8s.io", "v1", "clusterroles", "ClusterRole", "view")); !k.ClusterScoped || k.Resource != "clusterroles.rbac.authorization.k8s.io" {
		t.Errorf("a cluster-scoped object: %+v", k)
	}
	if DraftKey(secretTarget("db")).Secret == nil {
		t.Error("a Secret's key does not say so")
	}
	if k := DraftKey(draftTarget("ctx", "ns", "example.com", "v1", "secrets", "Secret", "db")); k.Secret != nil {
		t.Error("secrets.example.com is taken for a Secret")
	}
}

// TestStoredDraftHandsOnItsBase: a stored draft goes back to the session
// with its base when the base is the version the draft was based on, and
// without it otherwise (a base an older kedit kept from an earlier write,
// one that does not decode).
func TestStoredDraftHandsOnItsBase(t *testing.T) {
	base := []byte(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","resourceVersion":"7","uid":"u"},"data":{"n":1}}`)
	d := &drafts.Draft{Text: []byte("data: {}\n"), BaseResourceVersion: "7", UID: "u", BaseJSON: base}
	sd := StoredDraft(d)
	if sd.Text != "data: {}\n" || sd.BaseResourceVersion != "7" || sd.UID != "u" || sd.Base == nil {
		t.Fatalf("StoredDraft = %+v", sd)
	}
	if n, _, _ := unstructured.NestedInt64(sd.Base.Object, "data", "n"); n != 1 {
		t.Errorf("the base's numbers are not decoded as the API machinery does: %#v", sd.Base.Object["data"])
	}
	d.BaseResourceVersion = "8"
	if StoredDraft(d).Base != nil {
		t.Error("a base older than the draft's was handed on")
	}
	d.BaseResourceVersion, d.BaseJSON = "7", []byte("{")
	if StoredDraft(d).Base != nil {
		t.Error("a base that does not decode was handed on")
	}
}

// TestSecretDraftIsStoredEncoded: with --allow-secret-drafts a Secret's
// draft file is 0600 and holds the values base64-encoded, never the
// decoded text; the next kedit offers the draft decoded again.
func TestSecretDraftIsStoredEncoded(t *testing.T) {
	s, state := newTestDraftStore(t, true)
	tgt := secretTarget("db")
	obj := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "v1", "kind": "Secret",
		"metadata": map[string]any{"name": "db", "namespace": "ns", "resourceVersion": "7"},
		"data": map[string]any{
			"password": base64.StdEncoding.EncodeToString([]byte("plain-hunter2\n")),
			"keystore": base64.StdEncoding.EncodeToString([]byte{0, 1, 0xff}),
		},
	}}
	text, err := model.RenderYAML(obj)
	if err != nil {
		t.Fatal(err)
	}
	text = strings.Replace(text, "plain-hunter2", "plain-hunter3", 1)
	o := s.Open(DraftKey(tgt), "u")
	path, err := o.Write(1, "7", []byte(text), obj.Object)
	if err != nil {
		t.Fatal(err)
	}
	o.Close()
	_ = filepath.WalkDir(state, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, _ := os.ReadFile(p)
		if bytes.Contains(b, []byte("plain-hunter")) {
			t.Errorf("%s holds a plaintext value:\n%s", p, b)
		}
		if fi, _ := d.Info(); fi.Mode().Perm() != 0o600 {
			t.Errorf("%s is %v", p, fi.Mode().Perm())
		}
		return nil
	})
	if b, _ := os.ReadFile(path); !bytes.Contains(b, []byte(base64.StdEncoding.EncodeToString([]byte("plain-hunter3\n")))) {
		t.Errorf("the draft file does not hold the value base64-encoded:\n%s", b)
	}

	again := open(t, s, tgt, "u")
	stored := again.Stored()
	if len(stored) != 1 {
		t.Fatalf("stored drafts: %v", stored)
	}
	got := StoredDraft(stored[0]).Text
	if !strings.HasPrefix(got, model.SecretHeader) || !strings.Contains(got, "  password: |\n    plain-hunter3\n") {
		t.Errorf("the recovered text:\n%s", got)
	}

	// A file where a Secret's draft should be that kedit did not write
	// so is left alone and said, without its contents.
	if err := os.WriteFile(path, append([]byte(nil), []byte("# kedit draft: x\n# base resourceVersion: 7\n# saved at: 2026-01-01T00:00:00Z\n# The draft text follows this header line byte for byte.\nplain-hunter4: [\n")...), 0o600); err != nil {
		t.Fatal(err)
	}
	again.Close()
	third := open(t, s, tgt, "u")
	if w := third.Warnings(); len(w) != 1 || strings.Contains(w[0].Error(), "hunter4") || len(third.Stored()) != 0 {
		t.Errorf("warnings %v, stored %d", w, len(third.Stored()))
	}
}

// TestDraftFormatAndSubresourceKeptApart: a JSON draft is stored with its
// format and comes back as the session's StoredDraft in it; a
// subresource's drafts are filed apart from the object's, and the store's
// listing names the subresource.
func TestDraftFormatAndSubresourceKeptApart(t *testing.T) {
	s, _ := newTestDraftStore(t, false)
	obj := draftTarget("ctx", "ns", "apps", "v1", "deployments", "Deployment", "web")
	scale := draftTarget("ctx", "ns", "apps", "v1", "deployments", "Deployment", "web")
	scale.Subresource = SubresourceScale
	if s.Path(DraftKey(obj)) == s.Path(DraftKey(scale)) {
		t.Fatalf("the object and its scale share the draft file %s", s.Path(DraftKey(obj)))
	}
	o := open(t, s, scale, "u")
	text := "{\n    \"spec\": {\n        \"replicas\": 5\n    }\n}\n"
	if err := WriteDraft(o, model.WriteDraft{Text: text, Format: model.FormatJSON, BaseResourceVersion: "7", Seq: 1}); err != nil {
		t.Fatal(err)
	}
	o.Close()
	if stored := open(t, s, obj, "u").Stored(); len(stored) != 0 {
		t.Errorf("the object is offered its scale's draft: %v", stored)
	}
	stored := open(t, s, scale, "u").Stored()
	if len(stored) != 1 {
		t.Fatalf("stored drafts of the scale: %v", stored)
	}
	sd := StoredDraft(stored[0])
	if sd.Format != model.FormatJSON || sd.Text != text {
		t.Errorf("StoredDraft = %+v, want the JSON text in JSON", sd)
	}
	list, err := s.List()
	if err != nil || len(list) != 1 || list[0].Resource != "deployments.apps" || list[0].Subresource != "scale" || list[0].Name != "web" {
		t.Errorf("List = %+v, %v", list, err)
	}
}
