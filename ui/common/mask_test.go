package common

import (
	"strings"
	"testing"

	"github.com/kedit/kedit/diff"
)

// TestMaskSecretLines: every value's lines are masked, the keys, a
// binary value's mark and the lines' count stay.
func TestMaskSecretLines(t *testing.T) {
	in := strings.Join([]string{
		"# header",
		"apiVersion: v1",
		"data:",
		"  a: hunter2",
		`  "1": "hunter2"`,
		"  block: |",
		"    hunter2",
		"",
		"    hunter2",
		"  bin: AAEC " + diff.BinaryComment,
		"  ? " + strings.Repeat("k", 130),
		"  : hunter2",
		"  # a comment",
		"kind: Secret",
		"metadata:",
		"  annotations:",
		"    " + LastApplied + ": |",
		`      {"data":{"a":"aHVudGVyMg=="}}`,
		"    other: shown",
		"  name: db",
		"stringData: {s: hunter2}",
		"type: Opaque",
	}, "\n")
	want := strings.Join([]string{
		"# header",
		"apiVersion: v1",
		"data:",
		"  a: ••••",
		`  "1": ••••`,
		"  block: ••••",
		"    ••••",
		"",
		"    ••••",
		"  bin: •••• " + diff.BinaryComment,
		"  ? " + strings.Repeat("k", 130),
		"  : ••••",
		"  # a comment",
		"kind: Secret",
		"metadata:",
		"  annotations:",
		"    " + LastApplied + ": ••••",
		"      ••••",
		"    other: shown",
		"  name: db",
		"stringData: ••••",
		"type: Opaque",
	}, "\n")
	if got := strings.Join(MaskSecretLines(in), "\n"); got != want {
		t.Errorf("masked:\n%s\nwant:\n%s", got, want)
	}
}
