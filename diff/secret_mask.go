package diff

// SecretMask stands for a Secret's value wherever kedit shows or records a
// version of a Secret on its own initiative (the timeline's diffs, the
// preview, --output-patch): the keys show, the values do not.
const SecretMask = "••••"

// LastApplied is the annotation kubectl apply keeps the applied object in:
// a Secret's values and all.
const LastApplied = "kubectl.kubernetes.io/last-applied-configuration"

// MaskSecretValues replaces, in obj (a Secret's content, or a patch of
// one), every value of data and stringData and kubectl's last-applied
// annotation by SecretMask, in place. Two versions masked alike differ
// only in their keys, so a diff of them names the keys added or removed
// and never shows a value.
func MaskSecretValues(obj map[string]any) {
	for _, field := range []string{"data", "stringData"} {
		m, ok := obj[field].(map[string]any)
		if !ok {
			continue
		}
		for k, v := range m {
			if v != nil {
				// A merge patch's null removes the key: no value.
				m[k] = SecretMask
			}
		}
	}
	md, _ := obj["metadata"].(map[string]any)
	ann, _ := md["annotations"].(map[string]any)
	if v, ok := ann[LastApplied]; ok && v != nil {
		ann[LastApplied] = SecretMask
	}
}
