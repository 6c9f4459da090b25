package main

import (
	"strings"
	"testing"
)

// TestEditFlagsNeedATerminal: -o, --subresource, --field-manager and
// --output-patch without a terminal on stdout exit 2 naming the flags,
// before anything is read; a value they do not take exits 1 naming it.
func TestEditFlagsNeedATerminal(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"-o", "json", "cm/x"}, 2, "kedit: --output: stdout is not a terminal"},
		{[]string{"--subresource", "scale", "--field-manager", "ops", "deploy/web"}, 2, "--subresource, --field-manager: stdout is not a terminal"},
		{[]string{"--output-patch", "cm"}, 2, "--output-patch: stdout is not a terminal"},
		{[]string{"-o", "xml", "cm/x"}, 1, `kedit: -o: unknown output format "xml": use yaml or json`},
		{[]string{"--subresource", "spec", "cm/x"}, 1, `kedit: --subresource: unknown subresource "spec": kedit edits status or scale`},
		{[]string{"--field-manager", "", "cm/x"}, 1, "kedit: --field-manager: give a name"},
		{[]string{"--field-manager", "ops\x1b[2Jteam", "cm/x"}, 1, `kedit: --field-manager "ops\x1b[2Jteam": the API server takes printable ASCII only`},
		{[]string{"--field-manager", strings.Repeat("m", 129), "cm/x"}, 1, "129 characters; the API server takes at most 128"},
	} {
		stdout, stderr, code := runKedit(t, tc.args...)
		if code != tc.code || !strings.Contains(stderr, tc.want) || stdout != "" {
			t.Errorf("%q: exit %d, stderr %q, stdout %q; want %d and %q", tc.args, code, stderr, stdout, tc.code, tc.want)
		}
	}
}
