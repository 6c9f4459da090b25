package main

import (
	"os"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

// TestREADMEListsRootFlags keeps the README's section on kedit itself
// true: every flag of the root command in its table.
func TestREADMEListsRootFlags(t *testing.T) {
	section := readmeSection(t, "### `kedit [flags] [TYPE]`")
	checkREADMEFlags(t, "kedit", section, newRootCmd().LocalNonPersistentFlags())
}

// readmeSection is the README's section under heading, up to the next of
// its level.
func readmeSection(t *testing.T, heading string) string {
	t.Helper()
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	start := strings.Index(readme, heading)
	if start < 0 {
		t.Fatalf("README has no section %q", heading)
	}
	section := readme[start:]
	if end := strings.Index(section[4:], "\n### "); end >= 0 {
		section = section[:end+4]
	}
	return section
}

// checkREADMEFlags fails for each flag of fs (but --help) that section,
// the README's on command, does not list in backquotes, long and short.
func checkREADMEFlags(t *testing.T, command, section string, fs *pflag.FlagSet) {
	t.Helper()
	fs.VisitAll(func(f *pflag.Flag) {
		if f.Name == "help" {
			return
		}
		if !strings.Contains(section, "`--"+f.Name) {
			t.Errorf("README's section on %s does not list --%s", command, f.Name)
		}
		if f.Shorthand != "" && !strings.Contains(section, "`-"+f.Shorthand+"`") {
			t.Errorf("README's section on %s does not list -%s", command, f.Shorthand)
		}
	})
}

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
