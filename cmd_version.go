package main

import (
	"fmt"
	"runtime/debug"

	"github.com/spf13/cobra"
)

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
