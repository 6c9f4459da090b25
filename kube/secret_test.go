package kube

import (
	"bytes"
	"encoding/base64"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/kedit/kedit/model"
)

func secretTarget(name string) *Target {
	return draftTarget("ctx", "ns", "", "v1", "secrets", "Secret", name)
}

// TestSecretRefusalsNeverRepeatValues: a 422 about a Secret that repeats a
// value (field.Invalid quotes it) reaches kedit with the field named and
// the value hidden, in the error and in every cause; a ConfigMap's is left
// as the server wrote it.
func TestSecretRefusalsNeverRepeatValues(t *testing.T) {
	refusal := func(kind string) error {
		return apierrors.NewInvalid(schema.GroupKind{Kind: kind}, "db", field.ErrorList{
			field.Invalid(field.NewPath("data").Key("password"), "hunter2-string", "must be shorter"),
			field.Invalid(field.NewPath("data").Key("token"), []byte("hunter2-bytes"), "must be valid"),
			field.Required(field.NewPath("data").Key("tls.crt"), ""),
		})
	}
	err := classify(secretTarget("db"), "update", refusal("Secret"))
	var ie *InvalidError
	if !errors.As(err, &ie) || len(ie.Causes) != 3 {
		t.Fatalf("classify = %#v, want an *InvalidError with 3 causes", err)
	}
	all := []string{err.Error(), serverMessage(ie.Err), ie.Err.Error()}
	for _, c := range model.CausesOf(err) {
		all = append(all, c.Field+" "+c.Message)
	}
	for _, s := range all {
		if strings.Contains(s, "hunter2") || strings.Contains(s, "aHVudGVyMi") || strings.Contains(s, "104, 117") {
			t.Errorf("a value is repeated: %s", s)
		}
	}
	if !strings.Contains(err.Error(), "data[password]: Invalid value: "+hiddenValue+": must be shorter") || !strings.Contains(serverMessage(ie.Err), `"db"`) {
		t.Errorf("the field or the object is not named: %v / %s", err, serverMessage(ie.Err))
	}
	if !apierrors.IsInvalid(ie.Err) {
		t.Error("the redacted error is no longer a 422")
	}

	// Anything else the server says about a Secret, too.
	err = classify(secretTarget("db"), "update", apierrors.NewBadRequest(`Secret "db" cannot be handled: value "hunter2" is wrong`))
	if strings.Contains(err.Error(), "hunter2") {
		t.Errorf("a bad request repeats the value: %v", err)
	}

	err = classify(configMapTarget("ctx", "ns", "db"), "update", refusal("ConfigMap"))
	if !strings.Contains(err.Error(), `"hunter2-string"`) {
		t.Errorf("a ConfigMap's refusal lost its value: %v", err)
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
	o := s.Open(tgt, "u")
	path, err := o.Write(1, "7", []byte(text), obj)
	if err != nil {
		t.Fatal(err)
	}
	o.crash()
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
	got := stored[0].Stored().Text
	if !strings.HasPrefix(got, model.SecretHeader) || !strings.Contains(got, "  password: |\n    plain-hunter3\n") {
		t.Errorf("the recovered text:\n%s", got)
	}

	// A file where a Secret's draft should be that kedit did not write
	// so is left alone and said, without its contents.
	if err := os.WriteFile(path, append([]byte(nil), []byte("# kedit draft: x\n# base resourceVersion: 7\n# saved at: 2026-01-01T00:00:00Z\n"+draftTextFollows+"\nplain-hunter4: [\n")...), 0o600); err != nil {
		t.Fatal(err)
	}
	again.Close()
	third := open(t, s, tgt, "u")
	if w := third.Warnings(); len(w) != 1 || strings.Contains(w[0].Error(), "hunter4") || len(third.Stored()) != 0 {
		t.Errorf("warnings %v, stored %d", w, len(third.Stored()))
	}
}
