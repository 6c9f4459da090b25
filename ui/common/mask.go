package common

import (
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kedit/kedit/diff"
)

// SecretMask stands for a Secret's value (diff.SecretMask): R reveals
// the values where the user asks.
const SecretMask = diff.SecretMask

// MaskSecret returns a copy of obj, a Secret, with every value of data and
// stringData replaced by SecretMask (diff.MaskSecretValues); nil stays
// nil.
func MaskSecret(obj *unstructured.Unstructured) *unstructured.Unstructured {
	if obj == nil {
		return nil
	}
	c := obj.DeepCopy()
	diff.MaskSecretValues(c.Object)
	return c
}

// LastApplied is the annotation kubectl apply keeps the applied object in.
const LastApplied = diff.LastApplied
