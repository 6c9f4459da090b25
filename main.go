// Command kedit is a terminal UI for conflict-safe editing of live
// Kubernetes objects: it saves with the object's resourceVersion and, when
// someone else changed the object meanwhile, shows base, theirs and mine and
// lets the user decide.
//
// This file holds the cobra commands: flags and wiring only.
package main

import (
	"errors"
	"fmt"
	"os"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// version is kedit's version, set at build time with
// -ldflags "-X main.version=v1.2.3"; without it the module version from the
// build info is used (right for `go install ...@vX`).
var version = ""

// exitError carries an exit status out of a command without printing
// anything more: the command has already said what went wrong.
type exitError struct{ code int }

func (e *exitError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

func newRootCmd() *cobra.Command {
	root := &cobra.Command{
		Use:           "kedit",
		Short:         "Conflict-safe editing of live Kubernetes objects",
		Long:          "kedit edits a live Kubernetes object and saves it with its resourceVersion.\nWhen someone else changed the object meanwhile it shows base, theirs and mine,\nmerges what does not collide and lets you resolve each real conflict.",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.AddCommand(newVersionCmd())
	return root
}

func newVersionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print kedit's version and the client-go version it was built with",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			kv, cv := buildVersions()
			fmt.Fprintf(cmd.OutOrStdout(), "kedit %s\nclient-go %s\n", kv, cv)
			return nil
		},
	}
}

// buildVersions reads kedit's and client-go's versions from the build info.
func buildVersions() (kedit, clientGo string) {
	kedit, clientGo = version, "unknown"
	info, ok := debug.ReadBuildInfo()
	if !ok {
		if kedit == "" {
			kedit = "(devel)"
		}
		return kedit, clientGo
	}
	if kedit == "" {
		kedit = info.Main.Version
	}
	for _, dep := range info.Deps {
		if dep.Path == "k8s.io/client-go" {
			clientGo = dep.Version
			if dep.Replace != nil {
				clientGo = dep.Replace.Version
			}
		}
	}
	if kedit == "" {
		kedit = "(devel)"
	}
	return kedit, clientGo
}

func main() {
	if err := newRootCmd().Execute(); err != nil {
		var ee *exitError
		if errors.As(err, &ee) {
			os.Exit(ee.code)
		}
		fmt.Fprintln(os.Stderr, "kedit:", err)
		os.Exit(2)
	}
}
