package kube

import (
	"errors"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
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
