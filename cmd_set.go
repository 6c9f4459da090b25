package main

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/client-go/dynamic"

	"github.com/kedit/kedit/kube"
)

// Exit statuses of kedit set.
const (
	setExitError           = 1
	setExitConditionFailed = 3
)

// newSetCmd takes the root's connection flags, which it reads as
// persistent flags.
func newSetCmd(flags *genericclioptions.ConfigFlags) *cobra.Command {
	var ifs, ifAbsent []string
	cmd := &cobra.Command{
		Use:   "set TYPE/NAME PATH=VALUE... [--if PATH=VALUE]... [--if-absent PATH]...",
		Short: "Set fields atomically, only if conditions hold (one JSON Patch request)",
		Long: `set changes fields of one object in ONE JSON Patch request: a test op for each
condition, then an add op for each PATH=VALUE. The API server applies it
atomically, so there is no read-modify-write race: "set foo to 2, but only if
foo is still 1" is

  kedit set configmap/testmap /data/foo=2 --if /data/foo=1

PATH is a JSON pointer (/data/foo; ~1 stands for a / inside a key, ~0 for ~).
PATH=VALUE takes VALUE as a string; PATH:=JSON takes any JSON value
(/spec/replicas:=3).

Exit status: 0 applied (prints the new resourceVersion); 3 a condition does
not hold (prints the current value; the object is unchanged); 1 any other error.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			fail := func(code int, err error) error {
				fmt.Fprintln(cmd.ErrOrStderr(), "kedit set:", err)
				return &exitError{code}
			}
			typ, name, rest, err := kube.SplitObjectArgs(args)
			if err != nil {
				return fail(setExitError, err)
			}
			var assignments []kube.Assignment
			for _, a := range rest {
				as, err := kube.ParseAssignment(a)
				if err != nil {
					return fail(setExitError, err)
				}
				assignments = append(assignments, as)
			}
			var conditions []kube.Condition
			for _, c := range ifs {
				cond, err := kube.ParseCondition(c)
				if err != nil {
					return fail(setExitError, fmt.Errorf("--if: %w", err))
				}
				conditions = append(conditions, cond)
			}
			for _, p := range ifAbsent {
				cond, err := kube.AbsentCondition(p)
				if err != nil {
					return fail(setExitError, fmt.Errorf("--if-absent: %w", err))
				}
				conditions = append(conditions, cond)
			}
			if _, err := kube.ConditionalPatch(assignments, conditions); err != nil {
				return fail(setExitError, err)
			}
			target, err := kube.Resolve(flags, typ, name)
			if err != nil {
				return fail(setExitError, err)
			}
			dc, err := flags.ToRESTConfig()
			if err != nil {
				return fail(setExitError, err)
			}
			client, err := dynamic.NewForConfig(dc)
			if err != nil {
				return fail(setExitError, err)
			}
			rv, err := kube.ConditionalSet(cmd.Context(), client, target, assignments, conditions)
			var failed *kube.ConditionFailedError
			switch {
			case errors.As(err, &failed):
				switch {
				case failed.Current == nil:
					fmt.Fprintln(cmd.OutOrStdout(), "<absent>")
				case failed.Hidden:
					fmt.Fprintln(cmd.OutOrStdout(), "<hidden: Secret value>")
				default:
					fmt.Fprintln(cmd.OutOrStdout(), currentValue(failed.Current))
				}
				return fail(setExitConditionFailed, err)
			case err != nil:
				return fail(setExitError, err)
			}
			fmt.Fprintln(cmd.OutOrStdout(), rv)
			return nil
		},
	}
	cmd.Flags().StringArrayVar(&ifs, "if", nil, "apply only if PATH equals VALUE (PATH=VALUE or PATH:=JSON); repeatable")
	cmd.Flags().StringArrayVar(&ifAbsent, "if-absent", nil, "apply only if PATH does not exist; repeatable")
	return cmd
}

// currentValue prints a JSON string as its text, any other value as JSON.
// Control characters are escaped: the value comes from the server.
func currentValue(v json.RawMessage) string {
	var s string
	if json.Unmarshal(v, &s) == nil {
		return kube.EscapeControl(s)
	}
	return kube.EscapeControl(string(v))
}
