package ui

import (
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// secretMask stands for a Secret's value wherever kedit shows a version of
// a Secret on its own initiative (the timeline's diffs, the preview): the
// keys show, the values do not; R reveals them where the user asks.
const secretMask = "••••"

// maskSecret returns a copy of obj, a Secret, with every value of data and
// stringData replaced by secretMask; nil stays nil. Two versions masked
// alike differ only in their keys, so a diff of them names the keys added
// or removed and never shows a value.
func maskSecret(obj *unstructured.Unstructured) *unstructured.Unstructured {
	if obj == nil {
		return nil
	}
	c := obj.DeepCopy()
	for _, field := range []string{"data", "stringData"} {
		m, ok := c.Object[field].(map[string]any)
		if !ok {
			continue
		}
		for k := range m {
			m[k] = secretMask
		}
	}
	// kubectl's last-applied annotation holds the whole object, values
	// and all.
	if ann := c.GetAnnotations(); ann != nil {
		if _, ok := ann[lastApplied]; ok {
			ann[lastApplied] = secretMask
			c.SetAnnotations(ann)
		}
	}
	return c
}

// lastApplied is the annotation kubectl apply keeps the applied object in.
const lastApplied = "kubectl.kubernetes.io/last-applied-configuration"
