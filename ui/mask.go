package ui

import (
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kedit/kedit/diff"
)

// secretMask stands for a Secret's value (diff.SecretMask): R reveals
// the values where the user asks.
const secretMask = diff.SecretMask

// maskSecret returns a copy of obj, a Secret, with every value of data and
// stringData replaced by secretMask (diff.MaskSecretValues); nil stays
// nil.
func maskSecret(obj *unstructured.Unstructured) *unstructured.Unstructured {
	if obj == nil {
		return nil
	}
	c := obj.DeepCopy()
	diff.MaskSecretValues(c.Object)
	return c
}

// lastApplied is the annotation kubectl apply keeps the applied object in.
const lastApplied = diff.LastApplied
