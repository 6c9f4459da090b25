package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"os"

	"github.com/spf13/cobra"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"

	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/kube"
)

// Exit statuses of kedit set, the conditional patch (kube.SendConditionalPatch).
const (
	condPatchExitError           = 1
	condPatchExitConditionFailed = 3
)

// newConditionalPatchCmd takes the root's connection flags, which it reads as
// persistent flags.
func newConditionalPatchCmd(flags *kube.ConnFlags) *cobra.Command {
	var ifs, ifAbsent []string
	var dryRun, outputPatch bool
	var fieldManager, validate, debug string
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

--field-manager NAME sends the patch under NAME instead of kedit, as
kedit's own --field-manager does.

--validate strict|warn|ignore is what the server does with a field it does
not know, as kubectl's: refuse the patch (strict, the default), take it
without the field and warn (each warning on stderr), or take it without the
field silently.

--dry-run sends the same patch with dryRun=All: the server checks the
conditions, validates and admits the result, and stores nothing. kedit prints
the value the server would store at each PATH, one per line, in order.

--output-patch prints the request sent on stderr: its method and path, the
JSON Patch as sent (a Secret's values masked) and the answer's status.
--debug[=FILE] writes every request to FILE, as kedit's own --debug does:
method, path, the resourceVersion sent and returned, the status and the time
taken; and whether discovery was read from kubectl's cache (then none of its
requests is sent).

Exit status: 0 applied (prints the new resourceVersion; with --dry-run, the
values); 3 a condition does not hold (prints the current value; the object is
unchanged); 1 any other error. A Secret's values are never printed.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			fail := func(code int, err error) error {
				fmt.Fprintln(cmd.ErrOrStderr(), "kedit set:", escape.String(err.Error()))
				return &exitError{code}
			}
			typ, name, rest, err := kube.SplitObjectArgs(args)
			if err != nil {
				return fail(condPatchExitError, err)
			}
			var assignments []kube.Assignment
			for _, a := range rest {
				as, err := kube.ParseAssignment(a)
				if err != nil {
					return fail(condPatchExitError, err)
				}
				assignments = append(assignments, as)
			}
			var conditions []kube.Condition
			for _, c := range ifs {
				cond, err := kube.ParseCondition(c)
				if err != nil {
					return fail(condPatchExitError, fmt.Errorf("--if: %w", err))
				}
				conditions = append(conditions, cond)
			}
			for _, p := range ifAbsent {
				cond, err := kube.AbsentCondition(p)
				if err != nil {
					return fail(condPatchExitError, fmt.Errorf("--if-absent: %w", err))
				}
				conditions = append(conditions, cond)
			}
			if _, err := kube.ConditionalPatch(assignments, conditions); err != nil {
				return fail(condPatchExitError, err)
			}
			manager, err := parseFieldManager(fieldManager)
			if err != nil {
				return fail(condPatchExitError, err)
			}
			validation, err := kube.ParseValidation(validate)
			if err != nil {
				return fail(condPatchExitError, fmt.Errorf("--validate: %w", err))
			}
			requests, closeLog, err := setRequestLog(flags, debug, cmd.ErrOrStderr())
			if err != nil {
				return fail(condPatchExitError, fmt.Errorf("--debug: %w", err))
			}
			defer closeLog()
			if outputPatch {
				defer printPatchRequests(cmd.ErrOrStderr(), requests)
			}
			target, err := kube.Resolve(flags, typ, name)
			if err != nil {
				return fail(condPatchExitError, err)
			}
			dc, err := flags.ToRESTConfig()
			if err != nil {
				return fail(condPatchExitError, err)
			}
			dc = kube.CollectWarnings(dc, func(w string) {
				fmt.Fprintln(cmd.ErrOrStderr(), "kedit set: the server warned:", escape.String(w))
			})
			client, err := dynamic.NewForConfig(dc)
			if err != nil {
				return fail(condPatchExitError, err)
			}
			var rv string
			var values []kube.PatchedValue
			if dryRun {
				values, rv, err = kube.DryRunConditionalPatch(cmd.Context(), client, target, manager, validation, assignments, conditions)
			} else {
				rv, err = kube.SendConditionalPatch(cmd.Context(), client, target, manager, validation, assignments, conditions)
			}
			var failed *kube.ConditionFailedError
			switch {
			case errors.As(err, &failed):
				fmt.Fprintln(cmd.OutOrStdout(), shownValue(failed.Current, failed.Hidden))
				return fail(condPatchExitConditionFailed, err)
			case err != nil:
				return fail(condPatchExitError, err)
			}
			if !dryRun {
				fmt.Fprintln(cmd.OutOrStdout(), escape.String(rv))
				return nil
			}
			for _, v := range values {
				fmt.Fprintln(cmd.OutOrStdout(), shownValue(v.Value, v.Hidden))
			}
			fmt.Fprintf(cmd.ErrOrStderr(), "kedit set: dry run against rv %s: nothing was changed\n", escape.String(rv))
			return nil
		},
	}
	cmd.Flags().StringArrayVar(&ifs, "if", nil, "apply only if PATH equals VALUE (PATH=VALUE or PATH:=JSON); repeatable")
	cmd.Flags().StringArrayVar(&ifAbsent, "if-absent", nil, "apply only if PATH does not exist; repeatable")
	cmd.Flags().StringVar(&fieldManager, "field-manager", kube.FieldManager, "the field manager of the patch, as kedit's own --field-manager")
	cmd.Flags().StringVar(&validate, "validate", string(kube.ValidationStrict), "what the server does with an unknown or duplicate field: strict refuses the patch, warn takes it and warns, ignore takes it silently")
	cmd.Flags().BoolVar(&dryRun, "dry-run", false, "send the patch with dryRun=All and print the value the server would store at each PATH; nothing is changed")
	cmd.Flags().BoolVar(&outputPatch, "output-patch", false, "print the request sent (method, path, the JSON Patch, a Secret's values masked, and the answer's status) on stderr")
	cmd.Flags().StringVar(&debug, "debug", "", "write every request to `FILE` (kedit-debug.log when given without a value), as kedit's --debug does")
	cmd.Flags().Lookup("debug").NoOptDefVal = "kedit-debug.log"
	return cmd
}

// setRequestLog keeps every request kedit set sends (the flags' REST
// configs logged), and with debug writes each to that file as kedit's
// --debug does, with the line that says whether discovery is read from
// kubectl's cache. A debug file that is stderr (--debug=/dev/stderr) is
// written through stderr itself, so that its lines and --output-patch's
// come in the order they were written (a file of its own, opened again,
// would write at its own offset over stderr's). closeLog closes the file.
func setRequestLog(flags *kube.ConnFlags, debug string, stderr io.Writer) (requests *kube.RequestLog, closeLog func(), err error) {
	closeLog = func() {}
	var logf func(string, ...any)
	if debug != "" {
		var w io.Writer = stderr
		if !sameFileAs(debug, stderr) {
			f, err := os.OpenFile(debug, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
			if err != nil {
				return nil, nil, err
			}
			closeLog = func() { _ = f.Close() }
			w = f
		}
		// The prefix and flags of kedit's own (tea.LogToFile).
		logf = log.New(w, "kedit ", log.LstdFlags).Printf
		flags.Debugf = logf
	}
	requests = kube.NewRequestLog(logf)
	wrap := flags.WrapConfigFn
	flags.WrapConfigFn = func(c *rest.Config) *rest.Config {
		if wrap != nil {
			c = wrap(c)
		}
		return kube.LogRequests(c, requests)
	}
	return requests, closeLog, nil
}

// sameFileAs reports whether path names the file w writes to, when w is
// a file.
func sameFileAs(path string, w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	a, err := os.Stat(path)
	if err != nil {
		return false
	}
	b, err := f.Stat()
	return err == nil && os.SameFile(a, b)
}

// printPatchRequests prints the patches requests holds (--output-patch),
// as kedit's --output-patch prints a save's: what was sent, and the
// answer.
func printPatchRequests(w io.Writer, requests *kube.RequestLog) {
	n := 0
	for _, r := range requests.Rows() {
		if r.Method != http.MethodPatch {
			continue
		}
		if n > 0 {
			fmt.Fprintln(w)
		}
		n++
		fmt.Fprint(w, kube.WriteRequest{Method: r.Method, Path: r.Path, ContentType: r.ContentType, Body: r.RequestBody, Status: r.Status, Err: r.Err}.String())
	}
	if n == 0 {
		fmt.Fprintln(w, "kedit set: --output-patch: no patch was sent")
	}
}

// shownValue is how kedit set prints a value from the server: <absent>
// when there is none, never a Secret's, else as currentValue.
func shownValue(v json.RawMessage, hidden bool) string {
	switch {
	case v == nil:
		return "<absent>"
	case hidden:
		return "<hidden: Secret value>"
	}
	return currentValue(v)
}

// currentValue prints a JSON string as its text, any other value as JSON.
// Control characters are escaped: the value comes from the server.
func currentValue(v json.RawMessage) string {
	var s string
	if json.Unmarshal(v, &s) == nil {
		return escape.String(s)
	}
	return escape.String(string(v))
}
