package main

import (
	"os"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

// TestREADMEListsEveryFlag keeps the README's command sections true: every
// flag of kedit and of each subcommand is in that command's section (the
// kubectl connection flags, shared by all, in the root's row of them).
func TestREADMEListsEveryFlag(t *testing.T) {
	root := newRootCmd()
	checkREADMEFlags(t, root.CommandPath(), readmeSection(t, "### `kedit [flags] [TYPE]`"), root.LocalNonPersistentFlags())
	for _, sub := range root.Commands() {
		if sub.Name() == "help" || sub.Name() == "completion" {
			continue
		}
		checkREADMEFlags(t, sub.CommandPath(), readmeSection(t, "### `kedit "+sub.Name()), sub.LocalNonPersistentFlags())
	}
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
			t.Errorf("README's section of %q does not list --%s", command, f.Name)
		}
		if f.Shorthand != "" && !strings.Contains(section, "`-"+f.Shorthand) {
			t.Errorf("README's section of %q does not list -%s", command, f.Shorthand)
		}
	})
}
