package main

import (
	"os"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// TestREADMEListsEveryFlag keeps the README's command sections true: every
// flag of kedit and of each subcommand is in that command's section (the
// kubectl connection flags, shared by all, in the root's row of them).
func TestREADMEListsEveryFlag(t *testing.T) {
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	section := func(heading string) string {
		start := strings.Index(readme, heading)
		if start < 0 {
			t.Fatalf("README has no section %q", heading)
		}
		s := readme[start:]
		if end := strings.Index(s[4:], "\n### "); end >= 0 {
			s = s[:end+4]
		}
		return s
	}
	root := newRootCmd()
	check := func(cmd *cobra.Command, sec string) {
		cmd.LocalNonPersistentFlags().VisitAll(func(f *pflag.Flag) {
			if f.Name == "help" {
				return
			}
			if !strings.Contains(sec, "`--"+f.Name) {
				t.Errorf("README's section of %q does not list --%s", cmd.CommandPath(), f.Name)
			}
			if f.Shorthand != "" && !strings.Contains(sec, "`-"+f.Shorthand) {
				t.Errorf("README's section of %q does not list -%s", cmd.CommandPath(), f.Shorthand)
			}
		})
	}
	check(root, section("### `kedit [flags] [TYPE]`"))
	for _, sub := range root.Commands() {
		if sub.Name() == "help" || sub.Name() == "completion" {
			continue
		}
		check(sub, section("### `kedit "+sub.Name()))
	}
}
