package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

// TestREADMEListsEveryFlag keeps the README's command sections true: every
// flag of kedit and of each subcommand is in that command's section (the
// kubectl connection flags, shared by all, in the root's row of them).
func TestREADMEListsEveryFlag(t *testing.T) {
	root := newRootCmd()
	checkREADMEFlags(t, root.CommandPath(), readmeSection(t, "`kedit [flags] [TYPE]`"), root.LocalNonPersistentFlags())
	for _, sub := range root.Commands() {
		if sub.Name() == "help" || sub.Name() == "completion" {
			continue
		}
		checkREADMEFlags(t, sub.CommandPath(), readmeSection(t, "`kedit "+sub.Name()), sub.LocalNonPersistentFlags())
	}
}

// readmeSection is the section of the reference (docs/*.md, where the
// README's front page links to) under the heading that starts with title,
// up to the next heading of its level.
func readmeSection(t *testing.T, title string) string {
	t.Helper()
	pages, err := filepath.Glob("docs/*.md")
	if err != nil || len(pages) == 0 {
		t.Fatalf("no reference pages in docs/: %v", err)
	}
	for _, p := range pages {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		m := regexp.MustCompile(`(?m)^(#+) ` + regexp.QuoteMeta(title)).FindStringIndex(string(b))
		if m == nil {
			continue
		}
		section := string(b)[m[0]:]
		level := "\n" + strings.SplitN(section, " ", 2)[0] + " "
		if end := strings.Index(section[len(level):], level); end >= 0 {
			section = section[:end+len(level)]
		}
		return section
	}
	t.Fatalf("no page of docs/ has a section %q", title)
	return ""
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
			t.Errorf("the reference's section of %q (docs/) does not list --%s", command, f.Name)
		}
		if f.Shorthand != "" && !strings.Contains(section, "`-"+f.Shorthand) {
			t.Errorf("the reference's section of %q (docs/) does not list -%s", command, f.Shorthand)
		}
	})
}
