package schemacheck

import "testing"

// TestFieldLine: a field named as the server's causes name it, or as a
// strict refusal is worded, is found on its line; a field the text does
// not have is on its nearest parent's.
func TestFieldLine(t *testing.T) {
	const text = `apiVersion: v1
kind: Pod
metadata:
  name: p
  labels:
    my.app: x
spec:
  containers:
  - name: a
    image: one
  - name: b
    ports:
    - containerPort: 70000
data:
  "bad key!": v
`
	for field, want := range map[string]int{
		"spec.containers[1].ports[0].containerPort": 13,
		`.spec.containers[name="b"].ports`:          12,
		"spec.containers[1].image":                  11,
		"spec.containers.ports.containerPort":       13,
		"metadata.labels[my.app]":                   6,
		"data[bad key!]":                            15,
		"spec.nothing":                              7,
		"":                                          1,
		"<nil>":                                     1,
	} {
		if got := FieldLine(text, field); got != want {
			t.Errorf("FieldLine(%q) = %d, want %d", field, got, want)
		}
	}
	if got := FieldLine("a: [", "a"); got != 1 {
		t.Errorf("a text that does not parse: %d, want 1", got)
	}
}
