package model

import (
	"errors"
	"testing"
)

// TestYAMLErrorNamesTheLineKubectlNames: a draft that does not parse is
// refused on the line the parser stopped on, the one kubectl edit names:
// an unclosed flow on its own line, a key out of its block on its line.
func TestYAMLErrorNamesTheLineKubectlNames(t *testing.T) {
	for _, tc := range []struct {
		text string
		line int
	}{
		{"apiVersion: v1\nkind: ConfigMap\ndata:\n  foo: [unclosed\nmetadata:\n  name: x\n", 4},
		{"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\ndata:\n  foo: [unclosed\n", 6},
		{"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\ndata:\n  foo: [unclosed", 6},
		{"apiVersion: v1\nkind: ConfigMap\ndata: {x: [y\n", 3},
		{"apiVersion: v1\nkind: ConfigMap\nb:\n  - x\n y: 2\nc: 3\n", 5},
	} {
		_, err := FormatYAML.parse(tc.text)
		var de *DraftError
		if !errors.As(err, &de) || de.Line != tc.line {
			t.Errorf("%q: %v, want line %d", tc.text, err, tc.line)
		}
	}
}
